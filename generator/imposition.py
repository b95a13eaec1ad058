"""Sheet geometry for n-up printing: how many cards fit, where each goes, and where its back lands.

All values are millimetres with the origin at the paper's bottom-left (PDF convention).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from validator.model import CardSize

from .card_face import Bleed

# Room kept outside the outermost bleed for crop marks; marks shorten to fit what is left.
MIN_MARGIN_MM = 4.0


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
    gutter: float

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    @property
    def block(self) -> tuple[float, float]:
        """Width and height of the trimmed cards and gutters together."""
        return (self.columns * self.card.width + (self.columns - 1) * self.gutter,
                self.rows * self.card.height + (self.rows - 1) * self.gutter)

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
        y = oy + (self.rows - 1 - row) * (self.card.height + self.gutter)
        return Slot(column, row, x, y)

    def back_slot(self, index: int) -> Slot:
        """Where the back of slot `index` goes so it registers after a long-edge (left-right) flip."""
        front = self.slot(index)
        return Slot(self.columns - 1 - front.column, front.row, self.paper[0] - front.x - self.card.width, front.y)

    def bleed(self, slot: Slot) -> Bleed:
        """Full bleed on the block's outer edges; between cards, half the gutter at most."""
        inner = min(self.card.bleed, self.gutter / 2)
        full = self.card.bleed
        return Bleed(
            left=full if slot.column == 0 else inner,
            right=full if slot.column == self.columns - 1 else inner,
            top=full if slot.row == 0 else inner,
            bottom=full if slot.row == self.rows - 1 else inner,
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
        return min(left, bottom) - self.card.bleed

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x positions of vertical cuts and y positions of horizontal cuts."""
        xs = sorted({round(self.slot(c).x + d, 4) for c in range(self.columns) for d in (0, self.card.width)})
        ys = sorted({round(self.slot(r * self.columns).y + d, 4)
                     for r in range(self.rows) for d in (0, self.card.height)})
        return xs, ys


def _fit(length: float, card: float, gutter: float, bleed: float) -> int:
    usable = length - 2 * (MIN_MARGIN_MM + bleed)
    return max(0, int((usable + gutter) // (card + gutter) + 1e-9))


def plan_sheet(paper: tuple[float, float], card: CardSize, *, gutter: float | None = None) -> SheetPlan:
    """The grid with the most cards; `gutter=None` chooses a full-bleed gutter when it costs no card."""
    if gutter is not None and not 0 <= gutter <= 50:
        raise ImpositionError(f"gutter {gutter} mm is outside 0–50 mm")
    gutters = [gutter] if gutter is not None else [2 * card.bleed, 0.0]
    best: SheetPlan | None = None
    for g in gutters:
        plan = SheetPlan(paper, card, _fit(paper[0], card.width, g, card.bleed),
                         _fit(paper[1], card.height, g, card.bleed), g)
        if best is None or plan.per_page > best.per_page:
            best = plan
    assert best is not None
    if best.per_page == 0:
        raise ImpositionError(
            f"a {card.width:g}×{card.height:g} mm card with {card.bleed:g} mm bleed does not fit on "
            f"{paper[0]:g}×{paper[1]:g} mm paper with {MIN_MARGIN_MM:g} mm margins")
    return best
