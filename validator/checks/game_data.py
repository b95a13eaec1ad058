"""Game-specific data checks: consistency the generic checks cannot know, from the game's spec."""
from __future__ import annotations

from collections.abc import Iterator

from ..engine.registry import engine_name, find_spec
from ..issues import Issue
from ..model import Game


def check(game: Game) -> Iterator[Issue]:
    try:
        spec = find_spec(engine_name(game))
    except ValueError:
        return  # no such engine: the simulation and rulebook checks say so where it matters
    if spec.data_checks is not None:
        yield from spec.data_checks(game)
