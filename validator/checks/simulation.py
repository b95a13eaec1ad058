"""The simulation game.json asks for can run: a rules engine exists and the plan suits it."""
from __future__ import annotations

from collections.abc import Iterator

from ..engine.registry import engine_for
from ..issues import DeckError, Issue
from ..model import Game
from ..sim_plan import SimulationPlan, default_workers
from ..variants import VariantStudy, check_study


def check(game: Game) -> Iterator[Issue]:
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return
    where = game.location.child("simulation")
    try:
        engine = engine_for(game)
    except DeckError as exc:  # the engine found card data its rules cannot play, and says where
        yield from exc.issues
        return
    except ValueError as exc:
        yield Issue(where, "simulation", f"cannot simulate: {exc}")
        return
    try:
        plan.config(engine, default_workers())
    except ValueError as exc:
        yield Issue(where, "simulation", str(exc))
        return
    study = VariantStudy.from_game(game)
    if study is not None:
        yield from check_study(game, study)
