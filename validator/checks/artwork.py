"""Images and SVG icons exist inside the deck, open cleanly and print sharp enough."""
from __future__ import annotations

from collections.abc import Iterator

from ..assets import image_pixels, resolve_asset, svg_problem
from ..binding import BindingError, bind_text
from ..faces import drawn_elements, iter_leaf_elements, sides
from ..geometry import MM_PER_INCH, contain
from ..issues import Issue
from ..model import Element, Game


def check(game: Game) -> Iterator[Issue]:
    seen: set[tuple[str, str]] = set()
    for deck in game.decks:
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                for element in iter_leaf_elements(drawn_elements(card, side.template, deck.layout), card.bindings):
                    if element.type not in ("image", "svg"):
                        continue
                    try:
                        src = bind_text(element.props["src"], card.bindings)
                    except BindingError:
                        continue  # reported by the references check
                    if (element.location.pointer, src) in seen:
                        continue
                    seen.add((element.location.pointer, src))
                    yield from _check_asset(game, element, src)


def _check_asset(game: Game, element: Element, src: str) -> Iterator[Issue]:
    where = element.location.child("src")
    path = resolve_asset(game.directory, src, where)
    if isinstance(path, Issue):
        yield path
        return
    if element.type == "svg":
        problem = svg_problem(path)
        if problem:
            yield Issue(where, "bad-svg", f"{src!r} {problem}")
        return
    pixels = image_pixels(path)
    if isinstance(pixels, str):
        yield Issue(where, "bad-image", f"{src!r} {pixels}")
        return
    box_w, box_h = element.props["w"], element.props["h"]
    placed_w, _ = (box_w, box_h) if element.get("fit") == "stretch" else contain(box_w, box_h, *pixels)
    dpi = pixels[0] / (placed_w / MM_PER_INCH)
    minimum = element.get("min_dpi", 300)
    if dpi < minimum:
        yield Issue(where, "low-resolution",
                    f"{src!r} prints at {dpi:.0f} dpi ({pixels[0]}×{pixels[1]} px over {placed_w:.1f} mm); "
                    f"at least {minimum} dpi needed")
