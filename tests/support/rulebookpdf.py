"""A game's rulebook typeset alone, as `fudaya build` sets it up, and the fonts its pages use."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from generator.card_face import FaceRenderer
from generator.pdfdoc import register_fonts
from generator.rulebook import write_rulebook
from validator.model import Game


def write_rulebook_alone(game: Game, path: Path) -> Path:
    """The game's first rulebook written to `path` with the fonts and card faces a build would give it."""
    names = register_fonts(game.fonts)
    fonts = {key: (names[key], ref.path) for key, ref in game.fonts.items()}
    renderers = {deck.id: FaceRenderer(deck.layout, game.directory, fonts, names["gothic"]) for deck in game.decks}
    write_rulebook(path, f"{game.id}/rulebook.pdf", game, game.rulebooks[0], fonts=names, renderers=renderers,
                   pdfx="x-4")
    return path


def iter_fonts(resources: Any) -> Iterator[tuple[str, Any]]:
    """Every font of a page, including those inside form XObjects (card faces drawn as forms)."""
    resources = resources.get_object() if resources is not None else {}
    for ref in resources.get("/Font", {}).values():
        font = ref.get_object()
        yield str(font["/BaseFont"]), font
    for ref in resources.get("/XObject", {}).values():
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Form":
            yield from iter_fonts(xobject.get("/Resources"))
