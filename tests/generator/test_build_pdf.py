"""The built gogyo PDFs, read back with pypdf: sizes, boxes, counts, duplex registration, fonts, bytes."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import BuildError, BuildOptions, build_game, load_checked
from validator.geometry import POINTS_PER_MM
from validator.paths import DEFAULT_DECKS_DIR

A4 = (210.0, 297.0)

# Every test here reads a build of the whole gogyo game (the session build, or one of its own).
pytestmark = pytest.mark.slow


def _mm(points: float) -> float:
    return float(points) / POINTS_PER_MM


def _box_mm(box: object) -> tuple[float, ...]:
    return tuple(round(_mm(v), 2) for v in box)  # type: ignore[attr-defined]


def test_manifest_lists_every_file_with_pages_and_size(gogyo_build: Path, gogyo_manifest: dict) -> None:
    files = {f["file"]: f for f in gogyo_manifest["files"]}
    # what each file is for, as the build's preflight reads it: no guessing from names
    assert {name: entry["use"] for name, entry in files.items()} == {
        "gogyo/cards.pdf": "home", "gogyo/cards-printshop.pdf": "shop", "gogyo/score-sheet.pdf": "home",
        "gogyo/score-sheet-fillable.pdf": "screen", "gogyo/rulebook.pdf": "home",
        "gogyo/rulebook-printshop.pdf": "shop", "gogyo/rulebook-booklet.pdf": "home", "gogyo/report.pdf": "screen"}
    assert set(gogyo_manifest["uses"]) == {"shop", "home", "screen"}
    assert files["gogyo/rulebook-printshop.pdf"]["page_size"] == [154.0, 216.0]  # A5 + 3 mm bleed
    assert files["gogyo/rulebook-booklet.pdf"]["page_size"] == [297.0, 210.0]  # A5 pages two-up on A4
    # 66 cards, 9 per A4 sheet -> 8 sheets, each a front page and a back page
    assert files["gogyo/cards.pdf"]["pages"] == 16
    assert files["gogyo/cards.pdf"]["page_size"] == [210.0, 297.0]
    assert files["gogyo/cards-printshop.pdf"]["pages"] == 132
    assert files["gogyo/cards-printshop.pdf"]["page_size"] == [69.0, 94.0]
    for name, entry in files.items():
        reader = PdfReader(gogyo_build.parent / name)
        assert len(reader.pages) == entry["pages"]
        for page in reader.pages:
            size = (round(_mm(page.mediabox.width), 2), round(_mm(page.mediabox.height), 2))
            assert size == tuple(entry["page_size"])


def test_every_card_placed_once_per_side_per_file(gogyo_manifest: dict) -> None:
    for name in ("gogyo/cards.pdf", "gogyo/cards-printshop.pdf"):
        placed = [p for p in gogyo_manifest["placements"] if p["file"] == name]
        for side in ("front", "back"):
            counts = Counter(p["card"] for p in placed if p["side"] == side)
            assert sum(counts.values()) == 66
            assert counts["ten"] == 3 and counts["batsu"] == 3
            assert len([c for c in counts if c not in ("ten", "batsu")]) == 60
        assert all((p["width"], p["height"]) == (63.0, 88.0) for p in placed)


def test_duplex_backs_coincide_with_fronts_after_flip(gogyo_manifest: dict) -> None:
    placed = [p for p in gogyo_manifest["placements"] if p["file"] == "gogyo/cards.pdf"]
    fronts = {(p["card"], p["copy"]): p for p in placed if p["side"] == "front"}
    backs = {(p["card"], p["copy"]): p for p in placed if p["side"] == "back"}
    assert fronts.keys() == backs.keys()
    for key, front in fronts.items():
        back = backs[key]
        assert back["page"] == front["page"] + 1  # the back is printed on the reverse of its front's sheet
        assert front["page"] % 2 == 1
        flipped_x = A4[0] - back["x"] - back["width"]  # long-edge flip mirrors x
        assert flipped_x == pytest.approx(front["x"], abs=0.01)
        assert back["y"] == pytest.approx(front["y"], abs=0.01)


def test_sheet_cards_do_not_overlap_and_stay_on_paper(gogyo_manifest: dict) -> None:
    by_page: dict[int, list[dict]] = {}
    for p in gogyo_manifest["placements"]:
        if p["file"] == "gogyo/cards.pdf":
            by_page.setdefault(p["page"], []).append(p)
    assert sorted(by_page) == list(range(1, 17))
    for cards in by_page.values():
        assert len(cards) <= 9
        for n, a in enumerate(cards):
            assert 0 < a["x"] and a["x"] + a["width"] < A4[0]
            assert 0 < a["y"] and a["y"] + a["height"] < A4[1]
            for b in cards[n + 1:]:
                apart = (a["x"] + a["width"] <= b["x"] + 0.01 or b["x"] + b["width"] <= a["x"] + 0.01
                         or a["y"] + a["height"] <= b["y"] + 0.01 or b["y"] + b["height"] <= a["y"] + 0.01)
                assert apart


def test_printshop_pages_have_trim_and_bleed_boxes(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "cards-printshop.pdf")
    for page in reader.pages:
        assert _box_mm(page.trimbox) == (3.0, 3.0, 66.0, 91.0)
        assert _box_mm(page.bleedbox) == (0.0, 0.0, 69.0, 94.0)
        assert _box_mm(page.mediabox) == (0.0, 0.0, 69.0, 94.0)


def test_printshop_front_shows_its_card(gogyo_build: Path, gogyo_manifest: dict) -> None:
    reader = PdfReader(gogyo_build / "cards-printshop.pdf")
    first = next(p for p in gogyo_manifest["placements"]
                 if p["file"] == "gogyo/cards-printshop.pdf" and p["card"] == "tang-fire" and p["side"] == "front")
    text = reader.pages[first["page"] - 1].extract_text()
    assert "唐" in text and "8" in text and "火" in text


def _fonts(reader: PdfReader) -> dict[str, object]:
    found = {}
    for page in reader.pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font", {}) if resources else {}
        for ref in fonts.values():
            font = ref.get_object()
            found[str(font["/BaseFont"])] = font
    return found


@pytest.mark.parametrize("name", ["cards.pdf", "cards-printshop.pdf", "score-sheet.pdf", "rulebook.pdf",
                                  "report.pdf"])
def test_every_font_is_an_embedded_truetype_subset(gogyo_build: Path, name: str) -> None:
    fonts = _fonts(PdfReader(gogyo_build / name))
    assert fonts, "no fonts found"
    for base_name, font in fonts.items():
        assert "Helvetica" not in base_name
        assert font["/Subtype"] == "/TrueType"
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, f"{base_name} is not embedded"
        assert base_name[7] == "+", f"{base_name} is not a subset"


def test_same_input_same_bytes(tmp_path: Path, gogyo_build: Path) -> None:
    build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=tmp_path, workers=1))
    for name in sorted(p.name for p in gogyo_build.iterdir()):  # whatever the worker count: same bytes
        assert (tmp_path / "gogyo" / name).read_bytes() == (gogyo_build / name).read_bytes(), name


def test_no_partial_files_left(gogyo_build: Path) -> None:
    assert sorted(p.name for p in gogyo_build.iterdir()) == [
        "build.json", "cards-printshop.pdf", "cards.pdf", "report.json", "report.pdf", "rulebook-booklet.pdf",
        "rulebook-printshop.pdf", "rulebook.pdf", "score-sheet-fillable.pdf", "score-sheet.pdf"]


@pytest.mark.parametrize(("paper", "pages", "size"), [("letter", 16, [215.9, 279.4]), ("a3", 10, [297.0, 420.0])])
def test_other_papers(tmp_path: Path, paper: str, pages: int, size: list[float]) -> None:
    options = BuildOptions(output_dir=tmp_path, paper=paper, marks="western", mode="sheets", report=False)
    result = build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), options)
    cards = [(f.name, f.pages, list(f.page_size)) for f in result.files if "cards" in f.name]
    assert cards == [("gogyo/cards.pdf", pages, size)]
    assert not (tmp_path / "gogyo" / "cards-printshop.pdf").exists()


def test_proof_mode_writes_separate_files(tmp_path: Path) -> None:
    result = build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=tmp_path, proof=True))
    assert sorted(f.name for f in result.files) == [
        "gogyo/cards-printshop-proof.pdf", "gogyo/cards-proof.pdf", "gogyo/rulebook-booklet-proof.pdf",
        "gogyo/rulebook-printshop-proof.pdf", "gogyo/rulebook-proof.pdf", "gogyo/score-sheet-fillable-proof.pdf",
        "gogyo/score-sheet-proof.pdf"]  # no report: proofs are for looking


def test_only_writes_the_named_components(tmp_path: Path) -> None:
    game = load_checked("gogyo", DEFAULT_DECKS_DIR)
    result = build_game(game, BuildOptions(output_dir=tmp_path, only=("cards",)))
    assert sorted(f.name for f in result.files) == ["gogyo/cards-printshop.pdf", "gogyo/cards.pdf"]
    assert result.data_files == []  # no report unless asked for
    with pytest.raises(BuildError, match="'nope', not a component of gogyo"):
        build_game(game, BuildOptions(output_dir=tmp_path / "x", only=("nope",)))
    assert not (tmp_path / "x").exists()


def test_modes_write_print_shop_files_only_when_asked(tmp_path: Path) -> None:
    """--mode sheets: home files only (the rulebook and its booklet, the stickers' sheet); --mode printshop:
    the print-shop files and the home files nothing else stands for (single-sided sheets, the rulebook the
    print-shop one is made from), no booklet."""
    game = load_checked("jinzai", DEFAULT_DECKS_DIR)
    written = {}
    for mode in ("sheets", "printshop"):
        options = BuildOptions(output_dir=tmp_path / mode, report=False, mode=mode, only=("stickers", "rulebook"))
        written[mode] = {f.name.removeprefix("jinzai/"): f.use for f in build_game(game, options).files}
    assert written["sheets"] == {"stickers.pdf": "home", "rulebook.pdf": "home", "rulebook-booklet.pdf": "home"}
    assert written["printshop"] == {"stickers.pdf": "home", "stickers-printshop.pdf": "shop", "rulebook.pdf": "home",
                                    "rulebook-printshop.pdf": "shop"}
