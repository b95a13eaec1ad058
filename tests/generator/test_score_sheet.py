"""gogyo's score sheet: four per A4 page, write-in boxes, and the fillable on-screen variant."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

FIELDS_PER_PLAYER = {"name", "g1_dynasty", "g1_element", "g1_total", "g2_dynasty", "g2_element", "g2_total",
                     "grand_total"}

# Every test here reads the session's build of the whole gogyo game (conftest.gogyo_build).
pytestmark = pytest.mark.slow


def test_four_sheets_on_one_a4_page(gogyo_manifest: dict) -> None:
    files = {f["file"]: f for f in gogyo_manifest["files"]}
    for name in ("gogyo/score-sheet.pdf", "gogyo/score-sheet-fillable.pdf"):
        assert files[name]["pages"] == 1 and files[name]["page_size"] == [210.0, 297.0]
        placed = [p for p in gogyo_manifest["placements"] if p["file"] == name]
        assert sorted(p["card"] for p in placed) == ["player-1", "player-2", "player-3", "player-4"]
        assert all(p["side"] == "front" and (p["width"], p["height"]) == (99.0, 140.0) for p in placed)
        for p in placed:  # each sheet lies on the paper with room for cut marks
            assert 4 <= p["x"] and p["x"] + 99 <= 206 and 4 <= p["y"] and p["y"] + 140 <= 293


def test_printed_sheet_has_no_form_fields_and_embedded_fonts(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "score-sheet.pdf")
    assert reader.get_fields() is None
    text = reader.pages[0].extract_text()
    assert text.count("得点表") == 4 and "王朝役" in text and "26点" in text


def test_fillable_sheet_has_every_write_in_box_per_player(gogyo_build: Path) -> None:
    fields = PdfReader(gogyo_build / "score-sheet-fillable.pdf").get_fields()
    expected = {f"p{player}_{name}" for player in range(1, 5) for name in FIELDS_PER_PLAYER}
    assert set(fields) == expected


def test_fillable_page_text_uses_embedded_fonts_only(gogyo_build: Path) -> None:
    """Page content is embedded TrueType; only the form fields' own appearance uses the viewer's Helvetica."""
    page = PdfReader(gogyo_build / "score-sheet-fillable.pdf").pages[0]
    for ref in page["/Resources"]["/Font"].values():
        font = ref.get_object()
        assert "/FontFile2" in font["/FontDescriptor"].get_object()
