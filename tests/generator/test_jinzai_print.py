"""jinzai's printed components besides the stickers: personal sheets, summary cards, 在野 card and markers."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import BuildOptions, build_game, load_checked
from validator.binding import bind_color, bind_text
from validator.model import Deck, Game
from validator.paths import DEFAULT_DECKS_DIR

BLOCK_MM = 20  # the largest wooden block the sheets and the 在野 card are designed for
COMPONENTS = ("personal-sheets", "summary-cards", "zaiya-card", "order-markers", "vp-markers")


@pytest.fixture(scope="module")
def game() -> Game:
    return load_checked("jinzai", DEFAULT_DECKS_DIR)


@pytest.fixture(scope="module")
def built(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("jinzai-out")
    build_game(game, BuildOptions(output_dir=out, report=False, only=COMPONENTS))
    return out / "jinzai"


@pytest.fixture(scope="module")
def manifest(built: Path) -> dict:
    return json.loads((built / "build.json").read_text(encoding="utf-8"))


def deck(game: Game, deck_id: str) -> Deck:
    return next(d for d in game.decks if d.id == deck_id)


def placed(manifest: dict, name: str) -> list[dict]:
    return [p for p in manifest["placements"] if p["file"] == f"jinzai/{name}"]


def rects(deck_: Deck, template: str) -> list:
    return [e for e in deck_.layout.templates[template].elements if e.type == "rect"]


# -- build.json ----------------------------------------------------------------------------------
def test_every_component_is_written_and_listed(manifest: dict, built: Path) -> None:
    files = {f["file"]: f for f in manifest["files"]}
    # the 在野 card and both kinds of marker are on card stock: one ganged duplex pair, not five pages
    expected = {"personal-sheets.pdf": 4, "summary-cards.pdf": 2, "summary-cards-printshop.pdf": 8,
                "card-stock.pdf": 2, "order-markers-printshop.pdf": 8, "vp-markers-printshop.pdf": 8}
    for name, pages in expected.items():
        assert files[f"jinzai/{name}"]["pages"] == pages, name
        assert (built / name).is_file()
    for alone in ("zaiya-card.pdf", "order-markers.pdf", "vp-markers.pdf"):
        assert f"jinzai/{alone}" not in files and not (built / alone).exists()


def test_four_personal_sheets_one_per_a4_page(manifest: dict) -> None:
    sheets = placed(manifest, "personal-sheets.pdf")
    assert sorted(p["card"] for p in sheets) == ["player-1", "player-2", "player-3", "player-4"]
    assert sorted(p["page"] for p in sheets) == [1, 2, 3, 4]
    for p in sheets:
        assert (p["width"], p["height"]) == (196.0, 280.0) and p["side"] == "front"
        assert 4 <= p["x"] and p["x"] + 196 <= 206 and 4 <= p["y"] and p["y"] + 280 <= 293


def test_four_double_sided_summary_cards(manifest: dict) -> None:
    cards = placed(manifest, "summary-cards.pdf")
    assert len([p for p in cards if p["side"] == "front"]) == 4 == len([p for p in cards if p["side"] == "back"])
    assert all((p["width"], p["height"]) == (89.0, 127.0) for p in cards)
    assert {p["page"] for p in cards if p["side"] == "front"} == {1}  # all four on one A4 sheet, backs on page 2


def test_the_zaiya_card_leads_the_card_stock_sheet_with_no_back(manifest: dict) -> None:
    sheet = placed(manifest, "card-stock.pdf")
    [card] = [p for p in sheet if p["card"] == "zaiya"]
    assert (card["width"], card["height"], card["side"], card["page"]) == (180.0, 110.0, "front", 1)
    assert card["y"] + 110 > 297 - 20  # top of the sheet, in game.json order


def test_markers_counts_and_sizes(manifest: dict) -> None:
    sheet = placed(manifest, "card-stock.pdf")
    order = [p for p in sheet if p["side"] == "front" and p["card"] in ("order-1", "order-2", "order-3", "sp")]
    vp = [p for p in sheet if p["side"] == "front" and p["card"].startswith("vp-")]
    assert sorted(p["card"] for p in order) == ["order-1", "order-2", "order-3", "sp"]
    assert sorted(p["card"] for p in vp) == ["vp-1", "vp-2", "vp-3", "vp-4"]
    assert all((p["width"], p["height"]) == (22.0, 22.0) for p in order)
    assert all((p["width"], p["height"]) == (13.0, 13.0) for p in vp)


# -- the personal sheet's design ----------------------------------------------------------------
def lanes(game: Game) -> list:
    """The seven tile columns: rects filled from the light type colours, left to right."""
    sheet = deck(game, "personal-sheets")
    found = [e for e in rects(sheet, "personal-sheet")
             if isinstance(e.get("fill"), dict) and e.get("fill")["map"] == "tile_type_light"]
    return sorted(found, key=lambda e: e.props["x"])


def test_seven_columns_hold_five_blocks_of_20mm(game: Game) -> None:
    columns = lanes(game)
    assert len(columns) == game.rules["columns"] == 7
    for left, right in zip(columns, columns[1:]):
        assert left.props["x"] + left.props["w"] <= right.props["x"]  # no overlap
    for lane in columns:
        assert lane.props["w"] >= BLOCK_MM + 2 and lane.props["h"] >= 5 * BLOCK_MM + 4


def test_column_colours_follow_the_rules_type_of_number(game: Game) -> None:
    sheet = deck(game, "personal-sheets")
    card = sheet.cards[0]
    layout = sheet.layout
    types = game.rules["type_of_number"]
    for n, lane in enumerate(lanes(game), start=1):
        expected = layout.color_maps["tile_type_light"][types[str(n)]]
        assert bind_color(lane.props["fill"], card.bindings, layout) == bind_color(expected, card.bindings, layout)
    # a different assignment in game.json recolours the headers without touching the layout
    swapped = {**types, "1": "武"}
    other = dataclasses.replace(card, context={**card.context, "rules": {**game.rules, "type_of_number": swapped}})
    header = next(e for e in rects(sheet, "personal-sheet")
                  if isinstance(e.get("fill"), dict) and e.get("fill")["key"] == "{rules[type_of_number][1]}"
                  and e.get("fill")["map"] == "tile_type")
    assert bind_color(header.props["fill"], other.bindings, layout) == bind_color("bu", card.bindings, layout)
    label = next(e for e in sheet.layout.templates["personal-sheet"].elements
                 if e.type == "text" and e.props["text"] == "{rules[type_of_number][1]}官")
    assert bind_text(label.props["text"], other.bindings) == "武官"
    assert bind_text(label.props["text"], card.bindings) == "文官"


def vp_track(game: Game) -> list[int]:
    sheet = deck(game, "personal-sheets")
    numbers = [e for e in sheet.layout.templates["personal-sheet"].elements
               if e.type == "text" and e.props["y"] > 200 and re.fullmatch(r"[−-]?\d+", e.props["text"])]
    numbers.sort(key=lambda e: e.props["x"])
    return [int(e.props["text"].replace("−", "-")) for e in numbers]


def test_vp_track_covers_every_reachable_winning_total(game: Game) -> None:
    rules = game.rules
    track = vp_track(game)
    assert track == list(range(track[0], track[-1] + 1))
    best_game = rules["rank_vp"]["4"][0] + rules["four_of_a_kind_vp"] + rules["five_kinds_vp"]
    worst_game = min(rules["rank_vp"]["4"]) + rules["one_type_only_vp"]
    assert track[-1] == rules["vp_to_win"] - 1 + best_game == 7  # 3 before the last game, +4 in it
    assert track[0] <= 2 * worst_game == -4  # two worst games in a row
    assert 0 in track


def test_vp_track_spaces_take_a_vp_marker(game: Game) -> None:
    marker = deck(game, "vp-markers").layout.size
    sheet = deck(game, "personal-sheets")
    spaces = [e for e in rects(sheet, "personal-sheet") if e.props["y"] > 240 and e.props["h"] > 15]
    assert len(spaces) == len(vp_track(game))
    for space in spaces:
        assert space.props["w"] >= marker.width + 1 and space.props["h"] - 6 >= marker.height


def test_vp_markers_match_the_personal_sheets_colours(game: Game) -> None:
    sheets, markers = deck(game, "personal-sheets"), deck(game, "vp-markers")
    def player_colour(d: Deck, card_id: str, template: str):
        card = next(c for c in d.cards if c.id == card_id)
        fill = next(e.props["fill"] for e in rects(d, template)
                    if isinstance(e.get("fill"), dict) and e.get("fill")["map"] == "player")
        return bind_color(fill, card.bindings, d.layout)
    colours = [player_colour(markers, f"vp-{n}", "vp-marker") for n in range(1, 5)]
    assert len(set(colours)) == 4
    for n in range(1, 5):
        assert player_colour(sheets, f"player-{n}", "personal-sheet") == colours[n - 1]


def test_zaiya_card_has_six_block_spaces_on_each_side(game: Game) -> None:
    card = deck(game, "zaiya-card")
    slots = [e for e in rects(card, "zaiya") if e.props["w"] == e.props["h"] >= BLOCK_MM]
    assert len(slots) == 12
    middle = card.layout.size.width / 2
    assert len([s for s in slots if s.props["x"] + s.props["w"] <= middle]) == 6


# -- the PDFs themselves ------------------------------------------------------------------------
def test_sheet_text_and_embedded_fonts(built: Path) -> None:
    for name in ("personal-sheets.pdf", "summary-cards.pdf", "card-stock.pdf"):
        reader = PdfReader(built / name)
        for page in reader.pages:
            for ref in page["/Resources"]["/Font"].values():
                descriptor = ref.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"].get_object() \
                    if "/DescendantFonts" in ref.get_object() else ref.get_object()["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor, name
    first = PdfReader(built / "personal-sheets.pdf").pages[0].extract_text()
    assert "個人シート" in first and "勝利点トラック" in first and "文官" in first and "武官" in first
    summary = PdfReader(built / "summary-cards.pdf")
    assert summary.pages[0].extract_text().count("得点と勝利点") == 4
    assert summary.pages[1].extract_text().count("ゲームの流れ") == 4


# -- the sticker sheet, measured in build.json ---------------------------------------------------
@pytest.fixture(scope="module")
def sticker_manifest(game: Game, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("jinzai-stickers")
    build_game(game, BuildOptions(output_dir=out, report=False, only=("stickers",)))
    return json.loads((out / "jinzai" / "build.json").read_text(encoding="utf-8"))


def test_stickers_one_per_block_plus_spares_at_their_size(game: Game, sticker_manifest: dict) -> None:
    stickers = placed(sticker_manifest, "stickers.pdf")
    cards = {c.id: c for c in deck(game, "stickers").cards}
    blocks = [p for p in stickers if cards[p["card"]].fields["use"] == "block"]
    spares = [p for p in stickers if cards[p["card"]].fields["use"] == "spare"]
    assert len(blocks) == 32 and len(spares) == 8
    numbers = sorted(cards[p["card"]].fields["number"] for p in blocks)
    assert numbers == sorted(list(range(8)) * 4)  # 1-7 four times each, and four tricksters (0)
    size = deck(game, "stickers").layout.size
    assert 16 <= size.width <= 20 and size.width == size.height  # a face of a common 16-20 mm block
    assert all((p["width"], p["height"]) == (size.width, size.height) and p["side"] == "front" for p in stickers)


def test_stickers_keep_kiss_cut_spacing_and_stay_on_the_page(game: Game, sticker_manifest: dict) -> None:
    """Neighbouring trims are at least the layout's gutter apart, so each sticker keeps its own bleed."""
    stickers = placed(sticker_manifest, "stickers.pdf")
    gutter = deck(game, "stickers").layout.gutter
    assert gutter is not None and gutter >= 2 * deck(game, "stickers").layout.size.bleed
    for p in stickers:
        assert 4 <= p["x"] and p["x"] + p["width"] <= 206 and 4 <= p["y"] and p["y"] + p["height"] <= 293
    for i, a in enumerate(stickers):
        for b in stickers[i + 1:]:
            apart_x = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
            apart_y = max(b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
            assert max(apart_x, apart_y) >= gutter - 1e-6, (a["card"], b["card"])


@pytest.mark.parametrize("name", ["personal-sheets.pdf", "summary-cards.pdf", "card-stock.pdf"])
def test_sheet_and_card_text_is_drawn_as_checked_justified_and_kept(game: Game, manifest: dict, built: Path,
                                                                    name: str) -> None:
    """Sheets are set like cards: the measured lines, justified ones flush to 0.1 mm, kinsoku kept."""
    from composedtext import assert_set_well, card_text

    assert_set_well(card_text(game, manifest, built, name), justified=1)
