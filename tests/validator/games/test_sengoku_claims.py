"""漢字と家紋の戦国武将 (sengoku) rulebook oracle: card tokens, parts from the engine's name table, the rulebook
it checks.

Mutations work on a copy of decks/sengoku in tmp_path (tmp/schema links to the real schemas); every
error must name rulebook.json, the line and column where the JSON path starts, and what is wrong.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks, edit_rulebook, example_index, rulebook_issues
from generator.cli import app
from validator.checks import check_game
from validator.engine.registry import find_oracle, find_spec
from validator.games.sengoku.claims import SengokuOracle
from validator.games.sengoku.rules import CLARIFICATIONS
from validator.loader import load_game
from validator.model import CardFigure, Clarifications, Game, HandExample
from validator.paths import DEFAULT_DECKS_DIR

SENGOKU = DEFAULT_DECKS_DIR / "sengoku"
runner = CliRunner()


@pytest.fixture(scope="module")
def sengoku() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "sengoku")


@pytest.fixture(scope="module")
def oracle(sengoku: Game) -> SengokuOracle:
    found = find_oracle(sengoku)
    assert isinstance(found, SengokuOracle)
    return found


def examples(game: Game) -> list[HandExample]:
    return [b for b in game.rulebooks[0].blocks if isinstance(b, HandExample)]


def tokens_of(game: Game, card_ids: list[str]) -> list[str]:
    """How a card prints: a surname card by its family name, a kanji card by its kanji."""
    fields = {card.id: card.fields for deck in game.decks for card in deck.cards}
    return [str(fields[i]["family_name"] if fields[i]["kind"] == "surname" else fields[i]["kanji"]) for i in card_ids]


# --- the oracle -------------------------------------------------------------------------------------


def test_registered_with_its_parts(oracle: SengokuOracle) -> None:
    assert find_spec("sengoku").oracle is not None
    assert oracle.parts == ("cards", "names", "left", "kanji", "total")
    assert [c.id for c in oracle.clarifications] == [c.id for c in CLARIFICATIONS]


@pytest.mark.parametrize(("hand", "points"), [
    ("武田 信 玄", (3, 1, 0, 0, 0)),
    ("武田 玄 信", (3, 1, 0, 0, 0)),                         # order does not matter
    ("武田 勝 玄", (3, 0, 3, 2, 4)),                         # same crest, two different warlords
    ("丹羽 秀 長", (3, 1, 0, 0, 0)),                         # 丹羽長秀: kanji in either order
    ("信 長 秀 家", (4, 0, 4, 4, 18)),
    ("織田 信 長 豊臣 秀 毛利 元 就 氏", (9, 2, 3, 2, 6)),   # of three ways, the fewest crests left
    ("", (0, 0, 0, 0, 0)),
])
def test_scores_by_part(oracle: SengokuOracle, hand: str, points: tuple[int, ...]) -> None:
    scored = oracle.score(hand.split(), ordered=True)
    assert tuple(scored.points[p] for p in oracle.parts) == points
    assert oracle.score(list(reversed(hand.split())), ordered=False).points == scored.points


def test_names_and_crests_come_from_the_engine_table(oracle: SengokuOracle) -> None:
    assert oracle.completed_names("織田 信 長 豊臣 秀 毛利 元 就 氏".split()) == ("豊臣秀長", "毛利元就")
    table = oracle.table
    hand = tuple(sorted(oracle.parse_hand("北条 信 長 玄".split())))
    assert table.packing(hand) == 0
    assert oracle.score("北条 信 長 玄".split(), ordered=True).points["total"] == sum(table.crests[t] for t in hand)


def test_stacks_are_single_cards_of_the_deck(sengoku: Game, oracle: SengokuOracle) -> None:
    assert oracle.card_stacks(["武田", "信", "玄"]) == (("takeda-shingen-sei",), ("oda-nobunaga-mei1",),
                                                         ("takeda-shingen-mei2",))
    ids = {card.id for deck in sengoku.decks for card in deck.cards}
    for example in examples(sengoku):
        stacks = oracle.card_stacks(example.hand)
        assert all(len(stack) == 1 and stack[0] in ids for stack in stacks)
        assert tokens_of(sengoku, [stack[0] for stack in stacks]) == list(example.hand)


@pytest.mark.parametrize(("hand", "fragment"), [
    (["武"], "'武' is not a card: write a surname card by its family name (織田・武田・"),
    (["信玄"], "'信玄' is several cards: write one card per token (信 玄)"),
    (["武田信玄"], "'武田信玄' is not a card"),
    (["玄", "玄"], "2 cards 玄, but the deck has only 1"),
    (["武田"] * 4, "4 cards 武田, but the deck has only 3"),
])
def test_bad_tokens_are_explained(oracle: SengokuOracle, hand: list[str], fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        oracle.score(hand, ordered=True)
    assert fragment in str(caught.value)


# --- the rulebook -----------------------------------------------------------------------------------


def test_rulebook_passes_every_check(sengoku: Game) -> None:
    assert [i.render() for i in check_game(sengoku).issues if i.location.file.name == "rulebook.json"] == []


def test_examples_are_what_the_engine_scores(sengoku: Game, oracle: SengokuOracle) -> None:
    found = examples(sengoku)
    assert len(found) >= 5
    for example in found:
        assert dict(oracle.score(example.hand, ordered=True).points) == dict(example.points), example.title
    assert any(e.points["names"] == 1 and e.points["left"] == 0 for e in found)     # a name completed
    assert any(e.points["names"] == 0 and e.points["cards"] == 3 for e in found)    # three cards, no name
    assert any(e.points["names"] >= 2 and e.points["left"] > 0 for e in found)      # 流局 ranking


def test_tie_break_examples_agree_with_the_engine(sengoku: Game, oracle: SengokuOracle) -> None:
    """例3: rule (1), A ranks higher; 例4: rule (2) against 例3's A, B ranks higher on its four fewest."""
    hands = {e.title: tuple(sorted(oracle.parse_hand(e.hand))) for e in examples(sengoku)}
    a = hands["例3　(1)の比べ方　Aさんの手札"]
    assert oracle.table.compare_tied(a, hands["例3　(1)の比べ方　Bさんの手札"]) == (-1, 1)
    assert oracle.table.compare_tied(a, hands["例4　(2)の比べ方　Cさんの手札"]) == (1, 2)
    kept = hands["例4　(2)の比べ方　Cさんが選んだ4枚"]
    table = oracle.table
    given_b = sorted((table.crests[t], t) for t in hands["例4　(2)の比べ方　Cさんの手札"] if table.is_given[t])
    assert sorted(t for _, t in given_b[:4]) == list(kept)


def test_every_engine_clarification_is_stated(sengoku: Game) -> None:
    listed = [item.id for b in sengoku.rulebooks[0].blocks if isinstance(b, Clarifications) for item in b.items
              if item.id is not None]  # the designers' appendix also holds notes that are no engine decision
    assert sorted(listed) == sorted(c.id for c in CLARIFICATIONS)


def test_name_figures_complete_the_name_they_show(sengoku: Game, oracle: SengokuOracle) -> None:
    figures = [b for b in sengoku.rulebooks[0].blocks if isinstance(b, CardFigure)]
    named = [f for f in figures if f.caption and "武田信玄" in f.caption]
    assert len(named) == 2
    for figure in named:
        assert oracle.completed_names(tokens_of(sengoku, list(figure.cards))) == ("武田信玄",)


# --- wrong rulebooks ----------------------------------------------------------------------------------


def test_a_wrong_claim_fails_check_and_build_naming_file_and_path(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sengoku")
    index = -1

    def claim_two_names(data: dict[str, Any]) -> None:
        nonlocal index
        index = example_index(data)
        assert data["blocks"][index]["points"]["names"] == 1
        data["blocks"][index]["points"]["names"] = 2

    edit_rulebook(decks, "sengoku", claim_two_names)
    checked = runner.invoke(app, ["check", "sengoku", "--decks", str(decks), "--no-simulate"])
    assert checked.exit_code == 1, checked.output
    lines = [line for line in checked.stderr.splitlines() if "rulebook.json" in line]
    assert len(lines) == 1, checked.stderr
    found = assert_located(lines[0])
    assert found["path"] == f"$.blocks[{index}].points.names"
    assert "claims names 2 but the rules engine scores 1 (武田 信 玄, as written)" in found["message"]

    out = tmp_path / "out"
    built = runner.invoke(app, ["build", "sengoku", "--decks", str(decks), "--output", str(out), "--no-report"])
    assert built.exit_code == 1, built.output
    assert lines[0] in built.stderr
    assert not (out / "sengoku" / "rulebook.pdf").exists()


def test_a_wrong_crest_total_names_the_part(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sengoku")
    edit_rulebook(decks, "sengoku", lambda d: d["blocks"][example_index(d, 1)]["points"].__setitem__("total", 2))
    (issue,) = rulebook_issues(decks, "sengoku")
    assert issue.code == "example-claim" and issue.location.pointer.endswith("/points/total")
    assert "claims total 2 but the rules engine scores 4" in issue.message
    assert_located(issue.render())


def test_a_bad_token_is_located_at_the_hand(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sengoku")
    edit_rulebook(decks, "sengoku", lambda d: d["blocks"][example_index(d)]["hand"].__setitem__(1, "信玄"))
    (issue,) = rulebook_issues(decks, "sengoku")
    assert issue.code == "example-hand" and issue.location.pointer.endswith("/hand")
    assert "'信玄' is several cards" in issue.message
    assert_located(issue.render())


def test_a_missing_clarification_is_an_error(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sengoku")

    def drop(data: dict[str, Any]) -> None:
        block = next(b for b in data["blocks"] if b["type"] == "clarifications")
        block["items"] = [item for item in block["items"] if item["id"] != "steal-order"]

    edit_rulebook(decks, "sengoku", drop)
    (issue,) = rulebook_issues(decks, "sengoku")
    assert issue.code == "clarification-missing" and "'steal-order'" in issue.message
    assert_located(issue.render())
