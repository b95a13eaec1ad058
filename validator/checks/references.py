"""Every name resolves: templates, fonts, colours, colour-map keys, card fields in templates."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..binding import BindingError, bind_color, bind_count, bind_text, parse_color
from ..faces import drawn_elements, iter_leaf_elements, sides
from ..issues import Issue
from ..model import Card, Element, Game, Layout
from ..tables import columns_used, table_cells
from ..wording import counted

_COLOR_PROPS = ("fill", "stroke", "color", "header_fill")


def check(game: Game) -> Iterator[Issue]:
    yield from check_field_names(game)
    maps_checked: set[str] = set()  # game-wide maps are shared by every component: check them once
    for deck in game.decks:
        layout = deck.layout
        yield from _check_color_maps(layout, maps_checked)
        reported: set[tuple[str, str]] = set()
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                if side.template not in layout.templates:
                    key = "face" if side.name == "front" else "back"
                    yield Issue(card.location.child(key), "unknown-template",
                                f"card {card.id!r}: {side.name} template {side.template!r} is not in the layout")
                    continue
                for element in iter_leaf_elements(drawn_elements(card, side.template, layout), card.bindings):
                    for issue in _check_element(game, layout, card, element):
                        dedupe = (issue.location.pointer, issue.message.split(": ", 1)[-1])
                        if dedupe not in reported:
                            reported.add(dedupe)
                            yield issue


def _check_color_maps(layout: Layout, checked: set[str]) -> Iterator[Issue]:
    for name, table in layout.color_maps.items():
        source = layout.color_map_locations[name]
        if f"{source.file}#{source.pointer}" in checked:
            continue
        checked.add(f"{source.file}#{source.pointer}")
        for key, value in table.items():
            where = layout.color_map_locations[name].child(key)
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
                bind_color(element.props[prop], card.bindings, layout)
            except BindingError as exc:
                yield problem(prop, str(exc))
    for n, stripe in enumerate(element.get("stripes", [])):
        try:
            bind_color(stripe, card.bindings, layout)
        except BindingError as exc:
            yield problem(f"stripes/{n}", str(exc))
    if element.type == "text":
        if element.props["font"] not in game.fonts:
            known = ", ".join(sorted(game.fonts))
            yield problem("font", f"font {element.props['font']!r} is not declared in game.json (fonts: {known})")
        try:
            bind_text(element.props["text"], card.bindings)
        except BindingError as exc:
            yield problem("text", str(exc))
    if element.type in ("image", "svg"):
        try:
            bind_text(element.props["src"], card.bindings)
        except BindingError as exc:
            yield problem("src", str(exc))
    if element.type == "repeat":
        try:
            bind_count(element.props["count"], card.bindings)
        except BindingError as exc:
            yield problem("count", str(exc))
    if element.type == "table":
        yield from _check_table(element, card, layout, problem)
    if element.type == "field":
        try:
            bind_text(element.props["name"], card.bindings)
        except BindingError as exc:
            yield problem("name", str(exc))


def _check_table(element: Element, card: Card, layout: Layout, problem: Any) -> Iterator[Issue]:
    expected = len(element.props["columns"])
    for row, used in enumerate(columns_used(element)):
        if used != expected:
            yield problem(f"rows/{row}", f"row {row + 1} fills {counted(used, 'column')} but the table has {expected}")
    try:
        cells = table_cells(element, card.bindings)
    except BindingError as exc:
        yield problem("rows", str(exc))
        return
    for cell in cells:
        for prop in ("fill", "color"):
            if prop in cell.spec:
                try:
                    bind_color(cell.spec[prop], card.bindings, layout)
                except BindingError as exc:
                    yield problem(f"rows/{cell.row}", str(exc))


def _check_sums(element: Element, card: Card, names: list[str]) -> Iterator[Issue]:
    """A total names write-in fields of its own table, needs a field to show in, and never counts itself."""
    for cell in table_cells(element, card.bindings):
        where = element.location.child("rows").child(cell.row)
        if cell.sums and not cell.field:
            yield Issue(where, "sum-without-field", "a cell with `sum` needs a `field` to show the total in")
        for name in cell.sums:
            if name not in names or name == cell.field:
                yield Issue(where, "unknown-sum-field",
                            f"card {card.id!r}: `sum` names {name!r}, which is not another write-in field of "
                            f"this table (fields: {', '.join(n for n in names if n != cell.field)})")


def check_field_names(game: Game) -> Iterator[Issue]:
    """Write-in fields become PDF form fields, whose names must be unique in the file."""
    for deck in game.decks:
        seen: dict[str, str] = {}
        summed: set[str] = set()  # cards whose totals were checked (copies share them)
        for copy in deck.copies():
            card = copy.card
            first_copy = card.id not in summed
            summed.add(card.id)
            for element in drawn_elements(card, card.face, deck.layout):
                names = []
                try:
                    if element.type == "field":
                        names = [bind_text(element.props["name"], card.bindings)]
                    elif element.type == "table":
                        names = [c.field for c in table_cells(element, card.bindings) if c.field]
                except BindingError:
                    continue  # reported above
                if element.type == "table" and first_copy:
                    yield from _check_sums(element, card, names)
                for name in names:
                    label = copy.label
                    if name in seen:
                        yield Issue(element.location, "duplicate-field",
                                    f"write-in field {name!r} appears on {seen[name]} and {label}; "
                                    f"bind a card field into its name, e.g. p{{player}}_total")
                        break
                    seen[name] = label
