"""A rulebook's card_table writes one row per card from the cards' fields: a part naming a field a card
lacks, or has empty, is left out; the rulebook check names a table whose fields no card has, whose cells
do not match its header, or whose deck is unknown, each at its JSON path."""
from __future__ import annotations

from pathlib import Path

from validator.checks.rulebook import _check_card_table
from validator.issues import Location
from validator.loader import load_game
from validator.model import Card, CardTable
from validator.paths import DEFAULT_DECKS_DIR
from validator.rulebooks import card_table_rows

WHERE = Location(Path("rulebook.json"), "/blocks/3")


def _card(**fields: object) -> Card:
    return Card("c", "face", "back", 1, fields, WHERE)


def test_parts_of_missing_or_empty_fields_are_left_out() -> None:
    table = CardTable(None, ("名", "技"), (("{name}",), ("**{s1}**", "（{tag1}）", "\n**{s2}**", "（{tag2}）")),
                      None, None, WHERE)
    cards = [_card(name="甲", s1="一", tag1="", s2="二", tag2="鎖定技"), _card(name="乙", s1="三")]
    rows = card_table_rows(table, cards)
    assert rows == [["甲", "**一**\n**二**（鎖定技）"], ["乙", "**三**"]]


def test_the_check_names_what_cannot_be_written() -> None:
    game = load_game(DEFAULT_DECKS_DIR, "sanguosha")
    book = game.rulebooks[0]
    good = CardTable("generals", ("武将", "体力"), (("{name}",), ("{hp}",)), None, None, WHERE)
    assert list(_check_card_table(game, book, good)) == []
    typo = CardTable("generals", ("武将", "体力"), (("{name}",), ("{hpp}", "{hp}")), (1.0,), None, WHERE)
    assert [(i.location.pointer, i.message) for i in _check_card_table(game, book, typo)] == [
        ("/blocks/3/widths", "1 column width for 2 columns"),
        ("/blocks/3/cells/1/0", "no card of 'generals' has a field 'hpp'"),
    ]
    short = CardTable("nowhere", ("武将",), (("{name}",),), None, None, WHERE)
    [issue] = _check_card_table(game, book, short)
    assert issue.location.pointer == "/blocks/3/deck" and "no deck component 'nowhere'" in issue.message
