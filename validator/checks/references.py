"""Every name resolves: templates, fonts, colours, colour-map keys, card fields in templates."""
from __future__ import annotations

from collections.abc import Iterator

from ..binding import BindingError, bind_color, bind_count, bind_text, parse_color
from ..faces import drawn_elements, iter_leaf_elements, sides
from ..issues import Issue
from ..model import Card, Element, Game, Layout

_COLOR_PROPS = ("fill", "stroke", "color")


def check(game: Game) -> Iterator[Issue]:
    for deck in game.decks:
        layout = deck.layout
        yield from _check_color_maps(layout)
        reported: set[tuple[str, str]] = set()
        for card in deck.cards:
            for side in sides(card):
                if side.template not in layout.templates:
                    key = "face" if side.name == "front" else "back"
                    yield Issue(card.location.child(key), "unknown-template",
                                f"card {card.id!r}: {side.name} template {side.template!r} is not in the layout")
                    continue
                for element in iter_leaf_elements(drawn_elements(card, side.template, layout)):
                    for issue in _check_element(game, layout, card, element):
                        dedupe = (issue.location.pointer, issue.message.split(": ", 1)[-1])
                        if dedupe not in reported:
                            reported.add(dedupe)
                            yield issue


def _check_color_maps(layout: Layout) -> Iterator[Issue]:
    for name, table in layout.color_maps.items():
        for key, value in table.items():
            where = layout.location.child("color_maps").child(name).child(key)
            try:
                literal = parse_color(value)
            except BindingError as exc:
                yield Issue(where, "unknown-color", f"colour map {name!r}: {exc}")
                continue
            if literal is None and value not in layout.palette and value != "none":
                yield Issue(where, "unknown-color", f"colour map {name!r}: {value!r} is not a colour or palette name")


def _check_element(game: Game, layout: Layout, card: Card, element: Element) -> Iterator[Issue]:
    def problem(prop: str, message: str) -> Issue:
        return Issue(element.location.child(prop), "reference", f"card {card.id!r}: {message}")

    for prop in _COLOR_PROPS:
        if prop in element.props:
            try:
                bind_color(element.props[prop], card.fields, layout)
            except BindingError as exc:
                yield problem(prop, str(exc))
    for n, stripe in enumerate(element.get("stripes", [])):
        try:
            bind_color(stripe, card.fields, layout)
        except BindingError as exc:
            yield problem(f"stripes/{n}", str(exc))
    if element.type == "text":
        if element.props["font"] not in game.fonts:
            known = ", ".join(sorted(game.fonts))
            yield problem("font", f"font {element.props['font']!r} is not declared in game.json (fonts: {known})")
        try:
            bind_text(element.props["text"], card.fields)
        except BindingError as exc:
            yield problem("text", str(exc))
    if element.type in ("image", "svg"):
        try:
            bind_text(element.props["src"], card.fields)
        except BindingError as exc:
            yield problem("src", str(exc))
    if element.type == "repeat":
        try:
            bind_count(element.props["count"], card.fields)
        except BindingError as exc:
            yield problem("count", str(exc))
