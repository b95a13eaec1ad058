"""The rulebook's row of real cards (or stacks) and its lists, flowables beyond ReportLab's; its paragraphs
are generator.kinsoku's."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus.flowables import BulletDrawer, Flowable, ListFlowable

from validator.geometry import mm_to_pt
from validator.model import Card

from .card_face import Bleed, FaceRenderer

_NO_BLEED = Bleed(0.0, 0.0, 0.0, 0.0)
CALLOUT_PT = 7.0  # a callout's label: over the 6 pt a reader needs, whatever the card's own print is reduced to
_LEADER_MM = 5.0  # the shortest leader line, from the label to the card's edge
_LABEL_GAP_MM = 1.0  # between a label and its leader line


class FirstLineList(ListFlowable):  # type: ignore[misc]  # ReportLab is untyped
    """A list whose numbers and bullets sit on their item's first line. ReportLab sets a marker from the top
    of its item, where the first line starts unless readings over it moved it down (a KinsokuParagraph's
    first_line_drop): then the marker followed the readings, a ruby's height above its line."""

    def _makeBullet(self, value: Any, params: Any = None) -> BulletDrawer:  # ReportLab's names
        return _FirstLineBullet(super()._makeBullet(value, params))


class _FirstLineBullet(BulletDrawer):  # type: ignore[misc]
    def __init__(self, drawer: BulletDrawer) -> None:  # the drawer ReportLab made, its settings kept
        self.__dict__.update(vars(drawer))

    def drawOn(self, indenter: Any, canv: Any, x: float, y: float, _sW: float = 0) -> None:  # ReportLab's names
        drop = getattr(indenter._flowable, "first_line_drop", 0.0)
        super().drawOn(indenter, canv, x, y - drop, _sW)


@dataclass(frozen=True)
class Pointer:
    """A callout resolved for drawing: its label, the slot of the card it points into, the point on
    that card (mm from its top left) and the margin it stands in ("left" or "right")."""

    text: str
    slot: int
    x_mm: float
    y_mm: float
    side: str


@dataclass(frozen=True)
class CalloutStyle:
    font: str
    color: Color
    halo: Color  # under the leader line, so it stays visible across a dark band of the card
    size: float = CALLOUT_PT


class CardRow(Flowable):  # type: ignore[misc]
    """Real cards side by side, centred, drawn as vectors by the deck's FaceRenderer and scaled down.

    Each slot is a stack listed bottom to top (a single card for most figures): a stack's cards are
    drawn one above the other, its bottom card on the row's baseline; `max_height_mm` caps the
    tallest stack by shrinking every card.
    """

    def __init__(self, renderer: FaceRenderer, stacks: Sequence[Sequence[tuple[Card, str]]], *,
                 card_width_mm: float | None, max_width_mm: float = 26.0, gap_mm: float = 3.0,
                 stack_gap_mm: float = 1.2, max_height_mm: float | None = None,
                 outline: Color | None = None, callouts: Sequence[Pointer] = (),
                 callout_style: CalloutStyle | None = None) -> None:
        super().__init__()
        self.renderer = renderer
        self.stacks = [list(stack) for stack in stacks]
        self.card_width_mm = card_width_mm
        self.max_width_mm = max_width_mm
        self.gap_mm = gap_mm
        self.stack_gap_mm = stack_gap_mm
        self.max_height_mm = max_height_mm
        self.outline = outline
        self.callouts = list(callouts)
        self.callout_style = callout_style
        if self.callouts and callout_style is None:
            raise ValueError("callouts need a CalloutStyle")
        self.scale = 1.0
        self.avail_width = 0.0

    def _margin(self, side: str) -> float:
        """Points the callouts on `side` take beside the row: the widest label, a gap and a leader."""
        style = self.callout_style
        labels = [p.text for p in self.callouts if p.side == side]
        if not labels or style is None:
            return 0.0
        widest = max(float(stringWidth(text, style.font, style.size)) for text in labels)
        return float(widest + mm_to_pt(_LABEL_GAP_MM + _LEADER_MM))

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = self.renderer.layout.size
        count = max(len(self.stacks), 1)
        margins = (self._margin("left") + self._margin("right")) / mm_to_pt(1)
        fits = (availWidth / mm_to_pt(1) - margins - self.gap_mm * (count - 1)) / count
        width = min(self.card_width_mm or self.max_width_mm, fits)
        tallest = max((len(stack) for stack in self.stacks), default=0)
        if self.max_height_mm is not None and tallest:  # a tall stack shrinks every card alike
            card_height = (self.max_height_mm - self.stack_gap_mm * (tallest - 1)) / tallest
            width = min(width, card_height * size.width / size.height)
        self.scale = width / size.width
        self.avail_width = availWidth
        self.width = availWidth
        self.height = mm_to_pt(size.height * self.scale * tallest + self.stack_gap_mm * max(tallest - 1, 0))
        return self.width, self.height

    def draw(self) -> None:
        size = self.renderer.layout.size
        step = mm_to_pt(size.width * self.scale + self.gap_mm)
        rise = mm_to_pt(size.height * self.scale + self.stack_gap_mm)
        row = step * len(self.stacks) - mm_to_pt(self.gap_mm)
        before, after = self._margin("left"), self._margin("right")
        left = (self.avail_width - row - before - after) / 2 + before
        for n, stack in enumerate(self.stacks):
            for level, (card, template) in enumerate(stack):
                self._draw_card(card, template, left + n * step, level * rise)
        for side in ("left", "right"):
            self._draw_callouts(side, left, step, row)

    def _draw_callouts(self, side: str, left: float, step: float, row: float) -> None:
        """Each label in the margin beside the row, level with its part where room allows, a leader line
        (over a pale halo) from it to a dot on the part."""
        style = self.callout_style
        pointers = sorted((p for p in self.callouts if p.side == side), key=lambda p: p.y_mm)
        if style is None or not pointers:
            return
        height = mm_to_pt(self.renderer.layout.size.height * self.scale)
        targets = [(left + p.slot * step + mm_to_pt(p.x_mm * self.scale), height - mm_to_pt(p.y_mm * self.scale))
                   for p in pointers]
        levels = spread([y for _, y in targets], style.size * 1.35, low=style.size * 0.4,
                        high=self.height - style.size * 0.9)
        edge = left - mm_to_pt(_LEADER_MM) if side == "left" else left + row + mm_to_pt(_LEADER_MM)
        canvas = self.canv
        canvas.saveState()
        canvas.setFont(style.font, style.size)
        for pointer, (x, y), level in zip(pointers, targets, levels):
            for color, width in ((style.halo, 1.6), (style.color, 0.5)):
                canvas.setStrokeColor(color)
                canvas.setLineWidth(width)
                canvas.line(edge, level + style.size * 0.35, x, y)
            canvas.setFillColor(style.color)
            canvas.circle(x, y, 1.1, stroke=0, fill=1)
            gap = mm_to_pt(_LABEL_GAP_MM)
            if side == "left":
                canvas.drawRightString(edge - gap, level, pointer.text)
            else:
                canvas.drawString(edge + gap, level, pointer.text)
        canvas.restoreState()

    def _draw_card(self, card: Card, template: str, x: float, y: float) -> None:
        canvas = self.canv
        size = self.renderer.layout.size
        radius = mm_to_pt(size.corner_radius)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(self.scale, self.scale)
        clip = canvas.beginPath()
        clip.roundRect(0, 0, mm_to_pt(size.width), mm_to_pt(size.height), radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        replace(self.renderer, scale=self.scale).draw(canvas, card, template, 0.0, 0.0, _NO_BLEED)
        canvas.restoreState()
        if self.outline is not None:
            canvas.saveState()
            canvas.setStrokeColor(self.outline)
            canvas.setLineWidth(0.4)
            canvas.roundRect(x, y, mm_to_pt(size.width * self.scale), mm_to_pt(size.height * self.scale),
                             radius * self.scale, stroke=1, fill=0)
            canvas.restoreState()


def spread(wanted: Sequence[float], spacing: float, *, low: float, high: float) -> list[float]:
    """Baselines near `wanted` (given top to bottom: falling y) at least `spacing` apart, kept within
    [low, high]: each label as level with its part as its neighbours allow."""
    placed: list[float] = []
    for y in wanted:
        y = min(y, high) if not placed else min(y, placed[-1] - spacing, high)
        placed.append(y)
    floor = low
    for n in range(len(placed) - 1, -1, -1):  # pushed below the row: lift from the bottom up
        placed[n] = max(placed[n], floor)
        floor = placed[n] + spacing
    return placed
