"""An issue is one readable line even when it quotes a hostile deck's 20,000-character text."""
from __future__ import annotations

from pathlib import Path

from validator.issues import MAX_MESSAGE_CHARS, Issue, Location, shown


def test_a_long_message_keeps_its_start_and_its_reason() -> None:
    issue = Issue(Location(Path("cards.json"), "/cards/0/text", 3, 5), "text-overflow",
                  f"card 'x': {'天' * 20_000!r} does not fit 38×14 mm at 6 pt")
    line = issue.render()
    assert "\n" not in line
    assert len(line) <= len("cards.json:3:5: $.cards[0].text: ") + MAX_MESSAGE_CHARS + 2
    assert line.startswith("cards.json:3:5: $.cards[0].text: card 'x': '天天")
    assert line.endswith("天' does not fit 38×14 mm at 6 pt")


def test_a_short_message_is_unchanged() -> None:
    issue = Issue(Location(Path("a.json")), "x", "key 'qty' appears twice in one object")
    assert issue.render() == "a.json: $: key 'qty' appears twice in one object"


def test_shown_cuts_long_text() -> None:
    assert shown("abc") == "'abc'"
    assert shown("x" * 100) == repr("x" * 39 + "…")


def test_control_and_bidi_characters_from_deck_data_are_escaped() -> None:
    """Found by tests/fuzz: a schema message quoting "\\x85" (NEL) split the line in two."""
    issue = Issue(Location(Path("layout.json"), "/a", 1, 2), "schema",
                  "'r:\x85\x0c\u2028\u202e\x00x' is not of type 'boolean'")
    line = issue.render()
    assert line == "layout.json:1:2: $.a: 'r:\\x85\\x0c\\u2028\\u202e\\x00x' is not of type 'boolean'"
    assert line.splitlines() == [line]
