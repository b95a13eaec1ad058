"""Draw one side of one card at a place on a page, clipped to the bleed it may use."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from validator.faces import drawn_elements, is_card_independent
from validator.geometry import mm_to_pt
from validator.model import Card, Layout

from .elements import DRAW_BY_TYPE, CardSpace, DrawError


@dataclass(frozen=True)
class Bleed:
    """How far (mm) the art may spill past each trim edge: full bleed outside, less between cards."""

    left: float
    right: float
    top: float
    bottom: float

    def mirrored(self) -> Bleed:
        return Bleed(self.right, self.left, self.top, self.bottom)


@dataclass(frozen=True)
class FaceRenderer:
    """Everything needed to draw any card of one deck."""

    layout: Layout
    deck_dir: Path
    fonts: dict[str, tuple[str, Path]]
    base_font: str
    proof: bool = False
    fillable: bool = False
    scale: float = 1.0  # under 1: drawn as a reduced figure (lines and text kept printable, see CardSpace)
    _forms: dict[tuple[Canvas, str, float], str] = field(default_factory=dict, compare=False, repr=False)

    def draw(self, canvas: Canvas, card: Card, template: str, x_mm: float, y_mm: float, bleed: Bleed) -> None:
        """Draw `template` for `card` with its trim box's bottom-left corner at (x_mm, y_mm) on the page."""
        size = self.layout.size
        canvas.saveState()
        canvas.translate(mm_to_pt(x_mm), mm_to_pt(y_mm))
        clip = canvas.beginPath()
        clip.rect(mm_to_pt(-bleed.left), mm_to_pt(-bleed.bottom),
                  mm_to_pt(size.width + bleed.left + bleed.right), mm_to_pt(size.height + bleed.top + bleed.bottom))
        canvas.clipPath(clip, stroke=0, fill=0)
        if is_card_independent(template, self.layout):
            canvas.doForm(self._shared_form(canvas, card, template))
        else:
            self._draw_elements(canvas, card, template)
        if self.proof:
            self._proof_guides(canvas)
        canvas.restoreState()

    def _draw_elements(self, canvas: Canvas, card: Card, template: str) -> None:
        space = CardSpace(canvas, card, self.layout, self.deck_dir, self.fonts, self.base_font,
                          fillable=self.fillable, scale=self.scale)
        for element in drawn_elements(card, template, self.layout):
            try:
                DRAW_BY_TYPE[element.type](space, element)
            except DrawError as exc:
                if exc.location is not None:
                    raise
                raise DrawError(str(exc), element.location) from None

    def _shared_form(self, canvas: Canvas, card: Card, template: str) -> str:
        """A template that is the same on every card is drawn once per file as a PDF form and reused."""
        key = (canvas, template, self.scale)  # holds the canvas, so no later canvas can reuse its id
        if key not in self._forms:
            # numbered per canvas: decks (and figure sizes) drawing into one file never share a name
            number = canvas.__dict__.get("_fudaya_forms", 0)
            canvas.__dict__["_fudaya_forms"] = number + 1
            name = f"shared-{template}-{number}"
            size, bleed = self.layout.size, self.layout.size.bleed
            canvas.beginForm(name, lowerx=mm_to_pt(-bleed), lowery=mm_to_pt(-bleed),
                             upperx=mm_to_pt(size.width + bleed), uppery=mm_to_pt(size.height + bleed))
            self._draw_elements(canvas, card, template)
            canvas.endForm()
            self._forms[key] = name
        return self._forms[key]

    def _proof_guides(self, canvas: Canvas) -> None:
        """Trim line (cyan), safe zone (dashed magenta), rounded-corner guide: on screen only, never for print."""
        size = self.layout.size
        canvas.setLineWidth(0.5)
        canvas.setStrokeColor(CMYKColor(1, 0, 0, 0))
        canvas.rect(0, 0, mm_to_pt(size.width), mm_to_pt(size.height), stroke=1, fill=0)
        if size.corner_radius:
            canvas.setDash(1, 1)
            canvas.roundRect(0, 0, mm_to_pt(size.width), mm_to_pt(size.height), mm_to_pt(size.corner_radius),
                             stroke=1, fill=0)
        canvas.setStrokeColor(CMYKColor(0, 1, 0, 0))
        canvas.setDash(3, 2)
        safe = size.safe
        canvas.rect(mm_to_pt(safe), mm_to_pt(safe), mm_to_pt(size.width - 2 * safe), mm_to_pt(size.height - 2 * safe),
                    stroke=1, fill=0)
        canvas.setDash()
