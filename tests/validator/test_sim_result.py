"""The simulation report as typed data: to_json/from_json round-trip exactly for every registered game,
from_json refuses what is not a report with one line, and validator never imports generator."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reports import cut_whole_report, small_report
from validator.engine.registry import engine_for, known_games
from validator.jsonread import Fields, ReportFormatError
from validator.ladder import LadderPlan, climb
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan
from validator.sim_result import SimulationReport, Studies

ROOT = Path(__file__).resolve().parents[2]


def _round_trip(report: SimulationReport) -> None:
    """Through JSON text and back: the same value, and the same text written again (key order, ints)."""
    text = json.dumps(report.to_json(), ensure_ascii=False, indent=1)
    again = SimulationReport.from_json(Fields(json.loads(text)))
    assert again == report
    assert json.dumps(again.to_json(), ensure_ascii=False, indent=1) == text


@pytest.mark.parametrize("game_id", known_games())
def test_every_registered_games_report_round_trips(game_id: str) -> None:
    _round_trip(small_report(game_id))


@pytest.mark.parametrize("game_id", known_games())
def test_every_registered_games_whole_report_round_trips(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report a build writes: table sizes, the variant study and the Japanese names included."""
    from validator.variants import VariantStudy

    game = load_game(DEFAULT_DECKS_DIR, game_id)
    has_study = VariantStudy.from_game(game) is not None
    report = cut_whole_report(game, 8, monkeypatch)
    plan = SimulationPlan.from_game(game)
    assert plan is not None and report.names_ja is not None
    assert (report.by_players is not None) == bool(plan.other_counts) and (report.variants is not None) == has_study
    _round_trip(report)


def test_a_ladder_and_the_studies_round_trip() -> None:
    gogyo = load_game(DEFAULT_DECKS_DIR, "gogyo")
    base = SimulationPlan(2, 20, ("greedy",), seed=3)
    ladder = climb(engine_for(gogyo), base, LadderPlan(("random", "greedy"), 12, (12, 12), 2), workers=1)
    assert ladder.seats is not None  # two strengths measured: the seats' verdict is part of the round trip
    _round_trip(dataclasses.replace(small_report(), ladder=ladder))
    studies = Studies(ladder=ladder)
    assert Studies.from_json(Fields(json.loads(json.dumps(studies.to_json())))) == studies
    _round_trip(dataclasses.replace(small_report(), studies_not_run=("ladder", "strong_play")))


def _broken(how: str) -> object:
    data = json.loads(json.dumps(small_report().to_json()))
    if how == "a wrong type":
        data["finished"]["matches"] = "6"
    elif how == "a missing field":
        del data["play_time"]
    elif how == "NaN":
        data["ludii"]["Balance"] = float("nan")
    elif how == "an unknown field":
        data["turns"]["per_round"] = {"n": 0}
    elif how == "a float for an integer":
        data["matches"] = 6.0
    elif how == "a seat short":
        data["seats"] = data["seats"][:-1]
    elif how == "an older format":
        data["format"] = 1  # before report.json said its shape (no teams, no fair shares)
    elif how == "not an object":
        data = [data]
    return data


@pytest.mark.parametrize("how, says", [
    ("a wrong type", "$.finished.matches: expected an integer, found a string"),
    ("a missing field", "$: missing 'play_time'"),
    ("NaN", "$.ludii.Balance: expected a finite number, found nan"),
    ("an unknown field", "$.turns: unexpected 'per_round'"),
    ("a float for an integer", "$.matches: expected an integer, found a number"),
    ("a seat short", "$.seats: expected 4 seats, found 3"),
    ("not an object", "$: expected an object, found an array"),
    ("an older format", "$.format: expected report format 2, found 1"),
])
def test_from_json_refuses_what_is_not_a_report_in_one_line(how: str, says: str) -> None:
    with pytest.raises(ReportFormatError) as refused:
        SimulationReport.from_json(Fields(_broken(how)))
    assert str(refused.value) == says


def test_validator_never_imports_generator() -> None:
    """Imported alone in a fresh interpreter, validator.study (which reaches every report module) and the
    whole validator package leave no generator nor reportlab module behind."""
    probe = ("import sys, pkgutil, importlib, validator\n"
             "import validator.study\n"
             "for m in pkgutil.walk_packages(validator.__path__, 'validator.'):\n"
             "    importlib.import_module(m.name)\n"
             "print('\\n'.join(sorted(n for n in sys.modules if n.split('.')[0] in ('generator', 'reportlab'))))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
