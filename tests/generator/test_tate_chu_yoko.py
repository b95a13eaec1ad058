"""Half-width runs in vertical text (JIS X 4051): two or three digits or letters side by side in one cell
(縦中横), a longer word turned sideways along the column, a lone one upright; measured by the text-fit
check as drawn. Read back from real PDFs with poppler's glyph boxes."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from composedtext import TextLine, page_words
from generator.elements import _vertical_lines
from generator.pdfdoc import register_font
from validator.geometry import mm_to_pt
from validator.model import Element
from validator.paths import FONTS_DIR
from validator.textbox import layout_text_element
from validator.typeset import VerticalRun, fit_text, load_metrics, vertical_runs

GOTHIC = FONTS_DIR / "BIZUDGothic-Regular.ttf"


@pytest.mark.parametrize(("text", "runs"), [
    ("体力10", [(2, 4)]), ("第3章", []), ("100人", [(0, 3)]), ("HP", [(0, 2)]), ("HP12", []), ("１２", []),
    ("2026年", []), ("A・B", []),
])
def test_which_runs_go_across(text: str, runs: list[tuple[int, int]]) -> None:
    assert [(run.start, run.end) for run in vertical_runs(text) if run.kind == "across"] == runs


def test_longer_runs_go_sideways() -> None:
    assert vertical_runs("ReportLabで2026年、HPは10") == [
        VerticalRun(0, 9, "sideways"), VerticalRun(10, 14, "sideways"), VerticalRun(16, 18, "across"),
        VerticalRun(19, 21, "across")]


def test_a_run_across_one_cell_is_measured_as_one_em() -> None:
    metrics = load_metrics(GOTHIC)
    fits = fit_text("体力10", metrics, width=20, height=30, size=10, vertical=True, wrap=False)
    assert fits is not None and fits.line_widths == (30.0,)  # three cells of 10 pt, not four
    assert fit_text("体力10", metrics, width=20, height=29, size=10, vertical=True, wrap=False) is None
    sideways = 2 + sum(metrics.advance(c) for c in "1234")  # two cells, then the word as long as it is wide
    fits = fit_text("体力1234", metrics, width=20, height=60, size=10, vertical=True, wrap=False)
    assert fits is not None and abs(fits.line_widths[0] - sideways * 10) < 1e-9 and sideways < 5


def _drawn(tmp_path: Path, text: str, size: float, box_height: float) -> tuple[float, list[TextLine]]:
    """`text` set in one vertical column (20 mm wide, `box_height` mm tall, 10 mm from the page's top) on a
    real canvas, read back with poppler: the size it was set at, and its words."""
    metrics = load_metrics(GOTHIC)
    name = register_font(GOTHIC)
    props = {"w": 20, "h": box_height, "size": size, "vertical": True, "wrap": False, "valign": "top",
             "align": "center"}
    laid = layout_text_element(Element("text", props, None), text, metrics)  # type: ignore[arg-type]
    assert laid is not None
    path = tmp_path / "v.pdf"
    canvas = Canvas(str(path), pagesize=(mm_to_pt(40), mm_to_pt(box_height + 20)), initialFontName=name,
                    invariant=1)
    canvas.setFont(name, laid.size)
    _vertical_lines(canvas, laid, metrics, props, mm_to_pt(10), mm_to_pt(box_height + 10), mm_to_pt(20),
                    mm_to_pt(box_height), greek=False, fonts=(name, None))
    canvas.save()
    [(_, words)] = page_words(path)
    return laid.size, words


def test_the_digits_are_drawn_side_by_side_in_the_cell_below(tmp_path: Path) -> None:
    size, words = _drawn(tmp_path, "体力100", 30, 40)
    found = {word.text: word for word in words}
    assert {"体", "力", "100"} <= found.keys(), [w.text for w in words]
    run, above = found["100"], found["力"]
    assert abs(run.top - (above.top + size)) < 0.5  # the next cell down, not three
    assert run.x1 - run.x0 <= size * 0.96  # narrowed into the cell's em
    assert abs((run.x0 + run.x1) / 2 - (above.x0 + above.x1) / 2) < 0.5  # centred on the column


def test_a_sideways_word_reads_down_the_column_below_the_cells_above(tmp_path: Path) -> None:
    size, words = _drawn(tmp_path, "体力Wiki版", 20, 80)
    found = {word.text: word for word in words}
    assert {"体", "力", "版"} <= found.keys(), [w.text for w in words]
    above, below = found["力"], found["版"]
    word = size * sum(load_metrics(GOTHIC).advance(c) for c in "Wiki")
    assert abs(below.top - (above.top + size + word)) < 0.5  # the word took its own length down the column
    glyphs = [w for w in words if w.text not in ("体", "力", "版")]  # poppler reads a turned word its own way
    assert glyphs and all(above.top + size - 0.5 <= g.top and g.bottom <= below.top + 0.5 for g in glyphs)
    assert all(above.x0 - 0.5 <= g.x0 and g.x1 <= above.x1 + 0.5 for g in glyphs)  # inside the column


def test_a_run_marked_across_goes_in_one_cell_whatever_its_length(tmp_path: Path) -> None:
    """［＃「2026」は縦中横］ sets four digits (which would go sideways) and ！？ (full-width, kept as written,
    not turned into vertical forms) each across one cell, narrowed into it."""
    metrics = load_metrics(GOTHIC)
    marked = "西暦2026［＃「2026」は縦中横］年！？［＃「！？」は縦中横］"
    laid = fit_text(marked, metrics, width=40, height=50, size=10, vertical=True, wrap=False)
    assert laid is not None and laid.line_widths == (50.0,) and laid.lines == ("西暦2026年！？",)
    assert laid.across == (((2, 6), (7, 9)),)
    assert fit_text("西暦2026年", metrics, width=40, height=50, size=10, vertical=True, wrap=False).line_widths[0] > 40
    size, words = _drawn(tmp_path, marked, 20, 120)
    found = {word.text: word for word in words}
    assert {"西", "暦", "2026", "年"} <= found.keys(), [w.text for w in words]
    run, above = found["2026"], found["暦"]
    assert abs(run.top - (above.top + size)) < 0.5 and run.x1 - run.x0 <= size * 0.96
