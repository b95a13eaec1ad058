"""Which elements a card's face or back actually draws, with `when` filters and repeats expanded."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .binding import BindingError, bind_count, matches
from .model import Card, Element, Layout
from .tables import cell_text_element, table_cells


@dataclass(frozen=True)
class Side:
    """One printed side of a card definition: 'front' uses the face template, 'back' the back."""

    name: str
    template: str


def sides(card: Card, *, has_backs: bool = True) -> tuple[Side, ...]:
    """The printed sides of a card; single-sided sheets have only a front."""
    front = Side("front", card.face)
    return (front, Side("back", card.back)) if has_backs else (front,)


def drawn_elements(card: Card, template: str, layout: Layout) -> list[Element]:
    """The template's elements drawn for the card: `when` matches and `unless` does not (empty if the
    template is unknown)."""
    found = layout.templates.get(template)
    if found is None:
        return []
    return [e for e in found.elements if is_drawn(e, card.fields)]


def part_box(card: Card, template: str, layout: Layout, text: str) -> tuple[float, float, float, float] | None:
    """Where the card draws the text element written `text` in its layout ("{valor}", "君主"): its box
    (x, y, w, h in mm from the card's top left), for a figure's callout to point at; None if it draws none."""
    for element in drawn_elements(card, template, layout):
        if element.type == "text" and element.get("text") == text:
            return (float(element.get("x", 0)), float(element.get("y", 0)), float(element.get("w", 0)),
                    float(element.get("h", 0)))
    return None


def shape_count(element: Element, fields: Mapping[str, Any]) -> int:
    """How many shapes `element` draws for a card with these fields: a repeat its inner element's count
    times over (nested repeats multiply), a table one a cell, a polygon one a corner, a band one a stripe,
    text and path data one per 100 characters; a count that does not bind counts 0 (the references check
    says why). What the limits on drawing (MAX_SHAPES_PER_SIDE, MAX_SHAPES) count."""
    if element.type == "repeat":
        try:
            count = bind_count(element.props["count"], fields)
        except BindingError:
            return 0
        inner = element.props["element"]
        return count * shape_count(Element(inner["type"], inner, element.location.child("element")), fields)
    if element.type == "table":
        return max(1, sum(len(row) for row in element.props["rows"]))
    if element.type == "polygon":  # a corner each: a 2 MiB layout holds a polygon of 100,000 corners
        return max(1, len(element.props.get("points", ())))
    if element.type == "band":
        return max(1, len(element.props.get("stripes", ())))
    if element.type in ("text", "path"):  # one per 100 characters of text or path data, as written
        written = element.props.get("text" if element.type == "text" else "d", "")
        return 1 + len(written) // 100 if isinstance(written, str) else 1
    return 1


def is_drawn(element: Element, fields: Mapping[str, Any]) -> bool:
    """`when` holds for the card and `unless` (if given) does not; a null value means the field is absent."""
    unless = element.get("unless")
    return matches(element.get("when"), fields) and not (unless and matches(unless, fields))


def iter_leaf_elements(elements: list[Element], fields: Mapping[str, Any]) -> Iterator[Element]:
    """Elements plus what they contain: each repeat's inner element once, each table cell's text.

    Checks walk this so that text inside tables is measured like any other text.
    """
    for element in elements:
        yield element
        if element.type == "repeat":
            inner = element.get("element")
            yield from iter_leaf_elements([Element(inner["type"], inner, element.location.child("element"))], fields)
        elif element.type == "table":
            try:
                cells = table_cells(element, fields)
            except BindingError:
                continue  # the references check reports the table's unknown field
            yield from (cell_text_element(element, cell) for cell in cells if cell.text)


def is_card_independent(template: str, layout: Layout) -> bool:
    """True when a template draws the same for every card: no `when` and no {field} anywhere.

    The generator draws such templates (typically the common back) once per file and reuses them.
    """
    found = layout.templates.get(template)
    if found is None:
        return False
    return not any(element.type in _PER_SHEET or _mentions_card(element.props) for element in found.elements)


_PER_SHEET = ("field", "table")  # write-in boxes must be real form fields on each page, never a shared form


def _mentions_card(value: object) -> bool:
    if isinstance(value, str):
        return "{" in value
    if isinstance(value, dict):
        return "when" in value or "unless" in value or any(_mentions_card(v) for v in value.values())
    if isinstance(value, list):
        return any(_mentions_card(v) for v in value)
    return False
