"""The printed area map: one A3 landscape sheet and the same map tiled on A4 with a stated overlap, fonts embedded,
every area's name in the text."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PageObject, PdfReader

from generator.build import BuildOptions, build_game, load_checked
from validator.model import GameMap
from validator.paths import DEFAULT_DECKS_DIR

MM = 72 / 25.4
GAME = "sangokushi"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameMap, Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("out")
    game = load_checked(GAME, DEFAULT_DECKS_DIR)
    build_game(game, BuildOptions(output_dir=out, only=("map",), report=False))
    manifest = json.loads((out / GAME / "build.json").read_text(encoding="utf-8"))
    return game.maps[0], out / GAME, manifest


def size_mm(page: PageObject) -> tuple[float, float]:
    box = page.mediabox
    return round(float(box.width) / MM, 1), round(float(box.height) / MM, 1)


def listed(manifest: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in manifest["files"] if f["file"] == f"{GAME}/{name}")


def test_a3_is_one_landscape_page(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    _, out, manifest = built
    pages = PdfReader(out / "map-a3.pdf").pages
    assert len(pages) == 1
    assert size_mm(pages[0]) == (420.0, 297.0)
    assert listed(manifest, "map-a3.pdf") == {"file": f"{GAME}/map-a3.pdf", "pages": 1, "page_size": [420.0, 297.0],
                                              "use": "home"}


def test_a4_tiles_cover_the_map_with_the_stated_overlap(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    game_map, out, manifest = built
    pages = PdfReader(out / "map-a4.pdf").pages
    record = next(m for m in manifest["maps"] if m["file"] == f"{GAME}/map-a4.pdf")
    assert record["overlap"] == game_map.overlap == 10
    assert len(pages) == len(record["tiles"]) == record["rows"] * record["cols"] == 4
    assert listed(manifest, "map-a4.pdf")["pages"] == 4
    assert {size_mm(p) for p in pages} == {(297.0, 210.0)}  # A4 landscape
    windows = {(t["row"], t["col"]): t["map_window"] for t in record["tiles"]}
    for (row, col), (x, y, w, h) in windows.items():
        assert w <= 297 - 16 and h <= 210 - 16  # the window fits the page inside its margins
        if (row, col + 1) in windows:
            assert windows[(row, col + 1)][0] == pytest.approx(x + w - 10)
        if (row + 1, col) in windows:
            assert windows[(row + 1, col)][1] == pytest.approx(y + h - 10)
    right = max(x + w for x, _, w, _ in windows.values())
    bottom = max(y + h for _, y, _, h in windows.values())
    assert (min(x for x, *_ in windows.values()), right) == (0, pytest.approx(game_map.width))
    assert (min(y for _, y, *_ in windows.values()), bottom) == (0, pytest.approx(game_map.height))


def test_each_tile_says_which_it_is(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    _, out, _ = built
    for n, page in enumerate(PdfReader(out / "map-a4.pdf").pages, start=1):
        assert f"タイル {n}/4" in page.extract_text()


def fonts_used(resources: Any) -> list[Any]:
    """Every font of a page's resources and of the forms it draws (the tiles draw the map as one form)."""
    resources = resources.get_object() if resources is not None else {}
    found = [f.get_object() for f in resources.get("/Font", {}).values()]
    for xobject in resources.get("/XObject", {}).values():
        found += fonts_used(xobject.get_object().get("/Resources"))
    return found


def test_every_font_is_embedded(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    _, out, _ = built
    for name in ("map-a3.pdf", "map-a4.pdf"):
        for page in PdfReader(out / name).pages:
            fonts = fonts_used(page["/Resources"])
            assert fonts, name
            for font in fonts:
                descriptor = font["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor, (name, font["/BaseFont"])  # a TrueType program in the file


def test_every_area_name_and_reading_is_in_the_text(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    game_map, out, _ = built
    text = PdfReader(out / "map-a3.pdf").pages[0].extract_text()
    for area in game_map.areas:
        assert area.name in text, area.name
        assert area.reading in text, area.reading
    for spec in game_map.route_kinds.values():
        assert spec["label"] in text


def test_list_names_the_map_component() -> None:
    from typer.testing import CliRunner

    from generator.cli import app

    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0
    row = next(line for line in result.output.splitlines() if line.startswith("map "))
    assert row.split() == ["map", "map", "29", "areas,", "51", "routes,", "45", "points", "420×297", "mm"]


# -- registration marks: in the white margin, never on the board ---------------------------------------------
def _tile_plan(game_map: GameMap) -> Any:
    from generator.map_tiles import plan_tiles
    from validator.presets import PAPER_SIZES

    assert game_map.tiles is not None
    return plan_tiles((game_map.width, game_map.height), PAPER_SIZES[game_map.tiles], game_map.overlap)


def test_registration_crosses_lie_outside_every_window_and_pair_up_across_strips() -> None:
    """Each cross, arms included, is in its page's white margin (so on the assembled board, which is made of
    windows, none covers an area), and is printed on both tiles of a strip at the same point of the map."""
    from generator.map_pdf import MARK_ARM, MARK_RADIUS
    from generator.map_tiles import PAGE_MARGIN

    game_map = load_checked(GAME, DEFAULT_DECKS_DIR).maps[0]
    tiles = _tile_plan(game_map)
    reach = MARK_RADIUS * MARK_ARM
    on_map: dict[tuple[float, float], set[int]] = {}
    for tile in tiles.tiles:
        marks = tiles.marks(tile)
        assert len(marks) == 2 * sum(tiles.neighbour(tile, r, c) is not None
                                     for r, c in ((0, 1), (0, -1), (1, 0), (-1, 0)))
        for x, y in marks:
            window_gap = max(tile.page_x - (x + reach), (x - reach) - (tile.page_x + tile.width),
                             tile.page_y - (y + reach), (y - reach) - (tile.page_y + tile.height))
            assert window_gap >= 1.0, (tile.number, x, y)  # the whole cross clears the window by 1 mm
            assert PAGE_MARGIN <= x - reach and x + reach <= tiles.page[0] - PAGE_MARGIN
            assert PAGE_MARGIN <= y - reach and y + reach <= tiles.page[1] - PAGE_MARGIN
            spot = (round(tile.map_x + x - tile.page_x, 6), round(tile.map_y + tile.page_y + tile.height - y, 6))
            on_map.setdefault(spot, set()).add(tile.number)
    assert on_map and all(len(numbers) == 2 for numbers in on_map.values()), on_map


def _drawn_points(page: Any) -> list[tuple[float, float]]:
    """Every point the page's own content draws through (path points, text origins), in mm, except the
    clipping path; forms it draws (the map) are not entered."""
    from decimal import Decimal

    import pikepdf

    points: list[tuple[float, float]] = []
    ctm, stack = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0), []
    path: list[tuple[float, float]] = []

    def place(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        return (a * x + c * y + e) / MM, (b * x + d * y + f) / MM

    for operands, operator in pikepdf.parse_content_stream(page):
        op, values = str(operator), [float(v) for v in operands if isinstance(v, (int, float, Decimal))]
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            a, b, c, d, e, f = values
            m = ctm
            ctm = (a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                   e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5])
        elif op in ("m", "l", "c", "v", "y"):
            path += [place(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        elif op == "re":
            x, y, w, h = values
            path += [place(x, y), place(x + w, y), place(x, y + h), place(x + w, y + h)]
        elif op == "W":
            path = []  # a clipping path draws nothing
        elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*"):
            points += path
            path = []
        elif op == "n":
            path = []
        elif op in ("Td", "TD", "Tm"):
            points.append(place(values[-2], values[-1]))
    return points


def test_nothing_but_the_map_is_printed_inside_a_tile_window(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    """Read from the PDF: every mark, number, key and line a tile page draws besides the map lies outside
    its window or on its edge (the hairline round it) — none on an area such as 上庸 or 襄陽."""
    import pikepdf

    _, out, manifest = built
    record = next(m for m in manifest["maps"] if m["file"] == f"{GAME}/map-a4.pdf")
    with pikepdf.open(out / "map-a4.pdf") as pdf:
        for tile, page in zip(record["tiles"], pdf.pages):
            x0, y0, w, h = tile["page_window"]
            points = _drawn_points(page)
            assert len(points) > 50  # the crosses, numbers and key were seen
            inside = [(round(x, 2), round(y, 2)) for x, y in points
                      if x0 + 0.01 < x < x0 + w - 0.01 and y0 + 0.01 < y < y0 + h - 0.01]
            assert inside == [], (tile["page"], inside[:5])


# -- the print-shop files -------------------------------------------------------------------------------------
def test_the_shop_gets_the_board_with_bleed_and_as_butting_panels(built: tuple[GameMap, Path, dict[str, Any]]) -> None:
    """map-a3-printshop.pdf: the board at its trim size, 3 mm bleed all round. map-a4-printshop.pdf: the
    home tiles' grid without overlap, equal panels that butt and together cover the board exactly."""
    game_map, out, manifest = built
    [sheet] = PdfReader(out / "map-a3-printshop.pdf").pages
    assert size_mm(sheet) == (game_map.width + 6, game_map.height + 6)
    assert [round(float(v) / MM, 2) for v in sheet.trimbox] == [3.0, 3.0, game_map.width + 3, game_map.height + 3]
    assert listed(manifest, "map-a3-printshop.pdf")["use"] == "shop"
    tiles = next(m for m in manifest["maps"] if m["file"] == f"{GAME}/map-a4.pdf")
    panels = next(m for m in manifest["maps"] if m["file"] == f"{GAME}/map-a4-printshop.pdf")
    assert (panels["kind"], panels["rows"], panels["cols"], panels["bleed"]) == ("panels", tiles["rows"],
                                                                                 tiles["cols"], 3.0)
    pages = PdfReader(out / "map-a4-printshop.pdf").pages
    assert len(pages) == len(panels["panels"]) == panels["rows"] * panels["cols"]
    width, height = game_map.width / panels["cols"], game_map.height / panels["rows"]
    assert width + 6 <= 297 and height + 6 <= 210  # a panel with its bleed still prints on the tiles' paper
    area = 0.0
    for panel, page in zip(panels["panels"], pages):
        x, y, w, h = panel["map_window"]
        assert (w, h) == (pytest.approx(width), pytest.approx(height))
        assert (x, y) == (pytest.approx((panel["col"] - 1) * width), pytest.approx((panel["row"] - 1) * height))
        trim = [round(float(v) / MM, 2) for v in page.trimbox]
        assert trim == [3.0, 3.0, round(w + 3, 2), round(h + 3, 2)]
        assert size_mm(page) == (round(w + 6, 1), round(h + 6, 1))
        area += w * h
    assert area == pytest.approx(game_map.width * game_map.height)  # edge to edge, no overlap, no gap
