"""Every printed character has a glyph in its font, every text fits its box and keeps clear of the frame
drawn around it."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..binding import DEFAULT_INK, BindingError, bind_color, bound_spans, small_dark_mix
from ..faces import drawn_elements, iter_leaf_elements, sides
from ..geometry import pt_to_mm
from ..issues import Issue, Location, json_path, shown
from ..model import Card, Element, Game
from ..ruby import RubyError, parse_ruby
from ..textbox import ink_box, layout_text_element
from ..typeset import FontMetrics, TextLayout, load_metrics


def check(game: Game) -> Iterator[Issue]:
    yield from _outside_safe_zone(game)
    yield from _frames_near_trim(game)
    yield from _small_text_in_mixed_ink(game)
    crowded: set[str] = set()  # elements already reported near a frame (once each, not once a card)
    for deck in game.decks:
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                drawn = drawn_elements(card, side.template, deck.layout)
                frames = [e for e in drawn if e.type == "rect" and not e.props.get("bleed")]  # in drawing order
                for element in iter_leaf_elements(drawn, card.bindings):
                    if element.type != "text" or element.props["font"] not in game.fonts:
                        continue
                    try:
                        text, spans = bound_spans(element.props["text"], card.bindings)
                    except BindingError:
                        continue  # reported by the references check
                    font = game.fonts[element.props["font"]]
                    metrics = load_metrics(font.path)
                    where = element.location.child("text")
                    try:
                        marked = parse_ruby(text)
                    except RubyError as exc:
                        yield _ruby_issue(card, where, text, spans, exc)
                        continue
                    missing = metrics.missing_glyphs(marked.text + "".join(r.reading for r in marked.rubies))
                    if missing:
                        chars = " ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
                        yield Issue(where, "missing-glyph",
                                    f"card {card.id!r}: font {font.path.name} has no glyph for {chars}")
                        continue
                    laid = layout_text_element(element, text, metrics)
                    if laid is None:
                        props = element.props
                        smallest = props.get("min_size", props["size"])
                        yield Issue(where, "text-overflow",
                                    f"card {card.id!r}: {shown(text)} does not fit {props['w']}×{props['h']} mm "
                                    f"at {smallest} pt")
                    elif frames and element.location.pointer not in crowded:
                        issue = _near_frame(card, element, text, laid, metrics, frames)
                        if issue is not None:
                            crowded.add(element.location.pointer)
                            yield issue


TEXT_FRAME_CLEARANCE_EM, TEXT_FRAME_CLEARANCE_MM = 0.1, 1.0  # ink keeps this clear of a frame: the lesser


def _near_frame(card: Card, element: Element, text: str, laid: TextLayout, metrics: FontMetrics,
                frames: list[Element]) -> Issue | None:
    """Ink closer to the outline around it than a tenth of its em (at most 1 mm asked): it reads as touching
    the line (sanguosha's rank 「7」 printed 0.46 mm under its frame). `frames`: the side's rectangles in
    drawing order; the outline is a stroked one the ink's centre lies in (a label set across an outline on
    purpose is not in it) and no filled one painted later lies under the text (a tab over the outline shows
    its own edge). A warning naming the side and the gap."""
    box = ink_box(element, laid, metrics)
    if box is None:
        return None
    left, top, right, bottom = box
    centre_x, centre_y = (left + right) / 2, (top + bottom) / 2
    wanted = min(TEXT_FRAME_CLEARANCE_MM, pt_to_mm(laid.size) * TEXT_FRAME_CLEARANCE_EM)
    for n, frame in enumerate(frames):
        p = frame.props
        half = p.get("stroke_width", 0.3) / 2
        outer = _edges(p)
        inner = (outer[0] + half, outer[1] + half, outer[2] - half, outer[3] - half)
        if not p.get("stroke") or not _inside(centre_x, centre_y, inner):
            continue
        if any(f.props.get("fill") and _inside(centre_x, centre_y, _edges(f.props)) for f in frames[n + 1:]):
            continue  # set on a tab painted over the outline (a skill's name): the tab's edge is what shows
        gaps = {"left": left - inner[0], "top": top - inner[1], "right": inner[2] - right, "bottom": inner[3] - bottom}
        side, gap = min(gaps.items(), key=lambda item: item[1])
        if gap < wanted - 1e-9:
            where = "crosses" if gap < 0 else f"is {gap:.2f} mm from"
            return Issue(element.location, "text-near-frame",
                         f"card {card.id!r}: {shown(text)} at {laid.size:g} pt {where} the {side} of the outline "
                         f"at {frame.location.pointer} (keep {wanted:.2f} mm clear: a tenth of an em, at most "
                         f"{TEXT_FRAME_CLEARANCE_MM:g} mm)", severity="warning")
    return None


def _edges(p: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """A rectangle element's left, top, right and bottom in mm."""
    return p["x"], p["y"], p["x"] + p["w"], p["y"] + p["h"]


def _inside(x: float, y: float, edges: tuple[float, float, float, float]) -> bool:
    return edges[0] < x < edges[2] and edges[1] < y < edges[3]


def _ruby_issue(card: Card, where: Location, text: str, spans: list[tuple[int, int, str]], exc: RubyError) -> Issue:
    """Unreadable ruby markup, located at the card's field that holds it (the one the error falls in, or an
    empty one right after the 《 it names), else at the element's text; the other is named as context."""
    for start, end, name in spans:
        if (start <= exc.position < end or start == end == exc.position + 1) and name in card.fields:
            inside = f" at character {exc.position - start + 1}" if end > start else " (empty)"
            return Issue(card.location.child("fields").child(name), "ruby-markup",
                         f"card {card.id!r}: field {name!r}{inside}: {exc.detail} "
                         f"(printed by {where.file.name} {json_path(where.pointer)})")
    return Issue(where, "ruby-markup", f"card {card.id!r}: {exc} in {shown(text)}")


def _text_box(element: Element) -> tuple[float, float, float, float] | None:
    """x, y, width, height in mm of an element that prints text (a text box, a table), else None."""
    p = element.props
    if element.type == "text":
        return p["x"], p["y"], p["w"], p["h"]
    if element.type == "table":
        return p["x"], p["y"], sum(p["columns"]), len(p["rows"]) * p["row_height"]
    return None


def _outside_safe_zone(game: Game) -> Iterator[Issue]:
    """Text reaching past the safe zone risks being cut: a warning, once per element; past the trim it is cut,
    an error."""
    for deck in game.decks:
        size = deck.layout.size
        low_x, low_y = size.safe, size.safe
        high_x, high_y = size.width - size.safe, size.height - size.safe
        for template in deck.layout.templates.values():
            for element in template.elements:
                box = _text_box(element)
                if box is None or element.location.pointer.split("/")[2] != template.name:
                    continue  # inherited elements are reported once, in the template that owns them
                x, y, w, h = box
                what = f"{element.type} box {x:g}, {y:g}, {w:g}×{h:g} mm"
                if x < -1e-9 or y < -1e-9 or x + w > size.width + 1e-9 or y + h > size.height + 1e-9:
                    yield Issue(element.location, "outside-trim",
                                f"{what} reaches past the {size.width:g}×{size.height:g} mm trim: its text is cut off")
                elif x < low_x - 1e-9 or y < low_y - 1e-9 or x + w > high_x + 1e-9 or y + h > high_y + 1e-9:
                    yield Issue(element.location, "outside-safe-zone",
                                f"{what} reaches outside the {size.safe} mm safe zone and may be cut",
                                severity="warning")


FRAME_TYPES = ("rect", "circle", "polygon")


def _frames_near_trim(game: Game) -> Iterator[Issue]:
    """Outlines between the trim and the safe line: a miscut of half a millimetre shows as a frame
    wider on one side than the other. A warning, once per element; shapes that reach the trim or
    the bleed are backgrounds, and filled shapes without a stroke are not frames."""
    for deck in game.decks:
        size = deck.layout.size
        for template in deck.layout.templates.values():
            for element in template.elements:
                p = element.props
                if element.type not in FRAME_TYPES or not p.get("stroke") or p.get("bleed") \
                        or element.location.pointer.split("/")[2] != template.name:
                    continue
                half = p.get("stroke_width", 0.3) / 2
                left, top, right, bottom = _bounds(element.type, p)
                gaps = (left - half, top - half, size.width - right - half, size.height - bottom - half)
                near = min(gaps)
                if 0 < near < size.safe - 1e-9:
                    yield Issue(element.location, "frame-near-trim",
                                f"{element.type} outline {near:.2f} mm from the trim, inside the {size.safe} mm "
                                "safe zone: a small miscut shows it uneven", severity="warning")


def _bounds(kind: str, p: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """left, top, right, bottom in mm from the trim's top-left."""
    if kind == "circle":
        return p["cx"] - p["r"], p["cy"] - p["r"], p["cx"] + p["r"], p["cy"] + p["r"]
    if kind == "polygon":
        xs, ys = [pt[0] for pt in p["points"]], [pt[1] for pt in p["points"]]
        return min(xs), min(ys), max(xs), max(ys)
    return p["x"], p["y"], p["x"] + p["w"], p["y"] + p["h"]


def _small_text_in_mixed_ink(game: Game) -> Iterator[Issue]:
    """With card.small_text_black false, dark mixed text under 12 pt keeps its four inks: a warning
    per element (cards bind colours from their fields, so each card's colour is looked at)."""
    for deck in game.decks:
        layout = deck.layout
        if layout.small_text_black:
            continue
        reported: set[str] = set()
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                for element in iter_leaf_elements(drawn_elements(card, side.template, layout), card.bindings):
                    where = element.location
                    if element.type != "text" or where.pointer in reported:
                        continue
                    try:
                        color = bind_color(element.props.get("color", DEFAULT_INK), card.bindings, layout)
                    except BindingError:
                        continue  # reported by the references check
                    if color is not None and small_dark_mix(color, element.props["size"]):
                        reported.add(where.pointer)
                        inks = "/".join(f"{round(v * 100):g}" for v in color.components)
                        yield Issue(where, "small-text-mixed-ink",
                                    f"{element.props['size']} pt text in C/M/Y/K {inks} prints in several inks "
                                    f"and may misregister (card.small_text_black is false)", severity="warning")
