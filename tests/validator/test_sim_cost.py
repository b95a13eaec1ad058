"""The simulation cost model (validator/sim_cost.py): each factor raises the estimate, and every
shipped game's plan and studies stay well under the budget, so CI keeps building them."""
from __future__ import annotations

import dataclasses

import pytest

from validator.engine.spec import TableCost
from validator.ladder import LadderPlan
from validator.limits import SIM_BUDGET_SECONDS
from validator.loader import find_games, load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_cost import (
    DEFAULT_TABLE_COST,
    CostPart,
    about,
    game_parts,
    ladder_parts,
    match_seconds,
    matches_played,
    over_budget,
    parse_duration,
    plan_parts,
    study_parts,
    table_cost,
    wall_seconds,
)
from validator.sim_plan import SimulationPlan
from validator.variants import VariantStudy

COSTS = {2: TableCost(1.0, 5.0, 2.0), 4: TableCost(0.5, 3.0, 1.5)}


def _total(parts: list[CostPart]) -> float:
    return sum(part.seconds for part in parts)


def _plan(**changes: object) -> SimulationPlan:
    return dataclasses.replace(SimulationPlan(4, 1000, ("greedy",), precision=0.0), **changes)


def test_a_match_costs_its_policies() -> None:
    assert match_seconds(COSTS, ("random",) * 4) == pytest.approx(0.0005)
    assert match_seconds(COSTS, ("greedy",) * 4) == pytest.approx(0.003)
    assert match_seconds(COSTS, ("random", "greedy", "random", "random")) == pytest.approx(0.003)
    assert match_seconds(COSTS, ("mcts:100",) + ("greedy",) * 3) == pytest.approx((3.0 + 100 * 1.5) / 1000)
    assert match_seconds(COSTS, ("mcts:100",) * 4) == pytest.approx((3.0 + 400 * 1.5) / 1000)
    assert match_seconds(COSTS, ("mcts",) + ("greedy",) * 3) == match_seconds(COSTS, ("mcts:200",) + ("greedy",) * 3)


def test_an_unmeasured_table_size_costs_the_dearest_measured() -> None:
    assert table_cost(COSTS, 3) == TableCost(1.0, 5.0, 2.0)
    assert table_cost({}, 4) == DEFAULT_TABLE_COST


def test_the_stop_rule_bounds_the_matches_played() -> None:
    assert matches_played(2000, 0.0) == 2000                  # 0: every match
    assert matches_played(2000, 0.02) == 2000                 # ±2 points may need 2,401: the cap
    assert matches_played(100_000, 0.02) == 5000              # …rounded up to the next checkpoint (every 5,000)
    assert matches_played(1000, 0.1) == 100                   # 97 needed, asked every 50
    assert matches_played(1_000_000, 0.005) == 50_000         # the floor: 38,416, asked every 50,000
    assert matches_played(100_000, 0.02) < matches_played(100_000, 0.01) < matches_played(100_000, 0.005) == 40_000


def test_each_factor_raises_the_estimate() -> None:
    base = _total(plan_parts(_plan(), COSTS))
    assert _total(plan_parts(_plan(matches=2000), COSTS)) == pytest.approx(2 * base)
    assert _total(plan_parts(_plan(policies=("mcts:10",)), COSTS)) > base
    assert _total(plan_parts(_plan(policies=("mcts:100",)), COSTS)) > _total(
        plan_parts(_plan(policies=("mcts:10",)), COSTS))
    assert _total(plan_parts(_plan(other_counts=(2,)), COSTS)) > base
    assert _total(plan_parts(_plan(other_counts=(2, 3)), COSTS)) > _total(plan_parts(_plan(other_counts=(2,)), COSTS))
    assert _total(plan_parts(_plan(precision=0.05), COSTS)) < base


def _study(options: int, matches: int = 1000, strong: tuple[str, ...] = (), strong_matches: int = 0) -> VariantStudy:
    game = load_game(DEFAULT_DECKS_DIR, "sengoku")
    study = VariantStudy.from_game(game)
    assert study is not None
    option = study.options[0]
    return dataclasses.replace(study, matches=matches, strong_policies=strong, strong_matches=strong_matches,
                               options=tuple(dataclasses.replace(option, id=f"o{i}") for i in range(options)))


def test_options_and_strong_play_raise_the_estimate() -> None:
    plan = _plan()
    two, four = _total(study_parts(_study(2), plan, COSTS)), _total(study_parts(_study(4), plan, COSTS))
    assert four == pytest.approx(3 * two)  # the default's matches are the plan's own
    assert _total(study_parts(_study(2, matches=2000), plan, COSTS)) > two  # another cap: the default plays too
    strong = _total(study_parts(_study(2, strong=("mcts:50",), strong_matches=40), plan, COSTS))
    stronger = _total(study_parts(_study(2, strong=("mcts:500",), strong_matches=40), plan, COSTS))
    longer = _total(study_parts(_study(2, strong=("mcts:50",), strong_matches=400), plan, COSTS))
    assert two < strong < stronger and strong < longer


def test_rungs_matches_and_self_play_raise_the_ladder_estimate() -> None:
    plan = _plan()
    base = _total(ladder_parts(LadderPlan(("random", "greedy"), 60, (0, 0), 4), plan, COSTS))
    assert _total(ladder_parts(LadderPlan(("random", "greedy"), 600, (0, 0), 4), plan, COSTS)) > base
    assert _total(ladder_parts(LadderPlan(("random", "greedy"), 60, (100, 100), 4), plan, COSTS)) > base
    assert _total(ladder_parts(LadderPlan(("random", "greedy", "mcts:100"), 60, (0, 0, 0), 4), plan, COSTS)) > base
    parts = ladder_parts(LadderPlan(("greedy", "mcts:100"), 60, (0, 10), 4), plan, COSTS)
    assert [part.pointer for part in parts] == ["/simulation/ladder/self_play", "/simulation/ladder/matches"]


def test_over_budget_names_the_biggest_part() -> None:
    parts = [CostPart("a", "/simulation/matches", 10.0), CostPart("b", "/simulation/ladder/matches", 7200.0)]
    assert over_budget(parts, 3605.0, "lower it") is None  # 7,210 one-core seconds are 3,605 on 2 cores
    found = over_budget(parts, 3600.0, "lower it")
    assert found is not None and found[0] == parts[1]
    assert found[1] == ("the simulation would cost about 60 minutes on 2 cores (estimated), over the budget of "
                        "60 minutes; most of it is b (60 minutes): lower it")


ABOUT = [(0.04, "under a second"), (1, "1 second"), (45, "45 seconds"), (119, "119 seconds"), (600, "10 minutes"),
         (7200, "2 hours"), (3.2 * 86400, "3.2 days"), (1000 * 86400, "1,000 days")]


@pytest.mark.parametrize(("seconds", "said"), ABOUT)
def test_about(seconds: float, said: str) -> None:
    assert about(seconds) == said


@pytest.mark.parametrize(("text", "seconds"), [("7200", 7200), ("90s", 90), ("45m", 2700), ("45 min", 2700),
                                               ("6h", 21600), ("1.5h", 5400), ("2d", 172800), ("3 Days", 259200)])
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "h", "6w", "-1h", "0", "nan", "inf", "1e9", "400d", "6h30m"])
def test_parse_duration_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize("game_id", find_games(DEFAULT_DECKS_DIR))
def test_every_shipped_game_is_well_under_the_budget(game_id: str) -> None:
    """Its plan, table sizes, options, strong play and ladder together: at most a third of the budget."""
    parts = game_parts(load_game(DEFAULT_DECKS_DIR, game_id))
    assert parts
    assert wall_seconds(parts) < SIM_BUDGET_SECONDS / 3, [(part.what, round(part.seconds)) for part in parts]
