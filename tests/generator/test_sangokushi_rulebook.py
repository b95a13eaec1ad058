"""sangokushi's rulebook: it builds, folds into A5 booklets (pages a multiple of 4), states every
clarification of the rules engine, and every worked example is one the engine checks and accepts. The endings
players read are the seed's (victory points, a lord's death) plus one house rule marked as such; the engine's
round limit is a simulation bound, told to designers only."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from deckcopies import copy_decks, edit_rulebook, example_index, rulebook_issues
from rulebookpdf import write_rulebook_alone
from validator.checks import check_game
from validator.games.sangokushi.claims import SangokushiOracle
from validator.games.sangokushi.rules import CLARIFICATIONS, SangokushiRules
from validator.loader import load_game
from validator.model import CardFigure, Clarifications, Game, HandExample
from validator.paths import DEFAULT_DECKS_DIR

GAME = "sangokushi"
HEADINGS = ("ゲームの概要", "内容物", "準備", "手番の流れ", "攻撃", "戦闘", "戦闘方法の表", "所属ボーナス",
            "被害の受け方", "戦闘の後", "回復", "徴兵", "追加徴兵", "解雇", "保有枚数制限", "勝利条件",
            "君主の死亡", "ルールの補足", "用語集")
# each kind of claim the brief asks the rulebook to show, by the oracle's first token
EXAMPLE_KINDS = ("戦闘", "回復", "追加徴兵", "制限", "君主死亡")


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(DEFAULT_DECKS_DIR, GAME)


@pytest.fixture(scope="module")
def pdf(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook alone, set up as `fudaya build` sets it up."""
    return write_rulebook_alone(game, tmp_path_factory.mktemp("sangokushi-rulebook") / "rulebook.pdf")


@pytest.fixture(scope="module")
def reader(pdf: Path) -> PdfReader:
    return PdfReader(pdf)


def test_component_is_an_a5_rulebook(game: Game) -> None:
    data = json.loads((DEFAULT_DECKS_DIR / GAME / "game.json").read_text(encoding="utf-8"))
    entries = [c for c in data["components"] if c["kind"] == "rulebook"]
    assert [c["source"] for c in entries] == ["rulebook.json"]
    assert len(game.rulebooks) == 1 and game.rulebooks[0].page_size == "a5"


def test_builds_in_whole_sheets_of_four_a5_pages(reader: PdfReader) -> None:
    assert len(reader.pages) % 4 == 0
    assert len(reader.pages) >= 8
    for page in reader.pages:
        width, height = (float(v) * 25.4 / 72 for v in page.mediabox[2:])
        assert (round(width), round(height)) == (148, 210)


def test_key_headings_are_printed(reader: PdfReader) -> None:
    text = "".join(page.extract_text() for page in reader.pages).replace(" ", "").replace("\n", "")
    for heading in HEADINGS:
        assert heading in text, heading


def test_every_engine_clarification_is_listed_once(game: Game) -> None:
    listed = [item.id for block in game.rulebooks[0].blocks if isinstance(block, Clarifications)
              for item in block.items if item.id is not None]  # a designers' note decides nothing
    assert sorted(listed) == sorted(c.id for c in CLARIFICATIONS)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _blocks() -> list[dict[str, Any]]:
    data = json.loads((DEFAULT_DECKS_DIR / GAME / "rulebook.json").read_text(encoding="utf-8"))
    blocks: list[dict[str, Any]] = data["blocks"]
    return blocks


def _is_designers(block: dict[str, Any]) -> bool:
    return block["type"] == "clarifications" and block.get("audience") == "designers"


def test_the_round_limit_is_a_designers_note_not_a_rule(game: Game) -> None:
    """The engine ends a game after round_limit full rounds only so that a simulated game always ends; the
    seed has no such ending, so no text players read states it and the designers' appendix does."""
    limit = f"{SangokushiRules.from_mapping(game.rules).round_limit}周"
    players = " ".join(text for block in _blocks() if not _is_designers(block) for text in _strings(block))
    designers = " ".join(text for block in _blocks() if _is_designers(block) for text in _strings(block))
    assert limit not in players
    assert limit in designers and "シミュレーション" in designers


def test_the_full_round_of_passes_is_only_a_marked_house_rule() -> None:
    """The seed has no ending for a round in which everyone passes; the engine has (clarification
    stalemate). The players' rules leave it out, and the one clarification stating it calls it a house rule."""
    stating = [(block["type"], text) for block in _blocks() if not _is_designers(block)
               for text in _strings(block) if "1周" in text]
    stalemate = next(item["text"] for block in _blocks() if block["type"] == "clarifications"
                     for item in block["items"] if item.get("id") == "stalemate")
    assert stating == [("clarifications", stalemate)]
    assert stalemate.startswith("**追加ルール**")


def test_the_check_finds_nothing_in_the_rulebook(game: Game) -> None:
    issues = [i for i in check_game(game).issues if i.location.file.name == "rulebook.json"]
    assert issues == [], [i.render() for i in issues]


def test_every_example_is_scored_by_the_engine_as_claimed(game: Game) -> None:
    """Each claimed part is one the engine returns for that kind of example (no unchecked numbers)."""
    oracle = SangokushiOracle.from_model(game)
    examples = [b for b in game.rulebooks[0].blocks if isinstance(b, HandExample)]
    assert {e.hand[0] for e in examples} == set(EXAMPLE_KINDS)
    for example in examples:
        actual = oracle.score(example.hand, ordered=True).points
        assert set(example.points) <= set(actual), example.title
        assert {part: actual[part] for part in example.points} == dict(example.points), example.title


def test_figures_show_real_generals(game: Game) -> None:
    ids = {card.id for deck in game.decks if deck.id == "cards" for card in deck.cards}
    figures = [b for b in game.rulebooks[0].blocks if isinstance(b, CardFigure)]
    assert figures
    for figure in figures:
        assert set(figure.cards) <= ids


@pytest.mark.slow
def test_a_wrong_claim_is_caught(tmp_path: Path) -> None:
    """The examples are really checked: a battle claiming one damage too many fails `fudaya check`."""
    decks = copy_decks(tmp_path, GAME)

    def break_claim(data: dict[str, Any]) -> None:
        block = data["blocks"][example_index(data)]
        block["points"]["damage"] += 1

    edit_rulebook(decks, GAME, break_claim)
    assert [i.code for i in rulebook_issues(decks, GAME)] == ["example-claim"]


@pytest.mark.slow
def test_rulebook_text_is_justified_and_kept(game: Game, pdf: Path) -> None:
    """Read back from the PDF: lines of a paragraph reach their frame's edge (to 0.1 mm), none opens
    with a kinsoku character, no paragraph ends in one character."""
    from composedtext import assert_set_well, rulebook_text

    assert_set_well(rulebook_text(pdf, game.rulebooks[0]), justified=80)
