"""sanguosha's rulebook: it builds in A5 sheets of four pages with every font embedded, prints the identity
tables of game.json, states every clarification of the rules engine, and every worked example and the
distance table are what the engine answers; what a card row says agrees with when the engine asks for it."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from deckcopies import copy_decks, edit_rulebook, example_index, rulebook_issues
from rulebookpdf import iter_fonts, write_rulebook_alone
from validator.checks import check_game
from validator.games.sanguosha.claims import SanguoshaOracle
from validator.games.sanguosha.positions import CardPicker, game_from_files, position
from validator.games.sanguosha.rules import CLARIFICATIONS, P_SHAN, RESPOND, ROLES, USE, act
from validator.loader import load_game
from validator.model import Clarifications, Game, HandExample, Paragraph, TableBlock
from validator.paths import DEFAULT_DECKS_DIR

GAME = "sanguosha"
HEADINGS = ("ゲームの概要", "内容物", "EXカードの使い方", "準備", "身分を決める", "武将を選ぶ", "体力を決める",
            "手番の流れ", "カードの使い方", "判定", "山札がなくなったら", "距離と攻撃範囲", "馬で距離を変える",
            "カードの種類", "無懈可撃", "ダメージ・瀕死・死亡", "報酬と罰", "勝利条件", "ゲームの終わり",
            "武将とスキル", "ルールの補足", "用語集")
EXAMPLE_KINDS = ("距離", "届く相手", "体力上限", "瀕死")
ROLE_HEADER = ["主公", "忠臣", "反賊", "内奸"]
SEATS = "ABCDEFGH"


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(DEFAULT_DECKS_DIR, GAME)


@pytest.fixture(scope="module")
def oracle(game: Game) -> SanguoshaOracle:
    return SanguoshaOracle.from_model(game)


@pytest.fixture(scope="module")
def pdf(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook alone, set up as `fudaya build` sets it up."""
    return write_rulebook_alone(game, tmp_path_factory.mktemp("sanguosha-rulebook") / "rulebook.pdf")


@pytest.fixture(scope="module")
def reader(pdf: Path) -> PdfReader:
    return PdfReader(pdf)


def _tables(game: Game) -> list[TableBlock]:
    return [b for b in game.rulebooks[0].blocks if isinstance(b, TableBlock)]


def _card_effect(game: Game, name: str) -> str:
    """The 働き cell of a card's row in the tables of card kinds."""
    return next(row[2] for table in _tables(game) if list(table.header) == ["カード", "枚数", "働き"]
                for row in table.rows if row[0] == name)


def _counts(row: tuple[str, ...] | list[str]) -> dict[str, int]:
    """A printed row of role counts (— for none) by role id."""
    return {role: 0 if cell == "—" else int(cell) for role, cell in zip(ROLES, row, strict=True)}


def test_component_is_an_a5_rulebook(game: Game) -> None:
    data = json.loads((DEFAULT_DECKS_DIR / GAME / "game.json").read_text(encoding="utf-8"))
    assert [c["source"] for c in data["components"] if c["kind"] == "rulebook"] == ["rulebook.json"]
    assert len(game.rulebooks) == 1 and game.rulebooks[0].page_size == "a5"


def test_builds_in_whole_sheets_of_four_a5_pages(reader: PdfReader) -> None:
    assert len(reader.pages) % 4 == 0
    assert len(reader.pages) >= 12
    for page in reader.pages:
        width, height = (float(v) * 25.4 / 72 for v in page.mediabox[2:])
        assert (round(width), round(height)) == (148, 210)


def test_every_font_is_embedded_as_a_subset(reader: PdfReader) -> None:
    found = {name: font for page in reader.pages for name, font in iter_fonts(page.get("/Resources"))}
    assert {name.split("+")[-1] for name in found} == {"BIZUDMincho-Regular", "BIZUDGothic-Bold",
                                                       "BIZUDGothic-Regular"}
    for name, font in found.items():
        assert "/FontFile2" in font["/FontDescriptor"].get_object(), f"{name} is not embedded"
        assert name[7] == "+", f"{name} is not a subset"


def test_key_headings_are_printed(reader: PdfReader) -> None:
    text = "".join(page.extract_text() for page in reader.pages).replace(" ", "").replace("\n", "")
    for heading in HEADINGS:
        assert heading in text, heading


def test_the_identity_table_is_game_json_s(game: Game) -> None:
    """The printed table has one row per player count the box plays, each equal to rules.identity_table."""
    table = next(t for t in _tables(game) if list(t.header) == ["人数", *ROLE_HEADER])
    printed = {int(row[0].removesuffix("人")): _counts(row[1:]) for row in table.rows}
    expected = {int(n): roles for n, roles in game.rules["identity_table"].items()}
    assert printed == expected
    assert sorted(printed) == list(range(game.players[0], game.players[1] + 1))


def test_the_two_player_row_is_explained_beside_the_identity_table(game: Game) -> None:
    """The smallest table is a duel of the roles its row deals, played by the same rules (no 1対1 mode rules):
    the paragraph right after the identity table says so and names those roles."""
    blocks = game.rulebooks[0].blocks
    at = next(n for n, b in enumerate(blocks) if isinstance(b, TableBlock) and list(b.header) == ["人数", *ROLE_HEADER])
    low = game.players[0]
    dealt = [name for role, name in zip(ROLES, ROLE_HEADER, strict=True)
             if game.rules["identity_table"][str(low)][role]]
    following = blocks[at + 1]
    assert isinstance(following, Paragraph) and following.text.startswith(f"**{low}人で遊ぶとき**"), following
    assert len(dealt) == 2 and all(name in following.text for name in dealt), (dealt, following.text)
    assert "同じルール" in following.text


def test_the_optional_identity_tables_are_game_json_s_variants(game: Game) -> None:
    table = next(t for t in _tables(game) if list(t.header) == ["組み合わせ", *ROLE_HEADER])
    printed = {(int(row[0].split("人")[0]), tuple(_counts(row[1:]).values())) for row in table.rows}
    expected = {(int(n), tuple(roles[r] for r in ROLES))
                for variant in game.rules["identity_variants"].values() for n, roles in variant["table"].items()}
    assert printed == expected


def test_the_lord_bonus_threshold_is_game_json_s(game: Game) -> None:
    """The text says the lord's +1 starts at lord_extra_hp_min_players (5), the examples show both sides."""
    low = game.rules["lord_extra_hp_min_players"]
    texts = " ".join(getattr(b, "text", "") for b in game.rulebooks[0].blocks)
    assert f"{low}人以上" in texts and f"2〜{low - 1}人" in texts


def test_the_shan_row_lets_the_turn_player_answer(game: Game) -> None:
    """閃 is never used, only played when a 殺 or 万箭斉発 asks for it, and the engine asks the turn player too:
    a 借刀殺人 of one's own may turn the holder's 殺 on oneself. The row says so instead of forbidding it."""
    engine = game_from_files(rules=game.rules)
    pick = CardPicker(engine)
    jiedao, sword, sha, shan = pick("jiedao"), pick("qinggang"), pick("sha"), pick("shan")
    st = position(engine, ["huanggai"] * 4, ["lord", "rebel", "loyalist", "renegade"],
                  hands={0: [jiedao, shan], 1: [sha]}, equipment={1: [sword]})
    st.apply_action(act(USE, jiedao, 1, 0))
    st.apply_action(act(RESPOND, sha))
    assert (st.current_player(), st.turn_player, st.prompt[0]) == (0, 0, P_SHAN)
    assert act(RESPOND, shan) in st.legal_actions()
    effect = _card_effect(game, "閃")
    assert "自分の手番でも出せます" in effect and "手番に使うことはできません" not in effect
    assert "使うことはできず" in effect and all(f"「{asker}」" in effect for asker in ("殺", "万箭斉発"))


def test_the_distance_table_is_the_engine_s(game: Game, oracle: SanguoshaOracle) -> None:
    """Every number of the table of distances from A (all alive; H dead) is the engine's distance."""
    table = next(t for t in _tables(game) if t.header[0] == "Aから")
    targets = list(table.header[1:])
    for row, dead in zip(table.rows, ((), ("H死亡",)), strict=True):
        for target, cell in zip(targets, row[1:], strict=True):
            if cell == "—":
                assert f"{target}死亡" in dead
                continue
            answer = oracle.score(["距離", "8人", f"A→{target}", *dead], ordered=True).points
            assert answer["distance"] == int(cell), (row[0], target)


def test_the_seating_figure_is_the_engine_s(game: Game, oracle: SanguoshaOracle) -> None:
    figure = next(t for t in _tables(game) if t.header[1].startswith("A"))
    cells = [cell for row in figure.rows for cell in row if "距離" in cell]
    assert sorted(cell[0] for cell in cells) == list(SEATS[1:])
    for cell in cells:
        distance = int(cell.rsplit("距離", 1)[1])
        assert oracle.score(["距離", "8人", f"A→{cell[0]}"], ordered=True).points["distance"] == distance


def test_every_engine_clarification_is_listed_once(game: Game) -> None:
    listed = [item.id for block in game.rulebooks[0].blocks if isinstance(block, Clarifications)
              for item in block.items]
    assert sorted(listed) == sorted(c.id for c in CLARIFICATIONS)


def test_the_check_finds_nothing_in_the_rulebook(game: Game) -> None:
    issues = [i for i in check_game(game).issues if i.location.file.name == "rulebook.json"]
    assert issues == [], [i.render() for i in issues]


def test_every_example_is_scored_by_the_engine_as_claimed(game: Game, oracle: SanguoshaOracle) -> None:
    """Each claimed part is one the engine returns for that kind of example (no unchecked numbers)."""
    examples = [b for b in game.rulebooks[0].blocks if isinstance(b, HandExample)]
    assert {e.hand[0] for e in examples} == set(EXAMPLE_KINDS)
    for example in examples:
        actual = oracle.score(example.hand, ordered=True).points
        assert set(example.points) == set(actual), example.title
        assert dict(actual) == dict(example.points), example.title


@pytest.mark.slow
def test_a_wrong_claim_is_caught(tmp_path: Path) -> None:
    """The examples are really checked: a distance one too short fails `fudaya check`."""
    decks = copy_decks(tmp_path, GAME)

    def break_claim(data: dict[str, Any]) -> None:
        block = next(data["blocks"][i] for i in (example_index(data, n) for n in range(20))
                     if data["blocks"][i]["hand"][0] == "距離")
        block["points"]["distance"] -= 1

    edit_rulebook(decks, GAME, break_claim)
    assert [i.code for i in rulebook_issues(decks, GAME)] == ["example-claim"]


# -- no blank pages: the padding to whole sheets holds the generals' list -----------------------------------
def test_no_page_is_left_blank(reader: PdfReader) -> None:
    """The rulebook ran to 17 pages and was padded to 20 with three blank ones; the list of generals
    fills them, so every page of the booklet says something."""
    assert len(reader.pages) % 4 == 0
    for number, page in enumerate(reader.pages, start=1):
        text = "".join(page.extract_text().split())
        assert len(text) > 60, f"page {number} is blank: {text!r}"


def test_the_generals_list_is_the_generals_deck(game: Game, reader: PdfReader) -> None:
    """The 武将一覧 is a card_table of the generals deck: every general, its kingdom, health and every
    skill's name and text as the cards print them, nothing written twice by hand."""
    from validator.model import CardTable
    from validator.rulebooks import card_table_rows

    [table] = [b for b in game.rulebooks[0].blocks if isinstance(b, CardTable)]
    generals = next(d for d in game.decks if d.id == "generals").cards
    rows = card_table_rows(table, generals)
    assert len(rows) == len(generals) == 25
    for card, (name, kingdom, hp, skills) in zip(generals, rows):
        f = card.fields
        assert (name, kingdom, hp) == (f"**｜{f['name']}《{f['reading']}》**", f["kingdom"], str(f["hp"]))
        for n in (1, 2):
            if f"skill{n}_name" in f:
                assert f"**{f[f'skill{n}_name']}**" in skills and f[f"skill{n}_text"] in skills
        assert "（）" not in skills and "**" + "**" not in skills  # an empty tag or a missing skill leaves nothing
    text = "".join("".join(page.extract_text().split()) for page in reader.pages[-4:])
    for card in generals:
        assert card.fields["name"] in text


@pytest.mark.slow
def test_rulebook_text_is_justified_and_kept(game: Game, pdf: Path) -> None:
    """Read back from the PDF: lines of a paragraph reach their frame's edge (to 0.1 mm), none opens
    with a kinsoku character, no paragraph ends in one character."""
    from composedtext import assert_set_well, rulebook_text

    assert_set_well(rulebook_text(pdf, game.rulebooks[0]), justified=60)
