"""Where every part of an area map is drawn, in mm: the one layout the map checks and the printer share.

Coordinates are millimetres from the map sheet's top-left corner, y downwards (as in map.json).
Each area gets a square seat (where a playing marker goes), an optional start tab under it naming
the player counts that start there, and a label beside it: the reading over the name, and a seal
with the area's points after the name. Text is measured with the real fonts (validator.typeset),
so a label box here is the box the printed text fills.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .issues import Location
from .model import GameMap, MapArea, MapRoute
from .typeset import FontMetrics
from .wording import japanese_range

MM_PER_PT = 25.4 / 72

DEFAULT_STYLE: Mapping[str, float] = {
    "seat": 18.0, "name_size": 13.0, "reading_size": 6.5, "points_size": 8.0, "start_size": 6.5,
    "text_size": 8.0, "title_size": 30.0, "label_gap": 1.2, "frame": 8.0,
}
DEFAULT_FONTS: Mapping[str, str] = {"name": "mincho", "reading": "gothic", "title": "mincho",
                                    "label": "gothic", "text": "gothic"}
DEFAULT_LABELS: Mapping[str, str] = {
    "start": "{players}人", "start_legend": "開始エリア", "points_legend": "ポイント",
    "victory": "勝利ポイント", "victory_row": "{players}人 {points}P", "legend": "凡例",
    "tile": "{n}/{count}（{row}段目・{col}列目）", "tile_help": "{overlap}mm重ねて貼る", "north": "北",
}
DEFAULT_COLORS: Mapping[str, str] = {
    "paper": "cmyk(0,0,0,0)", "sea": "cmyk(20,0,0,0)", "water": "cmyk(40,5,0,0)", "ink": "cmyk(0,0,0,100)",
    "seat": "cmyk(0,0,0,0)", "seat_major": "cmyk(0,5,20,0)", "seat_capital": "cmyk(0,20,40,0)",
    "seat_mark": "cmyk(0,8,20,8)", "points": "cmyk(0,90,85,10)", "points_text": "cmyk(0,0,0,0)",
    "start": "cmyk(0,0,0,100)", "start_text": "cmyk(0,0,0,0)", "water_text": "cmyk(80,30,0,10)",
    "halo": "cmyk(0,0,0,0)", "frame": "cmyk(0,0,0,70)", "cartouche": "cmyk(0,0,0,0)",
}
LABEL_PAD = 0.7       # mm of halo around a label's text
SEAL_GAP = 0.6        # mm between a name and its points seal
LINE_GAP = 0.3        # mm between the reading and the name
TAB_PAD = 1.2         # mm either side of a start tab's text
TAB_TUCK = 1.0        # mm the tab reaches up over the seat's edge (a 15 mm marker on an 18 mm seat leaves it free)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned box in mm, y downwards."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def grown(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def union(self, other: Rect) -> Rect:
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def overlaps(self, other: Rect) -> bool:
        return self.x < other.right and other.x < self.right and self.y < other.bottom and other.y < self.bottom

    def inside(self, other: Rect) -> bool:
        return self.x >= other.x and self.y >= other.y and self.right <= other.right and self.bottom <= other.bottom

    def hits_segment(self, p: tuple[float, float], q: tuple[float, float]) -> bool:
        """Does the segment p-q pass through the box's interior? (Liang-Barsky clipping.)"""
        t0, t1 = 0.0, 1.0
        dx, dy = q[0] - p[0], q[1] - p[1]
        for edge_p, edge_q in ((-dx, p[0] - self.x), (dx, self.right - p[0]),
                               (-dy, p[1] - self.y), (dy, self.bottom - p[1])):
            if edge_p == 0:
                if edge_q <= 0:
                    return False
                continue
            t = edge_q / edge_p
            if edge_p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 >= t1:
                return False
        return True


CELL_MARGIN = 0.01  # mm: a part this near a cell's edge is in the next cell too, so float rounding loses no pair

Point = tuple[float, float]


@dataclass(frozen=True)
class CellGrid:
    """Square cells over the map's parts: two parts that meet (overlap, cross, touch) share a cell.

    The drawing checks compare parts pairwise; comparing only parts that share a cell keeps them
    near-linear on a map of spread-out areas, where comparing every pair was cubic (issue 23). A part
    is in every cell it comes within CELL_MARGIN of; cells are keyed row * cols + col, and whatever
    lies beyond the grid's box counts as in its edge cells.
    """

    x: float
    y: float
    size: float
    cols: int
    rows: int

    @classmethod
    def over(cls, boxes: Sequence[Rect]) -> CellGrid:
        """A grid over `boxes` of about one box per cell, no finer than the median box's longer side."""
        if not boxes:
            return cls(0.0, 0.0, 1.0, 1, 1)
        x, y = min(b.x for b in boxes), min(b.y for b in boxes)
        w, h = max(b.right for b in boxes) - x, max(b.bottom for b in boxes) - y
        sides = sorted(max(b.w, b.h) for b in boxes)
        size = max(sides[len(sides) // 2], math.sqrt(w * h / len(boxes)), CELL_MARGIN)
        return cls(x, y, size, max(1, math.ceil(w / size)), max(1, math.ceil(h / size)))

    def _col(self, x: float) -> int:
        return min(max(math.floor((x - self.x) / self.size), 0), self.cols - 1)

    def _row(self, y: float) -> int:
        return min(max(math.floor((y - self.y) / self.size), 0), self.rows - 1)

    def rect_cells(self, box: Rect) -> list[int]:
        """The cells `box` lies in."""
        m = CELL_MARGIN
        rows = range(self._row(box.y - m), self._row(box.bottom + m) + 1)
        return [row * self.cols + col for col in range(self._col(box.x - m), self._col(box.right + m) + 1)
                for row in rows]

    def segment_cells(self, p: Point, q: Point) -> list[int]:
        """The cells the segment p-q passes through, a column at a time (not its bounding box's)."""
        m = CELL_MARGIN
        (x0, y0), (x1, y1) = (p, q) if p[0] <= q[0] else (q, p)
        low, high = min(y0, y1) - m, max(y0, y1) + m
        first, last = self._col(x0 - m), self._col(x1 + m)
        slope = (y1 - y0) / (x1 - x0) if x1 > x0 else 0.0
        found: list[int] = []
        for col in range(first, last + 1):
            if x1 > x0:  # the part of the segment within m of this column
                left = x0 if col == first else max(x0, self.x + col * self.size - m)
                right = x1 if col == last else min(x1, self.x + (col + 1) * self.size + m)
                ya, yb = y0 + (left - x0) * slope, y0 + (right - x0) * slope
                y_low, y_high = max(min(ya, yb) - m, low), min(max(ya, yb) + m, high)
            else:
                y_low, y_high = low, high
            found += [row * self.cols + col for row in range(self._row(y_low), self._row(y_high) + 1)]
        return found


def bucketed(cells: Iterable[Iterable[int]]) -> dict[int, list[int]]:
    """Cell -> the indices of the parts in it, ascending, from each part's cells in index order."""
    found: dict[int, list[int]] = {}
    for index, part in enumerate(cells):
        for cell in part:
            found.setdefault(cell, []).append(index)
    return found


def sharing(buckets: Mapping[int, list[int]], cells: Iterable[int]) -> set[int]:
    """The indices of the parts in any of `cells`: every part that could meet a part in those cells."""
    found: set[int] = set()
    for cell in cells:
        found.update(buckets.get(cell, ()))
    return found


@dataclass(frozen=True)
class TextRun:
    """One line of text: font role, size in pt, left x and baseline y in mm, measured width in mm."""

    text: str
    role: str
    size: float
    x: float
    baseline: float
    width: float


@dataclass(frozen=True)
class AreaPlan:
    """Where one area's parts go."""

    area: MapArea
    seat: Rect
    rank: str               # colour role of the seat: seat, seat_major or seat_capital
    marker: Rect            # the seat with its start tab: what routes and other labels must keep off
    tab: Rect | None
    tab_text: TextRun | None
    label: Rect             # reading, name and seal with their halo
    reading: TextRun
    name: TextRun
    seal: tuple[float, float, float]  # centre x, centre y, radius
    seal_text: TextRun


def players_text(counts: tuple[int, ...]) -> str:
    """(2, 3, 4, 5, 6) -> '2〜6', (3, 5) -> '3・5'."""
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return japanese_range(counts[0], counts[-1])
    return "・".join(str(n) for n in counts)


def start_counts(game_map: GameMap) -> dict[str, tuple[int, ...]]:
    """Area name -> the player counts that start a player there, ascending."""
    found: dict[str, list[int]] = {}
    for players in sorted(game_map.start_areas):
        for name in game_map.start_areas[players]:
            found.setdefault(name, []).append(players)
    return {name: tuple(counts) for name, counts in found.items()}


def merged(game_map: GameMap, key: str, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """A drawing section of map.json over its defaults."""
    return {**defaults, **game_map.drawing.get(key, {})}


@dataclass(frozen=True)
class MapPlan:
    """The whole map's geometry; `metrics` are the fonts by role (name, reading, title, label, text)."""

    game_map: GameMap
    metrics: Mapping[str, FontMetrics]
    style: Mapping[str, float]
    fonts: Mapping[str, str]
    labels: Mapping[str, str]
    colors: Mapping[str, str]
    areas: Mapping[str, AreaPlan]

    @classmethod
    def build(cls, game_map: GameMap, metrics: Mapping[str, FontMetrics]) -> MapPlan:
        style = merged(game_map, "style", DEFAULT_STYLE)
        starts = start_counts(game_map)
        labels = merged(game_map, "labels", DEFAULT_LABELS)
        top = max((a.points for a in game_map.areas), default=0)
        low = min((a.points for a in game_map.areas), default=0)
        areas = {a.name: _area_plan(a, style, metrics, labels, starts.get(a.name, ()), top, low)
                 for a in game_map.areas}
        return cls(game_map, metrics, style, merged(game_map, "fonts", DEFAULT_FONTS), labels,
                   merged(game_map, "colors", DEFAULT_COLORS), areas)

    @property
    def frame(self) -> Rect:
        """The inner edge of the border: everything of the map stays inside it."""
        m = self.style["frame"]
        return Rect(m, m, self.game_map.width - 2 * m, self.game_map.height - 2 * m)

    def segment(self, route: MapRoute) -> tuple[tuple[float, float], tuple[float, float]]:
        """A route is drawn straight from seat centre to seat centre (the seats cover its ends)."""
        a, b = self.game_map.area[route.a], self.game_map.area[route.b]
        return (a.x, a.y), (b.x, b.y)

    def boxes(self) -> Iterator[tuple[str, Rect, Location]]:
        """The map's fixed panels (cartouche, legend, compass) as boxes with their place in map.json."""
        drawing, source = self.game_map.drawing, self.game_map.source
        for key in ("cartouche", "legend"):
            if key in drawing:
                box = drawing[key]
                yield key, Rect(box["x"], box["y"], box["w"], box["h"]), source.child(key)
        if "compass" in drawing:
            c = drawing["compass"]
            yield "compass", Rect(c["x"] - c["r"], c["y"] - c["r"], 2 * c["r"], 2 * c["r"]), source.child("compass")

    def printed_texts(self) -> Iterator[tuple[str, str, Location]]:
        """Every text the map prints: (text, font role, where it comes from in map.json)."""
        source = self.game_map.source
        for plan in self.areas.values():
            at = plan.area.location
            yield plan.name.text, plan.name.role, at.child("name")
            yield plan.reading.text, plan.reading.role, at.child("reading")
            yield plan.seal_text.text, plan.seal_text.role, at.child("points")
            if plan.tab_text is not None:
                yield plan.tab_text.text, plan.tab_text.role, source.child("labels").child("start")
        drawing = self.game_map.drawing
        yield str(drawing.get("title", self.game_map.title)), "title", source.child("title")
        if "subtitle" in drawing:
            yield str(drawing["subtitle"]), "text", source.child("subtitle")
        for kind, spec in self.game_map.route_kinds.items():
            yield str(spec["label"]), "text", source.child("route_kinds").child(kind).child("label")
        for key, text in self.labels.items():
            sample = text.format(players=japanese_range(2, 6), points=23, n=1, count=4, row=1, col=2, rows=2, cols=2,
                                 overlap=10)
            yield sample, "label" if key in ("legend", "victory", "north", "tile") else "text", \
                source.child("labels").child(key)
        for index, piece in enumerate(drawing.get("terrain", [])):
            if "name" in piece:
                yield str(piece["name"]), "text", source.child("terrain").child(index).child("name")


def _run(text: str, role: str, size: float, metrics: Mapping[str, FontMetrics], x: float, baseline: float) -> TextRun:
    width = metrics[role].text_width(text, size) * MM_PER_PT
    return TextRun(text, role, size, x, baseline, width)


def _area_plan(area: MapArea, style: Mapping[str, float], metrics: Mapping[str, FontMetrics],
               labels: Mapping[str, str], counts: tuple[int, ...], top: int, low: int) -> AreaPlan:
    side = style["seat"]
    seat = Rect(area.x - side / 2, area.y - side / 2, side, side)
    rank = "seat_capital" if area.points == top and top > low else "seat_major" if area.points > low else "seat"
    tab = tab_text = None
    marker = seat
    if counts:
        size = style["start_size"]
        text = labels["start"].format(players=players_text(counts))
        probe = _run(text, "label", size, metrics, 0, 0)
        h = size * MM_PER_PT + 1.2
        tab = Rect(area.x - probe.width / 2 - TAB_PAD, seat.bottom - TAB_TUCK, probe.width + 2 * TAB_PAD, h)
        ascent = metrics["label"].ascent * size * MM_PER_PT
        tab_text = _run(text, "label", size, metrics, tab.x + TAB_PAD, tab.y + (h - size * MM_PER_PT) / 2 + ascent)
        marker = seat.union(tab)
    label, reading, name, seal, seal_text = _label(area, style, metrics, marker)
    return AreaPlan(area, seat, rank, marker, tab, tab_text, label, reading, name, seal, seal_text)


def _label(area: MapArea, style: Mapping[str, float], metrics: Mapping[str, FontMetrics],
           marker: Rect) -> tuple[Rect, TextRun, TextRun, tuple[float, float, float], TextRun]:
    r_size, n_size, p_size = style["reading_size"], style["name_size"], style["points_size"]
    reading = _run(area.reading, "reading", r_size, metrics, 0, 0)
    name = _run(area.name, "name", n_size, metrics, 0, 0)
    points = _run(str(area.points), "label", p_size, metrics, 0, 0)
    radius = max(p_size * MM_PER_PT * 0.75, points.width / 2 + 0.5)
    head = max(reading.width, name.width)
    w = head + SEAL_GAP + 2 * radius + 2 * LABEL_PAD
    r_h, n_h = r_size * MM_PER_PT, n_size * MM_PER_PT
    h = r_h + LINE_GAP + n_h + 2 * LABEL_PAD
    gap = style["label_gap"]
    where = area.label.get("side", "right")
    if where == "right":
        x, y = marker.right + gap, area.y - h / 2
    elif where == "left":
        x, y = marker.x - gap - w, area.y - h / 2
    elif where == "above":
        x, y = area.x - w / 2, marker.y - gap - h
    else:
        x, y = area.x - w / 2, marker.bottom + gap
    x += float(area.label.get("dx", 0))
    y += float(area.label.get("dy", 0))
    centre = x + LABEL_PAD + head / 2
    top = y + LABEL_PAD
    reading = _run(area.reading, "reading", r_size, metrics, centre - reading.width / 2,
                   top + metrics["reading"].ascent * r_h)
    name_base = top + r_h + LINE_GAP + metrics["name"].ascent * n_h
    name = _run(area.name, "name", n_size, metrics, centre - name.width / 2, name_base)
    cx = x + LABEL_PAD + head + SEAL_GAP + radius
    cy = top + r_h + LINE_GAP + n_h / 2
    p_ascent = metrics["label"].ascent * p_size * MM_PER_PT
    p_descent = metrics["label"].descent * p_size * MM_PER_PT
    seal_text = _run(points.text, "label", p_size, metrics, cx - points.width / 2, cy + (p_ascent - p_descent) / 2)
    return Rect(x, y, w, h), reading, name, (cx, cy, radius), seal_text
