"""人材登用 (jinzai) rulebook oracle: column tokens, scores by part from the real scorer, and the rulebook it checks.

Mutations work on a copy of decks/jinzai in tmp_path (tmp/schema links to the real schemas); every
error must name rulebook.json, the line and column where the JSON path starts, and what is wrong.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks, edit_rulebook, example_index, rulebook_issues
from generator.card_face import FaceRenderer
from generator.cli import app
from generator.rulebook_flowables import CardRow
from rulebookpdf import write_rulebook_alone
from validator.checks import check_game
from validator.engine.registry import find_oracle, find_spec
from validator.games.jinzai.claims import JinzaiOracle
from validator.games.jinzai.rules import CLARIFICATIONS
from validator.geometry import mm_to_pt
from validator.loader import load_game
from validator.model import CardFigure, Clarifications, Game, HandExample
from validator.paths import DEFAULT_DECKS_DIR

JINZAI = DEFAULT_DECKS_DIR / "jinzai"
NO_LINE_START = "、。」）"
runner = CliRunner()


@pytest.fixture(scope="module")
def jinzai() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "jinzai")


@pytest.fixture(scope="module")
def oracle(jinzai: Game) -> JinzaiOracle:
    found = find_oracle(jinzai)
    assert isinstance(found, JinzaiOracle)
    return found


def examples(game: Game) -> list[HandExample]:
    return [b for b in game.rulebooks[0].blocks if isinstance(b, HandExample)]


# --- the oracle -------------------------------------------------------------------------------------


def test_registered_with_its_parts(jinzai: Game, oracle: JinzaiOracle) -> None:
    assert find_spec("jinzai").oracle is not None
    assert oracle.parts == ("columns", "bonus", "total", "vp")
    assert {c.id for c in oracle.clarifications} == {c.id for c in CLARIFICATIONS}


@pytest.mark.parametrize(("hand", "points"), [
    (["文7", "武3・武3", "文4・＊"], (10, 0, 10, 0)),           # * on top: the 4 column is absent
    (["文7・＊・文7", "武6・武6", "文2"], (8, 0, 8, 0)),        # * under a 7: three tiles, 0
    (["＊・文7"], (-7, 0, -7, -1)),                             # * under one 7: two 文7; 文官 only
    (["武5・武5・武5・武5", "文7", "武6"], (11, 0, 11, 1)),      # four of a kind: 10 and +1 VP
    (["武3・武3・＊・武3", "文4"], (14, 0, 14, 1)),             # a * under a tile counts toward four
    (["文1", "文2", "武3・武3", "文4", "武6・武6", "文7・*"], (16, 5, 21, 1)),  # 5 kinds (7 absent), ASCII *
    (["文4・＊", "武6・＊"], (0, 0, 0, -1)),                     # nothing counts: one-type penalty too
    (["＊"], (0, 0, 0, -1)),                                    # a column of a trickster alone
    ([], (0, 0, 0, -1)),
])
def test_scores_by_part(oracle: JinzaiOracle, hand: list[str], points: tuple[int, int, int, int]) -> None:
    scored = oracle.score(hand, ordered=True)
    assert tuple(scored.points[p] for p in oracle.parts) == points
    assert oracle.score(list(reversed(hand)), ordered=False).points == scored.points  # columns have no order


def test_scores_are_the_engine_scorer(oracle: JinzaiOracle) -> None:
    scoring = oracle.game.scoring
    columns = oracle.parse_columns(["文1", "武3・＊・武3", "武6・＊"])
    assert columns == [[1], [], [3, 0, 3], [], [], [6, 0], []]
    assert oracle.score(["文1", "武3・＊・武3", "武6・＊"], ordered=True).points["total"] == scoring.total(columns)


def test_stacks_are_sticker_ids_bottom_to_top(jinzai: Game, oracle: JinzaiOracle) -> None:
    assert oracle.card_stacks(["武6・＊・武6", "文1"]) == (("bu-6", "trickster", "bu-6"), ("bun-1",))
    stickers = {card.id for card in next(d for d in jinzai.decks if d.id == "stickers").cards}
    for example in examples(jinzai):
        assert {i for stack in oracle.card_stacks(example.hand) for i in stack} <= stickers


@pytest.mark.parametrize(("hand", "fragment"), [
    (["武7"], "'武7' is not a tile: tile 7 is 文官, write '文7'"),
    (["7"], "write '文7'"),
    (["文8"], "'文8' is not a tile (tiles: 文1 文2 武3 文4 武5 武6 文7, and * or ＊"),
    (["文7武3"], "joined by '・'"),
    (["文7・武3"], "column '文7・武3' mixes 武3 and 文7: a column holds tiles of one number"),
    (["文7", "武3", "文7・＊"], "columns '文7' and '文7・＊' are both column 7"),
    (["文7・・文7"], "column '文7・・文7' has an empty tile"),
    (["武6・武6・武6・武6・武6"], "5 tiles 武6, but the game has only 4"),
    (["＊・＊・＊", "＊・＊"], "5 tiles ＊, but the game has only 4"),
    (["＊"] * 8, "8 columns, but a personal sheet has 7"),
])
def test_bad_tokens_are_explained(oracle: JinzaiOracle, hand: list[str], fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        oracle.score(hand, ordered=True)
    assert fragment in str(caught.value)


# --- the rulebook -----------------------------------------------------------------------------------


def test_rulebook_passes_every_check(jinzai: Game) -> None:
    assert [i.render() for i in check_game(jinzai).issues if i.location.file.name == "rulebook.json"] == []


def test_examples_are_what_the_engine_scores_and_cover_the_tricky_cases(jinzai: Game, oracle: JinzaiOracle) -> None:
    found = examples(jinzai)
    assert len(found) >= 4
    features: set[str] = set()
    for example in found:
        assert dict(oracle.score(example.hand, ordered=True).points) == dict(example.points), example.title
        assert example.show_cards and example.deck == "stickers"
        for token in example.hand:
            tiles = token.split("・")
            if tiles[-1] in ("*", "＊"):
                features.add("trickster-on-top")
            if any(t in ("*", "＊") for t in tiles[:-1]):
                features.add("trickster-under")
            if len(tiles) >= 4 and tiles[-1] not in ("*", "＊"):
                features.add("four-or-more")
        if example.points["bonus"] > 0:
            features.add("five-kinds")
    assert features == {"trickster-on-top", "trickster-under", "four-or-more", "five-kinds"}


def test_every_engine_clarification_is_stated(jinzai: Game) -> None:
    listed = [item.id for b in jinzai.rulebooks[0].blocks if isinstance(b, Clarifications) for item in b.items]
    assert sorted(listed) == sorted(c.id for c in CLARIFICATIONS)


def test_figures_show_real_stickers_and_the_title_is_a_working_title(jinzai: Game) -> None:
    book = jinzai.rulebooks[0]
    figures = [b for b in book.blocks if isinstance(b, CardFigure)]
    assert figures and all(f.deck == "stickers" for f in figures)
    assert "仮題" in book.cover["subtitle"]


# --- wrong rulebooks ----------------------------------------------------------------------------------


def test_a_wrong_claim_fails_check_and_build_naming_file_and_path(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")
    index = -1

    def claim_11(data: dict[str, Any]) -> None:
        nonlocal index
        index = example_index(data)
        assert data["blocks"][index]["points"]["total"] == 10
        data["blocks"][index]["points"]["total"] = 11

    edit_rulebook(decks, "jinzai", claim_11)
    checked = runner.invoke(app, ["check", "jinzai", "--decks", str(decks), "--no-simulate"])
    assert checked.exit_code == 1, checked.output
    lines = [line for line in checked.stderr.splitlines() if "rulebook.json" in line]
    assert len(lines) == 1, checked.stderr
    found = assert_located(lines[0])
    assert found["path"] == f"$.blocks[{index}].points.total"
    assert "claims total 11 but the rules engine scores 10" in found["message"]
    assert "文7 武3・武3 文4・＊" in found["message"]

    out = tmp_path / "out"
    built = runner.invoke(app, ["build", "jinzai", "--decks", str(decks), "--output", str(out), "--no-report"])
    assert built.exit_code == 1, built.output
    assert lines[0] in built.stderr
    assert not (out / "jinzai" / "rulebook.pdf").exists()


def test_a_wrong_vp_claim_names_the_part(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")
    edit_rulebook(decks, "jinzai", lambda d: d["blocks"][example_index(d, 2)]["points"].__setitem__("vp", 0))
    (issue,) = rulebook_issues(decks, "jinzai")
    assert issue.code == "example-claim" and issue.location.pointer.endswith("/points/vp")
    assert "claims vp 0 but the rules engine scores 1" in issue.message
    assert_located(issue.render())


def test_a_bad_token_is_located_at_the_hand(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")
    edit_rulebook(decks, "jinzai", lambda d: d["blocks"][example_index(d)]["hand"].__setitem__(0, "武7"))
    (issue,) = rulebook_issues(decks, "jinzai")
    assert issue.code == "example-hand" and issue.location.pointer.endswith("/hand")
    assert "tile 7 is 文官, write '文7'" in issue.message
    assert_located(issue.render())


def test_an_unknown_example_deck_is_located(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")
    edit_rulebook(decks, "jinzai", lambda d: d["blocks"][example_index(d)].__setitem__("deck", "tokens-x"))
    (issue,) = rulebook_issues(decks, "jinzai")
    assert issue.code == "reference" and issue.location.pointer.endswith("/deck")
    assert "no deck component 'tokens-x'" in issue.message


def test_a_missing_clarification_is_an_error(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "jinzai")

    def drop(data: dict[str, Any]) -> None:
        block = next(b for b in data["blocks"] if b["type"] == "clarifications")
        block["items"] = [item for item in block["items"] if item["id"] != "rotate"]

    edit_rulebook(decks, "jinzai", drop)
    (issue,) = rulebook_issues(decks, "jinzai")
    assert issue.code == "clarification-missing" and "'rotate'" in issue.message


# --- the typeset rulebook --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rulebook_pdf(tmp_path_factory: pytest.TempPathFactory, jinzai: Game) -> Path:
    return write_rulebook_alone(jinzai, tmp_path_factory.mktemp("jinzai") / "rulebook.pdf")


def test_the_pdf_prints_examples_clarifications_and_no_kinsoku_break(rulebook_pdf: Path) -> None:
    reader = PdfReader(rulebook_pdf)
    text = "".join(page.extract_text() for page in reader.pages)
    for fact in ("人材登用", "仮題", "価値 10点", "価値 21点", "価値 \u22122点", "ルールの補足"):
        assert fact in text
    lines = [line.strip() for page in reader.pages for line in page.extract_text().splitlines() if line.strip()]
    assert [line for line in lines if line[0] in NO_LINE_START] == []


def test_a_stack_rises_from_the_row_and_shrinks_to_its_cap(jinzai: Game) -> None:
    deck = next(d for d in jinzai.decks if d.id == "stickers")
    card = deck.cards[0]
    renderer = FaceRenderer(deck.layout, jinzai.directory, {}, "Helvetica")
    mm = mm_to_pt(1)
    row = CardRow(renderer, [[(card, card.face)] * 3, [(card, card.face)]], card_width_mm=10, gap_mm=3,
                  stack_gap_mm=1)
    assert row.wrap(100 * mm, 500)[1] == pytest.approx((3 * 10 + 2 * 1) * mm)
    capped = CardRow(renderer, [[(card, card.face)] * 4], card_width_mm=16, stack_gap_mm=2, max_height_mm=40)
    assert capped.wrap(100 * mm, 500)[1] == pytest.approx(40 * mm)


def test_pool_placement_figures_agree_with_the_engine(jinzai: Game, oracle: JinzaiOracle) -> None:
    """The 在野 examples (the seed's 文7・武6, 文7・武3・武5, 文7・＊) go where the engine puts them."""
    number = {card.id: int(card.fields["number"]) for d in jinzai.decks if d.id == "stickers" for card in d.cards}
    spaces = ("文官スペース", "武官スペース")  # engine sides 0 and 1
    pool_figures = [f for f in jinzai.rulebooks[0].blocks
                    if isinstance(f, CardFigure) and f.caption and any(s in f.caption for s in spaces)]
    assert len(pool_figures) == 3
    for figure in pool_figures:
        side = oracle.game.side_for([number[i] for i in figure.cards])
        assert figure.caption is not None and spaces[side] in figure.caption, figure.caption


def test_tile_data_the_engine_refuses_is_reported_once_not_as_a_crash(tmp_path: Path) -> None:
    """The rulebook check and the simulation check both build the engine; its located error appears once."""
    decks = copy_decks(tmp_path, "jinzai")
    path = decks / "jinzai" / "tiles.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    bun_1 = next(n for n, card in enumerate(data["cards"]) if card["id"] == "bun-1")
    data["cards"][bun_1]["fields"]["type"] = "武"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    issues = [i for i in check_game(load_game(decks, "jinzai")).issues if "type_of_number" in i.message]
    assert len(issues) == 1 and issues[0].location.file.name == "tiles.json"


def test_rulebook_text_is_justified_and_kept(jinzai: Game, rulebook_pdf: Path) -> None:
    """Read back from the PDF: lines of a paragraph reach their frame's edge (to 0.1 mm), none opens
    with a kinsoku character, no paragraph ends in one character."""
    from composedtext import assert_set_well, rulebook_text

    assert_set_well(rulebook_text(rulebook_pdf, jinzai.rulebooks[0]), justified=40)
