"""sengoku's card data against rules.warlords: crests derived from the warlord list, located errors.

Each bad case copies the real deck, breaks one thing and expects one located error (file:line,
JSON path) from `fudaya check`; the notes on shared kanji and confusable warlords are not errors.
"""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator.checks import check_game
from validator.games.sengoku import data as sengoku_data
from validator.loader import load_game
from validator.model import Game
from validator.paths import DEFAULT_DECKS_DIR

ROOT = Path(__file__).resolve().parents[3]
SENGOKU = ROOT / "decks" / "sengoku"
runner = CliRunner()


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "sengoku")


def cards_by_id(game: Game) -> dict[str, Any]:
    return {c.id: c for d in game.decks for c in d.cards}


# -- the real deck ---------------------------------------------------------------------------------
def test_counts_120_40_80(game: Game) -> None:
    deck = next(d for d in game.decks if d.id == "cards")
    kinds = [c.fields["kind"] for c in deck.cards for _ in range(c.qty)]
    assert len(kinds) == 120 and kinds.count("surname") == 40 and kinds.count("given") == 80
    assert len(sengoku_data.warlords(game)) == 40 and len(sengoku_data.families(game)) == 20
    assert game.rules["name_size"] == 3 and game.rules["hand_size"] in game.rules["hand_size_options"]


def test_real_deck_has_no_errors_but_notes(game: Game) -> None:
    result = check_game(game)
    assert result.ok, [i.render(ROOT) for i in result.errors]
    notes = [i for i in result.issues if i.code.startswith("sengoku-")]
    shared = [i for i in notes if i.code == "sengoku-shared-kanji"]
    assert len(shared) == 17 and all(i.severity == "info" for i in shared)
    reversed_pair = [i for i in notes if i.code == "sengoku-confusable" and i.severity == "warning"]
    assert len(reversed_pair) == 1 and "豊臣秀長" in reversed_pair[0].message and "丹羽長秀" in reversed_pair[0].message


def test_crests_are_derived_from_the_warlord_list(game: Game) -> None:
    lords = sengoku_data.warlords(game)
    order = [f.id for f in sengoku_data.families(game)]
    derived = sengoku_data.crest_sets(order, lords)
    assert derived["秀"] == ("oda", "tokugawa", "toyotomi", "akechi", "niwa")
    assert derived["信"] == ("oda", "takeda", "sanada", "uesugi")
    assert derived["玄"] == ("takeda",)
    for card in cards_by_id(game).values():
        if card.fields["kind"] == "given":
            assert tuple(card.fields["crests"].split()) == derived[card.fields["kanji"]], card.id
            assert card.fields["crest_count"] == len(derived[card.fields["kanji"]])


def test_every_family_has_its_own_crest(game: Game) -> None:
    fams = sengoku_data.families(game)
    assert len({f.crest for f in fams}) == len({f.crest_file for f in fams}) == len(fams)
    texts = {(SENGOKU / f.crest_file).read_text(encoding="utf-8") for f in fams}
    assert len(texts) == len(fams)


def test_confusable_pairs_are_pure_functions_of_the_list(game: Game) -> None:
    pairs = sengoku_data.confusable_pairs(sengoku_data.warlords(game))
    names = {(p.a.name, p.b.name, p.kind) for p in pairs}
    assert ("豊臣秀長", "丹羽長秀", "same-kanji") in names
    assert ("武田信玄", "武田信虎", "same-family") in names
    assert not any(p.a.family != p.b.family and p.kind == "same-family" for p in pairs)


# -- broken copies -----------------------------------------------------------------------------------
def edit_json(name: str, change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def mutate(deck: Path) -> None:
        path = deck / name
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return mutate


def card_index(card_id: str) -> int:
    data = json.loads((SENGOKU / "cards.json").read_text(encoding="utf-8"))
    return next(i for i, c in enumerate(data["cards"]) if c["id"] == card_id)


def set_card_field(card_id: str, key: str, value: Any) -> Callable[[Path], None]:
    def change(data: dict[str, Any]) -> None:
        next(c for c in data["cards"] if c["id"] == card_id)["fields"][key] = value
    return edit_json("cards.json", change)


def drop_card(card_id: str) -> Callable[[Path], None]:
    def change(data: dict[str, Any]) -> None:
        data["cards"] = [c for c in data["cards"] if c["id"] != card_id]
        data["total"] -= 1
        for rule in data["composition"]:
            if rule["where"]["kind"] == "given":
                rule["count"] -= 1
    return edit_json("cards.json", change)


def duplicate_warlord(data: dict[str, Any]) -> None:
    data["rules"]["warlords"].append(dict(data["rules"]["warlords"][0]))


def bad_svg(deck: Path) -> None:
    (deck / "assets" / "crests" / "takeda.svg").write_text("<svg viewBox='0 0 10 10'><rect></svg>", encoding="utf-8")


NOBUNAGA_MEI2 = card_index("oda-nobunaga-mei2")  # 長: 織田・豊臣・前田・浅井・丹羽

CASES: dict[str, tuple[Callable[[Path], None], tuple[str, ...]]] = {
    "declared-crests-differ": (
        set_card_field("oda-nobunaga-mei2", "crests", "oda toyotomi maeda azai"),
        ("cards.json:", f"$.cards[{NOBUNAGA_MEI2}].fields.crests:", "declares crests 'oda toyotomi maeda azai'",
         "give 'oda toyotomi maeda azai niwa'")),
    "crests-in-another-order": (
        set_card_field("oda-nobunaga-mei2", "crests", "toyotomi oda maeda azai niwa"),
        ("cards.json:", f"$.cards[{NOBUNAGA_MEI2}].fields.crests:", "give 'oda toyotomi maeda azai niwa'")),
    "crest-file-of-another-family": (
        set_card_field("oda-nobunaga-mei2", "crest5", "assets/crests/oda.svg"),
        ("cards.json:", f"$.cards[{NOBUNAGA_MEI2}].fields.crest5:", "the crest of 'niwa'")),
    "missing-kanji-card": (
        drop_card("oda-nobunaga-mei2"),
        ("game.json:", "$.rules.warlords[0]:", "kanji card for '長' 'oda-nobunaga-mei2' is missing")),
    "invalid-crest-svg": (
        bad_svg,
        ("game.json:", "$.rules.families[1].crest_file:", "is not valid SVG")),
    "duplicate-warlord": (
        edit_json("game.json", duplicate_warlord),
        ("game.json:", "$.rules.warlords[40].id:", "'oda-nobunaga' is listed twice")),
    "too-many-players-for-the-deck": (
        edit_json("game.json", lambda d: d["players"].__setitem__("max", 10)),
        ("game.json:", "$.players.max:", "10 players with 12-card hands need 121 cards, the deck has 120",
         "at most 9 players")),
    "hand-size-not-whole-names": (
        edit_json("game.json", lambda d: d["rules"].__setitem__("hand_size_options", [9, 10, 12])),
        ("game.json:", "$.rules.hand_size_options[1]:", "a hand of 10 cards is not a whole number of 3-card names")),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_data_is_one_located_error(case: str, tmp_path: Path) -> None:
    mutate, expected = CASES[case]
    decks = tmp_path / "decks"
    shutil.copytree(SENGOKU, decks / "sengoku")
    mutate(decks / "sengoku")
    result = runner.invoke(app, ["check", "sengoku", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if all(part in line for part in expected)]
    assert lines, result.output
    assert all(":" in line.split(" ")[0] for line in lines)  # file:line:col first


def test_notes_do_not_fail_check() -> None:
    result = runner.invoke(app, ["check", "sengoku", "--no-simulate"])
    assert result.exit_code == 0, result.output
    assert "info: 秀 is in 7 names" in result.output
    assert "warning: 豊臣秀長 and 丹羽長秀" in result.output
    assert "info: 120 cards leave a draw pile for 12-card hands: at most 9 players; 9-card hands: at most 13 players" \
        in result.output


def test_max_players_leaves_a_draw_pile() -> None:
    assert sengoku_data.max_players(120, 12) == 9   # 9 x 12 = 108 dealt, 12 to draw; 10 x 12 = 120 leaves none
    assert sengoku_data.max_players(120, 9) == 13   # 13 x 9 = 117, 3 to draw
    assert sengoku_data.max_players(24, 12) == 1
