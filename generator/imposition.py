"""Sheet geometry for n-up printing: how many cards fit, where each goes, and where its back lands.

All values are millimetres with the origin at the paper's bottom-left (PDF convention).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from validator.model import CardSize
from validator.sheetfit import NUP_MARGIN_MM, fit_count, nup_misfit

from .card_face import Bleed

# Room kept outside the outermost bleed for crop marks; marks shorten to fit what is left. The fit test
# (validator/sheetfit.py) is the check's too, so a card the imposition cannot place is refused by check.
MIN_MARGIN_MM = NUP_MARGIN_MM
# Room a gutter the planner chooses must leave outside the outermost bleed: a 1 mm gap and 5 mm crop
# marks, plus 0.5 mm. Home printers leave 3-5 mm of the paper's edge blank, so the marks' inner ends
# and every trim line stay on the printed part of the page.
SHEET_MARGIN_MM = 6.5
# Bleeds the planner tries, from the card's own down, in steps a cutter can tell apart.
BLEED_STEP_MM = 0.5


class ImpositionError(ValueError):
    """The card cannot be placed on the paper (too large, or an impossible gutter)."""


@dataclass(frozen=True)
class Slot:
    """One card position: column/row from the top-left, and its trim box's bottom-left corner."""

    column: int
    row: int
    x: float
    y: float


@dataclass(frozen=True)
class SheetPlan:
    """A validated n-up grid of cards on one paper size."""

    paper: tuple[float, float]
    card: CardSize
    columns: int
    rows: int
    gutter: float             # between columns
    gutter_y: float = -1.0    # between rows; negative means the same as `gutter`
    edge: tuple[float, float] = (-1.0, -1.0)  # bleed outside the block, left/right and top/bottom; negative: the card's

    def __post_init__(self) -> None:
        if self.gutter_y < 0:
            object.__setattr__(self, "gutter_y", self.gutter)
        if min(self.edge) < 0:
            object.__setattr__(self, "edge", (self.card.bleed, self.card.bleed))

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def block(self) -> tuple[float, float]:
        """Width and height of the trimmed cards and gutters together."""
        return (self.columns * self.card.width + (self.columns - 1) * self.gutter,
                self.rows * self.card.height + (self.rows - 1) * self.gutter_y)

    @property
    def origin(self) -> tuple[float, float]:
        """Bottom-left corner of the card block, centred on the paper."""
        bw, bh = self.block
        return (self.paper[0] - bw) / 2, (self.paper[1] - bh) / 2

    def slot(self, index: int) -> Slot:
        """Slots fill left to right, top to bottom, as people read a sheet."""
        row, column = divmod(index, self.columns)
        ox, oy = self.origin
        x = ox + column * (self.card.width + self.gutter)
        y = oy + (self.rows - 1 - row) * (self.card.height + self.gutter_y)
        return Slot(column, row, x, y)

    def back_slot(self, index: int) -> Slot:
        """Where the back of slot `index` goes so it registers after a long-edge (left-right) flip."""
        front = self.slot(index)
        return Slot(self.columns - 1 - front.column, front.row, self.paper[0] - front.x - self.card.width, front.y)

    def bleed(self, slot: Slot) -> Bleed:
        """The plan's edge bleed on the block's outer edges; between cards, half the gutter at most."""
        inner_x, inner_y = min(self.card.bleed, self.gutter / 2), min(self.card.bleed, self.gutter_y / 2)
        edge_x, edge_y = self.edge
        return Bleed(
            left=edge_x if slot.column == 0 else inner_x,
            right=edge_x if slot.column == self.columns - 1 else inner_x,
            top=edge_y if slot.row == 0 else inner_y,
            bottom=edge_y if slot.row == self.rows - 1 else inner_y,
        )

    def fitted_to(self, count: int) -> SheetPlan:
        """The grid cut down to `count` cards when one page holds them all.

        The smaller block is centred on the paper, so cut marks surround only cards that are printed
        (a lone card gets its own marks, not those of empty slots beside it).
        """
        if count <= 0 or count >= self.per_page:
            return self
        columns = min(self.columns, count)
        return replace(self, columns=columns, rows=-(-count // columns))

    @property
    def mark_room(self) -> float:
        """Smallest distance (mm) from the outer bleed edge to the paper edge, where marks go."""
        left, bottom = self.origin
        return min(left - self.edge[0], bottom - self.edge[1])

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of vertical cuts and y positions of horizontal cuts."""
        xs = sorted({round(self.slot(c).x + d, 4) for c in range(self.columns) for d in (0, self.card.width)})
        ys = sorted({round(self.slot(r * self.columns).y + d, 4)
                     for r in range(self.rows) for d in (0, self.card.height)})
        return xs, ys


def _axis(length: float, card: float, count: int, bleed: float) -> tuple[float, float]:
    """Gutter and edge bleed along one side of the paper for `count` cards, as much bleed as fits.

    Every card gets the same bleed on both sides along this axis (half the gutter): the largest, in
    BLEED_STEP_MM steps up to the card's own, that leaves SHEET_MARGIN_MM for marks, or at least the
    margin that sharing cut lines would leave. The block's outer edges may take more, up to the card's
    bleed. When no step fits, neighbours share their cut line (gutter 0) and only the outer edges bleed.
    """
    shared_margin = (length - count * card) / 2 - bleed     # cards edge to edge, full bleed outside
    needed = min(SHEET_MARGIN_MM, shared_margin)
    steps = int(bleed / BLEED_STEP_MM + 1e-9)
    for each in [bleed] + [n * BLEED_STEP_MM for n in range(steps, 0, -1) if n * BLEED_STEP_MM < bleed]:
        gutter = 2 * each if count > 1 else 0.0
        room = (length - count * card - (count - 1) * gutter) / 2   # trim to paper edge
        if room - each >= needed - 1e-9:
            edge = min(bleed, max(each, room - SHEET_MARGIN_MM))
            return gutter, math.floor(edge * 100 + 1e-6) / 100
    return 0.0, bleed


def plan_sheet(paper: tuple[float, float], card: CardSize, *, gutter: float | None = None) -> SheetPlan:
    """The grid with the most cards; `gutter=None` then gives each card as much bleed as that grid allows.

    The count comes first (cards edge to edge, full bleed outside, MIN_MARGIN_MM for marks); then each
    axis gets its own gutter, so A4 poker keeps 9 cards with 1 mm of bleed between columns and the full
    3 mm between rows. An explicit gutter is used on both axes, with the card's full bleed outside.
    """
    if gutter is not None and not 0 <= gutter <= 50:
        raise ImpositionError(f"gutter {gutter} mm is outside 0–50 mm")
    misfit = nup_misfit(card, paper, gutter)  # the check's own test (validator/checks/paper.py)
    if misfit:
        raise ImpositionError(misfit)
    if gutter is not None:
        plan = SheetPlan(paper, card, fit_count(paper[0], card.width, gutter, card.bleed),
                         fit_count(paper[1], card.height, gutter, card.bleed), gutter)
    else:
        columns = fit_count(paper[0], card.width, 0.0, card.bleed)
        rows = fit_count(paper[1], card.height, 0.0, card.bleed)
        gutter_x, edge_x = _axis(paper[0], card.width, columns, card.bleed)
        gutter_y, edge_y = _axis(paper[1], card.height, rows, card.bleed)
        plan = SheetPlan(paper, card, columns, rows, gutter_x, gutter_y, (edge_x, edge_y))
    return plan
