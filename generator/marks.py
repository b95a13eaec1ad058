"""Cut guides drawn in the sheet margin: western crop marks or Japanese トンボ (trim + bleed lines)."""
from __future__ import annotations

from collections.abc import Iterable

from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from validator.geometry import mm_to_pt

from .imposition import SheetPlan

MARK_STYLES = ("western", "tombo", "none")
_GAP_MM = 1.0        # space between the bleed edge and a mark
_LENGTH_MM = 5.0     # how far a mark reaches into the margin
_REGISTRATION = CMYKColor(1, 1, 1, 1)  # registration black: visible on every plate


def _mark_stroke(canvas: Canvas) -> None:
    canvas.setStrokeColor(_REGISTRATION)
    canvas.setLineWidth(0.3)  # 0.106 mm: shops ask for marks of 0.1 mm or more


def draw_segments(canvas: Canvas, segments: Iterable[tuple[float, float, float, float]]) -> None:
    """Cut marks given as segments (x1, y1, x2, y2 in mm), stroked as every mark is."""
    canvas.saveState()
    _mark_stroke(canvas)
    for x1, y1, x2, y2 in segments:
        _line(canvas, x1, y1, x2, y2)
    canvas.restoreState()


def draw_marks(canvas: Canvas, plan: SheetPlan, style: str) -> None:
    if style == "none":
        return
    canvas.saveState()
    _mark_stroke(canvas)
    xs, ys = plan.cut_lines()
    (left, bottom), (width, height) = plan.origin, plan.block
    right, top = left + width, bottom + height
    bleed_x, bleed_y = plan.edge
    length = max(1.0, min(_LENGTH_MM, plan.mark_room - _GAP_MM))
    for x in xs:
        _extend_vertical(canvas, x, bottom - bleed_y, top + bleed_y, length)
    for y in ys:
        _extend_horizontal(canvas, y, left - bleed_x, right + bleed_x, length)
    if style == "tombo":
        # 外トンボ: the bleed line beside each outer trim line, forming the double corner mark.
        for x in (left - bleed_x, right + bleed_x):
            _extend_vertical(canvas, x, bottom - bleed_y, top + bleed_y, length)
        for y in (bottom - bleed_y, top + bleed_y):
            _extend_horizontal(canvas, y, left - bleed_x, right + bleed_x, length)
        _centre_marks(canvas, plan, xs, ys, length)
    canvas.restoreState()


def _line(canvas: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
    canvas.line(mm_to_pt(x1), mm_to_pt(y1), mm_to_pt(x2), mm_to_pt(y2))


def _extend_vertical(canvas: Canvas, x: float, low: float, high: float, length: float) -> None:
    """Short vertical strokes above and below the block, continuing the cut line at x."""
    _line(canvas, x, high + _GAP_MM, x, high + _GAP_MM + length)
    _line(canvas, x, low - _GAP_MM, x, low - _GAP_MM - length)


def _extend_horizontal(canvas: Canvas, y: float, low: float, high: float, length: float) -> None:
    _line(canvas, high + _GAP_MM, y, high + _GAP_MM + length, y)
    _line(canvas, low - _GAP_MM, y, low - _GAP_MM - length, y)


def _centre_marks(canvas: Canvas, plan: SheetPlan, xs: list[float], ys: list[float], length: float) -> None:
    """センタートンボ: a cross at the middle of each side, for registration and folding.

    Beside the crop marks when no cut line runs near the middle; where one does (an even number
    of columns or rows puts a cut line, or two, at the middle) the cross moves out past the crop
    marks, or is left out when the margin has no room for it, so the two never touch ("+||")."""
    (left, bottom), (width, height) = plan.origin, plan.block
    right, top = left + width, bottom + height
    cx, cy = (left + right) / 2, (bottom + top) / 2
    half = length / 2
    for centre, cuts, low, high, vertical, bleed in ((cx, xs, bottom, top, True, plan.edge[1]),
                                                     (cy, ys, left, right, False, plan.edge[0])):
        near = bleed + _GAP_MM + half                           # beside the crop marks
        far = bleed + _GAP_MM + length + _GAP_MM + half         # past them
        fits_far = far + half <= bleed + plan.mark_room - 0.5   # inside the paper, with a little to spare
        crowded = any(abs(cut - centre) < 2 * half + _GAP_MM for cut in cuts)
        if crowded and not fits_far:
            continue
        reach = far if crowded else near
        for side in (high + reach, low - reach):
            x, y = (centre, side) if vertical else (side, centre)
            if vertical:
                _line(canvas, x - half * 2, y, x + half * 2, y)
                _line(canvas, x, y - half, x, y + half)
            else:
                _line(canvas, x, y - half * 2, x, y + half * 2)
                _line(canvas, x - half, y, x + half, y)
