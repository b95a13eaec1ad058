"""Turn the validator's Color values into ReportLab colours (CMYK stays CMYK in the PDF)."""
from __future__ import annotations

from reportlab.lib.colors import CMYKColor
from reportlab.lib.colors import Color as RLColor

from validator.binding import Color

from .print_color import print_color


def to_reportlab(color: Color, opacity: float = 1.0) -> RLColor:
    if color.space == "cmyk":
        c, m, y, k = color.components
        return CMYKColor(c, m, y, k, alpha=opacity)
    r, g, b = color.components
    return print_color(RLColor(r, g, b, alpha=opacity))  # print files carry CMYK only
