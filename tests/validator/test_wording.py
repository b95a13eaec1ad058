"""Messages count in proper English: one match, two matches."""
from __future__ import annotations

import pytest

from validator.wording import counted


@pytest.mark.parametrize(("count", "noun", "expected"), [
    (1, "match", "1 match"), (2, "match", "2 matches"), (0, "card", "0 cards"), (1, "placement", "1 placement"),
    (3, "box", "3 boxes"), (2, "game", "2 games"),
])
def test_counted(count: int, noun: str, expected: str) -> None:
    assert counted(count, noun) == expected


def test_a_one_match_simulation_says_one_match() -> None:
    from typer.testing import CliRunner

    from generator.cli import app

    result = CliRunner().invoke(app, ["simulate", "sengoku", "--players", "4", "--games", "1", "--policy", "random"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("sengoku: 1 match, 4 players") and "a match is 1 game (" in result.output
    assert " 1 games" not in result.output and " 1 matches" not in result.output
