"""An example's answer line: its own template (`answer`) filled from its claimed parts, which the rules engine
checks, so the printed line says what the engine computes. A placeholder naming a part the example does not
claim, a claimed part the engine does not give, or a claimed number the engine disagrees with is one located
line from the check; sangokushi's and sanguosha's printed answer lines are the engine's own parts."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from deckcopies import assert_located, copy_decks, edit_rulebook, example_index, rulebook_issues
from rulebookpdf import write_rulebook_alone
from validator.engine.registry import find_oracle
from validator.issues import Issue
from validator.loader import load_game
from validator.model import Game, HandExample
from validator.paths import DEFAULT_DECKS_DIR
from validator.rulebooks import MarkupError, UnclaimedPart, answer_template, answer_text, plain_text

# What each example prints, in rulebook order: the reader sees every part the example is about.
PRINTED = {
    "sangokushi": [
        "答え　攻撃側 16・防御側 13・被害 3",
        "答え　攻撃側 8・防御側 10・被害 2",
        "答え　攻撃側 15・防御側 11・被害 4",
        "答え　攻撃側 13・防御側 9・被害 4",
        "答え　手札に戻るのは 6枚（内政 5・所属ボーナス ＋1）",
        "答え　追加 1枚、引けるのは 2枚",
        "答え　追加 4枚、引けるのは 3枚",
        "答え　制限 14枚、捨てるのは 2枚",
        "答え　ゲーム続行（死亡した君主 1人）",
        "答え　ゲーム終了（死亡した君主 2人）",
    ],
    "sanguosha": [
        "答え　体力の上限 5",
        "答え　体力の上限 4",
        "答え　体力の上限 4",
        "答え　距離 4・攻撃範囲 1・「殺」は届かない",
        "答え　距離 1・攻撃範囲 1・「殺」は届く",
        "答え　攻撃範囲 3・「殺」を使える相手 6人",
        "答え　攻撃範囲 3・「殺」を使える相手 7人",
        "答え　距離 2・攻撃範囲 1・「殺」は届かない",
        "答え　距離 4・攻撃範囲 3・「殺」は届かない",
        "答え　必要な「桃」 3枚（瀕死の体力 \u22122）",
    ],
}


# --- the format -------------------------------------------------------------------------------------


def test_numbers_are_typeset_and_yes_no_parts_are_words() -> None:
    points = {"distance": 3, "reach": 1, "hp": -2, "vp": 0}
    # a label and its value are joined by a no-break space: the value never starts a line alone
    assert answer_text("距離 {distance}・{reach:届く|届かない}", points) == "距離\u00a03・届く"
    assert answer_text("{reach:|届かない}", {"reach": 0}) == "届かない"
    assert answer_text("体力 {hp}　勝利点 {vp:+d}", points) == "体力\u00a0\u22122　勝利点\u00a0±0"
    assert answer_text("勝利点 {vp:+d}", {"vp": 2}) == "勝利点\u00a0＋2"


@pytest.mark.parametrize(("template", "says"), [
    ("{reach:届く|届かない}", "reach is 2, not 1 or 0"),
    ("{reach:届く}", "Invalid format specifier"),  # one word: no yes/no spec, and no integer format
    ("{reach:a|b|c}", "two words"),
    ("{reach!r}", "a part name"),
    ("{reach", "not a valid format"),
])
def test_what_cannot_be_printed_is_a_markup_error(template: str, says: str | None) -> None:
    with pytest.raises(MarkupError) as caught:
        answer_text(template, {"reach": 2})
    if says:
        assert says in str(caught.value)


def test_a_part_the_example_does_not_claim_is_named() -> None:
    with pytest.raises(UnclaimedPart) as caught:
        answer_text("{speed}", {"distance": 3})
    assert caught.value.part == "speed" and "(claimed: distance)" in str(caught.value)


def test_the_rulebook_points_line_is_the_default() -> None:
    game = load_game(DEFAULT_DECKS_DIR, "gogyo")
    book = game.rulebooks[0]
    example = next(b for b in book.blocks if isinstance(b, HandExample))
    assert example.answer is None
    assert answer_template(example, book.example_labels) == book.example_labels["points"]


# --- the check ----------------------------------------------------------------------------------------


def _one_issue(tmp_path: Path, game_id: str, kind: str, change: Callable[[dict[str, Any]], None]) -> Issue:
    """Break the first example of `kind` (its first token) in a copy of the game; the one rulebook issue."""
    decks = copy_decks(tmp_path, game_id)

    def edit(data: dict[str, Any]) -> None:
        change(next(b for b in data["blocks"] if b["type"] == "example" and b["hand"][0] == kind))

    edit_rulebook(decks, game_id, edit)
    issues = rulebook_issues(decks, game_id)
    assert len(issues) == 1, [i.render() for i in issues]
    assert_located(issues[0])
    return issues[0]


def test_an_answer_naming_an_unknown_part_is_one_located_line(tmp_path: Path) -> None:
    def speed(block: dict[str, Any]) -> None:
        block["answer"] = "距離 {distance}・速さ {speed}"

    issue = _one_issue(tmp_path, "sanguosha", "距離", speed)
    assert issue.code == "answer-line" and issue.location.pointer.endswith("/answer")
    assert "{speed}" in issue.message and "gives this example no 'speed'" in issue.message
    assert "distance, range, reach, total" in issue.message


def test_an_answer_naming_a_part_given_elsewhere_is_one_located_line(tmp_path: Path) -> None:
    def distance(block: dict[str, Any]) -> None:
        block["answer"] = "桃 {peaches}・距離 {distance}"

    issue = _one_issue(tmp_path, "sanguosha", "瀕死", distance)
    assert issue.code == "answer-line" and "gives this example no 'distance'" in issue.message


def test_an_answer_printing_an_unclaimed_part_says_to_claim_it(tmp_path: Path) -> None:
    def unclaim(block: dict[str, Any]) -> None:
        del block["points"]["range"]

    issue = _one_issue(tmp_path, "sanguosha", "距離", unclaim)
    assert issue.code == "answer-line" and "claim it in points (the rules engine gives range 1 here)" in issue.message


def test_a_hand_written_value_the_engine_disagrees_with_is_one_located_line(tmp_path: Path) -> None:
    def reaches(block: dict[str, Any]) -> None:
        block["points"]["reach"] = 1  # would print 届く

    issue = _one_issue(tmp_path, "sanguosha", "距離", reaches)
    assert issue.code == "example-claim" and issue.location.pointer.endswith("/points/reach")
    assert "claims reach 1 but the rules engine scores 0" in issue.message


def test_a_lord_death_claimed_as_the_end_is_one_located_line(tmp_path: Path) -> None:
    def ends(block: dict[str, Any]) -> None:
        block["points"]["total"] = 1  # would print ゲーム終了

    issue = _one_issue(tmp_path, "sangokushi", "君主死亡", ends)
    assert issue.code == "example-claim" and issue.location.pointer.endswith("/points/total")


def test_a_claimed_part_the_engine_does_not_give_for_the_example_is_one_located_line(tmp_path: Path) -> None:
    def claim_distance(block: dict[str, Any]) -> None:
        block["points"]["distance"] = 3

    issue = _one_issue(tmp_path, "sanguosha", "瀕死", claim_distance)
    assert issue.code == "example-part" and issue.location.pointer.endswith("/points/distance")
    assert "no part 'distance' for this example (it gives: hp, peaches, total)" in issue.message


def test_a_yes_no_word_on_a_number_is_one_located_line(tmp_path: Path) -> None:
    def worded(block: dict[str, Any]) -> None:
        block["answer"] = "{distance:遠い|近い}"

    issue = _one_issue(tmp_path, "sanguosha", "距離", worded)
    assert issue.code == "answer-line" and "distance is 4, not 1 or 0" in issue.message


def test_a_broken_default_points_line_is_still_located_at_the_points(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")

    def drop_element(data: dict[str, Any]) -> None:
        del data["blocks"][example_index(data)]["points"]["element"]

    edit_rulebook(decks, "gogyo", drop_element)
    issues = rulebook_issues(decks, "gogyo")
    assert [i.code for i in issues] == ["reference"], [i.render() for i in issues]
    assert issues[0].location.pointer.endswith("/points") and "example_labels.points" in issues[0].message


# --- what the two games print ----------------------------------------------------------------------------


@pytest.fixture(scope="module", params=sorted(PRINTED))
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Game, list[str]]:
    """A game and the answer lines of its typeset rulebook, in order."""
    game = load_game(DEFAULT_DECKS_DIR, request.param)
    pdf = write_rulebook_alone(game, tmp_path_factory.mktemp(request.param) / "rulebook.pdf")
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages).replace("\u00a0", " ")
    return game, [line.strip() for line in text.splitlines() if line.strip().startswith("答え")]


def test_every_example_has_its_own_answer(built: tuple[Game, list[str]]) -> None:
    game, _ = built
    examples = [b for b in game.rulebooks[0].blocks if isinstance(b, HandExample)]
    assert examples and all(example.answer for example in examples)


def test_the_printed_answer_lines_are_the_engine_s_parts(built: tuple[Game, list[str]]) -> None:
    """Each line read back from the PDF is the example's template filled with what the engine computes."""
    game, printed = built
    oracle = find_oracle(game)
    assert oracle is not None
    book = game.rulebooks[0]
    expected = []
    for example in (b for b in book.blocks if isinstance(b, HandExample)):
        computed = oracle.score(example.hand, ordered=True).points
        line = plain_text(answer_text(answer_template(example, book.example_labels), computed))
        expected.append(line.replace("\u00a0", " "))  # a no-break space prints (and reads back) as a space
    assert printed == expected
    assert printed == PRINTED[game.id]
