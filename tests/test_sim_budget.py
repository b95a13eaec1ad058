"""A deck whose simulation would run for days is refused before any match is played (issue 23):
`check` (even with --no-simulate) and `build` give one located line and exit 1; `--sim-budget`
raises the cap; `simulate` and `ladder` refuse a command line over it with one plain line."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from deckcopies import assert_located, copy_decks, edit_json
from generator.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match is played through play_range (in-process and in forked workers): none may start."""
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a match was played")
    monkeypatch.setattr("validator.simulate.play_range", refuse)


def run(args: list[str]) -> Result:
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def hostile(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of gogyo whose game.json "simulation" is edited by `change`; returns the decks folder."""
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "game.json", lambda data: change(data["simulation"]))
    return decks


def days_of_mcts(simulation: dict[str, Any]) -> None:
    simulation.update(matches=100_000, policies=["mcts:100"], precision=0)


def located(stderr: str, path: str) -> str:
    lines = [line for line in stderr.splitlines() if f": {path}: " in line]
    assert len(lines) == 1, stderr
    assert_located(lines[0])
    return lines[0]


@pytest.mark.parametrize("simulate", ["--no-simulate", "--simulate"])
def test_check_refuses_a_plan_over_the_budget(tmp_path: Path, simulate: str) -> None:
    decks = hostile(tmp_path, days_of_mcts)
    result = run(["check", "gogyo", "--decks", str(decks), "--output", str(tmp_path / "out"), simulate])
    assert result.exit_code == 1, result.output
    line = located(result.stderr, "$.simulation.matches")
    assert "game.json:" in line
    assert ("the simulation would cost about 3 days on 2 cores (estimated), over the budget of 2 hours; most of "
            "it is the main simulation (3 days): lower the matches, mcts budgets, table sizes or options, or raise "
            "--sim-budget") in line
    assert "gogyo: 1 problem" in result.stdout


def test_build_refuses_it_before_drawing(tmp_path: Path) -> None:
    decks, out = hostile(tmp_path, days_of_mcts), tmp_path / "out"
    result = run(["build", "gogyo", "--decks", str(decks), "--output", str(out)])
    assert result.exit_code == 1, result.output
    located(result.stderr, "$.simulation.matches")
    assert "gogyo: not built (1 problem)" in result.stderr
    assert not (out / "gogyo").exists()


def test_sim_budget_raises_the_cap(tmp_path: Path) -> None:
    decks = hostile(tmp_path, days_of_mcts)
    for budget in ("4d", "350000"):
        result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate", "--sim-budget", budget])
        assert result.exit_code == 0, result.output
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate", "--sim-budget", "2d"])
    assert result.exit_code == 1 and "over the budget of 2 days" in result.stderr


def test_what_every_check_plays_has_a_smaller_cap(tmp_path: Path) -> None:
    """A plan within the 2-hour budget that every plain check would play for an hour is refused; the studies
    may take the rest of the budget (build --studies alone plays them); a raised budget lifts both caps."""
    decks = hostile(tmp_path, lambda s: s.update(matches=10_000, policies=["mcts:10"], precision=0))  # ~44 min
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    line = located(result.stderr, "$.simulation.matches")
    assert "what every check and build plays (the studies aside) would cost about" in line
    assert "over the budget of 10 minutes" in line
    assert run(["check", "gogyo", "--decks", str(decks), "--no-simulate", "--sim-budget", "3h"]).exit_code == 0


def test_a_bad_sim_budget_is_one_line(tmp_path: Path) -> None:
    result = run(["check", "gogyo", "--no-simulate", "--sim-budget", "soon"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("--sim-budget 'soon' is not a duration (seconds, or a number with s, m, h or d, "
                                     "e.g. 6h)")


@pytest.mark.parametrize(("change", "path"), [
    (lambda s: s.update(player_counts=[2, 3, 4], matches=200_000, policies=["mcts:10"], precision=0),
     "$.simulation.player_counts"),
    (lambda s: s["ladder"].update(matches=100_000), "$.simulation.ladder.matches"),
    (lambda s: s["ladder"].update(self_play=[200, 200, 100_000]), "$.simulation.ladder.self_play"),
])
def test_the_biggest_part_is_named(tmp_path: Path, change: Callable[[dict[str, Any]], None], path: str) -> None:
    decks = hostile(tmp_path, change)
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    located(result.stderr, path)


def test_variant_options_are_costed(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")

    def change(data: dict[str, Any]) -> None:
        data["simulation"].update(policies=["mcts:5"], precision=0)
        data["simulation"]["variants"].update(matches=200_000, strong_play={"policies": ["mcts:50"], "matches": 10})
    edit_json(decks / "jinzai" / "game.json", change)
    result = run(["check", "jinzai", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    line = located(result.stderr, "$.simulation.variants.options")
    assert "most of it is the variant study's 4 options" in line


def test_a_tiny_precision_is_refused_where_it_is_written(tmp_path: Path) -> None:
    decks = hostile(tmp_path, lambda s: s.update(precision=0.0001))
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    line = located(result.stderr, "$.simulation.precision")
    assert "precision must be 0 (play every match) or between 0.005 and 0.5" in line


def test_simulate_refuses_a_command_line_over_the_budget() -> None:
    args = ["simulate", "gogyo", "--players", "4", "--games", "100000", "--policy", "mcts:100"]
    result = run(args)
    assert result.exit_code == 2
    assert result.stderr.startswith("gogyo: the simulation would cost about 3 days on 2 cores (estimated)")
    assert result.stderr.strip().endswith("lower --games or the policies' mcts budgets, or raise --sim-budget")
    assert len(result.stderr.strip().splitlines()) == 1
    assert run(["simulate", "gogyo", "--games", "10", "--precision", "0.001"]).exit_code == 2


def test_simulate_within_a_raised_budget_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    monkeypatch.setattr("validator.sim_plan.simulate", lambda engine, config, stop: played.append(config.matches)
                        or [])
    result = runner.invoke(app, ["simulate", "gogyo", "--games", "100000", "--policy", "mcts:100",
                                 "--sim-budget", "4d"])
    assert played == [100_000], result.output


def test_ladder_refuses_a_command_line_over_the_budget() -> None:
    result = run(["ladder", "gogyo", "--rungs", "greedy,mcts:1000", "--matches", "10000", "--self-play", "0"])
    assert result.exit_code == 2
    assert "most of it is the ladder's mcts:1000 against greedy" in result.stderr
    assert result.stderr.strip().endswith("or raise --sim-budget")


def test_ladder_takes_one_self_play_count_per_rung(monkeypatch: pytest.MonkeyPatch) -> None:
    """A team game's pair needs the weaker rung's self-play for its bar, and a strong rung's own costs hours:
    `--self-play 1000,0` plays the one and not the other."""
    planned: list[tuple[int, ...]] = []

    def climb(engine: Any, base: Any, plan: Any, **_: Any) -> None:
        planned.append(plan.self_play)
        raise ValueError("stopped here")
    monkeypatch.setattr("validator.ladder.climb", climb)
    result = run(["ladder", "sanguosha", "--rungs", "greedy,mcts:200", "--matches", "10", "--self-play", "1000,0"])
    assert planned == [(1000, 0)] and result.stderr.strip() == "sanguosha: stopped here"
    assert run(["ladder", "gogyo", "--rungs", "greedy,mcts:10", "--matches", "10", "--self-play", "7"]).exit_code \
        == 2 and planned[-1] == (7, 7)
    for bad, says in [("4,x", "not 'x'"), ("4,-1", "not '-1'"), ("4,²", "not '²'"),
                      ("1,2,3", "3 self-play counts for 2 rungs (give one, or one per rung)")]:
        result = run(["ladder", "gogyo", "--rungs", "random,greedy", "--matches", "4", "--self-play", bad])
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
        assert result.stderr.strip().startswith("gogyo: ") and result.stderr.strip().endswith(says)


def test_a_study_of_many_options_is_refused_by_the_schema(tmp_path: Path) -> None:
    """Each option is built (and would be played) before the budget is reached: the schema caps them at 20."""
    decks = copy_decks(tmp_path, "sanguosha")
    edit_json(decks / "sanguosha" / "game.json", lambda data: data["simulation"]["variants"]["options"].extend(
        {"id": f"copy{i}", "label": "標準"} for i in range(19)))
    result = run(["check", "sanguosha", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    line = located(result.stderr, "$.simulation.variants.options")
    assert line.endswith(": 21 items, where at most 20 are allowed")


@pytest.mark.parametrize(("change", "says"), [
    (lambda s: s.update(player_counts=[2, 7]), "$.simulation.player_counts[1]: player_counts: 7 players is outside "
                                               "gogyo's 2–4"),
    (lambda s: s.update(player_counts=[2], policies=["greedy", "greedy", "random", "random"]),
     "$.simulation.player_counts[0]: player_counts: 4 policies cannot be spread over 2 seats (give one policy)"),
])
def test_a_table_size_the_plan_cannot_play_is_located(tmp_path: Path, change: Callable[[dict[str, Any]], None],
                                                      says: str) -> None:
    """Costed as a table size, and once a traceback in the middle of the report's simulation."""
    decks = hostile(tmp_path, change)
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    assert located(result.stderr, says.split(": ")[0]).endswith(says)
