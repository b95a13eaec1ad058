"""The rulebook's row of real cards (or stacks), a flowable beyond ReportLab's; its paragraphs are
generator.kinsoku's."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reportlab.lib.colors import Color
from reportlab.platypus.flowables import Flowable

from validator.geometry import mm_to_pt
from validator.model import Card

from .card_face import Bleed, FaceRenderer

_NO_BLEED = Bleed(0.0, 0.0, 0.0, 0.0)


class CardRow(Flowable):  # type: ignore[misc]
    """Real cards side by side, centred, drawn as vectors by the deck's FaceRenderer and scaled down.

    Each slot is a stack listed bottom to top (a single card for most figures): a stack's cards are
    drawn one above the other, its bottom card on the row's baseline; `max_height_mm` caps the
    tallest stack by shrinking every card.
    """

    def __init__(self, renderer: FaceRenderer, stacks: Sequence[Sequence[tuple[Card, str]]], *,
                 card_width_mm: float | None, max_width_mm: float = 26.0, gap_mm: float = 3.0,
                 stack_gap_mm: float = 1.2, max_height_mm: float | None = None,
                 outline: Color | None = None) -> None:
        super().__init__()
        self.renderer = renderer
        self.stacks = [list(stack) for stack in stacks]
        self.card_width_mm = card_width_mm
        self.max_width_mm = max_width_mm
        self.gap_mm = gap_mm
        self.stack_gap_mm = stack_gap_mm
        self.max_height_mm = max_height_mm
        self.outline = outline
        self.scale = 1.0
        self.avail_width = 0.0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = self.renderer.layout.size
        count = max(len(self.stacks), 1)
        fits = (availWidth / mm_to_pt(1) - self.gap_mm * (count - 1)) / count
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
        left = (self.avail_width - row) / 2
        for n, stack in enumerate(self.stacks):
            for level, (card, template) in enumerate(stack):
                self._draw_card(card, template, left + n * step, level * rise)

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
