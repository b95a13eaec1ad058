"""Game-specific data checks: consistency the generic checks cannot know, from the game's spec."""
from __future__ import annotations

from collections.abc import Iterator

from ..engine.registry import DATA_SHAPE_ERRORS, data_shape_problem, engine_name, find_spec
from ..issues import Issue
from ..model import Game


def check(game: Game) -> Iterator[Issue]:
    try:
        spec = find_spec(engine_name(game))
    except ValueError:
        return  # no such engine: the simulation and rulebook checks say so where it matters
    if spec.data_checks is not None:
        try:
            yield from spec.data_checks(game)
        except DATA_SHAPE_ERRORS as exc:
            yield Issue(game.location.child("rules"), "rules-data",
                        f"the {spec.name} data checks cannot read the card data ({data_shape_problem(exc)})")
