"""A rulebook list's number or bullet sits on its item's first line, read back from the PDF with poppler's
glyph boxes: also when that line carries ruby, which moves the paragraph's lines down to make room for the
readings (sanguosha's rulebook set 「1.」 a reading's height above 「主公が先に選びます」)."""
from __future__ import annotations

from pathlib import Path

from composedtext import TextLine, page_words
from deckcopies import copy_decks, edit_json
from rulebookpdf import write_rulebook_alone
from validator.loader import load_game

NUMBERED = ["戴冠《たいかん》の順を先に覚えます。", "紋章のない項目です。"]
BULLETED = ["冠位《かんい》の順を先に覚えます。", "旗印のない項目です。"]
SAME_BASELINE = 0.6  # pt: the marker (0.95 em) on its line's baseline: em boxes end within 0.6 pt of each other


def _marker_and_line(words: list[TextLine], marker: str, first: str) -> tuple[TextLine, TextLine]:
    line = next(w for w in words if w.text.startswith(first))
    mark = min((w for w in words if w.text == marker and line.x0 - 3 * line.size < w.x1 <= line.x0),
               key=lambda w: abs(w.bottom - line.bottom))
    return mark, line


def test_list_markers_share_their_first_lines_baseline_with_and_without_ruby(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    for block in ({"type": "list", "items": BULLETED}, {"type": "list", "items": NUMBERED, "ordered": True}):
        edit_json(decks / "gogyo" / "rulebook.json", lambda d, b=block: d["blocks"].insert(1, b))
    pdf = write_rulebook_alone(load_game(decks, "gogyo"), tmp_path / "rulebook.pdf")
    words = page_words(pdf)[0][1]
    offsets = {}
    for marker, first in (("1.", "戴冠"), ("2.", "紋章"), ("●", "冠位"), ("●", "旗印")):
        mark, line = _marker_and_line(words, marker, first)
        if marker == "●":  # a small dot, set to sit centred on the line's em box
            offsets[first] = (mark.top + mark.bottom) / 2 - (line.top + line.bottom) / 2
            assert abs(offsets[first]) < line.size * 0.25, (marker, first, mark, line)
        else:
            offsets[first] = mark.bottom - line.bottom
            assert abs(offsets[first]) < SAME_BASELINE, (marker, first, mark, line)
    # a line with readings over it has its marker where a line without has it, to the tenth of a point
    assert abs(offsets["戴冠"] - offsets["紋章"]) < 0.1 and abs(offsets["冠位"] - offsets["旗印"]) < 0.1, offsets
