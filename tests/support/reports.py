"""Real simulation reports, small and quick, for tests that need one of the report's types."""
from __future__ import annotations

import dataclasses
from functools import cache

from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, run_plan
from validator.sim_result import SimulationReport


@cache
def small_report(game_id: str = "gogyo", matches: int = 6) -> SimulationReport:
    """The game's configured plan cut to a few matches (no table sizes), summarised with its precision."""
    game = load_game(DEFAULT_DECKS_DIR, game_id)
    plan = SimulationPlan.from_game(game)
    assert plan is not None
    return run_plan(engine_for(game), dataclasses.replace(plan, matches=matches, other_counts=()), workers=1)


def report_of(matches: int, game: str = "gogyo") -> SimulationReport:
    """A real report renamed to say how many matches it holds: a stand-in for what a simulation returned."""
    return dataclasses.replace(small_report(), matches=matches, game=game)
