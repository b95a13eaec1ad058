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


@pytest.mark.parametrize(("count", "noun", "expected"), [
    (2, "policy", "2 policies"), (1, "policy", "1 policy"), (3, "copy", "3 copies"), (2, "day", "2 days"),
])
def test_nouns_in_y(count: int, noun: str, expected: str) -> None:
    assert counted(count, noun) == expected


def test_messages_that_can_count_one_say_one() -> None:
    """The plural audit: messages a deck or a command line can make count one thing."""
    import dataclasses

    from validator.engine.registry import engine_for
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR
    from validator.sim_plan import SimulationPlan, at_count

    game = load_game(DEFAULT_DECKS_DIR, "gogyo")
    engine = engine_for(game)
    plan = SimulationPlan.from_game(game)
    assert plan is not None
    with pytest.raises(ValueError, match=r"^1 player is outside"):
        dataclasses.replace(plan, players=1).config(engine, 1)
    with pytest.raises(ValueError, match=r"^2 policies for 4 seats"):
        dataclasses.replace(plan, policies=("greedy", "random")).config(engine, 1)
    with pytest.raises(ValueError, match=r"^2 policies cannot be spread over 3 seats"):
        at_count(dataclasses.replace(plan, policies=("greedy", "random")), 3)
    with pytest.raises(ValueError, match=r"^0 workers"):
        from validator.sim_plan import run_plan
        run_plan(engine, plan, workers=0)
