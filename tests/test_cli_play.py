"""`fudaya score` and `fudaya simulate`: output, JSON shape and exit codes."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator.paths import DEFAULT_DECKS_DIR

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_score_prints_total_order_and_parts():
    result = run("score", "gogyo", "唐火", "漢土", "閥", "天", "隋金")
    assert result.exit_code == 0, result.output
    assert "total: 18" in result.output
    assert "order: 漢土 閥 天 隋金 唐火" in result.output
    assert "dynasty run: 18" in result.output and "element run: 0" in result.output


@pytest.mark.parametrize(("hand", "expected"), [
    ("夏木 殷火 周土 秦金 漢水",
     {"total": 46, "dynasty": 26, "element": 20, "order": ["夏木", "殷火", "周土", "秦金", "漢水"]}),
    ("唐火 漢土 閥 天 隋金", {"total": 18, "dynasty": 18, "element": 0, "order": ["漢土", "閥", "天", "隋金", "唐火"]}),
])
def test_score_json_has_exactly_the_four_keys(hand, expected):
    result = run("score", "gogyo", *hand.split(), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == expected


@pytest.mark.parametrize(("hand", "message"), [
    ("唐火 漢土 閥 天", "a hand has 5 cards, got 4"),
    ("唐火 漢土 閥 天 隋金 宋木", "a hand has 5 cards, got 6"),
    ("唐x 漢土 閥 天 隋金", "'x' is not an element"),
    ("X火 漢土 閥 天 隋金", "'X' is not a dynasty"),
    ("天 天 天 天 隋金", "天 appears 4 times, but the deck has 3"),
])
def test_score_rejects_bad_hands_with_exit_2(hand, message):
    result = run("score", "gogyo", *hand.split())
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]


@pytest.mark.slow
def test_simulate_json_small_run_finishes_every_game():
    result = run("simulate", "gogyo", "--players", "4", "--games", "100", "--policy", "greedy", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["matches"] == 100 and summary["games"] == 200
    assert summary["finished"] == {"matches": 100, "games": 200, "timeouts": 0, "all_finished": True}
    assert summary["play_time"]["seconds_per_turn"] == 30.0 and summary["play_time"]["box_minutes"] == [20, 30]
    assert {"Completion", "Balance", "DecisionMoves", "IdealDuration"} <= set(summary["ludii"])


def test_simulate_text_states_the_assumption():
    result = run("simulate", "gogyo", "--players", "2", "--games", "20", "--policy", "random",
                 "--seconds-per-turn", "45")
    assert result.exit_code == 0, result.stderr
    assert "finished: 20/20 matches, 40/40 games" in result.stdout
    assert "45 s per turn" in result.stdout and "seat 2:" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--policy", "smart"), "no policy 'smart'"),
    (("--players", "5"), "5 players is outside gogyo's 2–4"),
    (("--players", "3", "--policy", "greedy,random"), "2 policies for 3 seats"),
])
def test_simulate_rejects_bad_options_with_exit_2(args, message):
    result = run("simulate", "gogyo", "--games", "2", *args)
    assert result.exit_code == 2 and message in result.stderr


def test_a_players_range_gives_one_summary_per_count() -> None:
    result = run("simulate", "gogyo", "--players", "2..3", "--games", "6", "--policy", "random", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["game"] == "gogyo"
    assert [summary["players"] for summary in doc["by_players"]] == [2, 3]
    assert all(summary["matches"] == 6 for summary in doc["by_players"])


@pytest.mark.parametrize(("players", "message"), [
    ("3..2", "gogyo: --players '3..2' is an empty range"),
    ("2..x", "gogyo: --players '2..x' is neither a number nor a range such as 5..8"),
    ("2..5", "5 players is outside gogyo's 2–4"),
])
def test_a_bad_players_range_is_one_line(players: str, message: str) -> None:
    result = run("simulate", "gogyo", "--players", players, "--games", "2")
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("seconds", ["inf", "nan", "0", "-3", "1e9"])
def test_seconds_per_turn_must_be_a_sane_number(seconds: str) -> None:
    result = run("simulate", "gogyo", "--players", "2", "--games", "2", "--seconds-per-turn", seconds)
    assert result.exit_code == 2
    assert "seconds per turn must be above 0 and at most 3600" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("option", "value", "message"), [
    ("--games", "0", "gogyo: 0 matches: at least 1 is needed for any figure"),
    ("--workers", "0", "gogyo: 0 workers: at least 1 is needed"),
])
def test_zero_games_or_workers_are_refused(option: str, value: str, message: str) -> None:
    args = {"--games": "2", "--workers": "1"} | {option: value}
    result = run("simulate", "gogyo", "--players", "2", *[part for pair in args.items() for part in pair])
    assert result.exit_code == 2
    assert message in result.stderr


def test_list_shows_every_loadable_game_and_exits_1_for_one_that_is_not(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", decks / "gogyo")
    (decks / "broken").mkdir()
    (decks / "broken" / "game.json").write_text('{"id": "broken"', encoding="utf-8")
    for args in (["list"], ["list", "--json"]):
        result = CliRunner().invoke(app, [*args, "--decks", str(decks)])
        assert result.exit_code == 1, result.output
        assert "gogyo" in result.stdout and "broken" in result.output
        assert "broken/game.json:1:16: $: invalid JSON" in result.output
    listed = json.loads(CliRunner().invoke(app, ["list", "--json", "--decks", str(decks)]).stdout)
    assert [entry["id"] for entry in listed] == ["broken", "gogyo"] and "error" in listed[0]
