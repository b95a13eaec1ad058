"""PDF/X: print files identify themselves (keys, output intent with an embedded CMYK profile, XMP, page
boxes), X-1a builds are PDF 1.4 with the X-1a keys, and preflight holds any file to what it claims."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageCms
from pypdf import PdfReader, PdfWriter
from pypdf.generic import NameObject
from reportlab.lib.colors import CMYKColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.build import BuildError, BuildOptions, build_game, load_checked
from generator.pdfdoc import new_canvas, register_font
from generator.pdfx import PROFILE
from generator.preflight import preflight
from validator.paths import DEFAULT_DECKS_DIR, FONTS_DIR

PRINT_FILES = ("cards.pdf", "cards-printshop.pdf", "score-sheet.pdf", "rulebook.pdf")


def _claims(path: Path) -> tuple[str, str, PdfReader]:
    reader = PdfReader(path)
    return str(reader.metadata.get("/GTS_PDFXVersion")), reader.pdf_header, reader


def test_the_profile_is_a_cmyk_output_profile() -> None:
    profile = ImageCms.getOpenProfile(str(PROFILE)).profile
    assert (profile.xcolor_space.strip(), profile.device_class) == ("CMYK", "prtr")
    assert "FOGRA39" in profile.profile_description
    assert (PROFILE.parent / "README.md").is_file()  # where it comes from and how to rebuild it


@pytest.mark.parametrize("name", PRINT_FILES)
def test_every_print_file_of_a_build_is_pdfx_4(gogyo_build: Path, name: str) -> None:
    version, header, reader = _claims(gogyo_build / name)
    assert (version, header) == ("PDF/X-4", "%PDF-1.6")
    root = reader.trailer["/Root"]
    [intent] = [i.get_object() for i in root["/OutputIntents"]]
    assert (intent["/S"], intent["/OutputConditionIdentifier"]) == ("/GTS_PDFX", "FOGRA39")
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == PROFILE.read_bytes()
    xmp = root["/Metadata"].get_object().get_data().decode()
    assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
    assert reader.metadata["/Trapped"] == "/False" and reader.metadata.title
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
    assert [f for f in preflight(gogyo_build / name, boxes=False, pdfx=True)] == []


def test_the_fillable_sheet_and_the_report_claim_nothing(gogyo_build: Path) -> None:
    """Form fields and RGB charts are for the screen: claiming PDF/X there would be false."""
    for name in ("score-sheet-fillable.pdf", "report.pdf"):
        assert "/GTS_PDFXVersion" not in PdfReader(gogyo_build / name).metadata
        assert any(f.what.startswith("not PDF/X") for f in preflight(gogyo_build / name, pdfx=True))


def test_sheet_boxes_frame_the_card_block_and_its_bleed(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "cards.pdf")
    page = reader.pages[0]
    trim = [float(v) / mm for v in page.trimbox]
    bleed = [float(v) / mm for v in page.bleedbox]
    # A4 poker: 3 × 63 + 2 × 2 mm gutters wide, 3 × 88 + 2 × 6 mm tall, centred; edge bleed 2 and 3 mm
    assert trim == pytest.approx([8.5, 10.5, 201.5, 286.5], abs=0.01)
    assert bleed == pytest.approx([6.5, 7.5, 203.5, 289.5], abs=0.01)


def test_an_x1a_build_is_pdf_14_with_the_x1a_keys(tmp_path: Path) -> None:
    """sengoku's cards hold no transparency: its X-1a files pass; gogyo's back stamp has an alpha
    channel, so its X-1a build fails, naming file and pages, and writes nothing."""
    result = build_game(load_checked("sengoku", DEFAULT_DECKS_DIR),
                        BuildOptions(output_dir=tmp_path, report=False, pdfx="x-1a", only=("cards",)))
    [printshop] = [f.path for f in result.files if f.name.endswith("cards-printshop.pdf")]
    version, header, reader = _claims(printshop)
    assert (version, header) == ("PDF/X-1:2003", "%PDF-1.4")
    assert reader.metadata["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
    assert preflight(printshop, pdfx=True) == []
    with pytest.raises(BuildError) as refused:
        build_game(load_checked("gogyo", DEFAULT_DECKS_DIR),
                   BuildOptions(output_dir=tmp_path, report=False, pdfx="x-1a", only=("cards",)))
    messages = [issue.message for issue in refused.value.issues]
    assert messages[0].startswith("gogyo/cards.pdf: page 2, 4, 6, 8, 10 … holds transparency")
    assert not (tmp_path / "gogyo").exists()


def _declared(path: Path, standard: str, *, alpha: float = 1.0) -> Path:
    canvas = new_canvas(path, (60 * mm, 60 * mm), register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf"),
                        title="test", pdfx=standard)
    canvas.setFillColor(CMYKColor(0, 0.5, 1, 0))
    if alpha < 1:
        canvas.setFillAlpha(alpha)
    canvas.rect(20 * mm, 20 * mm, 10 * mm, 10 * mm, fill=1, stroke=0)
    canvas.showPage()
    canvas.save()
    return path


def test_transparency_breaks_an_x1a_claim_but_not_an_x4_one(tmp_path: Path) -> None:
    x1a = _declared(tmp_path / "x1a.pdf", "x-1a", alpha=0.5)
    [finding] = preflight(x1a, boxes=False)
    assert finding.what == "transparency (PDF/X-1a allows none)" and finding.page == 1
    assert finding.at == pytest.approx((20, 20), abs=0.1)
    assert preflight(_declared(tmp_path / "x4.pdf", "x-4", alpha=0.5), boxes=False) == []


def test_a_broken_claim_is_reported_key_by_key(tmp_path: Path) -> None:
    good = _declared(tmp_path / "good.pdf", "x-4")
    writer = PdfWriter(clone_from=PdfReader(good))
    del writer._root_object[NameObject("/OutputIntents")]
    del writer._root_object[NameObject("/Metadata")]
    writer.add_metadata({"/Trapped": NameObject("/Unknown")})
    del writer.pages[0][NameObject("/TrimBox")]
    broken = tmp_path / "broken.pdf"
    writer.write(broken)
    whats = {f.what for f in preflight(broken, boxes=False)}
    assert "PDF/X needs one GTS_PDFX output intent (0 found)" in whats
    assert "PDF/X-4 needs XMP metadata naming pdfxid:GTS_PDFXVersion" in whats
    assert "PDF/X needs Trapped True or False" in whats
    assert "PDF/X needs a TrimBox or ArtBox on every page" in whats


def test_a_file_that_claims_nothing_passes_unless_pdfx_is_asked_for(tmp_path: Path) -> None:
    plain = tmp_path / "plain.pdf"
    canvas = Canvas(str(plain), pagesize=(60 * mm, 60 * mm), invariant=1,
                    initialFontName=register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf"))
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.rect(10, 10, 20, 20, fill=1)
    canvas.save()
    assert preflight(plain, boxes=False) == []
    assert [f.what for f in preflight(plain, boxes=False, pdfx=True)] == ["not PDF/X (no GTS_PDFXVersion)"]


def test_a_blending_state_that_paints_nothing_is_no_transparency(tmp_path: Path) -> None:
    path = tmp_path / "unused-alpha.pdf"
    canvas = new_canvas(path, (60 * mm, 60 * mm), register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf"),
                        title="test", pdfx="x-1a")
    canvas.setFillColor(CMYKColor(0, 0.5, 1, 0))
    canvas.rect(20 * mm, 20 * mm, 10 * mm, 10 * mm, fill=1, stroke=0)  # opaque
    canvas.setFillAlpha(0.5)  # set last, never used
    canvas.showPage()
    canvas.save()
    assert preflight(path, boxes=False) == []
