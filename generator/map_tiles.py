"""Cut a large map into overlapping pages of small paper: which part of the map each page shows, and where.

Pure geometry in mm. Map coordinates have their origin at the map's top-left, y downwards; page
coordinates at the page's bottom-left, y upwards (as PDF and build.json have them).

Assembly: the tile to the right (a row below) goes on top; its left (top) margin is cut off along its
window's edge and it is laid over the strip it shares with its neighbour. Rows are glued first, then
the rows to each other. The registration crosses sit in the white margin, never on the map: each is
centred on the line where the upper tile's cut edge lands, printed on both tiles, so the cut-off half
of the upper tile's cross is completed by the lower tile's. Every point of the assembled board is
some tile's window, so no cross covers an area or a route.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

PAGE_MARGIN = 8.0   # mm of white paper round the map window (home printers cannot print to the edge)
KEY_HEIGHT = 16.0   # mm under the window for the page key
MARK_ZONE = 10.0    # mm of white paper round the window for the registration crosses and neighbours' numbers
MARK_OFFSET = 5.0   # mm from the window's edge to a registration cross's centre


@dataclass(frozen=True)
class Tile:
    """One page: its 1-based number, row and column, and the map window it shows."""

    number: int
    row: int
    col: int
    map_x: float  # the window in map coordinates (top-left, y down)
    map_y: float
    width: float
    height: float
    page_x: float  # the window's bottom-left corner on the page (y up)
    page_y: float


@dataclass(frozen=True)
class TilePlan:
    """How a map of `map_size` is tiled on `page` paper (width, height as used) with `overlap` mm."""

    map_size: tuple[float, float]
    page: tuple[float, float]
    overlap: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def orientation(self) -> str:
        return "landscape" if self.page[0] > self.page[1] else "portrait"

    def neighbour(self, tile: Tile, d_row: int, d_col: int) -> Tile | None:
        row, col = tile.row + d_row, tile.col + d_col
        if 1 <= row <= self.rows and 1 <= col <= self.cols:
            return self.tiles[(row - 1) * self.cols + col - 1]
        return None

    def marks(self, tile: Tile) -> list[tuple[float, float]]:
        """Registration crosses of `tile` in page coordinates, two per shared strip, in the margin beyond
        both ends of the line where the upper tile's cut edge lies: its own window edge when the tile
        goes on top of the neighbour (left, above), the neighbour's window edge when it lies under it."""
        x0, y0 = tile.page_x, tile.page_y
        x1, y1 = x0 + tile.width, y0 + tile.height
        below, above = y0 - MARK_OFFSET, y1 + MARK_OFFSET
        left, right = x0 - MARK_OFFSET, x1 + MARK_OFFSET
        found = []
        if self.neighbour(tile, 0, -1) is not None:
            found += [(x0, above), (x0, below)]
        if self.neighbour(tile, 0, 1) is not None:
            found += [(x1 - self.overlap, above), (x1 - self.overlap, below)]
        if self.neighbour(tile, -1, 0) is not None:
            found += [(left, y1), (right, y1)]
        if self.neighbour(tile, 1, 0) is not None:
            found += [(left, y0 + self.overlap), (right, y0 + self.overlap)]
        return found


@dataclass(frozen=True)
class Panel:
    """One piece of the board for a shop: the home tiles' grid without their overlap, pieces that butt."""

    number: int
    row: int
    col: int
    map_x: float  # its part of the map (top-left, y down)
    map_y: float
    width: float
    height: float


def plan_panels(tiles: TilePlan) -> tuple[Panel, ...]:
    """The board cut into the tiles' rows and columns, equal pieces edge to edge, numbered like the tiles.

    The tiles' overlap and margins are for taping pages at home; a shop cuts exactly, so its pieces
    butt (mounted on board they make a folding board: 2 × 2 is a quad-fold), each with the art of its
    neighbours, or the board's ground at the edge, as bleed."""
    width, height = tiles.map_size[0] / tiles.cols, tiles.map_size[1] / tiles.rows
    return tuple(Panel(r * tiles.cols + c + 1, r + 1, c + 1, c * width, r * height, width, height)
                 for r in range(tiles.rows) for c in range(tiles.cols))


def _window(page: tuple[float, float]) -> tuple[float, float]:
    """The largest map window a page holds inside its margins, mark zone and key."""
    return page[0] - 2 * (PAGE_MARGIN + MARK_ZONE), page[1] - 2 * (PAGE_MARGIN + MARK_ZONE) - KEY_HEIGHT


def _counts(map_size: tuple[float, float], window: tuple[float, float], overlap: float) -> tuple[int, int] | None:
    if window[0] <= overlap or window[1] <= overlap:
        return None
    cols = max(1, math.ceil((map_size[0] - overlap) / (window[0] - overlap)))
    rows = max(1, math.ceil((map_size[1] - overlap) / (window[1] - overlap)))
    return rows, cols


def plan_tiles(map_size: tuple[float, float], paper: tuple[float, float], overlap: float) -> TilePlan:
    """The fewest pages (either orientation of `paper`) that show the whole map at full size."""
    best: tuple[int, tuple[float, float], int, int] | None = None
    for page in ((max(paper), min(paper)), (min(paper), max(paper))):
        window = _window(page)
        counts = _counts(map_size, window, overlap)
        if counts is not None and (best is None or counts[0] * counts[1] < best[0]):
            best = (counts[0] * counts[1], page, *counts)
    if best is None:
        raise ValueError(f"a {overlap} mm overlap leaves no map on {paper[0]:g}×{paper[1]:g} mm paper")
    _, page, rows, cols = best
    width = (map_size[0] + (cols - 1) * overlap) / cols   # every neighbouring pair shares exactly `overlap`
    height = (map_size[1] + (rows - 1) * overlap) / rows
    window_w, window_h = _window(page)
    page_x = PAGE_MARGIN + MARK_ZONE + (window_w - width) / 2
    page_y = PAGE_MARGIN + KEY_HEIGHT + MARK_ZONE + (window_h - height) / 2
    tiles = tuple(Tile(r * cols + c + 1, r + 1, c + 1, c * (width - overlap), r * (height - overlap), width, height,
                       page_x, page_y)
                  for r in range(rows) for c in range(cols))
    return TilePlan(map_size, page, overlap, rows, cols, tiles)
