"""Schema patterns run on RE2 (issue 23): a deck's own field schema cannot hang the check with a
backtracking pattern, `$` does not accept a trailing newline, and a pattern RE2 cannot run is located."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks, edit_json
from generator.cli import app
from validator.schema import compiled_pattern

runner = CliRunner()


def _check(decks: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    return result.exit_code, result.stderr


def test_dollar_is_the_end_of_the_text_not_of_a_line() -> None:
    anchored = compiled_pattern("^[a-z0-9][a-z0-9_-]*$")
    assert anchored.search("cards") and not anchored.search("cards\n")


def test_a_newline_in_a_file_name_is_refused(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "game.json", lambda data: data["components"][0].update(cards="cards.json\n"))
    code, stderr = _check(decks)
    assert code == 1
    line = next(line for line in stderr.splitlines() if "control character" in line)
    assert assert_located(line)["path"] == "$.components[0].cards"


def test_a_backtracking_pattern_in_a_decks_field_schema_does_not_hang(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")

    def evil(data: dict) -> None:  # type: ignore[type-arg]
        data["fields"] = {"type": "object", "properties": {"reading": {"type": "string", "pattern": "^(a+)+$"}}}
        data["cards"][0]["fields"]["reading"] = "a" * 5_000 + "!"

    edit_json(decks / "gogyo" / "cards.json", evil)
    started = time.monotonic()
    code, stderr = _check(decks)
    assert time.monotonic() - started < 30  # Python's re would take longer than the universe's age
    assert code == 1 and "does not match the pattern '^(a+)+$'" in stderr


@pytest.mark.parametrize("pattern", [r"(a)\1", "(?=a)b", "(?<!x)y", "["])
def test_a_pattern_re2_cannot_run_is_a_located_error(tmp_path: Path, pattern: str) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "cards.json", lambda data: data.update(
        fields={"type": "object", "properties": {"reading": {"type": "string", "pattern": pattern}}}))
    code, stderr = _check(decks)
    line = next(line for line in stderr.splitlines() if "$.fields.properties.reading.pattern:" in line)
    assert code == 1 and assert_located(line)["path"] == "$.fields.properties.reading.pattern"
    assert "not a usable pattern" in line or "is not a 'regex'" in line  # "[": neither RE2 nor re can run it
