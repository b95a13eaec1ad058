"""`fudaya preflight`: what a print shop rejects, found in a prepared bad PDF with page and position, none
in a clean one (what fudaya writes for print is checked in test_shop_files.py, from a build of each game)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.actions import JavaScript
from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from generator.build import BuildOptions
from generator.cli import app
from generator.preflight import Finding, preflight
from validator.paths import FONTS_DIR

PAGE = (80 * mm, 100 * mm)
FONT = "PreflightGothic"


def _font() -> str:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, str(FONTS_DIR / "BIZUDGothic-Regular.ttf")))
    return FONT


def _boxes(path: Path, bleed_mm: float) -> None:
    """Give every page a TrimBox inset by `bleed_mm` and a BleedBox on the media edge."""
    writer = PdfWriter(clone_from=PdfReader(path))
    for page in writer.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        page.trimbox.lower_left = (bleed_mm * mm, bleed_mm * mm)
        page.trimbox.upper_right = (width - bleed_mm * mm, height - bleed_mm * mm)
        page.bleedbox.lower_left, page.bleedbox.upper_right = (0, 0), (width, height)
    writer.write(path)


@pytest.fixture(scope="module")
def clean_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("preflight") / "clean.pdf"
    canvas = Canvas(str(path), pagesize=PAGE, invariant=1, initialFontName=_font())
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.setStrokeColor(CMYKColor(0.2, 0.8, 0.7, 0.1))
    canvas.setLineWidth(0.5)
    canvas.rect(10 * mm, 10 * mm, 40 * mm, 20 * mm, fill=0)
    canvas.setFont(_font(), 8)
    canvas.drawString(10 * mm, 50 * mm, "五行 clean 8 pt")
    canvas.save()
    _boxes(path, 3)
    return path


@pytest.fixture(scope="module")
def bad_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One of each thing a shop rejects, each at a known place (mm from the lower left)."""
    folder = tmp_path_factory.mktemp("preflight")
    path = folder / "bad.pdf"
    tiny = folder / "tiny.png"
    Image.new("RGB", (10, 10), (200, 30, 30)).save(tiny)
    canvas = Canvas(str(path), pagesize=PAGE, invariant=1, initialFontName=_font())
    canvas.setFillColor(Color(1, 0, 0))                                   # RGB fill at 10,10
    canvas.rect(10 * mm, 10 * mm, 5 * mm, 5 * mm, fill=1, stroke=0)
    canvas.setFillColor(CMYKColorSep(0, 0.5, 1, 0, spotName="PANTONE 021 C"))  # spot at 20,10
    canvas.rect(20 * mm, 10 * mm, 5 * mm, 5 * mm, fill=1, stroke=0)
    canvas.setFillColor(CMYKColor(1, 1, 1, 0.9))                          # 390 % ink at 30,10
    canvas.rect(30 * mm, 10 * mm, 5 * mm, 5 * mm, fill=1, stroke=0)
    canvas.setStrokeColor(CMYKColor(0, 0, 0, 1))
    canvas.setLineWidth(0.1)                                              # 0.035 mm at 40,10
    canvas.line(40 * mm, 10 * mm, 50 * mm, 10 * mm)
    canvas.setFillColor(CMYKColor(0, 0, 0, 1))
    canvas.setFont(_font(), 4)                                            # 4 pt text at 10,30
    canvas.drawString(10 * mm, 30 * mm, "小さすぎる")
    canvas.setFont("Helvetica", 9)                                        # a font not embedded
    canvas.drawString(10 * mm, 40 * mm, "Helvetica")
    canvas.drawImage(str(tiny), 10 * mm, 60 * mm, 30 * mm, 30 * mm)       # 8 dpi, RGB, at 10,60
    canvas.save()
    writer = PdfWriter(clone_from=PdfReader(path))
    writer.add_open_action(JavaScript("app.alert('printed');"))
    writer.write(path)
    return path


def _kinds(findings: list[Finding]) -> dict[str, Finding]:
    return {re.sub(r"[\d.]+ ?(mm|pt|dpi|%)", "N", f.what).split(" (")[0]: f for f in findings}


def test_every_kind_of_problem_is_found_where_it_is(bad_pdf: Path) -> None:
    found = _kinds(preflight(bad_pdf))
    assert found["RGB fill colour 1 0 0"].at == pytest.approx((10, 10), abs=0.1)
    assert found["spot colour"].at == pytest.approx((20, 10), abs=0.1)
    assert found["total ink N"].what == "total ink 390% (over 300%)"
    assert found["total ink N"].at == pytest.approx((30, 10), abs=0.1)
    assert found["hairline N"].what == "hairline 0.035 mm (under 0.1 mm)"
    assert found["hairline N"].at == pytest.approx((40, 10), abs=0.1)
    assert found["text N"].what == "text 4.0 pt (under 5 pt)"
    assert found["text N"].at == pytest.approx((10, 30), abs=0.1)
    assert found["image at N"].what == "image at 8 dpi (under 300 dpi)"
    assert found["image at N"].at == pytest.approx((10, 60), abs=0.1)
    assert found["RGB image colour"].at == pytest.approx((10, 60), abs=0.1)
    assert found["font Helvetica not embedded"].page == 1
    assert found["no TrimBox"].page == 1 and "no BleedBox" in found
    assert found["JavaScript"].page == 0
    assert len(found) == 11


def test_a_clean_file_has_no_findings(clean_pdf: Path) -> None:
    assert preflight(clean_pdf) == []


def test_bleed_under_the_minimum_is_found_and_sheets_skip_boxes(tmp_path: Path, clean_pdf: Path) -> None:
    narrow = tmp_path / "narrow.pdf"
    narrow.write_bytes(clean_pdf.read_bytes())
    _boxes(narrow, 2)
    assert [f.line("narrow.pdf") for f in preflight(narrow)] == ["narrow.pdf: page 1: bleed 2.0 mm (under 3 mm)"]
    assert preflight(narrow, boxes=False) == []


def test_the_command_prints_one_line_per_finding_and_exits_1(bad_pdf: Path, clean_pdf: Path,
                                                            tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["preflight", str(bad_pdf)])
    assert bad.exit_code == 1
    lines = bad.output.splitlines()
    assert len(lines) == 11
    assert all(re.match(rf"^{re.escape(str(bad_pdf))}: (document|page 1)( at [\d.]+,[\d.]+ mm)?: \S", line)
               for line in lines), lines
    good = runner.invoke(app, ["preflight", str(clean_pdf)])
    assert (good.exit_code, good.output) == (0, f"{clean_pdf}: ok\n")
    junk = tmp_path / "junk.pdf"
    junk.write_text("not a pdf")
    broken = runner.invoke(app, ["preflight", str(junk)])
    assert broken.exit_code == 1 and broken.output.startswith(f"{junk}: document: not a readable PDF")


def test_the_build_preflights_its_files_in_parallel_and_prints_findings_in_file_order(
        bad_pdf: Path, clean_pdf: Path, tmp_path: Path) -> None:
    """Several files are checked at once (one process each); the warnings come out as if one by one. Each
    is held to the rules of its use as build.json records it, whatever its name: boxes for a print-shop
    file, none for a home sheet, nothing for an on-screen file."""
    from generator.deck_pdf import WrittenFile
    from generator.preflight import PARALLEL_PREFLIGHT_PAGES, check_print_files, preflight_print_file

    shop, home, screen = tmp_path / "a.pdf", tmp_path / "b-printshop.pdf", tmp_path / "c.pdf"
    for path in (shop, home, screen):
        path.write_bytes(bad_pdf.read_bytes())
    many = PARALLEL_PREFLIGHT_PAGES  # as build.json would record a large set: enough pages to fork for
    files = [WrittenFile(shop, "g/a.pdf", many, (1, 1), "shop"), WrittenFile(screen, "g/c.pdf", 1, (1, 1), "screen"),
             WrittenFile(home, "g/b-printshop.pdf", 1, (1, 1), "home"),
             WrittenFile(clean_pdf, "g/clean.pdf", 1, (1, 1), "shop")]
    checked = check_print_files(files, workers=3)
    assert checked == check_print_files(files, workers=1)
    # in file order, the on-screen file left out, each file's findings as one by one
    assert checked == [(f.path, preflight_print_file(f.path, f.use)) for f in files if f.use != "screen"]
    found = {path: {finding.what for finding in findings} for path, findings in checked}
    assert "no TrimBox (the shop cannot tell where to cut)" in found[shop]  # boxes: the print-shop file
    assert found[shop] - found[home] == {"no TrimBox (the shop cannot tell where to cut)", "no BleedBox"}
    assert found[clean_pdf] == {"not PDF/X (no GTS_PDFXVersion)"} and len(found[home]) > 5  # the build asks PDF/X


def test_a_small_set_of_print_files_is_preflighted_without_forking(clean_pdf: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Under PARALLEL_PREFLIGHT_PAGES pages, workers would cost more than they save: no process is started."""
    import os

    from generator.deck_pdf import WrittenFile
    from generator.preflight import PARALLEL_PREFLIGHT_PAGES, check_print_files, preflight_print_file

    def no_fork() -> int:
        raise AssertionError("a process was forked for a small set")

    monkeypatch.setattr(os, "fork", no_fork)
    files = [WrittenFile(clean_pdf, "g/clean.pdf", PARALLEL_PREFLIGHT_PAGES // 2 - 1, (1, 1), "shop"),
             WrittenFile(clean_pdf, "g/again.pdf", PARALLEL_PREFLIGHT_PAGES // 2, (1, 1), "home")]
    assert check_print_files(files, workers=4) == [(clean_pdf, preflight_print_file(clean_pdf, "shop")),
                                                   (clean_pdf, preflight_print_file(clean_pdf, "home"))]


def test_inline_images_and_forms_are_walked_where_they_are_drawn(tmp_path: Path) -> None:
    """Content is tokenised by qpdf with an operator filter: an inline image (BI…EI) and a form drawn
    on two pages (parsed once per file) must still be seen, each at its own place."""
    path = tmp_path / "forms.pdf"
    tile = Image.new("RGB", (300, 300), (10, 200, 30))
    canvas = Canvas(str(path), pagesize=PAGE, invariant=1, initialFontName=_font())
    canvas.beginForm("back")
    canvas.setFillColor(Color(0, 0, 1))                                  # RGB inside the form
    canvas.rect(0, 0, 5 * mm, 5 * mm, fill=1, stroke=0)
    canvas.endForm()
    for x_mm in (10, 30):
        canvas.saveState()
        canvas.translate(x_mm * mm, 20 * mm)
        canvas.doForm("back")
        canvas.restoreState()
        canvas.drawInlineImage(tile, x_mm * mm, 50 * mm, 25.4 * mm, 25.4 * mm)  # 300 dpi: colour only
        canvas.showPage()
    canvas.save()
    found = preflight(path, boxes=False)
    assert {(f.page, f.what) for f in found} == {(page, what) for page in (1, 2)
                                                 for what in ("RGB fill colour 0 0 1", "RGB inline image colour")}
    at = {(f.page, f.what): f.at for f in found}
    assert at[(1, "RGB fill colour 0 0 1")] == pytest.approx((10, 20), abs=0.1)
    assert at[(2, "RGB fill colour 0 0 1")] == pytest.approx((30, 20), abs=0.1)
    assert at[(2, "RGB inline image colour")] == pytest.approx((30, 50), abs=0.1)


def test_resources_and_boxes_inherited_from_the_page_tree_are_read(tmp_path: Path) -> None:
    """A page may take its /Resources and /MediaBox from its parent in the page tree (other tools
    write such files): the fonts and colours they hold are checked as if on the page."""
    content = b"1 0 0 rg 20 20 50 50 re f BT /F1 12 Tf 30 100 Td (inherited) Tj ET"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 200 200] "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    body, offsets = b"%PDF-1.4\n", []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    body += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path = tmp_path / "inherited.pdf"
    path.write_bytes(body)
    found = {f.what: f for f in preflight(path, boxes=False)}
    assert set(found) == {"RGB fill colour 1 0 0", "font Helvetica not embedded"}
    assert found["RGB fill colour 1 0 0"].at == pytest.approx((20 / 72 * 25.4, 20 / 72 * 25.4), abs=0.1)


def test_a_build_reports_its_print_files_findings_under_their_final_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build preflights inside its staging folder, once; the warnings name the files where they end up."""
    import generator.preflight as module
    from generator.build_many import build_one

    calls: list[Path] = []

    def one_finding(path: Path, pages: object = None) -> list[Finding]:
        calls.append(path)
        return [Finding(1, "test finding", (1.0, 2.0))]

    monkeypatch.setattr(module, "preflight_print_file", one_finding)
    outcome = build_one("gogyo", BuildOptions(output_dir=tmp_path, report=False))
    final = tmp_path / "gogyo"
    assert outcome.warnings == [f"warning: {final / name}: page 1 at 1.0,2.0 mm: test finding" for name in (
        "cards.pdf", "cards-printshop.pdf", "score-sheet.pdf", "rulebook.pdf", "rulebook-printshop.pdf",
        "rulebook-booklet.pdf")]  # not score-sheet-fillable.pdf: an on-screen file
    assert len(calls) == 6 and all(".staging-" in str(path) for path in calls)  # checked before the swap, once
