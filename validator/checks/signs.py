"""One card face writes its plus and minus signs one way: full-width (＋ − －, as Japanese text sets
them) or ASCII (+ -), never both (sangokushi's reference card printed "+1" from a {…:+d} format beside
"ダイス1個＋内政" in its own text)."""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ..binding import BindingError, bind_text
from ..faces import drawn_elements, iter_leaf_elements, sides
from ..issues import Issue, Location, json_path, shown
from ..model import Element, Game

FULL_WIDTH = re.compile("[＋−－]")
# ASCII plus anywhere; an ASCII hyphen only where it is a minus: before a digit and not after a letter or
# digit (so "2-6" and "EX-1" are not signs; ranges are a wording matter of their own)
ASCII = re.compile(r"\+|(?<![0-9A-Za-z])-(?=[0-9])")


def check(game: Game) -> Iterator[Issue]:
    """A finding per text element whose ASCII sign shares a face with a full-width one (on its first card)."""
    reported: set[tuple[str, str]] = set()
    for deck in game.decks:
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                found = _mixed(card.bindings, drawn_elements(card, side.template, deck.layout))
                if found is None:
                    continue
                where, message = found
                if (str(where.file), where.pointer) not in reported:
                    reported.add((str(where.file), where.pointer))
                    yield Issue(where, "mixed-signs", f"card {card.id!r} {side.name}: {message}")


def _mixed(fields: Mapping[str, Any], elements: list[Element]) -> tuple[Location, str] | None:
    """Where one face mixes the two ways (the first ASCII sign's element) and what it mixes; None if not."""
    full: tuple[Location, str, str] | None = None
    ascii_sign: tuple[Location, str, str] | None = None
    for element in iter_leaf_elements(elements, fields):
        if element.type != "text":
            continue
        try:
            text = bind_text(element.props["text"], fields)
        except BindingError:
            continue  # the references check reports it
        where = element.location.child("text")
        if full is None and (mark := FULL_WIDTH.search(text)):
            full = (where, mark.group(), text)
        if ascii_sign is None and (mark := ASCII.search(text)):
            ascii_sign = (where, mark.group(), text)
    if full is None or ascii_sign is None:
        return None
    return ascii_sign[0], (f"ASCII {ascii_sign[1]!r} in {shown(ascii_sign[2])} and full-width {full[1]!r} in "
                           f"{shown(full[2])} ({json_path(full[0].pointer)}) on one face: write the signs one way "
                           "(＋ − in Japanese text)")

