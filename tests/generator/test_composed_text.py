"""gogyo's built cards, score sheet and rulebook read back glyph by glyph (the session build): every
text drawn with the lines the text check measured, justified lines flush with both edges to 0.1 mm,
no line opening with a kinsoku character, no paragraph ending in one character. The other games'
files are read the same way in their own print and rulebook tests (tests/support/composedtext.py).
Vertical justified text, which no shipped game sets, is followed through the drawing's arithmetic."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from composedtext import assert_set_well, card_text, rulebook_text
from generator.elements import _vertical_lines
from validator.geometry import mm_to_pt
from validator.loader import load_game
from validator.model import Element, Game
from validator.paths import DEFAULT_DECKS_DIR, FONTS_DIR
from validator.textbox import layout_text_element
from validator.typeset import load_metrics


@pytest.fixture(scope="module")
def gogyo() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


@pytest.mark.slow  # reads the session's gogyo build
@pytest.mark.parametrize(("name", "justified"), [("cards.pdf", 12), ("score-sheet.pdf", 4)])
def test_cards_and_sheets(gogyo: Game, gogyo_build: Path, name: str, justified: int) -> None:
    manifest = json.loads((gogyo_build / "build.json").read_text(encoding="utf-8"))
    assert_set_well(card_text(gogyo, manifest, gogyo_build, name), justified=justified)


@pytest.mark.slow
def test_rulebook(gogyo: Game, gogyo_build: Path) -> None:
    assert_set_well(rulebook_text(gogyo_build / "rulebook.pdf", gogyo.rulebooks[0]), justified=40)



class _Recorder:
    """A canvas that records where each upright vertical character is drawn (the drawing's own arithmetic)."""

    def __init__(self) -> None:
        self.drawn: list[tuple[str, float]] = []

    def drawCentredString(self, x: float, y: float, char: str) -> None:  # noqa: N802 - ReportLab's name
        self.drawn.append((char, y))


def test_justified_vertical_columns_run_from_the_top_of_the_box_to_its_bottom() -> None:
    metrics = load_metrics(FONTS_DIR / "BIZUDMincho-Regular.ttf")
    text = "古池や蛙飛びこむ水の音\n閑さや岩にしみ入る蝉の声"  # upright characters only: none turned or raised
    props = {"w": 30, "h": 40, "size": 12, "vertical": True, "align": "justify", "wrap": True}
    laid = layout_text_element(Element("text", props, None), text, metrics)  # type: ignore[arg-type]
    assert laid is not None and len(laid.lines) >= 3
    canvas = _Recorder()
    top, height = 500.0, mm_to_pt(40)
    _vertical_lines(canvas, laid, metrics, props, 100.0, top, mm_to_pt(30), height, greek=False,  # type: ignore[arg-type]
                    fonts=("mincho", None))  # no vertical twin: upright characters drawn as they are
    drop = laid.size * metrics.ascent / (metrics.ascent + metrics.descent)
    cell_tops = [y + drop for _, y in canvas.drawn]
    assert "".join(char for char, _ in canvas.drawn) == text.replace("\n", "")
    k, justified = 0, 0
    for column, spacing in zip(laid.lines, laid.spacing):
        tops = cell_tops[k:k + len(column)]
        k += len(column)
        assert abs(tops[0] - top) < 1e-6  # valign top
        if spacing:  # a column but a paragraph's last: its last cell ends at the box's bottom
            justified += 1
            assert abs(tops[-1] - laid.size - (top - height)) < mm_to_pt(0.1)
        else:
            assert tops == [top - n * laid.size for n in range(len(column))]  # set solid, one em a cell
    assert justified >= 1 and laid.spacing[-1] == ()
