"""Draw an area map as vectors: terrain, routes by kind, seats, labels, legend, cartouche, compass and frame.

Generic: it draws a validated GameMap through the layout the checks measured (validator.maplayout),
never a game's rules. The canvas works in mm with the origin at the map's top-left; y is negated
on the way out (PDF's y runs upwards), so every coordinate here reads as in map.json.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from reportlab.lib.colors import Color as RLColor
from reportlab.pdfgen.canvas import Canvas

from validator.binding import parse_color
from validator.maplayout import MM_PER_PT, AreaPlan, MapPlan, Rect, players_text
from validator.model import MapRoute

from .colors import to_reportlab
from .curves import catmull_rom

Point = tuple[float, float]
BAND = 4.0        # mm: the frame's ornamental band, outside the frame rect
DASH = (2.4, 1.4)  # mm: pass routes


class MapPainter:
    """Draws one MapPlan on a canvas whose unit is already 1 mm (see `draw_map`)."""

    def __init__(self, canvas: Canvas, plan: MapPlan, fonts: Mapping[str, str]) -> None:
        self.c = canvas
        self.plan = plan
        self.fonts = {role: fonts[key] for role, key in plan.fonts.items()}  # role -> registered font name

    # --- small tools ------------------------------------------------------------------------------

    def color(self, spec: str) -> RLColor:
        """A colour role (plan.colors), palette name or literal."""
        value = self.plan.colors.get(spec, spec)
        value = self.plan.game_map.palette.get(value, value)
        parsed = parse_color(value)
        if parsed is None:
            raise ValueError(f"map colour {spec!r} is not a colour")  # the maps check reports it first
        return to_reportlab(parsed)  # opaque: no transparency groups in a print file

    def text(self, x: float, baseline: float, text: str, role: str, size: float, color: str = "ink",
             align: str = "left") -> float:
        """Draw one line; return its width in mm."""
        self.c.setFont(self.fonts[role], size * MM_PER_PT)
        self.c.setFillColor(self.color(color))
        width: float = self.c.stringWidth(text, self.fonts[role], size * MM_PER_PT)
        left = x - width / 2 if align == "centre" else x - width if align == "right" else x
        self.c.drawString(left, -baseline, text)
        return width

    def polyline(self, points: Sequence[Point], *, closed: bool = False, stroke: bool = True,
                 fill: bool = False) -> None:
        path = self.c.beginPath()
        path.moveTo(points[0][0], -points[0][1])
        for x, y in points[1:]:
            path.lineTo(x, -y)
        if closed:
            path.close()
        self.c.drawPath(path, stroke=int(stroke), fill=int(fill))

    def curve(self, points: Sequence[Point], *, closed: bool = False, fill: bool = False) -> None:
        """A smooth line through `points` (generator/curves.py), where a coast or river would kink."""
        path = self.c.beginPath()
        path.moveTo(points[0][0], -points[0][1])
        for (x1, y1), (x2, y2), (x, y) in catmull_rom(points, closed=closed):
            path.curveTo(x1, -y1, x2, -y2, x, -y)
        if closed:
            path.close()
        self.c.drawPath(path, stroke=1, fill=int(fill))

    def rect(self, box: Rect, *, radius: float = 0.0, stroke: bool = True, fill: bool = True) -> None:
        self.c.roundRect(box.x, -box.bottom, box.w, box.h, radius, stroke=int(stroke), fill=int(fill))

    def stroke(self, color: str, width: float, dash: Sequence[float] | None = None, cap: int = 1) -> None:
        self.c.setStrokeColor(self.color(color))
        self.c.setLineWidth(width)
        self.c.setLineCap(cap)
        self.c.setLineJoin(1)
        self.c.setDash(list(dash) if dash else [])

    # --- the map ----------------------------------------------------------------------------------

    def draw(self, bleed: float = 0.0) -> None:
        """The whole map; its ground colour runs `bleed` mm past its edges (nothing else reaches them: the
        frame and its margin are inside), for a shop that cuts it."""
        game_map = self.plan.game_map
        self.c.setFillColor(self.color("paper"))
        self.rect(Rect(-bleed, -bleed, game_map.width + 2 * bleed, game_map.height + 2 * bleed), stroke=False)
        self.c.saveState()
        frame = self.plan.frame
        clip = self.c.beginPath()
        clip.rect(frame.x, -frame.bottom, frame.w, frame.h)
        self.c.clipPath(clip, stroke=0, fill=0)
        self.draw_terrain()
        for route in game_map.routes:
            self.draw_route(route)
        for area in self.plan.areas.values():
            self.draw_seat(area)
        for area in self.plan.areas.values():
            self.draw_label(area)
        self.c.restoreState()
        self.draw_cartouche()
        self.draw_legend()
        self.draw_compass()
        self.draw_frame()

    def draw_terrain(self) -> None:
        size = self.plan.style["text_size"]
        for piece in self.plan.game_map.drawing.get("terrain", []):
            points = [(p[0], p[1]) for p in piece["points"]]
            if piece["kind"] == "sea":
                self.c.setFillColor(self.color("sea"))
                self.stroke("water", 0.35)
                self.curve(points, closed=True, fill=True)
            elif piece["kind"] == "river":
                self.stroke("water", float(piece.get("width", 1.2)))
                self.curve(points)
            else:
                self.draw_mountains(points)
            if "name" in piece:
                at = piece.get("name_at", points[0])
                self.text(at[0], at[1], piece["name"], "text", size + 1,
                          "frame" if piece["kind"] == "mountains" else "water_text")

    def draw_mountains(self, points: Sequence[Point]) -> None:
        """Little peaks every 7 mm along a line."""
        self.stroke("frame", 0.35)
        self.c.setFillColor(self.color("seat_major"))
        for x, y in _along(points, 7.0):
            self.polyline([(x - 2.2, y + 1.2), (x, y - 1.8), (x + 2.2, y + 1.2)], fill=True, closed=False)

    def draw_route(self, route: MapRoute) -> None:
        spec = self.plan.game_map.route_kinds[route.kind]
        color, width, line = spec.get("color", "ink"), float(spec.get("width", 0.8)), spec["line"]
        p, q = self.plan.segment(route)
        self.route_line(p, q, line, color, width)
        mark = spec.get("mark", "none")
        if mark != "none":
            self.route_mark(p, q, mark, color, width)

    def route_line(self, p: Point, q: Point, line: str, color: str, width: float) -> None:
        if line == "double":
            self.stroke(color, width)
            self.polyline([p, q])
            self.stroke("paper", width * 0.4)
            self.polyline([p, q])
        elif line == "dashed":
            self.stroke(color, width, DASH, cap=0)
            self.polyline([p, q])
        elif line == "dotted":
            self.stroke(color, width, (0.01, width * 2.2), cap=1)
            self.polyline([p, q])
        else:
            self.stroke(color, width)
            self.polyline([p, q])
        self.c.setDash([])

    def route_mark(self, p: Point, q: Point, mark: str, color: str, width: float) -> None:
        """A sign at the middle of a route, turned along it: )( for a pass, a wave on a disc for the sea."""
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        angle = math.degrees(math.atan2(-(q[1] - p[1]), q[0] - p[0]))
        self.c.saveState()
        self.c.translate(mx, -my)
        self.c.rotate(angle)
        if mark == "pass":
            self.stroke("paper", width * 2.6, cap=0)
            self.c.line(-1.4, 0, 1.4, 0)
            self.stroke(color, max(0.5, width * 0.7))
            for side in (-1, 1):
                path = self.c.beginPath()
                path.moveTo(side * 1.9, 2.6)
                path.curveTo(side * 0.5, 1.0, side * 0.5, -1.0, side * 1.9, -2.6)
                self.c.drawPath(path, stroke=1, fill=0)
        else:
            self.c.setFillColor(self.color("paper"))
            self.stroke(color, 0.3)
            self.c.circle(0, 0, 2.8, stroke=1, fill=1)
            self.stroke(color, max(0.45, width * 0.6))
            path = self.c.beginPath()
            path.moveTo(-1.9, 0)
            path.curveTo(-1.3, 1.1, -0.6, 1.1, 0, 0)
            path.curveTo(0.6, -1.1, 1.3, -1.1, 1.9, 0)
            self.c.drawPath(path, stroke=1, fill=0)
        self.c.restoreState()

    def draw_seat(self, area: AreaPlan) -> None:
        seat = area.seat
        if area.rank == "seat_capital":  # a castle: merlons along the top
            self.c.setFillColor(self.color(area.rank))
            self.stroke("ink", 0.4)
            step = seat.w / 5
            for k in range(0, 5, 2):
                self.rect(Rect(seat.x + k * step, seat.y - 1.6, step, 2.2))
        self.c.setFillColor(self.color(area.rank))
        self.stroke("ink", 0.6)
        self.rect(seat, radius=1.0)
        self.stroke("ink", 0.2)
        self.rect(seat.grown(-1.0), radius=0.6, fill=False)
        self.seat_mark(area)
        if area.tab is not None and area.tab_text is not None:
            self.c.setFillColor(self.color("start"))
            self.stroke("start", 0.2)
            self.rect(area.tab, radius=area.tab.h / 2)
            run = area.tab_text
            self.text(run.x, run.baseline, run.text, run.role, run.size, "start_text")

    def seat_mark(self, area: AreaPlan) -> None:
        """The name set large and pale down the seat, like a seal; a marker on the seat hides it."""
        seat, name = area.seat, area.area.name
        size = min(seat.h * 0.8 / len(name), seat.w * 0.62) / MM_PER_PT
        step = size * MM_PER_PT
        top = seat.centre[1] - step * len(name) / 2
        for k, char in enumerate(name):
            self.text(seat.centre[0], top + step * (k + 0.86), char, "name", size, "seat_mark", align="centre")

    def draw_label(self, area: AreaPlan) -> None:
        self.c.setFillColor(self.color("halo"))
        self.rect(area.label, radius=1.2, stroke=False)
        for run in (area.reading, area.name):
            self.text(run.x, run.baseline, run.text, run.role, run.size)
        cx, cy, r = area.seal
        self.c.setFillColor(self.color("points"))
        self.stroke("points", 0.2)
        self.c.circle(cx, -cy, r, stroke=0, fill=1)
        run = area.seal_text
        self.text(run.x, run.baseline, run.text, run.role, run.size, "points_text")

    # --- panels -----------------------------------------------------------------------------------

    def panel_box(self, name: str) -> Rect | None:
        """The map file's `drawing[name]` box (x, y, w, h in mm), or None when the map has no such panel."""
        b = self.plan.game_map.drawing.get(name)
        return None if b is None else Rect(b["x"], b["y"], b["w"], b["h"])

    def panel(self, box: Rect) -> None:
        self.c.setFillColor(self.color("cartouche"))
        self.stroke("frame", 0.8)
        self.rect(box, radius=1.5)
        self.stroke("frame", 0.25)
        self.rect(box.grown(-1.4), radius=1.0, fill=False)

    def draw_cartouche(self) -> None:
        box = self.panel_box("cartouche")
        if box is None:
            return
        self.panel(box)
        drawing = self.plan.game_map.drawing
        size = self.plan.style["title_size"]
        subtitle = drawing.get("subtitle")
        sub_size = self.plan.style["text_size"] + 1
        block = size * MM_PER_PT + (sub_size * MM_PER_PT * 1.8 if subtitle else 0)
        top = box.y + (box.h - block) / 2
        ascent = 0.88
        title = str(drawing.get("title", self.plan.game_map.title))
        self.text(box.x + box.w / 2, top + size * MM_PER_PT * ascent, title, "title", size, align="centre")
        if subtitle:
            self.text(box.x + box.w / 2, top + size * MM_PER_PT + sub_size * MM_PER_PT * 1.5, str(subtitle), "text",
                      sub_size, align="centre")

    def draw_legend(self) -> None:
        """Two columns: the route kinds; then the seal, the start tab and the victory points."""
        box = self.panel_box("legend")
        if box is None:
            return
        self.panel(box)
        labels, size = self.plan.labels, self.plan.style["text_size"]
        line = size * MM_PER_PT * 1.9
        x, y = box.x + 4.0, box.y + 3.2 + (size + 2) * MM_PER_PT
        self.text(x, y, labels["legend"], "label", size + 2)
        y += line * 1.1
        for spec in self.plan.game_map.route_kinds.values():
            p, q = (x, y - size * MM_PER_PT * 0.35), (x + 14.0, y - size * MM_PER_PT * 0.35)
            self.route_line(p, q, spec["line"], spec.get("color", "ink"), float(spec.get("width", 0.8)))
            if spec.get("mark", "none") != "none":
                self.route_mark(p, q, spec["mark"], spec.get("color", "ink"), float(spec.get("width", 0.8)))
            self.text(x + 17.0, y, spec["label"], "text", size)
            y += line
        x2 = box.x + box.w / 2
        y2 = box.y + 3.2 + (size + 2) * MM_PER_PT + line * 1.1
        y2 += self.legend_samples(x2, y2, size, line)
        self.legend_victory(x2, y2 + line * 0.1, size, line, Rect(x2, y2, box.right - x2, box.bottom - y2))

    def legend_samples(self, x: float, y: float, size: float, line: float) -> float:
        """A points seal and a start tab with what they mean; returns the height used."""
        r = self.plan.style["points_size"] * MM_PER_PT * 0.75
        cy = y - size * MM_PER_PT * 0.35
        self.c.setFillColor(self.color("points"))
        self.c.circle(x + 4.0, -cy, r, stroke=0, fill=1)
        self.text(x + 4.0, cy + self.plan.style["points_size"] * MM_PER_PT * 0.36, "3", "label",
                  self.plan.style["points_size"], "points_text", align="centre")
        self.text(x + 11.0, y, self.plan.labels["points_legend"], "text", size)
        y += line
        counts = sorted(self.plan.game_map.start_areas)
        sample = self.plan.labels["start"].format(players=players_text(tuple(counts)))
        t_size = self.plan.style["start_size"]
        width = self.c.stringWidth(sample, self.fonts["label"], t_size * MM_PER_PT) + 2.4
        tab = Rect(x + 4.0 - width / 2, y - size * MM_PER_PT * 0.35 - (t_size * MM_PER_PT + 1.2) / 2, width,
                   t_size * MM_PER_PT + 1.2)
        self.c.setFillColor(self.color("start"))
        self.rect(tab, radius=tab.h / 2, stroke=False)
        self.text(x + 4.0, tab.y + 0.6 + t_size * MM_PER_PT * 0.84, sample, "label", t_size, "start_text",
                  align="centre")
        self.text(x + 11.0, y, self.plan.labels["start_legend"], "text", size)
        return line * 2

    def legend_victory(self, x: float, y: float, size: float, line: float, box: Rect) -> None:
        targets = self.plan.game_map.victory_points
        if not targets:
            return
        self.text(x, y, self.plan.labels["victory"], "label", size)
        y += line
        columns = 3
        width = (box.w - 4.0) / columns
        for k, players in enumerate(sorted(targets)):
            row, col = divmod(k, columns)
            text = self.plan.labels["victory_row"].format(players=players, points=targets[players])
            self.text(x + col * width, y + row * line, text, "text", size)

    def draw_compass(self) -> None:
        drawing = self.plan.game_map.drawing
        if "compass" not in drawing:
            return
        c = drawing["compass"]
        x, y, r = float(c["x"]), float(c["y"]), float(c["r"])
        self.stroke("frame", 0.3)
        self.c.setFillColor(self.color("cartouche"))
        self.c.circle(x, -y, r * 0.72, stroke=1, fill=1)
        self.c.circle(x, -y, r * 0.62, stroke=1, fill=0)
        for k in range(8):
            long = k % 2 == 0
            reach, half = (r * (0.95 if k == 0 else 0.8), r * 0.13) if long else (r * 0.5, r * 0.09)
            angle = math.radians(90 - k * 45)
            tip = (x + reach * math.cos(angle), y - reach * math.sin(angle))
            left = (x + half * math.cos(angle + math.pi / 2), y - half * math.sin(angle + math.pi / 2))
            right = (x + half * math.cos(angle - math.pi / 2), y - half * math.sin(angle - math.pi / 2))
            self.stroke("ink", 0.25)
            self.c.setFillColor(self.color("ink" if long else "frame"))
            self.polyline([(x, y), left, tip], closed=True, fill=True)
            self.c.setFillColor(self.color("paper"))
            self.polyline([(x, y), right, tip], closed=True, fill=True)
        size = self.plan.style["text_size"] + 2
        self.text(x, y - r - 1.0, self.plan.labels["north"], "label", size, align="centre")

    def draw_frame(self) -> None:
        """A band of 回 squares between two rules round the map."""
        frame = self.plan.frame
        outer = frame.grown(BAND)
        self.c.setFillColor(self.color("frame"))
        path = self.c.beginPath()
        path.rect(outer.x, -outer.bottom, outer.w, outer.h)
        path.rect(frame.x, -frame.bottom, frame.w, frame.h)
        self.c.drawPath(path, stroke=0, fill=1, fillMode=0)  # even-odd: the band only
        self.stroke("paper", 0.3)
        square = BAND * 0.45
        for x, y in _band_points(outer, frame, 6.0):
            self.c.rect(x - square / 2, -(y + square / 2), square, square, stroke=1, fill=0)
        self.stroke("ink", 0.5)
        self.c.rect(outer.x - 0.8, -(outer.bottom + 0.8), outer.w + 1.6, outer.h + 1.6, stroke=1, fill=0)
        self.stroke("ink", 0.35)
        self.c.rect(frame.x, -frame.bottom, frame.w, frame.h, stroke=1, fill=0)


def _along(points: Sequence[Point], step: float) -> list[Point]:
    """Points every `step` mm along a polyline, starting half a step in."""
    found, carry = [], step / 2
    for (x1, y1), (x2, y2) in zip(points, points[1:]):
        length = math.hypot(x2 - x1, y2 - y1)
        t = carry
        while t <= length:
            found.append((x1 + (x2 - x1) * t / length, y1 + (y2 - y1) * t / length))
            t += step
        carry = t - length
    return found


def _band_points(outer: Rect, inner: Rect, step: float) -> list[Point]:
    """Centres of the frame band's squares, evenly spaced along each side."""
    mid = Rect((outer.x + inner.x) / 2, (outer.y + inner.y) / 2, (outer.w + inner.w) / 2, (outer.h + inner.h) / 2)
    found = []
    across, down = max(1, round(mid.w / step)), max(1, round(mid.h / step))
    found += [(mid.x + mid.w * k / across, y) for k in range(across + 1) for y in (mid.y, mid.bottom)]
    found += [(x, mid.y + mid.h * k / down) for k in range(1, down) for x in (mid.x, mid.right)]
    return found


def draw_map(canvas: Canvas, plan: MapPlan, fonts: Mapping[str, str], origin: Point, bleed: float = 0.0) -> None:
    """Draw the map with its top-left corner at `origin` (page mm from the bottom-left), 1:1, its ground
    carried `bleed` mm past its edges."""
    mm = 1 / MM_PER_PT
    canvas.saveState()
    canvas.translate(origin[0] * mm, origin[1] * mm)
    canvas.scale(mm, mm)
    MapPainter(canvas, plan, fonts).draw(bleed)
    canvas.restoreState()
