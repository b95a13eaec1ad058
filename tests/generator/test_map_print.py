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
    assert listed(manifest, "map-a3.pdf") == {"file": f"{GAME}/map-a3.pdf", "pages": 1, "page_size": [420.0, 297.0]}


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
