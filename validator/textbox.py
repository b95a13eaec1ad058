"""Lay out one text element's bound text in its box: the call both the text check and drawing make."""
from __future__ import annotations

from collections.abc import Sequence

from .geometry import mm_to_pt, pt_to_mm
from .glyph_ink import glyph_ink
from .model import Element
from .ruby_layout import RUBY_SCALE
from .typeset import FontMetrics, TextLayout, fit_text


def layout_text_element(element: Element, text: str, metrics: FontMetrics) -> TextLayout | None:
    """The lines and size the element prints `text` at, or None if it cannot fit even at min_size."""
    props = element.props
    return fit_text(
        text,
        metrics,
        width=mm_to_pt(props["w"]),
        height=mm_to_pt(props["h"]),
        size=props["size"],
        min_size=props.get("min_size"),
        line_height=props.get("line_height", 1.2),
        vertical=props.get("vertical", False),
        wrap=props.get("wrap", True),
        justified=props.get("align") == "justify",
        ruby_scale=props.get("ruby_scale", RUBY_SCALE),
    )


def ink_box(element: Element, laid: TextLayout, metrics: FontMetrics) -> tuple[float, float, float, float] | None:
    """Where a horizontal text element prints ink: left, top, right, bottom in mm from the card's top left, as
    drawing places its lines (valign, align, justification, a turn of 180°) and the font's outlines fill
    them (a digit's ink stops short of the em box). Text with ruby counts its readings' room and its lines'
    em boxes. None for vertical text, or text with nothing to print."""
    props = element.props
    if props.get("vertical") or not laid.lines:
        return None
    x, y, w, h = props["x"], props["y"], props["w"], props["h"]
    size = laid.size
    drop = size * metrics.ascent / (metrics.ascent + metrics.descent)  # em top to baseline, as drawing has it
    slack = mm_to_pt(h) - laid.extent
    first_top = {"top": 0.0, "middle": slack / 2, "bottom": slack}[props.get("valign", "top")] + laid.ruby_room
    align = props.get("align", "left")
    boxes = []
    for n, (line, natural) in enumerate(zip(laid.lines, laid.line_widths)):
        spacing = laid.spacing[n] if laid.spacing else ()
        start = {"left": 0.0, "justify": 0.0, "center": (mm_to_pt(w) - natural - sum(spacing)) / 2,
                 "right": mm_to_pt(w) - natural - sum(spacing)}[align]
        baseline = first_top + n * laid.leading + drop
        offsets = laid.offsets[n] if laid.offsets else ()
        ink = _line_ink(line, spacing, offsets, metrics, size) if not laid.ruby_size else None
        if ink is None and not laid.ruby_size:
            continue  # nothing printed on this line
        left, low, right, high = ink or (0.0, -metrics.descent * size, natural + sum(spacing), metrics.ascent * size)
        top = baseline - high - (laid.ruby_room if n == 0 and laid.ruby_size else 0.0)
        boxes.append((start + left, top, start + right, baseline - low))
    if not boxes:
        return None
    left = x + pt_to_mm(min(b[0] for b in boxes))
    right = x + pt_to_mm(max(b[2] for b in boxes))
    top = y + pt_to_mm(min(b[1] for b in boxes))
    bottom = y + pt_to_mm(max(b[3] for b in boxes))
    if props.get("rotate", 0) == 180:  # turned about the box's centre
        left, top, right, bottom = 2 * x + w - right, 2 * y + h - bottom, 2 * x + w - left, 2 * y + h - top
    return left, top, right, bottom


def _line_ink(line: str, spacing: Sequence[float], offsets: Sequence[float], metrics: FontMetrics,
              size: float) -> tuple[float, ...] | None:
    """A line's ink from its start and baseline in pt (left, lowest, right, highest, y up); None if none.
    Each glyph starts at its `offsets` entry where the layout gave them (marks squeezed: 。「), else after
    the advances and `spacing` before it."""
    pen, found = 0.0, []
    for k, char in enumerate(line):
        if offsets:
            pen = offsets[k]
        ink = glyph_ink(metrics.path, char)
        if ink is None and not char.isspace() and metrics.has_glyph(char):
            ink = (0.0, -metrics.descent, metrics.advance(char), metrics.ascent)  # unreadable outline: its em box
        if ink is not None:
            found.append((pen + ink[0] * size, ink[1] * size, pen + ink[2] * size, ink[3] * size))
        pen += metrics.advance(char) * size + (spacing[k] if k < len(spacing) else 0.0)
    if not found:
        return None
    return found[0][0], min(f[1] for f in found), found[-1][2], max(f[3] for f in found)
