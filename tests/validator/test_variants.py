"""Design exploration (game.json simulation.variants).

Options apply to a copy, the default is the deck, results compare.
"""
from __future__ import annotations

import dataclasses

import pytest

from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, run_plan
from validator.sim_result import SeatRate, VariantRow
from validator.variants import CardEdit, VariantStudy, apply_option, check_study, run_study


@pytest.fixture(scope="module")
def game():
    return load_game(DEFAULT_DECKS_DIR, "jinzai")


@pytest.fixture(scope="module")
def study(game) -> VariantStudy:
    found = VariantStudy.from_game(game)
    assert found is not None
    return found


def option(study: VariantStudy, option_id: str):
    return next(o for o in study.options if o.id == option_id)


def test_jinzai_asks_about_tiles_1_and_2_with_all_four_assignments(game, study):
    assert {o.id for o in study.options} == {"1bun-2bun", "1bun-2bu", "1bu-2bun", "1bu-2bu"}
    assert study.default == "1bun-2bun"
    assert check_study(game, study) == []


def test_an_option_changes_rules_and_tiles_of_a_copy_only(game, study):
    changed = apply_option(game, option(study, "1bu-2bun"))
    engine = engine_for(changed)
    assert engine.table.type_of[1:3] == ("武", "文")
    ones = [c for d in changed.decks for c in d.cards if c.fields.get("number") == 1]
    assert ones and all(c.fields["type"] == "武" and c.fields["type_label"] == "武" for c in ones)
    assert engine_for(game).table.type_of[1] == "文"  # the loaded game is untouched
    assert apply_option(game, option(study, "1bun-2bun")) == game


def test_a_default_that_is_not_the_deck_is_an_error(game, study):
    wrong = dataclasses.replace(study, default="1bu-2bu")
    issues = check_study(game, wrong)
    assert [i.location.pointer for i in issues] == ["/simulation/variants/default"]
    assert "differs from the deck's rules, cards or map" in issues[0].message
    missing = dataclasses.replace(study, default="2bu")
    assert "is not one of the options" in check_study(game, missing)[0].message


def test_options_that_cannot_apply_are_errors(game, study):
    first = study.options[0]
    unknown_rule = dataclasses.replace(first, id="x", rules={"tiles_per_hand": 6})
    no_card = dataclasses.replace(first, id="y", card_edits=(CardEdit({"number": 9}, {"type": "武"}),))
    half = dataclasses.replace(first, id="z", rules={}, card_edits=(CardEdit({"number": 1}, {"type": "武"}),))
    issues = check_study(game, dataclasses.replace(study, options=study.options + (unknown_rule, no_card)))
    messages = [i.message for i in issues]
    assert any("overrides tiles_per_hand, not in game.json rules" in m for m in messages)
    assert any("no card has fields {'number': 9}" in m for m in messages)
    issues = check_study(game, dataclasses.replace(study, options=study.options + (half,)))
    assert len(issues) == 1 and "option 'z' cannot be played" in issues[0].message
    assert "rules.type_of_number makes 1 文" in issues[0].message  # tiles say 武, rules still say 文


@pytest.mark.slow
def test_the_study_compares_every_option_on_the_same_deals(game, study):
    plan = dataclasses.replace(SimulationPlan.from_game(game), matches=40)
    small = dataclasses.replace(study, matches=40)
    result = run_study(game, small, plan, workers=1)
    assert [row.id for row in result.options] == [o.id for o in study.options]
    assert [row.default for row in result.options] == [o.id == "1bun-2bun" for o in study.options]
    default_row = result.default_row
    alone = run_plan(engine_for(game), plan, workers=1)  # the default option is the deck's own simulation
    assert default_row.balance == alone.ludii.balance
    assert default_row.seats == alone.seats
    balances = sorted((row.balance for row in result.options), reverse=True)
    assert default_row.balance == balances[result.balance_rank_of_default - 1]
    assert result.verdict.startswith("default 1bun-2bun: Balance")
    assert run_study(game, small, plan, workers=2) == result  # workers do not change a number


def _row(option: str, balance: float, intervals: list[tuple[float, float]], default: bool = False) -> VariantRow:
    seats = tuple(SeatRate(n + 1, 0.0, (low + high) / 2, (low, high)) for n, (low, high) in enumerate(intervals))
    return VariantRow(option, f"案{option}", default, 100, 0.05, balance, seats, (), 10.0, 1.0, 2.0, 0.0, 0.0, 30.0,
                      10.0)


def test_a_ranking_is_claimed_only_where_the_seat_intervals_separate() -> None:
    """jinzai's default was "the most balanced option" at seed 1 and 4th at seed 4: overlapping
    intervals order options by noise, so no order is claimed from them (issue 13)."""
    from validator.variants import _verdicts

    close = [(0.20, 0.30), (0.22, 0.32)]
    default = _row("a", 0.97, close, default=True)
    rows = [default, _row("b", 0.95, close), _row("c", 0.99, close)]
    supported, verdict, verdict_ja = _verdicts(rows, default, sorted(rows, key=lambda r: -r.balance))
    assert "no ranking is claimed" in verdict and "順位を主張しない" in verdict_ja
    assert verdict_ja.startswith("既定の「案a」は") and "「案c」" in verdict_ja  # labels, not ids
    assert not supported and "rank" not in verdict.replace("ranking", "")

    lopsided = _row("d", 0.60, [(0.40, 0.50), (0.05, 0.10)])
    rows = [default, _row("b", 0.95, close), lopsided]
    _, verdict, _ = _verdicts(rows, default, sorted(rows, key=lambda r: -r.balance))
    assert "more balanced than d" in verdict and "most balanced option" not in verdict

    best = _row("e", 0.99, [(0.24, 0.26), (0.24, 0.26)])
    worse = _row("a", 0.70, [(0.40, 0.50), (0.05, 0.10)], default=True)
    supported, verdict, _ = _verdicts([worse, best], worse, [best, worse])
    assert "balance rank 2 of 2, below e at 0.990" in verdict and supported


@pytest.mark.slow
def test_the_default_option_reuses_the_main_runs_records_only_where_they_are_its_own(game, study):
    """The report hands the study its main run; the default option's row must be what playing it
    again gives (the default is the deck as shipped), and a study with another cap plays it anew."""
    from validator.sim_plan import play_plan

    plan = dataclasses.replace(SimulationPlan.from_game(game), matches=100, precision=0.05)
    small = dataclasses.replace(study, matches=100)
    records, _ = play_plan(engine_for(game), plan, workers=1)
    assert run_study(game, small, plan, workers=1, shipped=records) == run_study(game, small, plan, workers=1)
    wrong = records[:50]  # not this study's records: a study with another cap must not take them
    other_cap = dataclasses.replace(study, matches=60)
    assert run_study(game, other_cap, plan, workers=1, shipped=wrong) == run_study(game, other_cap, plan, workers=1)
