"""game.json "rules" against the schema of the engine it names (schema/rules/<engine>.schema.json).

Mutations work on a copy of one deck in tmp_path (tmp/schema links to the real schemas). A missing,
mistyped or out-of-range rule must be ONE located line in game.json — file:line:col: $.rules…:
message — from the loader, before any engine is built, with exit 1 and nothing written.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner, Result

from deckcopies import LOCATED, assert_located, copy_decks, edit_json
from generator.cli import app
from validator.engine.registry import find_spec, known_games
from validator.issues import DeckError
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR, PROJECT_ROOT, SCHEMA_DIR

GAMES = known_games()  # every rules engine
runner = CliRunner()


@dataclass(frozen=True)
class Mutation:
    """One change to game.json "rules" and the located line it must give."""

    change: Callable[[dict[str, Any]], None]
    path: str
    message: str


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda rules: rules.__setitem__(key, value)


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda rules: rules.__delitem__(key)


MUTATIONS: dict[str, Mutation] = {
    "gogyo-missing": Mutation(_drop("draw_max"), "$.rules", "'draw_max' is required"),
    "gogyo-type": Mutation(_set("hand_size", "5"), "$.rules.hand_size", "\"5\" is not of type 'integer'"),
    "gogyo-range": Mutation(_set("draw_max", 3), "$.rules.draw_max", "3 is out of range (must be <= 2)"),
    "jinzai-missing": Mutation(_drop("vp_to_win"), "$.rules", "'vp_to_win' is required"),
    "jinzai-type": Mutation(lambda r: r["column_points"].__setitem__("文", "1,-1"),
                            "$.rules.column_points.文", "\"1,-1\" is not of type 'array'"),
    "jinzai-range": Mutation(_set("public_at_setup", 0), "$.rules.public_at_setup", "0 is out of range (must be >= 1)"),
    "sengoku-missing": Mutation(_drop("warlords"), "$.rules", "'warlords' is required"),
    "sengoku-type": Mutation(_set("hand_size", "12"), "$.rules.hand_size", "\"12\" is not of type 'integer'"),
    "sengoku-range": Mutation(_set("hand_size", 0), "$.rules.hand_size", "0 is out of range (must be >= 3)"),
}


def files_in(folder: Path) -> list[Path]:
    return [Path(d, f) for d, _, names in os.walk(folder) for f in names]


def run(args: list[str]) -> Result:
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def located_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if LOCATED.match(line)]


def broken_copy(tmp_path: Path, game: str, change: Callable[[dict[str, Any]], None]) -> Path:
    decks = copy_decks(tmp_path, game)
    edit_json(decks / game / "game.json", lambda data: change(data["rules"]))
    return decks


# --- the schemas themselves ------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_names_a_valid_rules_schema(game: str) -> None:
    spec = find_spec(game)
    assert spec.rules_schema == f"rules/{game}.schema.json"
    schema = json.loads((SCHEMA_DIR / spec.rules_schema).read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["additionalProperties"] is False  # a misspelt rule is an error, not a silent default
    assert set(schema["required"]) <= set(schema["properties"])
    undescribed = [key for key, rule in schema["properties"].items() if "description" not in rule]
    assert not undescribed, f"{game}: rules without a description: {undescribed}"


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_rules_pass(game: str) -> None:
    schema = json.loads((SCHEMA_DIR / "rules" / f"{game}.schema.json").read_text(encoding="utf-8"))
    rules = json.loads((DEFAULT_DECKS_DIR / game / "game.json").read_text(encoding="utf-8"))["rules"]
    assert [e.message for e in Draft202012Validator(schema).iter_errors(rules)] == []
    assert load_game(DEFAULT_DECKS_DIR, game).rules == rules


def test_a_game_without_a_rules_engine_still_loads() -> None:
    """The showcase fixture has no rules and no engine package: nothing reads its rules, nothing is checked."""
    assert "showcase" not in known_games()
    assert load_game(PROJECT_ROOT / "tests" / "fixtures" / "decks", "showcase").rules == {}


# --- a broken rule: one located line, exit 1, nothing written ------------------------------------


@pytest.mark.parametrize("name", MUTATIONS)
def test_the_loader_reports_a_bad_rule_once_at_its_place(tmp_path: Path, name: str) -> None:
    game, mutation = name.split("-")[0], MUTATIONS[name]
    decks = broken_copy(tmp_path, game, mutation.change)
    with pytest.raises(DeckError) as raised:
        load_game(decks, game)
    assert len(raised.value.issues) == 1, [i.render() for i in raised.value.issues]
    found = assert_located(raised.value.issues[0])
    assert Path(found["file"]) == decks / game / "game.json"
    assert found["path"] == mutation.path
    assert mutation.message in found["message"] and f"schema/rules/{game}.schema.json" in found["message"]


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("name", ["gogyo-missing", "jinzai-type", "sengoku-range"])
def test_check_and_build_print_one_located_line(tmp_path: Path, name: str, command: str) -> None:
    game, mutation = name.split("-")[0], MUTATIONS[name]
    decks = broken_copy(tmp_path, game, mutation.change)
    out = tmp_path / "out"
    result = run([command, game, "--decks", str(decks), "--output", str(out)])
    assert result.exit_code == 1, result.output
    lines = located_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    found = assert_located(lines[0])
    assert found["file"].endswith(f"{game}/game.json") and found["path"] == mutation.path
    assert mutation.message in found["message"]
    assert not out.exists() or files_in(out) == [], files_in(out)


def test_an_unknown_engine_is_one_located_error_listing_the_known(tmp_path: Path) -> None:
    decks = broken_copy(tmp_path, "gogyo", _set("engine", "gogo"))
    out = tmp_path / "out"
    result = run(["build", "gogyo", "--decks", str(decks), "--output", str(out)])
    assert result.exit_code == 1, result.output
    lines = located_lines(result.stderr)
    assert len(lines) == 1, result.stderr
    found = assert_located(lines[0])
    assert found["path"] == "$.rules.engine"
    assert "no rules engine 'gogo'" in found["message"] and f"known: {', '.join(known_games())}" in found["message"]
    assert not out.exists() or files_in(out) == []


def test_a_variant_option_is_checked_against_the_same_schema(tmp_path: Path) -> None:
    """jinzai's variant study replaces rules; a bad replacement is located in the option that sets it."""
    decks = copy_decks(tmp_path, "jinzai")
    edit_json(decks / "jinzai" / "game.json",
              lambda d: d["simulation"]["variants"]["options"][1]["rules"]["type_of_number"].__setitem__("2", "X"))
    with pytest.raises(DeckError) as raised:
        load_game(decks, "jinzai")
    assert len(raised.value.issues) == 1
    found = assert_located(raised.value.issues[0])
    assert found["path"] == "$.simulation.variants.options[1].rules.type_of_number[2]"
    assert '"X" is not one of "文", "武"' in found["message"]


def test_the_loader_imports_no_game_package() -> None:
    """The registry is imported when a game is loaded, never with the loader: no import cycle."""
    code = ("import sys, validator.loader; "
            "sys.exit(any(m.startswith('validator.games.') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
