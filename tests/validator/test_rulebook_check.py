"""The rulebook source: loading into typed blocks, and the check that holds it to the deck and the rules engine.

Mutations work on a copy of decks/gogyo in tmp_path (tmp/schema links to the real schemas, so the
deck's relative "$schema" still resolves); every error must name rulebook.json, the line and column
where the JSON path starts, and what is wrong.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks
from generator.cli import app
from validator.checks import check_game
from validator.engine import claims, registry
from validator.engine.registry import find_oracle, find_spec
from validator.issues import DeckError, Issue
from validator.loader import find_games, load_game
from validator.model import CardFigure, Clarifications, Game, HandExample, Heading, TableBlock
from validator.paths import DEFAULT_DECKS_DIR, PROJECT_ROOT
from validator.rulebooks import MarkupError, split_emphasis

GOGYO = DEFAULT_DECKS_DIR / "gogyo"

runner = CliRunner()


@pytest.fixture(scope="module")
def gogyo() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


def mutate_rulebook(decks: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    path = decks / "gogyo" / "rulebook.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def block_index(data: dict[str, Any], kind: str, **props: Any) -> int:
    return next(n for n, b in enumerate(data["blocks"])
                if b["type"] == kind and all(b.get(k) == v for k, v in props.items()))


def rulebook_issues(decks: Path) -> list[Issue]:
    return [i for i in check_game(load_game(decks, "gogyo")).issues if i.location.file.name == "rulebook.json"]


# --- the real rulebook -----------------------------------------------------------------------------


def test_gogyo_rulebook_loads_as_typed_blocks(gogyo: Game) -> None:
    (book,) = gogyo.rulebooks
    assert (book.id, book.page_size, book.fonts.body, book.fonts.heading) == ("rulebook", "a5", "mincho", "gothic_bold")
    kinds = {type(b) for b in book.blocks}
    assert {Heading, TableBlock, CardFigure, HandExample, Clarifications} <= kinds
    assert {b.level for b in book.blocks if isinstance(b, Heading)} == {1, 2}
    assert book.source.file.name == "rulebook.json" and book.location.pointer == "/components/2"


def test_gogyo_rulebook_passes_every_check(gogyo: Game) -> None:
    assert [i.render() for i in check_game(gogyo).issues if i.location.file.name == "rulebook.json"] == []


def test_every_example_claim_is_what_the_engine_scores(gogyo: Game) -> None:
    oracle = find_oracle(gogyo)
    assert oracle is not None
    examples = [b for b in gogyo.rulebooks[0].blocks if isinstance(b, HandExample)]
    assert len(examples) >= 3
    for example in examples:
        scored = oracle.score(example.shown, ordered=True)
        assert dict(scored.points) == dict(example.points), example.title
        if example.order == "best":
            assert oracle.score(example.hand, ordered=False).points["total"] == example.points["total"]


def test_the_seed_example_and_a_perfect_hand_are_shown(gogyo: Game) -> None:
    examples = {(b.hand, b.order): b.points for b in gogyo.rulebooks[0].blocks if isinstance(b, HandExample)}
    assert examples[(("唐火", "漢土", "閥", "天", "隋金"), "as-written")] == {"dynasty": 10, "element": 6, "total": 16}
    assert {"dynasty": 26, "element": 20, "total": 46} in examples.values()
    assert any(order == "best" for _, order in examples)


def test_every_engine_clarification_is_stated(gogyo: Game) -> None:
    listed = {item.id for b in gogyo.rulebooks[0].blocks if isinstance(b, Clarifications) for item in b.items}
    oracle = find_oracle(gogyo)
    assert oracle is not None and oracle.clarifications
    assert {c.id for c in oracle.clarifications} <= listed
    assert "faction-typo" in listed  # the seed's 閔 is 閥


def test_rulebook_code_reaches_the_game_only_through_the_oracle_registry() -> None:
    for path in ("validator/checks/rulebook.py", "validator/rulebooks.py", "generator/rulebook.py",
                 "generator/rulebook_story.py", "generator/rulebook_flowables.py", "generator/kinsoku.py"):
        assert "gogyo" not in (PROJECT_ROOT / path).read_text(encoding="utf-8"), path


def test_emphasis_markup() -> None:
    assert split_emphasis("天は**好きな王朝**です") == [("天は", False), ("好きな王朝", True), ("です", False)]
    with pytest.raises(MarkupError, match="never closed"):
        split_emphasis("**閥")


# --- wrong rulebooks ------------------------------------------------------------------------------------


def test_wrong_claim_fails_check_and_build_with_a_located_line(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    index = -1

    def claim_17(data: dict[str, Any]) -> None:
        nonlocal index
        index = block_index(data, "example", order="as-written", hand=["唐火", "漢土", "閥", "天", "隋金"])
        data["blocks"][index]["points"]["total"] = 17

    mutate_rulebook(decks, claim_17)
    checked = runner.invoke(app, ["check", "gogyo", "--decks", str(decks)])
    assert checked.exit_code == 1, checked.output
    lines = [line for line in checked.stderr.splitlines() if "rulebook.json" in line]
    assert len(lines) == 1, checked.stderr
    found = assert_located(lines[0])
    assert found["path"] == f"$.blocks[{index}].points.total"
    assert "claims total 17" in found["message"] and "scores 16" in found["message"]
    assert "gogyo: 1 problem" in checked.stdout

    out = tmp_path / "out"
    built = runner.invoke(app, ["build", "gogyo", "--decks", str(decks), "--output", str(out)])
    assert built.exit_code == 1, built.output
    assert lines[0] in built.stderr
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def test_a_wrong_part_names_both_numbers(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    mutate_rulebook(decks, lambda d: d["blocks"][block_index(d, "example", order="as-written")]["points"]
                    .__setitem__("element", 13))
    (issue,) = rulebook_issues(decks)
    assert issue.code == "example-claim" and issue.location.pointer.endswith("/points/element")
    assert "claims element 13 but the rules engine scores 6" in issue.message


def test_an_arrangement_below_the_best_order_is_an_error(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")

    def worse(data: dict[str, Any]) -> None:
        block = data["blocks"][block_index(data, "example", order="best")]
        block["arrangement"] = block["hand"]  # the written order of 唐火 漢土 閥 天 隋金 scores 16, not 18
        block["points"] = {"dynasty": 10, "element": 6, "total": 16}

    mutate_rulebook(decks, worse)
    (issue,) = rulebook_issues(decks)
    assert issue.location.pointer.endswith("/arrangement")
    assert "scores total 16 but the best order" in issue.message and "scores 18" in issue.message


def test_an_unknown_hand_token_is_located(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    mutate_rulebook(decks, lambda d: d["blocks"][block_index(d, "example")]["hand"].__setitem__(0, "唐炎"))
    (issue,) = rulebook_issues(decks)
    assert issue.location.pointer.endswith("/hand") and "唐炎" in issue.message


def test_unknown_card_in_a_figure_is_located(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    index = -1

    def typo(data: dict[str, Any]) -> None:
        nonlocal index
        index = block_index(data, "figure")
        data["blocks"][index]["cards"][1] = "tang-fier"

    mutate_rulebook(decks, typo)
    (issue,) = rulebook_issues(decks)
    assert issue.code == "unknown-card"
    assert issue.location.pointer == f"/blocks/{index}/cards/1"
    assert "'tang-fier'" in issue.message and "tang-fire" in issue.message  # the hint lists its neighbours
    assert_located(issue.render())


def test_a_missing_clarification_is_an_error(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")

    def drop(data: dict[str, Any]) -> None:
        block = data["blocks"][block_index(data, "clarifications")]
        block["items"] = [item for item in block["items"] if item["id"] != "duel-cards"]

    mutate_rulebook(decks, drop)
    (issue,) = rulebook_issues(decks)
    assert issue.code == "clarification-missing" and issue.severity == "error"
    assert "'duel-cards'" in issue.message and issue.location.pointer.endswith("/items")
    assert_located(issue.render())


def test_an_unknown_clarification_id_is_a_warning(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    mutate_rulebook(decks, lambda d: d["blocks"][block_index(d, "clarifications")]["items"].append(
        {"id": "house-rule", "text": "好きな飲み物を用意します。"}))
    (issue,) = rulebook_issues(decks)
    assert (issue.code, issue.severity) == ("unknown-clarification", "warning")


@pytest.mark.parametrize(("change", "pointer_end", "fragment"), [
    (lambda d: d["blocks"][0].__setitem__("level", 4), "/blocks/0/level", "out of range"),
    (lambda d: d["blocks"].append({"type": "chart"}), "/blocks/", "is not one of"),
    (lambda d: d["blocks"][block_index(d, "example")].pop("order"), "/blocks/", "'order' is required"),
    (lambda d: d["fonts"].__setitem__("body", "minchoo"), "/fonts/body", "font 'minchoo' is not declared"),
    (lambda d: d["colors"].__setitem__("accent", "crimson"), "/colors/accent", "unknown colour 'crimson'"),
    (lambda d: d["blocks"][1].__setitem__("text", "**閉じない強調"), "/blocks/1/text", "never closed"),
    (lambda d: d["cover"].__setitem__("meta", "{players}人 {box_size}"), "/cover/meta", "{box_size} is not known"),
    (lambda d: d["blocks"][block_index(d, "table")]["rows"][0].append("余分"), "/rows/0", "3 cells but the header"),
])
def test_other_mistakes_are_located(tmp_path: Path, change: Callable[[dict[str, Any]], None],
                                    pointer_end: str, fragment: str) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    mutate_rulebook(decks, change)
    try:
        issues = rulebook_issues(decks)
    except DeckError as exc:  # schema errors stop loading
        issues = exc.issues
    assert len(issues) == 1, [i.render() for i in issues]
    (issue,) = issues
    assert issue.location.file.name == "rulebook.json"
    assert pointer_end in issue.location.pointer and fragment in issue.message, issue.render()
    assert_located(issue.render())


def test_examples_without_a_rules_engine_cannot_be_trusted(gogyo: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "find_spec", lambda name: replace(find_spec(name), oracle=None))
    issues = [i for i in check_game(gogyo).issues if i.code == "no-rules-engine"]
    assert len(issues) == len([b for b in gogyo.rulebooks[0].blocks if isinstance(b, HandExample)])


def test_the_check_asks_whatever_oracle_is_registered(gogyo: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook is generic: a stand-in oracle that disagrees about everything makes every example fail."""

    class Contrary:
        parts = ("dynasty", "element", "total")
        clarifications = (claims.ClarificationRef("made-up", "…"),)

        def score(self, tokens: Any, *, ordered: bool) -> claims.HandScoreClaim:
            return claims.HandScoreClaim({"dynasty": 1, "element": 1, "total": 2}, tuple(tokens))

        def card_stacks(self, tokens: Any) -> tuple[tuple[str, ...], ...]:
            return ()

    monkeypatch.setattr(registry, "find_spec", lambda name: replace(find_spec(name), oracle=lambda model: Contrary()))
    codes = [i.code for i in check_game(gogyo).issues if i.location.file.name == "rulebook.json"]
    assert codes.count("clarification-missing") == 1
    assert codes.count("example-claim") >= 3


SOURCE_TALK = ("元のルール", "元になった", "もとのルール", "誤記", "シミュレーション", "コンピューター")


@pytest.mark.parametrize("game_id", find_games(DEFAULT_DECKS_DIR))
def test_clarifications_speak_to_players_and_source_notes_sit_in_the_designers_appendix(game_id: str) -> None:
    """What the original text said, its typos and how the simulation plays go to the designers'
    appendix (issue 13); the players' section states rules."""
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR

    book = load_game(DEFAULT_DECKS_DIR, game_id).rulebooks[0]
    sections = [b for b in book.blocks if isinstance(b, Clarifications)]
    players = [s for s in sections if s.audience == "players"]
    assert players
    for section in players:
        for text in [section.intro or "", *(item.text for item in section.items)]:
            assert not any(word in text for word in SOURCE_TALK), text
    appendix = [s for s in sections if s.audience == "designers"]
    if game_id == "gogyo":
        assert [item.id for s in appendix for item in s.items] == ["faction-typo"]
        assert book.blocks.index(appendix[0]) > book.blocks.index(players[0])


def test_only_the_designers_appendix_may_hold_notes_without_an_engine_id(tmp_path) -> None:
    import json
    import shutil

    from validator.loader import DeckError, load_game

    shutil.copytree(PROJECT_ROOT / "decks" / "gogyo", tmp_path / "gogyo")
    path = tmp_path / "gogyo" / "rulebook.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    players = next(b for b in data["blocks"] if b.get("type") == "clarifications" and "audience" not in b)
    players["items"].append({"text": "idのない補足"})
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(DeckError) as refused:
        load_game(tmp_path, "gogyo")
    assert [issue.message for issue in refused.value.issues] == ["'id' is required"]
    players["items"].pop()
    appendix = next(b for b in data["blocks"] if b.get("audience") == "designers")
    appendix["items"].append({"text": "試し遊びの前提のメモ"})
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_game(tmp_path, "gogyo").rulebooks[0] is not None


@pytest.mark.parametrize("game_id", find_games(DEFAULT_DECKS_DIR))
def test_a_player_named_in_examples_keeps_one_hand(game_id: str) -> None:
    """sengoku's 例3 and 例4 both had a 'Bさんの手札', with different cards (issue 13): across a
    rulebook, every example titled with one player's hand shows the same hand."""
    import re

    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR

    hands: dict[str, set[tuple[str, ...]]] = {}
    for block in load_game(DEFAULT_DECKS_DIR, game_id).rulebooks[0].blocks:
        if isinstance(block, HandExample):
            named = re.search(r"(\S+さん)の手札", block.title)
            if named:
                hands.setdefault(named.group(1), set()).add(tuple(block.hand))
    assert {player: len(shown) for player, shown in hands.items() if len(shown) > 1} == {}
