"""Game-specific data checks, by rules engine name: consistency the generic checks cannot know.

A game registers a pure function over the loaded model here (its engine need not exist yet).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from ..games import sengoku_data
from ..issues import Issue
from ..model import Game

DATA_CHECKS: dict[str, Callable[[Game], Iterator[Issue]]] = {
    "sengoku": sengoku_data.check,
}


def check(game: Game) -> Iterator[Issue]:
    found = DATA_CHECKS.get(str(game.rules.get("engine", game.id)))
    if found is not None:
        yield from found(game)
