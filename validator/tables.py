"""Table geometry: where each cell of a `table` element sits and what it holds. Pure; shared by checks and drawing."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from .binding import DEFAULT_INK, bind_text
from .model import Element


@dataclass(frozen=True)
class Cell:
    """One laid-out cell, in mm from the template's top-left (y downwards)."""

    row: int
    column: int
    x: float
    y: float
    w: float
    h: float
    text: str
    field: str | None  # bound write-in field name, if the cell is a write-in box
    header: bool
    spec: Mapping[str, Any]  # the cell's own overrides (fill, color, font, align)
    sums: tuple[str, ...] = ()  # bound names of the fields this cell's field totals


def table_cells(element: Element, fields: Mapping[str, Any]) -> list[Cell]:
    """Cells left to right, top to bottom; `span` merges columns. Text and field names are bound to `fields`."""
    p = element.props
    widths: list[float] = p["columns"]
    starts = [0.0, *accumulate(widths)]  # column edges once: summing widths per cell was quadratic in a row
    header_rows = p.get("header_rows", 1)
    cells = []
    for r, row in enumerate(p["rows"]):
        column = 0
        for raw in row:
            spec: Mapping[str, Any] = {"text": raw} if isinstance(raw, str) else raw
            span: int = spec.get("span", 1)
            x = p["x"] + starts[min(column, len(widths))]
            w = sum(widths[column:column + span])  # spans do not overlap: linear in the row
            field = spec.get("field")
            cells.append(Cell(
                row=r, column=column, x=x, y=p["y"] + r * p["row_height"], w=w, h=p["row_height"],
                text=bind_text(spec.get("text", ""), fields),
                field=bind_text(field, fields) if field else None,
                header=r < header_rows, spec=spec,
                sums=tuple(bind_text(name, fields) for name in spec.get("sum", ())),
            ))
            column += span
    return cells


def columns_used(element: Element) -> list[int]:
    """How many columns each row fills (spans counted), for the check that rows match `columns`."""
    return [sum(1 if isinstance(c, str) else c.get("span", 1) for c in row) for row in element.props["rows"]]


CELL_PADDING_MM = 1.0


def cell_text_element(element: Element, cell: Cell) -> Element:
    """The text element a cell's text is set as: same fitting and drawing as any text on a card."""
    p = element.props
    font = cell.spec.get("font") or (p.get("header_font", p["font"]) if cell.header else p["font"])
    props = {
        "type": "text",
        "x": cell.x + CELL_PADDING_MM, "y": cell.y + CELL_PADDING_MM / 2,
        "w": max(cell.w - 2 * CELL_PADDING_MM, 0.1), "h": max(cell.h - CELL_PADDING_MM, 0.1),
        "text": cell.text.replace("{", "{{").replace("}", "}}"),  # already bound: keep braces literal
        "font": font, "size": p["size"], "min_size": p.get("min_size", p["size"]),
        "align": cell.spec.get("align", p.get("align", "center")), "valign": "middle",
        "color": cell.spec.get("color", p.get("color", DEFAULT_INK)),
        "line_height": 1.15,
    }
    where = element.location.child("rows").child(cell.row).child(cell.column)
    return Element("text", props, where)
