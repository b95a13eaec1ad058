"""The simulation game.json asks for can run: a rules engine exists, the plan suits it, and its
estimated cost is within the simulation budget (validator/sim_cost.py), all before any match is played."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from ..engine.api import RulesGame, TeamVictory
from ..engine.registry import engine_for
from ..issues import DeckError, Issue, Location
from ..ladder import LadderPlan
from ..limits import EVERY_BUILD_SECONDS, SIM_BUDGET_SECONDS
from ..model import Game
from ..sim_cost import game_parts, over_budget
from ..sim_plan import SimulationPlan, at_count, default_workers, precision_problem
from ..simulated_files import simulated_files_issue
from ..variants import VariantStudy, check_study

BUDGET_ADVICE = "lower the matches, mcts budgets, table sizes or options, or raise --sim-budget"


def check(game: Game, budget: float = SIM_BUDGET_SECONDS) -> Iterator[Issue]:
    """The plan's problems, else whether its estimated cost is over `budget` seconds (on the reference cores)."""
    issues = list(_plan_issues(game))
    if game.simulation:
        too_large = simulated_files_issue(game)  # what the report's key would hash: refused here as in build
        issues += [too_large] if too_large is not None else []
    yield from issues
    if not issues and game.simulation:
        every_build = min(EVERY_BUILD_SECONDS, budget) if budget <= SIM_BUDGET_SECONDS else budget
        found = over_budget(game_parts(game), budget, BUDGET_ADVICE) or over_budget(
            game_parts(game, studies=False), every_build, BUDGET_ADVICE,
            "what every check and build plays (the studies aside)")
        if found is not None:
            biggest, message = found
            yield Issue(_located(game.location, biggest.pointer), "simulation-budget", message)


def _located(root: Location, pointer: str) -> Location:
    where = root
    for key in pointer.split("/")[1:]:
        where = where.child(key)
    return where


def _plan_issues(game: Game) -> Iterator[Issue]:
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return
    where = game.location.child("simulation")
    problem = precision_problem(plan.precision)
    if problem:
        yield Issue(where.child("precision"), "simulation", problem)
        return
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
    for index, count in enumerate(game.simulation.get("player_counts", ())):
        try:
            at_count(plan, count).config(engine, 1)
        except ValueError as exc:  # a table size the engine does not play, or per-seat policies it cannot spread
            yield Issue(where.child("player_counts").child(index), "simulation", f"player_counts: {exc}")
            return
    study = VariantStudy.from_game(game)
    if study is not None:
        yield from check_study(game, study)
        if study.strong_policies:
            try:
                replace(plan, policies=study.strong_policies).config(engine, 1)
            except ValueError as exc:
                yield Issue(study.location.child("strong_play").child("policies"), "simulation", str(exc))
    ladder = LadderPlan.from_game(game)
    if ladder is not None:
        yield from _ladder_issues(engine, plan, ladder, where.child("ladder"))


def _ladder_issues(engine: RulesGame, plan: SimulationPlan, ladder: LadderPlan, where: Location) -> Iterator[Issue]:
    """Every rung names a policy the engine has, at a table size it plays; a team game has self-play."""
    try:
        ladder.check()
        for rung in ladder.rungs:
            replace(plan, players=ladder.players, policies=(rung,)).config(engine, 1)
    except ValueError as exc:
        yield Issue(where, "simulation", f"ladder: {exc}")
        return
    if isinstance(engine, TeamVictory) and engine.team_victory:
        missing = [rung for rung, count in zip(ladder.rungs[:-1], ladder.self_play) if not count]
        if missing:
            yield Issue(where.child("self_play"), "simulation",
                        f"ladder: a team game needs self_play matches of {', '.join(missing)} "
                        "(each pair's fair share is read from the weaker rung's)")
