"""Table geometry (validator/tables.py): where cells sit, in time linear in the table's size.

A deck's table may list as many columns as its 2 MiB layout holds; each cell's x was the sum of
the widths before it, so a row of 40,000 columns took `check` 95 s (and build as long again).
"""
from __future__ import annotations

import time
from pathlib import Path

from validator.issues import Location
from validator.model import Element
from validator.tables import table_cells


def table(columns: list[float], rows: list[list[object]]) -> Element:
    props = {"type": "table", "x": 2.0, "y": 3.0, "columns": columns, "rows": rows, "row_height": 5,
             "font": "gothic", "size": 8}
    return Element("table", props, Location(Path("layout.json"), "/templates/t/elements/0"))


def test_cells_sit_at_the_sum_of_the_widths_before_them() -> None:
    cells = table_cells(table([10, 20, 30, 40], [["a", {"text": "b", "span": 2}, "c"], ["d", "e", "f", "g"]]), {})
    assert [(c.row, c.column, c.x, c.w) for c in cells] == [
        (0, 0, 2, 10), (0, 1, 12, 50), (0, 3, 62, 40),
        (1, 0, 2, 10), (1, 1, 12, 20), (1, 2, 32, 30), (1, 3, 62, 40)]
    assert [c.y for c in cells] == [3, 3, 3, 8, 8, 8, 8]


def test_a_row_of_many_columns_is_laid_out_in_linear_time() -> None:
    """100,000 columns: under a second; summing the widths before each cell took 17 s."""
    count = 100_000
    start = time.process_time()
    cells = table_cells(table([0.5] * count, [[""] * count]), {})
    took = time.process_time() - start
    assert len(cells) == count
    assert cells[-1].x == 2 + 0.5 * (count - 1) and cells[-1].w == 0.5
    assert took < 5, f"{count:,} cells took {took:.1f} s"
