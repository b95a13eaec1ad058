"""A card face writes its plus and minus signs one way: the signs check finds a face that mixes ASCII
+/- with full-width ＋/− (naming the file and JSON path), and {x:＋d} prints typeset signs."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deckcopies import assert_located, copy_decks, edit_json
from validator.binding import bind_text
from validator.checks import signs
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.mark.parametrize("game_id", ["gogyo", "jinzai", "sangokushi", "sanguosha", "sengoku"])
def test_no_shipped_face_mixes_signs(game_id: str) -> None:
    assert [i.render() for i in signs.check(load_game(DEFAULT_DECKS_DIR, game_id))] == []


@pytest.mark.parametrize(("value", "printed"), [(2, "＋2"), (0, "±0"), (-1, "\u22121")])
def test_a_full_width_plus_spec_prints_typeset_signs(value: int, printed: str) -> None:
    assert bind_text("勝利点{v:＋d}", {"v": value}) == f"勝利点{printed}"
    assert bind_text("{v:+d}", {"v": value}) == f"{value:+d}"  # the ASCII spec is Python's


def test_an_ascii_sign_beside_a_full_width_one_is_a_located_finding(tmp_path: Path) -> None:
    """sangokushi's reference card printed "+1" from {rules[affiliation_bonus]:+d} beside "1＋内政"."""
    decks = copy_decks(tmp_path, "sangokushi")

    def ascii_bonus(data: dict[str, Any]) -> None:
        table = data["templates"]["reference-front"]["elements"][9]
        table["rows"][0][1]["text"] = "{rules[affiliation_bonus]:+d}"

    edit_json(decks / "sangokushi" / "reference-layout.json", ascii_bonus)
    [issue] = signs.check(load_game(decks, "sangokushi"))
    line = issue.render()
    found = assert_located(line)  # file:line:col at the JSON path named
    assert found["file"].endswith("reference-layout.json")
    assert found["path"] == "$.templates.reference-front.elements[9].rows[0][1].text"
    assert "card 'reference' front: ASCII '+' in '+1' and full-width '＋'" in line


@pytest.mark.parametrize(("text", "mixed"), [
    ("体力+1・−1馬", True), ("2-6人・＋1", False), ("EX-1と＋1", False), ("-1と＋1", True), ("+1と-1", False),
])
def test_what_counts_as_an_ascii_sign(text: str, mixed: bool) -> None:
    """A hyphen in a range (2-6) or an id (EX-1) is no minus sign; a face of ASCII signs only is consistent."""
    from validator.issues import Location
    from validator.model import Element

    element = Element("text", {"text": text}, Location(Path("layout.json")))
    assert (signs._mixed({}, [element]) is not None) == mixed
