"""縦中横: in vertical text a run of two or three half-width digits or letters is set side by side in one
cell, measured as one em by the text-fit check and drawn so; longer runs and lone characters keep a cell
each. Read back from a real PDF with poppler's glyph boxes."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from composedtext import page_words
from generator.elements import _vertical_lines
from generator.pdfdoc import register_font
from validator.geometry import mm_to_pt
from validator.model import Element
from validator.paths import FONTS_DIR
from validator.textbox import layout_text_element
from validator.typeset import fit_text, load_metrics, tate_chu_yoko

GOTHIC = FONTS_DIR / "BIZUDGothic-Regular.ttf"


@pytest.mark.parametrize(("text", "runs"), [
    ("体力10", [(2, 4)]), ("第3章", []), ("100人", [(0, 3)]), ("HP", [(0, 2)]), ("HP12", []), ("１２", []),
    ("2026年", []), ("A・B", []),
])
def test_which_runs_go_across(text: str, runs: list[tuple[int, int]]) -> None:
    assert tate_chu_yoko(text) == runs


def test_a_run_across_one_cell_is_measured_as_one_em() -> None:
    metrics = load_metrics(GOTHIC)
    fits = fit_text("体力10", metrics, width=20, height=30, size=10, vertical=True, wrap=False)
    assert fits is not None and fits.line_widths == (30.0,)  # three cells of 10 pt, not four
    assert fit_text("体力10", metrics, width=20, height=29, size=10, vertical=True, wrap=False) is None
    assert fit_text("体力1234", metrics, width=20, height=59, size=10, vertical=True, wrap=False) is None  # 6 cells


def test_the_digits_are_drawn_side_by_side_in_the_cell_below(tmp_path: Path) -> None:
    metrics = load_metrics(GOTHIC)
    name = register_font(GOTHIC)
    props = {"w": 20, "h": 40, "size": 30, "vertical": True, "wrap": False, "valign": "top", "align": "center"}
    laid = layout_text_element(Element("text", props, None), "体力100", metrics)  # type: ignore[arg-type]
    assert laid is not None
    path = tmp_path / "v.pdf"
    canvas = Canvas(str(path), pagesize=(mm_to_pt(40), mm_to_pt(60)), initialFontName=name, invariant=1)
    canvas.setFont(name, laid.size)
    top = mm_to_pt(50)
    _vertical_lines(canvas, laid, metrics, props, mm_to_pt(10), top, mm_to_pt(20), mm_to_pt(40), greek=False,
                    fonts=(name, None))
    canvas.save()
    [(page_height, words)] = page_words(path)
    found = {word.text: word for word in words}
    assert {"体", "力", "100"} <= found.keys(), [w.text for w in words]
    size = laid.size
    run, above = found["100"], found["力"]
    assert abs(run.top - (above.top + size)) < 0.5  # the next cell down, not three
    assert run.x1 - run.x0 <= size * 0.96  # narrowed into the cell's em
    assert abs((run.x0 + run.x1) / 2 - (above.x0 + above.x1) / 2) < 0.5  # centred on the column
