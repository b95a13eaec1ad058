"""Simulation harness and statistics: determinism across workers, caps, Ludii metrics, intervals."""
from __future__ import annotations

import json
import math
import signal

import pytest

from validator import simulate as simulate_module
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for, known_games
from validator.intervals import wilson
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_report import render_text
from validator.simulate import SimConfig, chunks, derive_seed, play_match, simulate, usable_workers
from validator.stats import distribution, ideal_duration, percentile, summarize


@pytest.fixture(scope="module")
def engine():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))


def test_same_seed_same_records(engine):
    config = SimConfig(4, ("greedy", "random", "greedy", "random"), 30, seed=4)
    assert simulate(engine, config) == simulate(engine, config)
    assert simulate(engine, config) != simulate(engine, SimConfig(4, config.policies, 30, seed=5))


def test_one_match_does_not_depend_on_the_others(engine):
    policies = [find_policy("random", "gogyo")] * 3
    alone = play_match(engine, policies, 8, 17)
    among = simulate(engine, SimConfig(3, ("random",) * 3, 20, seed=8))[17]
    assert alone == among


@pytest.mark.slow
@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_workers_do_not_change_the_summary(engine, start_method, monkeypatch):
    """Neither the worker count nor how workers start (fork on Linux, spawn elsewhere) changes a record."""
    monkeypatch.setattr(simulate_module, "_START_METHOD", start_method)
    one = SimConfig(4, ("greedy",) * 4, 120, seed=1, workers=1)
    two = SimConfig(4, ("greedy",) * 4, 120, seed=1, workers=2)
    first, second = simulate(engine, one), simulate(engine, two)
    assert first == second
    assert json.dumps(summarize(first, engine, one).to_json()) == json.dumps(summarize(second, engine, one).to_json())


def test_the_step_cap_stops_games_and_counts_timeouts(engine):
    config = SimConfig(2, ("random",) * 2, 10, seed=1, step_cap=5)
    records = simulate(engine, config)
    assert all(m.timed_out and not m.winners and len(m.games) == 1 for m in records)
    summary = summarize(records, engine, config)
    assert summary.ludii.timeouts == 1.0 and summary.ludii.completion == 0.0
    assert summary.ended_by == {"cap": 10} and not summary.finished.all_finished


@pytest.mark.slow
def test_summary_holds_every_reported_figure(engine):
    config = SimConfig(4, ("greedy",) * 4, 200, seed=2)
    summary = summarize(simulate(engine, config), engine, config, seconds_per_turn=20)
    assert summary.finished.all_finished and summary.games == 400
    assert sum(summary.ended_by.values()) == 400
    assert math.isclose(sum(row.rate for row in summary.seats), 1.0)
    assert all(row.ci95[0] <= row.rate <= row.ci95[1] for row in summary.seats)
    lu = summary.ludii
    assert lu.balance == pytest.approx(1 - (max(r.rate for r in summary.seats) - min(r.rate for r in summary.seats)))
    assert 0 <= lu.decision_moves <= 1 and 0 <= lu.ideal_duration <= 1
    assert summary.play_time.turn_band == (60.0, 90.0)  # 20-30 min at 20 s per turn
    assert lu.duration_turns == pytest.approx(summary.turns.per_match.mean)
    text = render_text(summary)
    assert "20 s per turn" in text and "the box says 20-30 min" in text and "seat 4:" in text


def test_derived_seeds_and_chunks():
    assert derive_seed(1, 0, "chance") == derive_seed(1, 0, "chance") != derive_seed(1, 1, "chance")
    assert derive_seed(1, 0, "chance") != derive_seed(1, 0, "policy")
    parts = list(chunks(1001, 2))
    assert parts[0][0] == 0 and parts[-1][1] == 1001 and all(a[1] == b[0] for a, b in zip(parts, parts[1:]))


def test_chunks_are_lazy_for_huge_counts():
    first = next(iter(chunks(10**12, 2)))
    assert first == (0, 500)


def test_absurd_match_counts_and_caps_are_refused_before_any_work():
    with pytest.raises(ValueError, match="more than the 1,000,000 one run keeps in memory"):
        SimConfig(2, ("random", "random"), 10**12)
    with pytest.raises(ValueError, match="step cap of 10000000 is more than 100,000"):
        SimConfig(2, ("random", "random"), 1, step_cap=10**7)


def test_workers_never_exceed_the_cores():
    import os

    assert usable_workers(1000) == (os.cpu_count() or 1)
    assert usable_workers(1) == 1


def test_config_rejects_a_policy_count_that_does_not_match():
    with pytest.raises(ValueError, match="2 policies for 3 seats"):
        SimConfig(3, ("random", "random"), 1)


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_ideal_duration_follows_ludii():
    assert ideal_duration(50, 40, 60) == 1.0
    assert ideal_duration(20, 40, 60) == 0.5
    assert ideal_duration(90, 40, 60) == 0.5
    assert ideal_duration(120, 40, 60) == 0.0


def test_distribution_and_percentiles():
    assert percentile([1, 2, 3, 4], 50) == 2.5
    d = distribution([0, 6, 6, 13])
    assert d.mean == 6.25 and d.median == 6
    # one bar per integer, empty ones kept, so 0 -> 6 is not drawn as close as 6 -> 13
    assert [(h.low, h.count) for h in d.histogram] == [
        (v, {0: 1, 6: 2, 13: 1}.get(v, 0)) for v in range(14)]


def test_a_worker_dies_on_sigterm_and_leaves_ctrl_c_to_the_parent(engine):
    """Whatever handlers a forked worker inherits (the build turns SIGTERM into an exception)."""
    saved = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        simulate_module._init_worker((engine, SimConfig(4, ("random",) * 4, 2, seed=1)))
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, saved[0])
        signal.signal(signal.SIGINT, saved[1])


def test_a_game_a_spawned_worker_cannot_load_is_an_error_not_a_hang(engine, monkeypatch):
    """A worker that died while unpickling its game was replaced by the pool forever."""
    monkeypatch.setattr(simulate_module, "_START_METHOD", "spawn")
    monkeypatch.setattr(simulate_module, "_WORKER", {})
    simulate_module._init_worker(b"not a pickle")
    with pytest.raises(RuntimeError, match="could not load the game"):
        simulate_module._run_chunk((0, 1))


@pytest.mark.parametrize("game_id", known_games())
def test_an_engine_pickled_fresh_plays_as_the_original(game_id):
    """Spawned workers (macOS, Windows) get the engine pickled before it has played: gogyo's lookup
    tables came back holding copies of the scorer's dicts and the first game died with a KeyError."""
    import pickle

    model = load_game(DEFAULT_DECKS_DIR, game_id)
    seats = max(model.players[0], 4)
    config = SimConfig(seats, ("greedy", "random") * (seats // 2) + ("random",) * (seats % 2), 6, seed=3)
    original, copied = engine_for(model), pickle.loads(pickle.dumps(engine_for(model)))
    assert simulate(copied, config) == simulate(original, config)


def _timed(below, within, above):
    import dataclasses

    from reports import small_report

    report = small_report()
    return dataclasses.replace(report, play_time=dataclasses.replace(
        report.play_time, box_minutes=(20, 30), seconds_per_turn=30, share_below_box=below,
        share_within_box=within, share_above_box=above))


def test_check_warns_when_most_matches_miss_the_box_time():
    """gogyo: 72 % of the matches end sooner than the box's 20-30 min (issue 13); said as an estimate."""
    from validator.sim_report import box_time_warning

    assert box_time_warning(_timed(0.722, 0.248, 0.03)) == (
        "72.2 % of simulated matches end sooner than the box's 20–30 min (an estimate at an assumed 30 s a "
        "turn): the box time or the assumed turn time needs a look")
    assert "end later" in box_time_warning(_timed(0.1, 0.3, 0.6))
    assert box_time_warning(_timed(0.4, 0.4, 0.2)) is None  # no single side holds most matches


def test_a_stop_rule_cuts_at_its_first_satisfied_checkpoint_whatever_the_workers(engine):
    """The rule is asked at every multiple of `every` on exactly that many records, so 1 or 2 workers
    (whose chunks run ahead of the checkpoint) stop at the same match with the same records."""
    from validator.simulate import StopRule

    asked: list[int] = []

    def enough(records):
        asked.append(len(records))
        return len(records) >= 60 and sum(bool(m.winners) for m in records) >= 55

    config = SimConfig(4, ("greedy",) * 4, 200, seed=3)
    full = simulate(engine, config)
    one = simulate(engine, config, StopRule(enough, every=20))
    assert asked == [20, 40, 60]
    two = simulate(engine, SimConfig(4, ("greedy",) * 4, 200, seed=3, workers=2), StopRule(enough, every=20))
    assert one == two == full[:60]
    never = simulate(engine, config, StopRule(lambda records: False, every=30))
    assert never == full  # the cap: every match, even past the last checkpoint (200 is not a multiple of 30)


def test_seat_precision_is_the_widest_seat_interval_half_width(engine):
    from validator.stats import seat_precision

    records = simulate(engine, SimConfig(4, ("greedy",) * 4, 300, seed=1))
    summary = summarize(records, engine, SimConfig(4, ("greedy",) * 4, 300, seed=1))
    widest = max((seat.ci95[1] - seat.ci95[0]) / 2 for seat in summary.seats)
    assert seat_precision(records, engine, 4) == pytest.approx(widest)
    assert 0.04 < widest < 0.06  # about 1.96 * sqrt(0.25 * 0.75 / 300)
    assert seat_precision([], engine, 4) == 0.5


@pytest.mark.slow
def test_a_plan_stops_once_every_seat_is_as_precise_as_asked():
    """game.json "precision" (default ±2 points): the summary says how precise the seats came out,
    the matches played are the first checkpoint reaching it, the cap holds where it is out of reach."""
    import dataclasses

    from validator.sim_plan import SimulationPlan, run_plan
    from validator.stats import seat_precision

    game = load_game(DEFAULT_DECKS_DIR, "gogyo")
    gogyo = engine_for(game)
    plan = dataclasses.replace(SimulationPlan.from_game(game), matches=1000, precision=0.04)
    summary = run_plan(gogyo, plan, workers=1)
    played = summary.matches
    assert summary.precision is not None
    assert played < 1000 and played % 50 == 0 and summary.precision.stopped_early
    assert summary.precision.reached <= 0.04
    records = simulate(gogyo, plan.config(gogyo, 1))
    assert seat_precision(records[:played - 50], gogyo, 4) > 0.04  # the checkpoint before was not enough
    assert run_plan(gogyo, plan, workers=2) == summary
    capped = run_plan(gogyo, dataclasses.replace(plan, matches=100, precision=0.02), workers=1)
    assert capped.precision is not None
    assert capped.matches == 100 and not capped.precision.stopped_early
    assert capped.precision.reached > 0.02
    every = run_plan(gogyo, dataclasses.replace(plan, matches=100, precision=0), workers=1)
    assert every.precision is not None
    assert every.matches == 100 and every.precision.target == 0


def test_simulate_command_stops_at_the_precision_asked_and_says_so():
    from typer.testing import CliRunner

    from generator.cli import app

    result = CliRunner().invoke(app, ["simulate", "gogyo", "--players", "4", "--games", "2000",
                                      "--precision", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["matches"] < 2000 and summary["matches"] % 100 == 0  # a checkpoint: every 2000/20 matches
    assert summary["precision"] == {"target": 0.05, "reached": summary["precision"]["reached"], "cap": 2000,
                                    "stopped_early": True}
    assert summary["precision"]["reached"] <= 0.05
    text = CliRunner().invoke(app, ["simulate", "gogyo", "--players", "4", "--games", "2000", "--precision", "0.05"])
    assert f"target ±5 points reached after {summary['matches']} of at most 2000 matches" in text.output
