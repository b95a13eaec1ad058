"""The reference card's printed round odds are the engine's exact enumeration, and a wrong one is one located line."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from deckcopies import assert_located, copy_decks, edit_json
from validator.checks import check_game
from validator.games.sangokushi.data import check_printed_odds
from validator.games.sangokushi.odds import reference_rows
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


def test_the_shipped_reference_card_states_the_exact_odds() -> None:
    game = load_game(DEFAULT_DECKS_DIR, "sangokushi")
    assert list(check_printed_odds(game)) == []
    fields = next(c.fields for d in game.decks for c in d.cards if "wins36_d0" in c.fields)
    for edge, win, tie, loss in reference_rows(range(0, 7)):
        assert (fields[f"wins36_d{edge}"], fields[f"ties36_d{edge}"], fields[f"losses36_d{edge}"]) == \
            (win * 36, tie * 36, loss * 36)
    assert reference_rows([0])[0][1:] == (Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))


def test_a_wrong_printed_number_is_one_located_line(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sangokushi")

    def bump(data: Any) -> None:
        data["cards"][0]["fields"]["odds_d3"] += 1

    edit_json(decks / "sangokushi" / "reference.json", bump)
    issues = [i for i in check_game(load_game(decks, "sangokushi")).issues if i.code == "sangokushi-odds"]
    assert len(issues) == 1
    assert issues[0].location.pointer.endswith("/fields/odds_d3")
    assert "edge 3" in issues[0].message
    assert_located(issues[0].render())
