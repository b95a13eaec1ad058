"""The map's smooth rivers and coasts: a Catmull–Rom spline through the given points as cubic Béziers."""
from __future__ import annotations

import math

import pytest

from generator.curves import Point, bezier_point, catmull_rom

RIVER: list[Point] = [(20, 232), (70, 226), (100, 232), (125, 228), (150, 207), (170, 203), (190, 215), (205, 238)]


def ends(start: Point, segments: list[tuple[Point, Point, Point]]) -> list[Point]:
    return [start] + [segment[2] for segment in segments]


def test_the_curve_passes_through_every_point_in_order_and_keeps_its_ends() -> None:
    segments = catmull_rom(RIVER)
    assert len(segments) == len(RIVER) - 1
    assert ends(RIVER[0], segments) == RIVER
    assert bezier_point(RIVER[0], segments[0], 0.0) == RIVER[0]
    assert bezier_point(segments[-2][2], segments[-1], 1.0) == pytest.approx(RIVER[-1])


def test_a_closed_curve_returns_to_its_first_point() -> None:
    square: list[Point] = [(0, 0), (10, 0), (10, 10), (0, 10)]
    segments = catmull_rom(square, closed=True)
    assert ends(square[0], segments) == [*square, square[0]]


def test_the_curve_is_smooth_where_two_spans_meet() -> None:
    """C1 at every inner point: the control points either side lie on one line through it, on opposite sides."""
    segments = catmull_rom(RIVER)
    for before, after in zip(segments, segments[1:]):
        joint, incoming, outgoing = before[2], before[1], after[0]
        a = (joint[0] - incoming[0], joint[1] - incoming[1])
        b = (outgoing[0] - joint[0], outgoing[1] - joint[1])
        assert a[0] * b[1] - a[1] * b[0] == pytest.approx(0, abs=1e-9 * math.hypot(*a) * math.hypot(*b) + 1e-9)
        assert a[0] * b[0] + a[1] * b[1] > 0  # same direction: no cusp


def test_points_on_a_line_give_that_line() -> None:
    line: list[Point] = [(0, 0), (3, 1.5), (10, 5), (11, 5.5)]
    for segment in catmull_rom(line):
        for control in segment:
            assert control[1] == pytest.approx(control[0] / 2)


def test_uniform_spline_has_the_textbook_control_points() -> None:
    """alpha 0 is the uniform spline: the span p1 -> p2 has controls p1 + (p2 - p0) / 6 and p2 - (p3 - p1) / 6."""
    p0, p1, p2, p3 = (0.0, 0.0), (10.0, 4.0), (20.0, 0.0), (30.0, 6.0)
    c1, c2, end = catmull_rom([p0, p1, p2, p3], alpha=0.0)[1]
    assert c1 == pytest.approx((p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6))
    assert c2 == pytest.approx((p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6))
    assert end == p2


def test_the_end_tangents_point_along_the_first_and_last_span() -> None:
    c1 = catmull_rom(RIVER)[0][0]
    c2 = catmull_rom(RIVER)[-1][1]
    assert c1 == pytest.approx((RIVER[0][0] + (RIVER[1][0] - RIVER[0][0]) / 3,
                                RIVER[0][1] + (RIVER[1][1] - RIVER[0][1]) / 3))
    assert c2 == pytest.approx((RIVER[-1][0] - (RIVER[-1][0] - RIVER[-2][0]) / 3,
                                RIVER[-1][1] - (RIVER[-1][1] - RIVER[-2][1]) / 3))


def test_repeated_points_and_short_lists() -> None:
    assert catmull_rom([(1, 1)]) == []
    segments = catmull_rom([(0, 0), (0, 0), (5, 5)])
    assert ends((0, 0), segments) == [(0, 0), (0, 0), (5, 5)]
    assert all(math.isfinite(v) for segment in segments for point in segment for v in point)
