"""Template bindings: {field}, nested {rules[...]} lookups into objects and lists, format specs, and errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckcopies import assert_located, copy_decks, edit_json
from validator.binding import BindingError, bind_count, bind_text
from validator.checks import check_game
from validator.issues import Location
from validator.loader import load_game
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


@pytest.mark.parametrize(("value", "message"), [
    (-3, "count '{n}' gives -3; a repeat count must be 0 to 200"),
    (10_000_000, "count '{n}' gives 10000000; a repeat count must be 0 to 200"),
    ("9" * 5000, "count '{n}' gives '9999999999999999999…', not a whole number"),
    (2.5, "count '{n}' gives '2.5', not a whole number"),
])
def test_a_count_read_from_a_field_is_bounded_like_a_written_one(value: object, message: str) -> None:
    """Issue 12 item 6: written counts are capped by the schema; a field's 10**7 ran away, -3 passed."""
    with pytest.raises(BindingError) as caught:
        bind_count("{n}", {"n": value})
    assert str(caught.value) == message


def test_a_field_count_within_bounds_binds() -> None:
    assert bind_count("{n}", {"n": 200}) == 200
    assert bind_count("{n}", {"n": 0}) == 0


def test_check_locates_a_runaway_field_count(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "cards.json",
              lambda d: d["cards"][59]["fields"].__setitem__("number", 10_000_000))
    issues = [i for i in check_game(load_game(decks, "gogyo")).issues if i.location.pointer.endswith("/count")]
    assert len(issues) == 1
    found = assert_located(issues[0])
    assert found["path"] == "$.templates.dynasty.elements[7].count"
    assert found["message"].endswith("gives 10000000; a repeat count must be 0 to 200")
