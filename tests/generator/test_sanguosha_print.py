"""sanguosha's printed pieces: 104+4 playing cards, 25 generals, 10 identities, 10 two-sided health cards
and 10 quick-reference cards — measured in build.json, in the PDFs' text and drawing, and in the layouts."""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from composedtext import page_words, reading_beside
from generator.build import BuildOptions, build_game, load_checked
from validator.binding import Color, bind_color, bind_text
from validator.checks import text as text_check
from validator.faces import drawn_elements, iter_leaf_elements
from validator.model import Card, Deck, Element, Game
from validator.paths import DEFAULT_DECKS_DIR
from validator.textbox import layout_text_element
from validator.typeset import load_metrics

GAME = "sanguosha"
POKER = (63.0, 88.0)
QUICKREF = (89.0, 127.0)
BLEED = 3.0
COMPONENTS = ("cards", "generals", "identities", "health", "quickref")
# physical cards and A4 sheets (9 poker cards or 4 quick-reference cards a sheet; each sheet a front and a back page)
COPIES = {"cards": 108, "generals": 25, "identities": 10, "health": 10, "quickref": 10}
SHEET_PAGES = {"cards": 2 * 12, "generals": 2 * 3, "identities": 2 * 2, "health": 2 * 2, "quickref": 2 * 3}
K_ONLY = (0.0, 0.0, 0.0, 1.0)
JADE = "jade"  # the palette colour every 勾玉 is filled with, and nothing else


@pytest.fixture(scope="module")
def game() -> Game:
    return load_checked(GAME, DEFAULT_DECKS_DIR)


@pytest.fixture(scope="module")
def built(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sanguosha-out")
    build_game(game, BuildOptions(output_dir=out, report=False, only=COMPONENTS))
    return out / GAME


@pytest.fixture(scope="module")
def manifest(built: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((built / "build.json").read_text(encoding="utf-8"))
    return data


def deck(game: Game, deck_id: str) -> Deck:
    return next(d for d in game.decks if d.id == deck_id)


def placed(manifest: dict[str, Any], name: str, side: str = "front") -> list[dict[str, Any]]:
    return [p for p in manifest["placements"] if p["file"] == f"{GAME}/{name}" and p["side"] == side]


def texts(card: Card, d: Deck, template: str | None = None) -> list[Element]:
    return [e for e in drawn_elements(card, template or card.face, d.layout) if e.type == "text"]


def bound(card: Card, d: Deck, template: str | None = None) -> set[str]:
    return {bind_text(e.props["text"], card.bindings) for e in texts(card, d, template)}


def printshop_page(manifest: dict[str, Any], component: str, card_id: str, side: str = "front") -> int:
    """0-based page of a card's side in the one-card-per-page file."""
    page: int = next(p["page"] for p in placed(manifest, f"{component}-printshop.pdf", side) if p["card"] == card_id)
    return page - 1


def page_runs(reader: PdfReader, page: int) -> list[tuple[str, list[float], float]]:
    """Each text run on a page: its text, the current transformation matrix, its size in points."""
    runs: list[tuple[str, list[float], float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            runs.append((text.strip(), [float(v) for v in cm], float(size)))

    reader.pages[page].extract_text(visitor_text=visit)
    return runs


def page_text(reader: PdfReader, page: int) -> str:
    return "".join(text for text, _, _ in page_runs(reader, page))


def fill_count(reader: PdfReader, page: int, color: Color) -> int:
    """How many times a page sets this CMYK fill colour (ReportLab writes `c m y k k`, without leading zeros)."""
    numbers = " ".join(f"{v:g}".removeprefix("0") if 0 < v < 1 else f"{v:g}" for v in color.components)
    data = reader.pages[page].get_contents()
    assert data is not None
    return len(re.findall(rf"(?<![\d.]){re.escape(numbers)} k\b", data.get_data().decode("latin-1")))


def palette(game: Game, name: str) -> Color:
    found = bind_color(name, {}, deck(game, "cards").layout)
    assert found is not None
    return found


# -- counts and sizes -------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("component", COMPONENTS)
def test_every_card_front_and_back_at_its_size(manifest: dict[str, Any], component: str) -> None:
    size = QUICKREF if component == "quickref" else POKER
    files = {f["file"]: f for f in manifest["files"]}
    for name in (f"{component}.pdf", f"{component}-printshop.pdf"):
        fronts, backs = placed(manifest, name), placed(manifest, name, "back")
        assert len(fronts) == len(backs) == COPIES[component], name
        assert all((p["width"], p["height"]) == size for p in fronts + backs), name
    sheets = files[f"{GAME}/{component}.pdf"]
    assert sheets["pages"] == SHEET_PAGES[component]
    assert sheets["page_size"] == [210.0, 297.0]
    shop = files[f"{GAME}/{component}-printshop.pdf"]
    assert shop["pages"] == 2 * COPIES[component]
    assert shop["page_size"] == [size[0] + 2 * BLEED, size[1] + 2 * BLEED]


@pytest.mark.slow
def test_pdf_structure_fonts_embedded_and_subset(built: Path) -> None:
    for component in COMPONENTS:
        for name in (f"{component}.pdf", f"{component}-printshop.pdf"):
            reader = PdfReader(built / name)
            for page in reader.pages[:2]:
                resources: Any = page["/Resources"]
                for ref in resources["/Font"].values():
                    font = ref.get_object()
                    descriptor = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                    assert "/FontFile2" in descriptor["/FontDescriptor"].get_object(), name
                    assert re.match(r"^/[A-Z]{6}\+", str(font["/BaseFont"])), name  # a subset


@pytest.mark.slow
def test_no_rgb_paint_in_any_file(built: Path) -> None:
    """Every paint is CMYK: no rg/RG operator in a page or in a shared form (the backs), not even the
    black ReportLab graphics start on before the 勾玉 paths set their own colours."""
    rgb = re.compile(rb"(?<![A-Za-z])(rg|RG)(?![A-Za-z])")
    for component in COMPONENTS:
        for name in (f"{component}.pdf", f"{component}-printshop.pdf"):
            for page in PdfReader(built / name).pages[:4]:
                contents = page.get_contents()
                assert contents is not None
                streams = [contents.get_data()]
                resources: Any = page["/Resources"]
                for form in resources.get("/XObject", {}).values():
                    streams.append(form.get_object().get_data())
                assert not any(rgb.search(s) for s in streams), name


def test_deck_composition(game: Game) -> None:
    cards = deck(game, "cards").copies()
    assert len(cards) == 108
    assert sum(not c.card.fields["ex"] for c in cards) == 104
    pairs = Counter((c.card.fields["suit"], c.card.fields["rank"]) for c in cards if not c.card.fields["ex"])
    assert set(pairs.values()) == {2} and len(pairs) == 52  # each suit/rank pair twice
    roles = Counter(c.card.fields["name"] for c in deck(game, "identities").copies())
    assert roles == Counter({"主公": 1, "忠臣": 3, "反賊": 4, "内奸": 2})


# -- playing cards ------------------------------------------------------------------------------------
def index_elements(d: Deck, card: Card) -> dict[str, list[Element]]:
    found: dict[str, list[Element]] = {"{rank_label}": [], "{suit_mark}": []}
    for e in texts(card, d):
        if e.props["text"] in found:
            found[e.props["text"]].append(e)
    return found


def test_indices_in_both_corners_the_lower_turned(game: Game) -> None:
    d = deck(game, "cards")
    size = d.layout.size
    for card in d.cards:
        for pair in index_elements(d, card).values():
            assert len(pair) == 2, card.id
            upper, lower = sorted(pair, key=lambda e: e.props["y"])
            assert upper.props.get("rotate", 0) == 0 and lower.props["rotate"] == 180
            # the lower box is the upper one turned about the card's centre
            assert upper.props["x"] + lower.props["x"] + lower.props["w"] == pytest.approx(size.width)
            assert upper.props["y"] + lower.props["y"] + lower.props["h"] == pytest.approx(size.height)
            assert upper.props["x"] < size.width / 4 and upper.props["y"] < size.height / 4


@pytest.mark.slow
def test_the_lower_index_prints_upside_down(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    reader = PdfReader(built / "cards-printshop.pdf")
    for card in deck(game, "cards").cards[:12]:
        runs = page_runs(reader, printshop_page(manifest, "cards", card.id))
        for value in (card.fields["rank_label"], card.fields["suit_mark"]):
            turns = sorted(cm[0] for text, cm, _ in runs if text == value)
            assert turns == [-1.0, 1.0], (card.id, value)  # once upright, once turned 180°


def test_suit_colours_red_and_k_only_black(game: Game) -> None:
    d = deck(game, "cards")
    for card in d.cards:
        for pair in index_elements(d, card).values():
            for e in pair:
                colour = bind_color(e.props["color"], card.bindings, d.layout)
                assert colour is not None and colour.space == "cmyk"
                c, m, y, k = colour.components
                if card.fields["suit"] in ("heart", "diamond"):
                    assert m >= 0.9 and y >= 0.8 and c == 0 and k == 0, card.id
                else:
                    assert colour.components == K_ONLY, card.id


@pytest.mark.slow
def test_ex_mark_on_the_four_ex_cards_only(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "cards")
    reader = PdfReader(built / "cards-printshop.pdf")
    ex_cards = [c for c in d.cards if c.fields["ex"]]
    assert len(ex_cards) == 4
    for card in d.cards:
        marked = "EX" in bound(card, d)
        assert marked == card.fields["ex"], card.id
        runs = page_runs(reader, printshop_page(manifest, "cards", card.id))
        assert any(text == "EX" for text, _, _ in runs) == card.fields["ex"], card.id
    for card in ex_cards:  # the mark sits in the lower right quarter
        [mark] = [e for e in texts(card, d) if e.props["text"] == "EX"]
        assert mark.props["x"] > d.layout.size.width / 2 and mark.props["y"] > d.layout.size.height * 3 / 4


@pytest.mark.slow
def test_weapons_show_range_and_horses_their_distance(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "cards")
    reader = PdfReader(built / "cards-printshop.pdf")
    mark = {"horse_plus": "＋1", "horse_minus": "−1"}
    for card in d.cards:
        shown = bound(card, d)
        subtype = card.fields["subtype"]
        if subtype == "weapon":
            assert {"攻撃範囲", str(card.fields["range"])} <= shown, card.id
            text = page_text(reader, printshop_page(manifest, "cards", card.id))
            assert f"攻撃範囲{card.fields['range']}" in text, card.id
        else:
            assert "攻撃範囲" not in shown, card.id
        assert (mark.get(subtype) in shown) if subtype in mark else not (shown & set(mark.values())), card.id


@pytest.mark.slow
def test_name_type_line_and_effect_printed(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "cards")
    reader = PdfReader(built / "cards-printshop.pdf")
    for card in d.cards[::7]:
        text = page_text(reader, printshop_page(manifest, "cards", card.id))
        f = card.fields
        for part in (f["name"], f["type_line"], f["text"][:8]):
            assert part in text, (card.id, part)


# -- generals -----------------------------------------------------------------------------------------
KINGDOM_HUE = {"魏": "blue", "蜀": "red", "呉": "green", "群": "grey"}


def hue(colour: Color) -> str:
    c, m, y, k = colour.components
    if c == m == y == 0:
        return "grey"
    if c > m and c > y:
        return "blue"
    if m > c and y > c:
        return "red"
    return "green" if c > m and y > m else "other"


def test_kingdom_colours_follow_the_conventions(game: Game) -> None:
    d = deck(game, "generals")
    seen = {}
    for card in d.cards:
        colour = bind_color({"map": "kingdom", "key": "{kingdom}"}, card.bindings, d.layout)
        assert colour is not None and colour.space == "cmyk"
        assert hue(colour) == KINGDOM_HUE[card.fields["kingdom"]], card.id
        seen[card.fields["kingdom"]] = colour
    assert len(set(seen.values())) == 4


@pytest.mark.slow
def test_magatama_drawn_equal_hp(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    reader = PdfReader(built / "generals-printshop.pdf")
    jade = palette(game, JADE)
    hps: Counter[int] = Counter()
    for card in deck(game, "generals").cards:
        drawn = fill_count(reader, printshop_page(manifest, "generals", card.id), jade)
        assert drawn == card.fields["hp"], card.id
        hps[drawn] += 1
    assert set(hps) == {3, 4}


def test_name_vertical_and_large_with_its_reading_as_ruby(game: Game) -> None:
    d = deck(game, "generals")
    [name] = [e for e in d.layout.templates["general"].elements if e.type == "text" and "{name}" in e.props["text"]]
    assert name.props["vertical"] is True and name.props.get("min_size", name.props["size"]) >= 20
    assert name.props["text"] == "｜{name}《{reading}》"  # one element: the reading is the name's ruby


@pytest.mark.slow
def test_every_generals_reading_prints_right_of_the_name_and_close(game: Game, built: Path,
                                                                   manifest: dict[str, Any]) -> None:
    pages = page_words(built / "generals-printshop.pdf")
    d = deck(game, "generals")
    problems = []
    for card in d.cards:
        [name] = [e for e in texts(card, d) if "{name}" in e.props["text"]]
        metrics = load_metrics(game.fonts[name.props["font"]].path)
        laid = layout_text_element(name, bind_text(name.props["text"], card.bindings), metrics)
        assert laid is not None and laid.ruby_size >= 5
        words = pages[printshop_page(manifest, "generals", card.id)][1]
        problems += reading_beside(words, card.fields["name"], card.fields["reading"], laid.size, laid.ruby_size)
    assert not problems, problems


@pytest.mark.slow
def test_skills_with_their_tags(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "generals")
    reader = PdfReader(built / "generals-printshop.pdf")
    skills = 0
    for card in d.cards:
        f = card.fields
        shown = bound(card, d)
        text = page_text(reader, printshop_page(manifest, "generals", card.id))
        for n in (1, 2):
            if f"skill{n}_id" not in f:
                assert n == 2
                continue
            skills += 1
            assert f[f"skill{n}_name"] in shown and f[f"skill{n}_text"] in shown, card.id
            assert f[f"skill{n}_name"] in text, card.id
            if f[f"skill{n}_tag"]:
                assert f[f"skill{n}_tag"] in text, card.id
        for tag in ("鎖定技", "主公技"):
            assert (tag in text) == any(tag in f.get(f"skill{n}_tag", "") for n in (1, 2)), (card.id, tag)
    assert skills == 40


def test_one_skill_box_or_two(game: Game) -> None:
    """A general with one skill gets one large box; with two, two boxes one above the other."""
    d = deck(game, "generals")
    for card in d.cards:
        boxes = [e for e in texts(card, d) if re.fullmatch(r"\{skill\d_text\}", e.props["text"])]
        assert len(boxes) == (2 if "skill2_id" in card.fields else 1), card.id
        if len(boxes) == 2:
            first, second = sorted(boxes, key=lambda e: e.props["y"])
            assert first.props["text"] == "{skill1_text}"
            assert first.props["y"] + first.props["h"] < second.props["y"]


# -- identities, health, quick reference ------------------------------------------------------------
@pytest.mark.slow
def test_identity_role_big_with_goal(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "identities")
    reader = PdfReader(built / "identities-printshop.pdf")
    for card in d.cards:
        runs = page_runs(reader, printshop_page(manifest, "identities", card.id))
        sizes = [size for text, _, size in runs if text in card.fields["name"]]
        assert sizes and min(sizes) >= 36, card.id
        assert card.fields["goal"][:10] in "".join(t for t, _, _ in runs), card.id


@pytest.mark.slow
def test_health_front_five_back_four(game: Game, built: Path, manifest: dict[str, Any]) -> None:
    d = deck(game, "health")
    [card] = d.cards
    assert (card.fields["front_hp"], card.fields["back_hp"]) == (5, 4)
    reader = PdfReader(built / "health-printshop.pdf")
    jade = palette(game, JADE)
    assert fill_count(reader, printshop_page(manifest, "health", card.id), jade) == 5
    assert fill_count(reader, printshop_page(manifest, "health", card.id, "back"), jade) == 4


def test_quickref_identity_table_reads_the_rules(game: Game) -> None:
    d = deck(game, "quickref")
    [card] = d.cards
    table = game.rules["identity_table"]
    [grid] = [e for e in d.layout.templates["quickref-back"].elements
              if e.type == "table" and e.props["rows"][0][0] == "人数"]
    rows = grid.props["rows"]
    counts = rows[0][1:]
    assert counts == [str(n) for n in range(game.players[0], game.players[1] + 1)]
    for row in rows[1:]:
        role = {"主公": "lord", "忠臣": "loyalist", "反賊": "rebel", "内奸": "renegade"}[row[0]["text"]]
        values = [int(bind_text(cell, card.bindings)) for cell in row[1:]]
        assert values == [table[n][role] for n in counts]


def test_quickref_names_the_turn_order_as_the_rulebook_does(game: Game) -> None:
    """One game, one term: the rulebook says 反時計回り; the card once said 逆時計回り."""
    d = deck(game, "quickref")
    [card] = d.cards
    card_text = "".join(bound(card, d) | bound(card, d, card.back))
    book = (game.directory / "rulebook.json").read_text(encoding="utf-8")
    assert "反時計回り" in book and "反時計回り" in card_text
    assert "逆時計回り" not in book + card_text


@pytest.mark.slow
def test_quickref_both_sides(built: Path, manifest: dict[str, Any]) -> None:
    reader = PdfReader(built / "quickref-printshop.pdf")
    front = page_text(reader, printshop_page(manifest, "quickref", "quickref"))
    back = page_text(reader, printshop_page(manifest, "quickref", "quickref", "back"))
    for phase in ("開始段階", "判定段階", "摸牌段階", "出牌段階", "棄牌段階", "終了段階"):
        assert phase in front
    for word in ("距離", "攻撃範囲", "＋1馬", "−1馬", "諸葛連弩", "麒麟弓"):
        assert word in back, word


# -- every kind: its own back, fitting text, K-only small type ----------------------------------------
def test_each_kind_has_its_own_back(game: Game) -> None:
    grounds = set()
    for component in COMPONENTS:
        d = deck(game, component)
        card = d.cards[0]
        assert card.back != card.face
        first = drawn_elements(card, card.back, d.layout)[0]
        grounds.add((first.type, bind_color(first.get("fill"), card.bindings, d.layout)))
    assert len(grounds) == len(COMPONENTS)


def test_every_text_fits_and_has_its_glyphs(game: Game) -> None:
    assert [i.render() for i in text_check.check(game) if i.severity == "error"] == []


def iter_texts(game: Game) -> Iterator[tuple[Deck, Card, Element]]:
    for component in COMPONENTS:
        d = deck(game, component)
        for card in d.cards:
            for template in (card.face, card.back):
                drawn = iter_leaf_elements(drawn_elements(card, template, d.layout), card.bindings)
                yield from ((d, card, e) for e in drawn if e.type == "text")


def test_text_under_12pt_is_k_only_black(game: Game) -> None:
    for d, card, e in iter_texts(game):
        smallest = min(e.props["size"], e.props.get("min_size", e.props["size"]))
        if smallest < 12:
            colour = bind_color(e.props.get("color", "ink"), card.bindings, d.layout)
            assert colour is not None and colour.components == K_ONLY, (d.id, card.id, e.props["text"])


def test_every_colour_is_cmyk(game: Game) -> None:
    layout = deck(game, "cards").layout
    for name in layout.palette:
        colour = bind_color(name, {}, layout)
        assert colour is not None and colour.space == "cmyk", name


@pytest.mark.slow
@pytest.mark.parametrize("name", [f"{c}.pdf" for c in COMPONENTS])
def test_card_text_is_drawn_as_checked_justified_and_kept(game: Game, manifest: dict[str, Any], built: Path,
                                                          name: str) -> None:
    """Read back from each PDF: every card's lines are the ones the text check measured, a justified
    line runs from one side of its box to the other (to 0.1 mm), no line opens with a kinsoku character
    and no paragraph ends in one character (the 殺's 1ダ／メージ and ま／で。 of old)."""
    from composedtext import assert_set_well, card_text

    assert_set_well(card_text(game, manifest, built, name), justified={"cards.pdf": 100}.get(name, 10))
