"""Template bindings: {field}, nested {rules[...]} lookups into objects and lists, format specs, and errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.binding import BindingError, bind_text
from validator.issues import Location
from validator.model import Card

RULES = {"type_of_number": {"3": "武"}, "rank_vp": {"4": [2, 1, 0, -1]}, "vp_to_win": 4}


def card(fields: dict, context: dict | None = None) -> Card:
    return Card("c", "face", "back", 1, fields, Location(Path("cards.json")), context=context or {})


def test_nested_lookup_into_objects_and_lists_with_format_spec() -> None:
    fields = {"rules": RULES, "player": 2}
    assert bind_text("{rules[type_of_number][3]}官 P{player}", fields) == "武官 P2"
    assert bind_text("{rules[rank_vp][4][0]:+d} {rules[rank_vp][4][3]:+d}", fields) == "+2 -1"
    assert bind_text("{rules[vp_to_win]}点", fields) == "4点"


@pytest.mark.parametrize("template, message", [
    ("{rules[nothing]}", "rules has no entry 'nothing'"),
    ("{rules[rank_vp][4][9]}", "rules[rank_vp][4] has no entry '9'"),
    ("{rules[vp_to_win][x]}", "rules[vp_to_win] has no entry 'x'"),
    ("{missing}", "card has no field 'missing'"),
])
def test_bad_lookups_name_the_missing_step(template: str, message: str) -> None:
    with pytest.raises(BindingError, match=message.replace("[", r"\[").replace("]", r"\]")):
        bind_text(template, {"rules": RULES})


def test_card_bindings_put_its_own_fields_before_the_game_context() -> None:
    plain = card({"player": 1})
    assert plain.bindings == {"player": 1}
    with_rules = card({"player": 1, "rules": "own"}, {"rules": RULES})
    assert with_rules.bindings["rules"] == "own" and with_rules.bindings["player"] == 1
    assert bind_text("{rules[vp_to_win]}", card({}, {"rules": RULES}).bindings) == "4"


def test_loaded_cards_can_read_their_games_rules() -> None:
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR
    gogyo = load_game(DEFAULT_DECKS_DIR, "gogyo")
    first = gogyo.decks[0].cards[0]
    assert bind_text("{rules[hand_size]}", first.bindings) == str(gogyo.rules["hand_size"])
    assert "rules" not in first.fields  # composition and `when` still see only the card's own fields
