"""Smooth curves through given points: a Catmull–Rom spline written as the cubic Béziers PDF draws.

The map's rivers and coasts are lists of points in map.json; drawn as straight segments they kink at
every point. Each span between two neighbouring points becomes one cubic Bézier whose tangents come
from the points either side (centripetal parameterisation, alpha 0.5: no cusps or loops where points
bunch up, and less overshoot than the uniform spline). The curve passes through every point, in order,
and starts and ends on the first and last point; a closed curve returns to its first point.
Pure geometry, no drawing.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Segment = tuple[Point, Point, Point]  # first control point, second control point, end point

ALPHA = 0.5  # centripetal


def catmull_rom(points: Sequence[Point], *, closed: bool = False, alpha: float = ALPHA) -> list[Segment]:
    """The Bézier segments of the spline through `points`, starting at points[0].

    An open curve's ends get a mirrored neighbour (the end's tangent points along its first span); a
    closed curve wraps round and ends with the span back to points[0]. Fewer than two points give none.
    """
    count = len(points)
    if count < 2:
        return []
    spans = count if closed else count - 1

    def at(index: int) -> Point:
        if closed:
            return points[index % count]
        if index < 0:
            return _mirror(points[0], points[1])
        if index >= count:
            return _mirror(points[-1], points[-2])
        return points[index]

    return [_span(at(i - 1), at(i), at(i + 1), at(i + 2), alpha) for i in range(spans)]


def _mirror(end: Point, inner: Point) -> Point:
    return (2 * end[0] - inner[0], 2 * end[1] - inner[1])


def _span(p0: Point, p1: Point, p2: Point, p3: Point, alpha: float) -> Segment:
    """The Bézier of the Catmull–Rom span p1 -> p2 (Yuksel, Schaefer and Keyser's conversion)."""
    d1, d2, d3 = (math.dist(a, b) ** alpha for a, b in ((p0, p1), (p1, p2), (p2, p3)))
    if d2 == 0:  # a repeated point: nothing to bend
        return p1, p2, p2
    if d1 == 0:
        c1 = p1
    else:
        c1 = _weighted(d1 * d1, p2, -d2 * d2, p0, 2 * d1 * d1 + 3 * d1 * d2 + d2 * d2, p1, 3 * d1 * (d1 + d2))
    if d3 == 0:
        c2 = p2
    else:
        c2 = _weighted(d3 * d3, p1, -d2 * d2, p3, 2 * d3 * d3 + 3 * d3 * d2 + d2 * d2, p2, 3 * d3 * (d3 + d2))
    return c1, c2, p2


def _weighted(wa: float, a: Point, wb: float, b: Point, wc: float, c: Point, divisor: float) -> Point:
    return ((wa * a[0] + wb * b[0] + wc * c[0]) / divisor, (wa * a[1] + wb * b[1] + wc * c[1]) / divisor)


def bezier_point(start: Point, segment: Segment, t: float) -> Point:
    """The point at parameter t (0..1) of the Bézier from `start` through `segment`."""
    (c1x, c1y), (c2x, c2y), (ex, ey) = segment
    u = 1 - t
    a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
    return (a * start[0] + b * c1x + c * c2x + d * ex, a * start[1] + b * c1y + c * c2y + d * ey)


__all__ = ["Point", "Segment", "bezier_point", "catmull_rom"]
