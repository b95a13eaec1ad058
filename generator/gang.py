"""Ganging: small components printed on one paper share sheets instead of a duplex pair each.

Components of a game that name the same `gang` in game.json (jinzai's order markers, victory-point
markers and 在野 card, all on card stock) are packed together, row by row in component order, onto as
few sheets as hold them. Each piece keeps its full bleed, and a lane between neighbours' bleeds holds
its own corner marks, so pieces of different sizes each have cut marks without one piece's marks
falling into another's bleed. Two-sided pieces get their backs on the following page, mirrored for a
long-edge flip; single-sided pieces leave that place blank.

All values are millimetres with the origin at the paper's bottom-left, as in imposition.py.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from validator.model import CardSize
from validator.sheetfit import GANG_MARGIN_MM as MARGIN_MM
from validator.sheetfit import MARK_GAP_MM, MARK_LENGTH_MM, gang_misfit, gang_outer

LANE_MM = 2 * (MARK_GAP_MM + MARK_LENGTH_MM)  # between neighbours' bleeds: both pieces' marks fit


class GangError(ValueError):
    """A piece larger than the paper can hold with its bleed and marks."""


@dataclass(frozen=True)
class Piece:
    """One physical piece to place: which deck and copy, its size, and whether it has a back."""

    deck: str
    card: str
    copy: int
    size: CardSize
    two_sided: bool


@dataclass(frozen=True)
class Placed:
    """A piece on a sheet: trim box bottom-left corner (x, y), page index from 0."""

    piece: Piece
    sheet: int
    x: float
    y: float

    def back_x(self, paper_width: float) -> float:
        """Where the back goes so it registers after a long-edge (left-right) flip."""
        return paper_width - self.x - self.piece.size.width


def pack(paper: tuple[float, float], pieces: Sequence[Piece]) -> list[Placed]:
    """Shelf packing: pieces left to right in rows, rows top to bottom, in the order given.

    A row is as tall as its tallest piece; a new sheet starts when a row no longer fits. Order is
    kept so a deck's pieces stay together and a reader finds them as game.json lists them.
    """
    usable_w, usable_h = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM
    placed: list[Placed] = []
    sheet, row_top, row_height, cursor = 0, 0.0, 0.0, 0.0
    for piece in pieces:
        misfit = gang_misfit(piece.size, paper)  # the test the check makes first (validator/checks/paper.py)
        if misfit:
            raise GangError(f"{piece.deck}: {misfit}")
        width, height = gang_outer(piece.size)
        if cursor + width > usable_w + 1e-9:  # next row
            row_top, cursor, row_height = row_top + row_height, 0.0, 0.0
        if row_top + height > usable_h + 1e-9:  # next sheet
            sheet, row_top, cursor, row_height = sheet + 1, 0.0, 0.0, 0.0
        reach = (width - piece.size.width) / 2
        x = MARGIN_MM + cursor + reach
        y = paper[1] - MARGIN_MM - row_top - reach - piece.size.height
        placed.append(Placed(piece, sheet, x, y))
        cursor += width
        row_height = max(row_height, height)
    return placed


def corner_marks(placed: Placed) -> list[tuple[float, float, float, float]]:
    """Line segments (x1, y1, x2, y2) of the piece's eight corner marks (drawn on the fronts' page)."""
    size = placed.piece.size
    start = size.bleed + MARK_GAP_MM
    end = start + MARK_LENGTH_MM
    left, right, bottom, top = placed.x, placed.x + size.width, placed.y, placed.y + size.height
    lines = []
    for cx, sx in ((left, -1), (right, 1)):
        for cy, sy in ((bottom, -1), (top, 1)):
            lines.append((cx, cy + sy * start, cx, cy + sy * end))   # continues the vertical trim line
            lines.append((cx + sx * start, cy, cx + sx * end, cy))   # continues the horizontal trim line
    return lines


__all__ = ["GangError", "LANE_MM", "Piece", "Placed", "corner_marks", "pack"]
