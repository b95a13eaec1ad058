"""sangokushi's printed pieces: the 120 generals, the reference card and its odds, the management
tracks and the area and track markers — counted in build.json, checked against the rules in game.json."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from composedtext import page_words, reading_beside
from deckcopies import LOCATED, assert_located, copy_decks, edit_json
from generator.build import BuildOptions, build_game, load_checked
from generator.cli import app
from validator.binding import bind_color, bind_text
from validator.model import Deck, Game
from validator.paths import DEFAULT_DECKS_DIR
from validator.textbox import layout_text_element
from validator.typeset import load_metrics

GAME = "sangokushi"
POKER = (63.0, 88.0)
# the twelve affiliations of seed 5.10
AFFILIATIONS = ("魏前", "魏中", "魏後", "蜀前", "蜀中", "蜀後", "呉前", "呉中", "呉後", "袁紹", "董卓", "劉表")
COMPONENTS = ("cards", "reference-cards", "tracks", "area-markers", "track-markers")
COLOURS = ("赤", "青", "緑", "黄", "黒", "白")
METHOD_LABELS = {"duel": ("一騎討ち", "武勇"), "battle": ("合戦", "采配"), "scheme": ("計略", "知略")}  # 5.5, 5.8
CAPTURE_LABELS = {"capture": "生け捕り", "kill": "討ち死に", "return": "生還"}  # 6.1
K_ONLY = (0.0, 0.0, 0.0, 1.0)

# Every test here reads the module's build of the game's printed pieces.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def game() -> Game:
    return load_checked(GAME, DEFAULT_DECKS_DIR)


@pytest.fixture(scope="module")
def built(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sangokushi-out")
    build_game(game, BuildOptions(output_dir=out, report=False, only=COMPONENTS))
    return out / GAME


@pytest.fixture(scope="module")
def manifest(built: Path) -> dict:
    return json.loads((built / "build.json").read_text(encoding="utf-8"))


def deck(game: Game, deck_id: str) -> Deck:
    return next(d for d in game.decks if d.id == deck_id)


def placed(manifest: dict, name: str, side: str = "front") -> list[dict]:
    return [p for p in manifest["placements"] if p["file"] == f"{GAME}/{name}" and p["side"] == side]


def generals(game: Game) -> list:
    return [card for card in deck(game, "cards").cards for _ in range(card.qty)]


def elements(d: Deck, template: str, kind: str) -> list:
    return [e for e in d.layout.templates[template].elements if e.type == kind]


# -- the generals ---------------------------------------------------------------------------------
def test_120_poker_cards_with_a_back_each(manifest: dict) -> None:
    files = {f["file"]: f for f in manifest["files"]}
    fronts, backs = placed(manifest, "cards.pdf"), placed(manifest, "cards.pdf", "back")
    assert len(fronts) == len(backs) == 120
    assert all((p["width"], p["height"]) == POKER for p in fronts + backs)
    assert files[f"{GAME}/cards.pdf"]["pages"] == 2 * 14  # 9 a sheet: 14 sheets, fronts and backs
    assert files[f"{GAME}/cards-printshop.pdf"]["pages"] == 240
    assert files[f"{GAME}/cards-printshop.pdf"]["page_size"] == [69.0, 94.0]  # trim + 3 mm bleed


def test_twelve_affiliations_each_with_a_lord(game: Game) -> None:
    cards = generals(game)
    assert tuple(game.rules["affiliations"]) == AFFILIATIONS
    per = Counter(c.fields["affiliation"] for c in cards)
    assert set(per) == set(AFFILIATIONS)
    lords = Counter(c.fields["affiliation"] for c in cards if c.fields["lord"])
    assert all(lords[a] >= 1 for a in AFFILIATIONS)
    assert lords["呉前"] == 2  # 孫堅 and 孫策
    wu_lords = {c.fields["name"] for c in cards if c.fields["affiliation"] == "呉前" and c.fields["lord"]}
    assert wu_lords == {"孫堅", "孫策"}
    assert sorted(c.fields["affiliation"] for c in cards if c.fields["name"] == "劉備") == ["蜀中", "蜀前"]


def test_every_deal_leaves_a_draw_pile(game: Game) -> None:
    total = len(generals(game))
    deal = game.rules["deal_size"]
    assert total - 6 * deal["6"] == 24  # 6 players x 16 cards (seed 2.2)
    for players in range(game.players[0], game.players[1] + 1):
        assert total - players * deal[str(players)] > 0, players


def test_declared_composition_is_what_the_cards_hold(game: Game) -> None:
    source = json.loads((DEFAULT_DECKS_DIR / GAME / "generals.json").read_text(encoding="utf-8"))
    cards = generals(game)
    assert source["total"] == len(cards) == 120
    declared = {(tuple(sorted(r["where"].items()))): r["count"] for r in source["composition"]}
    for affiliation in AFFILIATIONS:
        assert declared[(("affiliation", affiliation),)] == sum(c.fields["affiliation"] == affiliation for c in cards)
        assert declared[(("affiliation", affiliation), ("lord", True))] == sum(
            c.fields["affiliation"] == affiliation and c.fields["lord"] for c in cards)
    assert all(8 <= sum(c.fields["affiliation"] == a for c in cards) <= 12 for a in AFFILIATIONS)  # ~10 each


def test_stats_on_the_scales_the_rules_assume(game: Game) -> None:
    for card in generals(game):
        f = card.fields
        assert all(1 <= f[s] <= 5 for s in ("valor", "command", "strategy")), card.id
        assert 0 <= f["politics"] <= 3, card.id
        assert set(f["reading"]) <= {chr(c) for c in range(ord("ぁ"), ord("ゖ") + 1)} | {"ー"}, card.id
    names = Counter(c.fields["name"] for c in generals(game))
    assert [n for n, k in names.items() if k > 1] == ["劉備"]  # the only general with two cards


def test_lord_mark_and_damage_pips_follow_the_fields(game: Game) -> None:
    d = deck(game, "cards")
    front = d.layout.templates["general"].elements
    assert any(e.type == "text" and e.props["text"] == "君主" and e.get("when") == {"lord": True} for e in front)
    pips = [e for e in front if e.type == "repeat" and e.get("when")]
    for politics in range(4):  # 1 + 内政 filled pips (5.14)
        [filled] = [e for e in pips if e.get("when") == {"politics": politics}]
        assert filled.props["count"] == game.rules.get("damage_base", 1) + politics
    name = next(e for e in front if e.type == "text" and e.props["text"] == "｜{name}《{reading}》")
    assert name.props["vertical"] is True and name.props["size"] >= 30
    labels = {e.props["text"] for e in front if e.type == "text"}
    assert {"武勇", "采配", "知略", "内政", "{valor}", "{command}", "{strategy}", "{politics}"} <= labels


def test_twelve_distinct_affiliation_colours_grouped_by_kingdom(game: Game) -> None:
    d = deck(game, "cards")
    colours = {}
    for a in AFFILIATIONS:
        card = next(c for c in d.cards if c.fields["affiliation"] == a)
        colours[a] = bind_color({"map": "affiliation", "key": "{affiliation}"}, card.bindings, d.layout)
        assert colours[a].space == "cmyk"
    assert len(set(colours.values())) == 12
    c, m, y, k = range(4)
    for a in ("魏前", "魏中", "魏後"):  # blues: cyan over magenta and yellow
        v = colours[a].components
        assert v[c] > v[m] and v[c] > v[y], a
    for a in ("蜀前", "蜀中", "蜀後"):  # greens: yellow and cyan over magenta
        v = colours[a].components
        assert v[y] > v[m] and v[c] > v[m] - 0.01 and v[y] >= 0.9, a
    for a in ("呉前", "呉中", "呉後"):  # reds: magenta over cyan
        v = colours[a].components
        assert v[m] > v[c] + 0.4, a


def test_small_text_is_k_only_black_or_white(game: Game) -> None:
    """Text under 9 pt prints in K-only black (or white on a dark ground), never rich black."""
    ink = bind_color("ink", {}, deck(game, "cards").layout)
    assert ink.space == "cmyk" and ink.components == K_ONLY
    for d in game.decks:
        if d.id not in COMPONENTS:
            continue
        for name, template in d.layout.templates.items():
            for e in template.elements:
                if e.type == "text" and e.props["size"] < 9:
                    assert e.props.get("color", "ink") in ("ink", "white") or isinstance(e.props["color"], dict), \
                        (d.id, name, e.props["text"])


# -- the reference card ------------------------------------------------------------------------
def two_dice(edge: int) -> tuple[int, int, int]:
    """Wins, ties and losses among the 36 rolls of two d6 for a side whose stat + bonus is `edge` higher."""
    outcomes = Counter((edge + a > b) - (edge + a < b) for a in range(1, 7) for b in range(1, 7))
    return outcomes[1], outcomes[0], outcomes[-1]


def test_reference_odds_are_the_enumeration_of_two_dice(game: Game) -> None:
    [card] = deck(game, "reference-cards").cards
    f = card.fields
    for edge in range(0, 7):
        wins, ties, losses = two_dice(edge)
        assert (f[f"wins36_d{edge}"], f[f"ties36_d{edge}"], f[f"losses36_d{edge}"]) == (wins, ties, losses), edge
        assert f[f"odds_d{edge}"] == round(100 * wins / 36)
        assert f[f"tie_d{edge}"] == round(100 * ties / 36)
        assert f[f"lose_d{edge}"] == round(100 * losses / 36)
    assert (f["wins36_d0"], f["ties36_d0"]) == (15, 6)  # equal stats: 15/36 win, 6/36 tie


def test_reference_tables_read_the_rules(game: Game) -> None:
    """The method and capture tables name what rules.method_die and rules.capture_die say, face by face."""
    d = deck(game, "reference-cards")
    card = d.cards[0]
    tables = elements(d, "reference-front", "table")
    method_rows = next(t for t in tables if t.props["rows"][0][1] == "方法").props["rows"][1:]
    for face, (row, die) in enumerate(zip(method_rows, game.rules["method_die"], strict=True), start=1):
        cells = [c if isinstance(c, str) else c["text"] for c in row]
        assert cells[0] == str(face)
        assert (cells[1], cells[3]) == METHOD_LABELS[die["method"]]
        assert bind_text(cells[2], card.bindings) == f"{die['generals']}人"
    capture_rows = next(t for t in tables if t.props["rows"][0][1] == "結果").props["rows"][1:]
    faces = {}
    for row in capture_rows:
        label = row[0] if isinstance(row[0], str) else row[0]["text"]
        lo, _, hi = label.partition("〜")
        for n in range(int(lo), int(hi or lo) + 1):
            faces[n] = row[1]
    assert [faces[n] for n in range(1, 7)] == [CAPTURE_LABELS[r] for r in game.rules["capture_die"]]


def test_six_two_sided_reference_cards(manifest: dict, built: Path) -> None:
    fronts, backs = placed(manifest, "reference-cards.pdf"), placed(manifest, "reference-cards.pdf", "back")
    assert len(fronts) == len(backs) == 6
    assert all((p["width"], p["height"]) == (89.0, 127.0) for p in fronts + backs)
    reader = PdfReader(built / "reference-cards.pdf")
    assert reader.pages[0].extract_text().count("戦闘の早見表") == 4
    assert reader.pages[1].extract_text().count("回復・徴兵と勝率") == 4


# -- management tracks and markers ------------------------------------------------------------------
def test_six_management_tracks_two_tracks_0_to_30(game: Game, manifest: dict) -> None:
    sheets = placed(manifest, "tracks.pdf")
    assert sorted(p["card"] for p in sheets) == [f"track-{n}" for n in range(1, 7)]
    assert {p["page"] for p in sheets} == {1, 2}
    d = deck(game, "tracks")
    assert [c.fields["color_name"] for c in d.cards] == list(COLOURS)
    tracks = elements(d, "track", "table")
    assert len(tracks) == 2  # 保有枚数 and 国力 (seed 2.6)
    marker = deck(game, "track-markers").layout.size
    for table in tracks:
        numbers = [int(c) for row in table.props["rows"] for c in row if isinstance(c, str)]
        assert numbers == list(range(0, 31))
        assert min(table.props["columns"]) >= marker.width and table.props["row_height"] >= marker.height


def test_tracks_reach_every_holding_limit(game: Game) -> None:
    """国力 = area points + 規定枚数 (10.3) stays on the track until a player has won."""
    assert game.maps, "sangokushi's deck has its area map"
    game_map = game.maps[0]
    for players, target in game_map.victory_points.items():
        assert target - 1 + game.rules["deal_size"][str(players)] <= 30, players


def most_areas_before_winning(points: list[int], target: int) -> int:
    """The most areas one player can hold below the target, plus the area that reaches it."""
    held, total = 0, 0
    for p in sorted(points):
        if total + p >= target:
            break
        held, total = held + 1, total + p
    return held + 1


def test_area_markers_six_colours_enough_for_any_game(game: Game, manifest: dict) -> None:
    d = deck(game, "area-markers")
    per = Counter(c.fields["color_name"] for c in d.cards for _ in range(c.qty))
    assert list(per) == list(COLOURS) and len(set(per.values())) == 1
    ids = {c.id for c in d.cards}
    fronts = [p for p in placed(manifest, "markers.pdf") if p["card"] in ids]
    backs = [p for p in placed(manifest, "markers.pdf", "back") if p["card"] in ids]
    assert len(fronts) == len(backs) == sum(per.values())  # two-sided
    if game.maps:
        game_map = game.maps[0]
        points = [a.points for a in game_map.areas]
        need = max(most_areas_before_winning(points, t) for t in game_map.victory_points.values())
        assert per["赤"] >= need


def test_two_track_markers_per_colour(game: Game, manifest: dict) -> None:
    d = deck(game, "track-markers")
    labels = Counter((c.fields["color_name"], c.fields["label"]) for c in d.cards for _ in range(c.qty))
    assert labels == Counter({(colour, label): 1 for colour in COLOURS for label in ("枚", "国")})
    ids = {c.id for c in d.cards}
    assert len([p for p in placed(manifest, "markers.pdf", "back") if p["card"] in ids]) == 12


def test_the_markers_share_their_sheets_and_no_sheet_is_mostly_empty(manifest: dict, built: Path) -> None:
    """The twelve 10 mm track markers took a whole A4 of their own: they are ganged with the area
    markers (game.json "gang": "markers"), two duplex sheets each more than half covered by pieces."""
    files = {f["file"]: f for f in manifest["files"]}
    assert files[f"{GAME}/markers.pdf"]["pages"] == 4  # two sheets, fronts then mirrored backs
    for alone in ("area-markers.pdf", "track-markers.pdf"):
        assert f"{GAME}/{alone}" not in files and not (built / alone).exists()
    fronts = placed(manifest, "markers.pdf")
    assert {p["page"] for p in fronts} == {1, 3}
    assert {p["card"].split("-")[0] for p in fronts if p["page"] == 3} == {"area", "track"}  # sharing sheet 2
    usable = (210 - 2 * 5) * (297 - 2 * 5)  # inside the gang's 5 mm margins
    for page in (1, 3):
        covered = sum((p["width"] + 12) * (p["height"] + 12) for p in fronts if p["page"] == page)  # bleed, marks
        assert covered / usable > 0.5, page
    boxes = [(p["page"], p["x"] - 3, p["y"] - 3, p["x"] + p["width"] + 3, p["y"] + p["height"] + 3) for p in fronts]
    for n, a in enumerate(boxes):  # no piece's bleed runs into another's
        for b in boxes[n + 1:]:
            assert a[0] != b[0] or a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2], (a, b)


def test_marker_colours_match_the_tracks(game: Game) -> None:
    def colour(d: Deck, card_index: int) -> object:
        card = d.cards[card_index]
        return bind_color({"map": "player", "key": "{player}"}, card.bindings, d.layout)
    tracks, areas = deck(game, "tracks"), deck(game, "area-markers")
    assert [colour(tracks, i) for i in range(6)] == [colour(areas, i) for i in range(6)]
    assert len({colour(areas, i) for i in range(6)}) == 6


def test_fonts_embedded(built: Path) -> None:
    for name in ("cards.pdf", "reference-cards.pdf", "tracks.pdf", "markers.pdf"):
        for page in PdfReader(built / name).pages:
            for ref in page["/Resources"]["/Font"].values():
                font = ref.get_object()
                descriptor = (font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font)
                assert "/FontFile2" in descriptor["/FontDescriptor"].get_object(), name


# -- a bad general is one located line --------------------------------------------------------------
@pytest.mark.parametrize(("field", "value", "message"), [
    ("affiliation", "魏外", '"魏外" is not one of'),
    ("valor", 9, "9 is out of range (must be <= 5)"),
])
def test_bad_general_is_one_located_line(tmp_path: Path, field: str, value: object, message: str) -> None:
    decks = copy_decks(tmp_path, GAME)
    edit_json(decks / GAME / "generals.json", lambda d: d["cards"][5]["fields"].__setitem__(field, value))
    result = CliRunner().invoke(app, ["check", GAME, "--decks", str(decks)])
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if LOCATED.match(line)]
    assert len(lines) == 1, lines
    found = assert_located(lines[0])
    assert found["file"].endswith("generals.json") and found["path"] == f"$.cards[5].fields.{field}"
    assert message in found["message"]



def test_reference_text_is_drawn_as_checked_justified_and_kept(game: Game, manifest: dict, built: Path) -> None:
    """The reference card's paragraphs (1＋内政 no longer parted) read back from the PDF: the measured
    lines, justified ones flush to 0.1 mm, no kinsoku break, no one-character last line."""
    from composedtext import assert_set_well, card_text

    assert_set_well(card_text(game, manifest, built, "reference-cards.pdf"), justified=40)
    tracks = card_text(game, manifest, built, "tracks.pdf")  # short labels: drawn as measured, none justified
    assert tracks.problems == [] and tracks.lines > 100


def test_every_generals_reading_prints_right_of_the_name_and_close(game: Game, built: Path, manifest: dict) -> None:
    """The reading is the name's ruby (one element), not a second column 6–7 mm away."""
    pages = page_words(built / "cards-printshop.pdf")
    d = deck(game, "cards")
    problems = []
    for card in d.cards:
        [name] = [e for e in d.layout.templates[card.face].elements if e.type == "text" and "{name}" in e.props["text"]]
        assert name.props["text"] == "｜{name}《{reading}》"
        metrics = load_metrics(game.fonts[name.props["font"]].path)
        laid = layout_text_element(name, bind_text(name.props["text"], card.bindings), metrics)
        assert laid is not None and laid.ruby_size >= 5
        page = next(p["page"] for p in placed(manifest, "cards-printshop.pdf") if p["card"] == card.id) - 1
        problems += reading_beside(pages[page][1], card.fields["name"], card.fields["reading"], laid.size,
                                   laid.ruby_size)
    assert not problems, problems
