"""Real simulation reports, small and quick, for tests that need one of the report's types."""
from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.model import Game
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


def cut_whole_report(game: Game, matches: int, monkeypatch: pytest.MonkeyPatch) -> SimulationReport:
    """The report a build writes (table sizes, the variant study, the names), its plan and variant study
    cut to `matches` each: for tests of the report's shape and layout, not of its figures."""
    from validator import study
    from validator.variants import VariantStudy

    read_study = VariantStudy.from_game

    def few(cls: type[VariantStudy], game: Game) -> VariantStudy | None:
        found = read_study(game)
        return None if found is None else dataclasses.replace(found, matches=matches)

    monkeypatch.setattr(VariantStudy, "from_game", classmethod(few))
    plan = SimulationPlan.from_game(game)
    assert plan is not None
    return study.simulate_main(game, dataclasses.replace(plan, matches=matches, precision=0.0), workers=1)
