"""A `path` element's data is in card millimetres: a 10 mm square drawn from the top-left prints 10 mm wide.

svglib reads a unitless SVG width as pixels (0.75 pt); the drawing must state points, or every path
prints at 75 % of its size, anchored at the bottom.
"""
from __future__ import annotations

import pytest

from generator.elements import _path_drawing

PT_PER_MM = 72 / 25.4


@pytest.mark.parametrize(("width", "height"), [(63, 88), (44, 63), (70, 70)])
def test_path_millimetres_become_points_at_full_size(width: float, height: float) -> None:
    drawing = _path_drawing("M0 0 L10 0 L10 10 Z", width, height)
    assert drawing.width == pytest.approx(width * PT_PER_MM)
    x0, y0, x1, y1 = drawing.getBounds()
    assert (x1 - x0) == pytest.approx(10 * PT_PER_MM)
    assert (y1 - y0) == pytest.approx(10 * PT_PER_MM)
    # y runs downwards in the data: the square hugs the top edge of the card space.
    assert y1 == pytest.approx(height * PT_PER_MM) and x0 == pytest.approx(0, abs=1e-9)
