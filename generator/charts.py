"""Charts for simulation reports, as ReportLab vector drawings in the game's embedded font.

Two kinds people read at a glance: a histogram (game length, scores) and a row of estimates
with 95% confidence intervals (seat win rates) against a reference line (the fair share).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.colors import CMYKColor, Color

INK = CMYKColor(0.3, 0.4, 0.4, 0.85)
BAR = CMYKColor(0.75, 0.1, 0.9, 0.15)
BAND = CMYKColor(0.0, 0.3, 0.95, 0.05, alpha=0.35)
GRID = CMYKColor(0, 0, 0, 0.25)
FAIR = CMYKColor(0, 0.95, 0.9, 0.05)  # the fair-share reference lines


@dataclass(frozen=True)
class Bin:
    low: float
    high: float
    count: int


@dataclass(frozen=True)
class Estimate:
    label: str
    value: float
    low: float
    high: float


def histogram(bins: Sequence[Bin], *, title: str, x_label: str, font: str, width: float = 440,
              height: float = 150, band: tuple[float, float] | None = None) -> Drawing:
    """Counts per bin as bars; `band` shades the bins inside a target range (e.g. the box's play time)."""
    drawing = Drawing(width, height)
    drawing.initialFontName = font
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 40, 38, width - 55, height - 68
    chart.data = [[b.count for b in bins]]
    chart.categoryAxis.categoryNames = [bin_label(b) for b in bins]
    chart.categoryAxis.labels.fontName = font
    chart.categoryAxis.labels.fontSize = 6.5
    chart.categoryAxis.labels.angle = 45 if len(bins) > 12 else 0
    chart.categoryAxis.labels.boxAnchor = "ne" if len(bins) > 12 else "n"
    chart.valueAxis.labels.fontName = font
    chart.valueAxis.labels.fontSize = 7
    chart.valueAxis.valueMin = 0
    chart.valueAxis.gridStrokeColor = GRID
    chart.valueAxis.visibleGrid = True
    chart.bars[0].fillColor = BAR
    chart.bars[0].strokeColor = None
    chart.barSpacing = 0.5
    if band is not None and bins:
        step = chart.width / len(bins)
        inside = [n for n, b in enumerate(bins) if b.high > band[0] and b.low < band[1]]
        if inside:
            drawing.add(Rect(chart.x + inside[0] * step, chart.y, (inside[-1] - inside[0] + 1) * step, chart.height,
                             fillColor=BAND, strokeColor=None))
    drawing.add(chart)
    drawing.add(String(chart.x, height - 14, title, fontName=font, fontSize=10, fillColor=INK))
    drawing.add(String(chart.x + chart.width / 2, 4, x_label, fontName=font, fontSize=8, fillColor=INK,
                       textAnchor="middle"))
    return drawing


def bin_label(b: Bin) -> str:
    """"7" for a bin of one value, "16–17" for a bin of several (both ends included)."""
    return f"{b.low:g}" if b.low == b.high else f"{b.low:g}–{b.high:g}"


def intervals(estimates: Sequence[Estimate], *, title: str, font: str, reference: float | None = None,
              references: Sequence[float | None] | None = None, width: float = 440, height: float = 125,
              as_percent: bool = True) -> Drawing:
    """One row per estimate: a dot at the value and a bar across its confidence interval. `reference`
    draws one dashed line across every row (a fair share); `references`, one per row, draws each row's
    own across that row (a side's fair share), or one line when they are all the same."""
    drawing = Drawing(width, height)
    drawing.initialFontName = font
    left, right, top, bottom = 70, width - 20, height - 26, 24
    rows = _row_references(len(estimates), reference, references)
    marks = [e.low for e in estimates] + [e.high for e in estimates] + [r for r in rows if r is not None]
    start, stop, ticks = _axis(min(marks, default=0.0), max(marks, default=1.0))
    scale = (right - left) / (stop - start)

    def at(value: float) -> float:
        return left + (value - start) * scale

    row = (top - bottom) / max(len(estimates), 1)
    for tick in ticks:
        drawing.add(Line(at(tick), bottom, at(tick), top, strokeColor=GRID, strokeWidth=0.4))
        label = f"{tick * 100:.0f}%" if as_percent else f"{tick:g}"
        drawing.add(String(at(tick), bottom - 11, label, fontName=font, fontSize=7, fillColor=INK,
                           textAnchor="middle"))
    first = rows[0] if rows else None
    shared = first if first is not None and all(r is not None and math.isclose(r, first) for r in rows) else None
    for n, value in enumerate([shared] if shared is not None else rows):
        if value is not None:
            low, high = (bottom, top) if shared is not None else (top - (n + 1) * row, top - n * row)
            drawing.add(Line(at(value), low, at(value), high, strokeColor=FAIR, strokeWidth=0.8,
                             strokeDashArray=[3, 2]))
    for n, e in enumerate(estimates):
        y = top - (n + 0.5) * row
        drawing.add(String(left - 8, y - 3, e.label, fontName=font, fontSize=8, fillColor=INK, textAnchor="end"))
        drawing.add(Line(at(e.low), y, at(e.high), y, strokeColor=INK, strokeWidth=1.2))
        for end in (e.low, e.high):
            drawing.add(Line(at(end), y - 3, at(end), y + 3, strokeColor=INK, strokeWidth=1.2))
        drawing.add(Rect(at(e.value) - 2.5, y - 2.5, 5, 5, fillColor=BAR, strokeColor=None))
    drawing.add(String(left, height - 14, title, fontName=font, fontSize=10, fillColor=INK))
    return drawing


def _row_references(count: int, reference: float | None, references: Sequence[float | None] | None,
                    ) -> list[float | None]:
    """Each row's reference value: the per-row ones when given, else the one shared by every row."""
    if references is not None:
        if len(references) != count:
            raise ValueError(f"{len(references)} references for {count} rows")
        return list(references)
    return [reference] * count if reference is not None else []


def _axis(low: float, high: float) -> tuple[float, float, list[float]]:
    """An axis that fits the data: from a round value at or below `low` to one at or above `high`,
    with at most 8 steps of a round size (a 20-30 % spread gets 18-32 %, not 0-33 %)."""
    span = max(high - low, 1e-9)
    for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 20, 50, 100):
        start = max(0.0, math.floor((low - span * 0.1) / step) * step)
        stop = math.ceil((high + span * 0.1) / step) * step
        if (stop - start) / step <= 8:
            break
    count = round((stop - start) / step)
    return start, stop, [start + n * step for n in range(count + 1)]


__all__ = ["Bin", "Color", "Estimate", "bin_label", "histogram", "intervals"]
