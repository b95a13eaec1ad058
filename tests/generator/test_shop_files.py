"""Every file a shop would print is shop-ready (issue 25), read back from a whole build of each game.

One build per game (one test each, so pytest-xdist never builds a game twice): every print file passes
preflight by its use (print-shop files with their boxes, home files as sheets), every print-shop page has
its BleedBox 3 mm beyond its TrimBox on all four sides and its art carried into that bleed, every component
whose home file shows colour at a piece's trim has a print-shop file (the colour found in the rendered
pixels, not taken from the rule that writes the files), and a print-shop rulebook keeps all its text 5 mm
inside the trim.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from generator.build import BuildOptions, build_game, load_checked, total_steps
from generator.preflight import preflight
from validator.geometry import POINTS_PER_MM
from validator.loader import find_games
from validator.model import Game
from validator.paths import DEFAULT_DECKS_DIR
from validator.presets import SHOP_BLEED_MM, SHOP_SAFE_MM

DPI = 100
PX_PER_MM = DPI / 25.4
INSIDE_MM = 0.5   # a piece's colour at its trim: sampled this far inside the trim line
BLEED_MM = 1.5    # the bleed's colour: sampled this far outside it
PAGES_SAMPLED = 6  # print-shop pages rendered a file (the rest share their drawing code)
Box = tuple[float, float, float, float]  # x, y, width, height in mm from the page's bottom-left

pytestmark = pytest.mark.slow


class Pages:
    """Pages of the build rendered once each, read as pixels in mm from the page's bottom-left."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.images = folder, {}
        self.documents: dict[str, Any] = {}

    def image(self, name: str, page: int) -> Image.Image:
        if (name, page) not in self.images:
            document = self.documents.setdefault(name, pypdfium2.PdfDocument(self.folder / name))
            self.images[(name, page)] = document[page - 1].render(scale=DPI / 72).to_pil().convert("RGB")
        image: Image.Image = self.images[(name, page)]
        return image

    def inked(self, name: str, page: int, x: float, y: float) -> bool:
        image = self.image(name, page)
        px, py = round(x * PX_PER_MM), round(image.height - y * PX_PER_MM)
        if not (0 <= px < image.width and 0 <= py < image.height):
            return False
        pixel: tuple[int, int, int] = image.getpixel((px, py))  # type: ignore[assignment]
        return min(pixel) < 235

    def close(self) -> None:
        for document in self.documents.values():
            document.close()


def edge_points(box: Box, offset: float, step: float = 2.0) -> Iterator[tuple[str, float, float]]:
    """(side, x, y) along each side of `box`, `offset` mm outside it (negative: inside), corners left out."""
    x, y, w, h = box
    for k in range(1, max(2, int(w / step))):
        t = x + w * k / max(2, int(w / step))
        yield "bottom", t, y - offset
        yield "top", t, y + h + offset
    for k in range(1, max(2, int(h / step))):
        t = y + h * k / max(2, int(h / step))
        yield "left", x - offset, t
        yield "right", x + w + offset, t


def colour_at_trim(pages: Pages, name: str, page: int, box: Box) -> bool:
    return any(pages.inked(name, page, x, y) for _, x, y in edge_points(box, -INSIDE_MM))


def mm_box(values: Any) -> list[float]:
    return [float(v) / POINTS_PER_MM for v in values]


@pytest.fixture(scope="module")
def decks_and_maps() -> dict[str, Game]:
    return {game_id: load_checked(game_id, DEFAULT_DECKS_DIR) for game_id in find_games(DEFAULT_DECKS_DIR)}


@pytest.mark.parametrize("game_id", find_games(DEFAULT_DECKS_DIR))
def test_every_print_file_is_ready_for_its_use(game_id: str, decks_and_maps: dict[str, Game], tmp_path: Path) -> None:
    """The build's files, each held to its use; the shop files' boxes, bleed and coverage of the components."""
    game = decks_and_maps[game_id]
    options = BuildOptions(decks_dir=DEFAULT_DECKS_DIR, output_dir=tmp_path, report=False)
    steps: list[int] = []
    result = build_game(game, options, progress=steps.append)
    assert sum(steps) == total_steps(game, options)  # the progress bar ends full
    folder = tmp_path / game_id
    manifest = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    uses = {entry["file"].split("/", 1)[1]: entry["use"] for entry in manifest["files"]}
    assert uses == {w.name.split("/", 1)[1]: w.use for w in result.files}
    assert set(manifest["uses"]) == {"shop", "home", "screen"}
    assert {"shop", "home"} <= set(uses.values())

    for name, use in uses.items():  # preflight by use: the file's own boxes only where one trim a page
        if use != "screen":
            findings = preflight(folder / name, boxes=use == "shop", pdfx=True)
            assert [f.line(name) for f in findings] == [], name
    for name in (n for n, use in uses.items() if use == "shop"):
        _assert_shop_boxes(folder / name)

    pages = Pages(folder)
    try:
        _assert_colour_at_trim_has_a_shop_file(game, manifest, uses, pages)
        for name in (n for n, use in uses.items() if use == "shop"):
            _assert_bleed_is_carried(pages, name)
    finally:
        pages.close()
    for book in game.rulebooks:
        _assert_rulebook_for_the_shop(folder, book.id)


def _assert_shop_boxes(path: Path) -> None:
    """TrimBox inside BleedBox by 3 mm on all four sides; the page is the BleedBox (read with pypdf)."""
    for number, page in enumerate(PdfReader(path).pages, start=1):
        trim, bleed, media = mm_box(page.trimbox), mm_box(page.bleedbox), mm_box(page.mediabox)
        margins = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        assert margins == pytest.approx((SHOP_BLEED_MM,) * 4, abs=0.01), (path.name, number, margins)
        assert bleed == pytest.approx(media, abs=0.01), (path.name, number)


def _home_pieces(game: Game, manifest: dict[str, Any], uses: dict[str, str]) -> Iterator[tuple[str, str, int, Box]]:
    """(component, home file, page, trim box) of the first placement of each side of each component."""
    component = {card.id: deck.id for deck in game.decks for card in deck.cards}
    seen: set[tuple[str, str]] = set()
    for p in manifest["placements"]:
        name = p["file"].split("/", 1)[1]
        key = (component[p["card"]], p["side"])
        if uses[name] == "home" and key not in seen:
            seen.add(key)
            yield key[0], name, p["page"], (p["x"], p["y"], p["width"], p["height"])


def _assert_colour_at_trim_has_a_shop_file(game: Game, manifest: dict[str, Any], uses: dict[str, str],
                                          pages: Pages) -> None:
    """Pixels of the home files decide which components print colour up to a trim; each must have its
    print-shop file (sheets that stay white at their edge need none)."""
    coloured = set()
    for component, name, page, box in _home_pieces(game, manifest, uses):
        if colour_at_trim(pages, name, page, box):
            coloured.add(component)
    for game_map in game.maps:
        sheet = f"{game_map.id}-{game_map.paper}.pdf"
        page_w, page_h = (float(v) / POINTS_PER_MM for v in PdfReader(pages.folder / sheet).pages[0].mediabox[2:])
        box = ((page_w - game_map.width) / 2, (page_h - game_map.height) / 2, game_map.width, game_map.height)
        if colour_at_trim(pages, sheet, 1, box):
            coloured.add(sheet.removesuffix(".pdf"))
        for record in (m for m in manifest.get("maps", []) if m.get("kind") == "tiles"):
            tiled = record["file"].split("/", 1)[1]
            if any(colour_at_trim(pages, tiled, t["page"], tuple(t["page_window"])) for t in record["tiles"]):
                coloured.add(tiled.removesuffix(".pdf"))
    coloured |= {book.id for book in game.rulebooks}  # a shop binds every rulebook (validator/shopfiles.py)
    assert coloured, "no component with colour at its trim: the pixel test saw nothing"
    missing = sorted(c for c in coloured if uses.get(f"{c}-printshop.pdf") != "shop")
    assert missing == [], f"{game.id}: colour at the trim but no print-shop file: {missing}"


def _assert_bleed_is_carried(pages: Pages, name: str) -> None:
    """Along each side of a print-shop page's trim, the bleed is inked about as much as the strip just inside
    it: a background reaching the trim goes on into the bleed, not cut off white (lines that only cross the
    trim, like a table's rules, ink a few points inside and may stop)."""
    reader = PdfReader(pages.folder / name)
    for number in range(1, min(len(reader.pages), PAGES_SAMPLED) + 1):
        trim = mm_box(reader.pages[number - 1].trimbox)
        box = (trim[0], trim[1], trim[2] - trim[0], trim[3] - trim[1])
        for side in ("left", "right", "top", "bottom"):
            inside = [pages.inked(name, number, x, y) for s, x, y in edge_points(box, -INSIDE_MM) if s == side]
            outside = [pages.inked(name, number, x, y) for s, x, y in edge_points(box, BLEED_MM) if s == side]
            share_in, share_out = sum(inside) / len(inside), sum(outside) / len(outside)
            assert share_out >= share_in - 0.25, (name, number, side, round(share_in, 2), round(share_out, 2))


def _assert_rulebook_for_the_shop(folder: Path, book_id: str) -> None:
    """The print-shop rulebook: the home pages on trim + bleed, every character (running heads and page
    numbers included) 5 mm inside the trim; the home booklet holds the pages two a sheet."""
    home = PdfReader(folder / f"{book_id}.pdf")
    shop = PdfReader(folder / f"{book_id}-printshop.pdf")
    assert len(shop.pages) == len(home.pages) == 2 * len(PdfReader(folder / f"{book_id}-booklet.pdf").pages)
    home_size = mm_box(home.pages[0].mediabox)[2:]
    with pypdfium2.PdfDocument(folder / f"{book_id}-printshop.pdf") as document:
        for number, page in enumerate(shop.pages, start=1):
            trim = mm_box(page.trimbox)
            assert [trim[2] - trim[0], trim[3] - trim[1]] == pytest.approx(home_size, abs=0.01)  # A5 stays A5
            text = document[number - 1].get_textpage()
            chars = [text.get_charbox(i) for i in range(text.count_chars())
                     if not text.get_text_range(i, 1).isspace()]
            assert chars or number > 1, number
            for left, bottom, right, top in chars:
                box = [v / POINTS_PER_MM for v in (left, bottom, right, top)]
                assert box[0] >= trim[0] + SHOP_SAFE_MM and box[1] >= trim[1] + SHOP_SAFE_MM, (number, box)
                assert box[2] <= trim[2] - SHOP_SAFE_MM and box[3] <= trim[3] - SHOP_SAFE_MM, (number, box)
