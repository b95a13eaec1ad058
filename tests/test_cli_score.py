"""`fudaya score GAME TOKENS...` for every game whose spec has a scorer: totals, parts, JSON keys, exit codes.

The expected points are the rulebooks' own examples (decks/<game>/rulebook.json "example" blocks), the
same numbers `fudaya check` holds each game's rules engine to.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from generator.cli import app
from validator.engine import registry
from validator.engine.spec import GameSpec
from validator.loader import find_games
from validator.paths import DEFAULT_DECKS_DIR

runner = CliRunner()


def run(*args: str) -> Result:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result


def scored(game: str, tokens: list[str]) -> dict[str, Any]:
    result = run("score", game, *tokens, "--json")
    assert result.exit_code == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def rulebook_examples(game: str) -> list[dict[str, Any]]:
    """Examples a best-order score must reproduce: gogyo's "best" ones, every one where order does not matter."""
    book = json.loads((DEFAULT_DECKS_DIR / game / "rulebook.json").read_text(encoding="utf-8"))
    examples = [b for b in book["blocks"] if b["type"] == "example"]
    return [b for b in examples if game != "gogyo" or b.get("order") == "best"]


# --- exact totals, one known hand per game -----------------------------------------------------------


@pytest.mark.parametrize(("game", "hand", "expected"), [
    ("gogyo", "唐火 漢土 閥 天 隋金",
     {"total": 18, "dynasty": 18, "element": 0, "order": ["漢土", "閥", "天", "隋金", "唐火"]}),
    ("jinzai", "文1 文2 武3・武3 文4 武6・武6 文7・＊",  # 例4: five kinds, the 7 column under a trickster
     {"total": 21, "columns": 16, "bonus": 5, "vp": 1,
      "order": ["文1", "文2", "武3・武3", "文4", "武6・武6", "文7・＊"]}),
    ("sengoku", "織田 信 長 豊臣 秀 毛利 元 就 氏",  # 例5: two names set aside, 3 cards left
     {"total": 6, "cards": 9, "names": 2, "left": 3, "kanji": 2,
      "order": ["織田", "信", "長", "豊臣", "秀", "毛利", "元", "就", "氏"]}),
])
def test_score_json_is_total_parts_and_order(game: str, hand: str, expected: dict[str, Any]) -> None:
    found = scored(game, hand.split())
    assert found == expected
    assert list(found) == list(expected)  # "total" first, the parts, "order" last


# Every engine with a hand scorer (sangokushi's hands have only some of its scorer's parts: a battle has
# attack and defence, a lord's death the dead; score_fields shows the parts a hand has).
SCORED_GAMES = [name for name in registry.known_games() if registry.find_spec(name).scorer]


@pytest.mark.parametrize("game", SCORED_GAMES)
def test_score_agrees_with_every_rulebook_example(game: str) -> None:
    examples = rulebook_examples(game)
    assert examples, f"{game}: no example to compare with"
    for example in examples:
        found = scored(game, example["hand"])
        assert {k: found[k] for k in example["points"]} == example["points"], example["title"]
        assert sorted(found["order"]) == sorted(example["hand"]), example["title"]  # a best order may differ


def test_score_accepts_a_hand_in_one_argument() -> None:
    assert scored("sengoku", ["武田 信 玄"])["names"] == 1


# --- text output --------------------------------------------------------------------------------------


def test_text_lists_total_order_and_parts_for_gogyo() -> None:
    result = run("score", "gogyo", "唐火", "漢土", "閥", "天", "隋金")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "total: 18", "order: 漢土 閥 天 隋金 唐火", "王朝役 dynasty run: 18", "五行役 element run: 0"]


@pytest.mark.parametrize(("game", "hand", "lines"), [
    ("jinzai", "文7・文7 文4 文1", ["total: -2 (価値 value of the public tiles)", "列の点 columns: -2",
                                   "5種類ボーナス kinds bonus: 0", "組み合わせの勝利点 set VP: -1"]),
    ("sengoku", "武田 勝 玄", ["total: 4 (家紋の合計 crests on the kanji cards left)", "カード cards: 3",
                             "名前 names set aside: 0", "残り cards left: 3", "漢字カード kanji cards left: 2"]),
])
def test_text_has_no_order_where_order_does_not_matter(game: str, hand: str, lines: list[str]) -> None:
    result = run("score", game, *hand.split())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == lines


# --- errors: one line, exit 2 (1 for a game the decks folder lacks) ---------------------------------


@pytest.mark.parametrize(("game", "hand", "message"), [
    ("gogyo", "唐火 漢土 閥 天", "gogyo: a hand has 5 cards, got 4"),
    ("jinzai", "文3", "jinzai: '文3' is not a tile: tile 3 is 武官, write '武3'"),
    ("jinzai", "文7・武3", "jinzai: column '文7・武3' mixes 武3 and 文7"),
    ("sengoku", "武田 信 玄 X", "sengoku: 'X' is not a card"),
])
def test_a_bad_token_is_one_line_and_exit_2(game: str, hand: str, message: str) -> None:
    result = run("score", game, *hand.split())
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr
    assert result.stdout == ""


def test_a_game_without_a_scorer_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    real = registry.find_spec

    def without_scorer(name: str) -> GameSpec:
        return replace(real(name), scorer=None)

    monkeypatch.setattr(registry, "find_spec", without_scorer)
    result = run("score", "jinzai", "文7")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == ["jinzai: the jinzai rules engine has no hand scorer, so its hands cannot be scored"]


def test_an_unknown_game_is_one_line_and_exit_1() -> None:
    result = run("score", "nosuch", "x")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nosuch: no such game in")
    assert all(game in lines[0] for game in find_games(DEFAULT_DECKS_DIR))
