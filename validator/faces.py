"""Which elements a card's face or back actually draws, with `when` filters and repeats expanded."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .binding import matches
from .model import Card, Element, Layout


@dataclass(frozen=True)
class Side:
    """One printed side of a card definition: 'front' uses the face template, 'back' the back."""

    name: str
    template: str


def sides(card: Card) -> tuple[Side, Side]:
    return Side("front", card.face), Side("back", card.back)


def drawn_elements(card: Card, template: str, layout: Layout) -> list[Element]:
    """The template's elements whose `when` matches the card (empty if the template is unknown)."""
    found = layout.templates.get(template)
    if found is None:
        return []
    return [e for e in found.elements if matches(e.get("when"), card.fields)]


def iter_leaf_elements(elements: list[Element]) -> Iterator[Element]:
    """Elements with each repeat's inner element yielded once (for checks that look at content)."""
    for element in elements:
        yield element
        if element.type == "repeat":
            inner = element.get("element")
            yield from iter_leaf_elements([Element(inner["type"], inner, element.location.child("element"))])


def is_card_independent(template: str, layout: Layout) -> bool:
    """True when a template draws the same for every card: no `when` and no {field} anywhere.

    The generator draws such templates (typically the common back) once per file and reuses them.
    """
    found = layout.templates.get(template)
    if found is None:
        return False
    return not any(_mentions_card(element.props) for element in found.elements)


def _mentions_card(value: object) -> bool:
    if isinstance(value, str):
        return "{" in value
    if isinstance(value, dict):
        return "when" in value or any(_mentions_card(v) for v in value.values())
    if isinstance(value, list):
        return any(_mentions_card(v) for v in value)
    return False
