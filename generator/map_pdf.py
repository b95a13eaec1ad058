"""Write an area map component: one large sheet (<id>-<paper>.pdf) and the same map tiled on small paper.

The tiled file shows the map at full size in overlapping windows; registration crosses sit in the
white margin where the strips two tiles share meet it (generator/map_tiles.py says how tiles are
joined), the tile's neighbours are named by number beside its edges, and a page key (a thumbnail with
the tile grid and "tile n of N, row r, column c") sits under every window. Nothing but the map is
printed inside a window.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from validator.maplayout import DEFAULT_FONTS, MM_PER_PT, MapPlan, merged
from validator.model import Game, GameMap
from validator.presets import PAPER_SIZES, SHOP_BLEED_MM
from validator.typeset import load_metrics

from .deck_pdf import WrittenFile
from .file_use import SHOP
from .map_board import MapPainter, draw_map
from .map_tiles import KEY_HEIGHT, PAGE_MARGIN, Panel, Tile, TilePlan, plan_panels, plan_tiles
from .pdfdoc import atomic_path, new_canvas

MM = 1 / MM_PER_PT  # points per mm
FORM = "fudaya-map"
MARK_RADIUS = 2.2   # mm, registration circle
MARK_ARM = 1.6      # the cross's arms reach this many radii from its centre


def map_plan(game: Game, game_map: GameMap) -> MapPlan:
    """The checked layout of `game_map`, measured with the game's fonts."""
    roles = merged(game_map, "fonts", DEFAULT_FONTS)
    return MapPlan.build(game_map, {role: load_metrics(game.fonts[key].path) for role, key in roles.items()})


def sheet_size(game_map: GameMap, paper: str) -> tuple[float, float]:
    """The paper turned the way the map is."""
    a, b = PAPER_SIZES[paper]
    return (max(a, b), min(a, b)) if game_map.width >= game_map.height else (min(a, b), max(a, b))


def write_map_files(out_dir: Path, game: Game, game_map: GameMap, fonts: Mapping[str, str], *, suffix: str,
                    initial_font: str, progress: Callable[[int], None], pdfx: str | None, shop: bool = False,
                    ) -> tuple[list[WrittenFile], list[dict[str, Any]]]:
    """The one-sheet file and (unless the component says none) the tiled file, and with `shop` their
    print-shop files (validator/shopfiles.py); build.json's entries for the tiled ones."""
    plan = map_plan(game, game_map)
    title = f"{game.title} — {game_map.title}"
    name = f"{game_map.id}-{game_map.paper}{suffix}.pdf"
    written = [_write_sheet(out_dir / name, f"{game.id}/{name}", plan, fonts, initial_font=initial_font,
                            title=title, pdfx=pdfx)]
    progress(1)
    if shop:
        name = f"{game_map.id}-{game_map.paper}-printshop{suffix}.pdf"
        written.append(_write_shop_sheet(out_dir / name, f"{game.id}/{name}", plan, fonts, initial_font=initial_font,
                                         title=title, pdfx=pdfx))
        progress(1)
    entries: list[dict[str, Any]] = []
    if game_map.tiles is not None:
        tiles = plan_tiles((game_map.width, game_map.height), PAPER_SIZES[game_map.tiles], game_map.overlap)
        name = f"{game_map.id}-{game_map.tiles}{suffix}.pdf"
        written.append(_write_tiles(out_dir / name, f"{game.id}/{name}", plan, tiles, fonts,
                                    initial_font=initial_font, title=title, pdfx=pdfx))
        entries.append(_manifest_entry(f"{game.id}/{name}", game_map, tiles))
        progress(1)
        if shop:
            name = f"{game_map.id}-{game_map.tiles}-printshop{suffix}.pdf"
            panels = plan_panels(tiles)
            written.append(_write_panels(out_dir / name, f"{game.id}/{name}", plan, panels, fonts,
                                         initial_font=initial_font, title=title, pdfx=pdfx))
            entries.append(_panels_entry(f"{game.id}/{name}", game_map, tiles, panels))
            progress(1)
    return written, entries


def _write_sheet(path: Path, name: str, plan: MapPlan, fonts: Mapping[str, str], *,
                 initial_font: str, title: str, pdfx: str | None) -> WrittenFile:
    """The map centred on its paper (to the paper's edge when it is the paper's size)."""
    game_map = plan.game_map
    page = sheet_size(game_map, game_map.paper)
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (page[0] * MM, page[1] * MM), initial_font, title=title, pdfx=pdfx)
        draw_map(canvas, plan, fonts, ((page[0] - game_map.width) / 2, (page[1] + game_map.height) / 2))
        canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, 1, page)


def _write_shop_sheet(path: Path, name: str, plan: MapPlan, fonts: Mapping[str, str], *,
                      initial_font: str, title: str, pdfx: str | None) -> WrittenFile:
    """The board at its trim size with the shop's bleed all round, its ground carried into it."""
    game_map = plan.game_map
    bleed = SHOP_BLEED_MM
    page = (game_map.width + 2 * bleed, game_map.height + 2 * bleed)
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (page[0] * MM, page[1] * MM), initial_font, title=title, pdfx=pdfx)
        _shop_boxes(canvas, page, bleed)
        draw_map(canvas, plan, fonts, (bleed, bleed + game_map.height), bleed=bleed)
        canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, 1, page, SHOP)


def _write_panels(path: Path, name: str, plan: MapPlan, panels: tuple[Panel, ...], fonts: Mapping[str, str], *,
                  initial_font: str, title: str, pdfx: str | None) -> WrittenFile:
    """One panel a page at its trim size plus the shop's bleed: the neighbouring art, or the board's
    ground past the board's own edge, fills the bleed."""
    game_map = plan.game_map
    bleed = SHOP_BLEED_MM
    page = (panels[0].width + 2 * bleed, panels[0].height + 2 * bleed)
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (page[0] * MM, page[1] * MM), initial_font, title=title, pdfx=pdfx)
        canvas.beginForm(FORM, -bleed * MM, -bleed * MM, (game_map.width + bleed) * MM,
                         (game_map.height + bleed) * MM)  # the map with its bleed, drawn once
        draw_map(canvas, plan, fonts, (0.0, game_map.height), bleed=bleed)
        canvas.endForm()
        for panel in panels:
            _shop_boxes(canvas, page, bleed)
            canvas.saveState()
            canvas.translate((bleed - panel.map_x) * MM,
                             (bleed + panel.height + panel.map_y - game_map.height) * MM)
            canvas.doForm(FORM)
            canvas.restoreState()
            canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, len(panels), page, SHOP)


def _shop_boxes(canvas: Canvas, page: tuple[float, float], bleed: float) -> None:
    """TrimBox `bleed` inside the page, BleedBox the page (set for the page about to be drawn)."""
    canvas.setTrimBox((bleed * MM, bleed * MM, (page[0] - bleed) * MM, (page[1] - bleed) * MM))
    canvas.setBleedBox((0, 0, page[0] * MM, page[1] * MM))


def _write_tiles(path: Path, name: str, plan: MapPlan, tiles: TilePlan, fonts: Mapping[str, str], *,
                 initial_font: str, title: str, pdfx: str | None) -> WrittenFile:
    game_map = plan.game_map
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (tiles.page[0] * MM, tiles.page[1] * MM), initial_font, title=title,
                            pdfx=pdfx)
        canvas.beginForm(FORM, 0, 0, game_map.width * MM, game_map.height * MM)  # the map, drawn once
        draw_map(canvas, plan, fonts, (0.0, game_map.height))
        canvas.endForm()
        painter = MapPainter(canvas, plan, fonts)
        for tile in tiles.tiles:
            _tile_page(canvas, painter, tiles, tile)
            canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, len(tiles.tiles), tiles.page)


def _tile_page(canvas: Canvas, painter: MapPainter, tiles: TilePlan, tile: Tile) -> None:
    game_map = painter.plan.game_map
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(tile.page_x * MM, tile.page_y * MM, tile.width * MM, tile.height * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.translate((tile.page_x - tile.map_x) * MM, (tile.page_y + tile.height + tile.map_y - game_map.height) * MM)
    canvas.doForm(FORM)
    canvas.restoreState()
    canvas.saveState()
    canvas.scale(MM, MM)  # page mm from here, y up: the painter's y is negated, so pass -y
    for x, y in tiles.marks(tile):
        _registration_mark(canvas, painter, x, y)
    _window_edges(canvas, painter, tiles, tile)
    _page_key(canvas, painter, tiles, tile)
    canvas.restoreState()


def _registration_mark(canvas: Canvas, painter: MapPainter, x: float, y: float) -> None:
    """A circle and cross on a white disc, in the margin: printed identically on both tiles that share it."""
    canvas.setFillColor(painter.color("cmyk(0,0,0,0)"))
    canvas.setStrokeColor(painter.color("cmyk(0,0,0,100)"))
    canvas.setLineWidth(0.2)
    canvas.circle(x, y, MARK_RADIUS, stroke=1, fill=1)
    canvas.line(x - MARK_RADIUS * MARK_ARM, y, x + MARK_RADIUS * MARK_ARM, y)
    canvas.line(x, y - MARK_RADIUS * MARK_ARM, x, y + MARK_RADIUS * MARK_ARM)


def _window_edges(canvas: Canvas, painter: MapPainter, tiles: TilePlan, tile: Tile) -> None:
    """A hairline round the window and each neighbour's number outside the edge it joins."""
    x0, y0, x1, y1 = tile.page_x, tile.page_y, tile.page_x + tile.width, tile.page_y + tile.height
    canvas.setStrokeColor(painter.color("cmyk(0,0,0,60)"))
    canvas.setLineWidth(0.15)
    canvas.rect(x0, y0, tile.width, tile.height, stroke=1, fill=0)
    size = painter.plan.style["text_size"]
    sides = {(0, 1): (x1 + 3.0, (y0 + y1) / 2), (0, -1): (x0 - 3.0, (y0 + y1) / 2),
             (1, 0): ((x0 + x1) / 2, y0 - 3.0), (-1, 0): ((x0 + x1) / 2, y1 + 3.0)}
    for (d_row, d_col), (tx, ty) in sides.items():
        other = tiles.neighbour(tile, d_row, d_col)
        if other is None:
            continue
        canvas.setFillColor(painter.color("cmyk(0,0,0,100)"))
        canvas.circle(tx, ty, 2.4, stroke=0, fill=1)
        painter.text(tx, -(ty - size * MM_PER_PT * 0.36), str(other.number), "label", size, "cmyk(0,0,0,0)",
                     align="centre")


def _page_key(canvas: Canvas, painter: MapPainter, tiles: TilePlan, tile: Tile) -> None:
    """Under the window: the thumbnail of the tile grid with this tile filled, and what to do."""
    game_map = painter.plan.game_map
    thumb_h = KEY_HEIGHT - 4.0
    scale = thumb_h / game_map.height
    x, y = PAGE_MARGIN, PAGE_MARGIN + 1.0
    canvas.setLineWidth(0.2)
    canvas.setStrokeColor(painter.color("cmyk(0,0,0,100)"))
    for other in tiles.tiles:
        fill = other.number == tile.number
        canvas.setFillColor(painter.color("cmyk(0,0,0,45)" if fill else "cmyk(0,0,0,0)"))
        canvas.rect(x + other.map_x * scale, y + thumb_h - (other.map_y + other.height) * scale,
                    other.width * scale, other.height * scale, stroke=1, fill=1)
    canvas.setLineWidth(0.4)
    canvas.rect(x, y, game_map.width * scale, thumb_h, stroke=1, fill=0)
    labels, size = painter.plan.labels, painter.plan.style["text_size"]
    left = x + game_map.width * scale + 4.0
    line = labels["tile"].format(n=tile.number, count=len(tiles.tiles), row=tile.row, col=tile.col,
                                 rows=tiles.rows, cols=tiles.cols)
    painter.text(left, -(y + thumb_h - size * MM_PER_PT), line, "label", size + 1)
    painter.text(left, -(y + 1.0), labels["tile_help"].format(overlap=f"{tiles.overlap:g}"), "text", size)


def _manifest_entry(name: str, game_map: GameMap, tiles: TilePlan) -> dict[str, Any]:
    """build.json's record of a tiled map: the grid, the overlap and each page's window (mm)."""
    return {
        "file": name, "map": game_map.id, "kind": "tiles", "paper": game_map.tiles, "orientation": tiles.orientation,
        "map_size": [game_map.width, game_map.height], "overlap": tiles.overlap,
        "rows": tiles.rows, "cols": tiles.cols,
        "tiles": [{"page": t.number, "row": t.row, "col": t.col,
                   "map_window": [round(v, 3) for v in (t.map_x, t.map_y, t.width, t.height)],
                   "page_window": [round(v, 3) for v in (t.page_x, t.page_y, t.width, t.height)]}
                  for t in tiles.tiles],
    }


def _panels_entry(name: str, game_map: GameMap, tiles: TilePlan, panels: tuple[Panel, ...]) -> dict[str, Any]:
    """build.json's record of the board in panels: the grid, the bleed and each page's part of the map (mm)."""
    return {
        "file": name, "map": game_map.id, "kind": "panels", "map_size": [game_map.width, game_map.height],
        "rows": tiles.rows, "cols": tiles.cols, "bleed": SHOP_BLEED_MM,
        "panels": [{"page": p.number, "row": p.row, "col": p.col,
                    "map_window": [round(v, 3) for v in (p.map_x, p.map_y, p.width, p.height)],
                    "trim_box": [SHOP_BLEED_MM, SHOP_BLEED_MM, round(p.width, 3), round(p.height, 3)]}
                   for p in panels],
    }
