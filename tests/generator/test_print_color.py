"""RGB art becomes CMYK with black and greys on K alone (generator/print_color.py)."""
from __future__ import annotations

import io

import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColor
from svglib.svglib import svg2rlg

from generator.print_color import cmyk_drawing, cmyk_of, cmyk_pixels


@pytest.mark.parametrize(("rgb", "cmyk"), [
    ((0x23, 0x18, 0x15), (0, 0, 0, 1)),        # what Japan Color tools write for K100
    ((0, 0, 0), (0, 0, 0, 1)),
    ((255, 255, 255), (0, 0, 0, 0)),
    ((128, 128, 128), (0, 0, 0, 0.498)),       # a grey is K only
    ((255, 0, 0), (0, 1, 1, 0)),
    ((200, 100, 50), (0, 0.5, 0.75, 0.216)),   # the grey share of a colour goes to K
])
def test_rgb_to_cmyk(rgb: tuple[int, int, int], cmyk: tuple[float, ...]) -> None:
    assert cmyk_of(*(v / 255 for v in rgb)) == pytest.approx(cmyk, abs=0.002)


def test_pixels_follow_the_same_rule_and_keep_alpha() -> None:
    image = Image.new("RGBA", (3, 1))
    image.putdata([(0, 0, 0, 255), (128, 128, 128, 128), (200, 100, 50, 0)])
    pixels, alpha = cmyk_pixels(image)
    assert pixels.mode == "CMYK" and alpha is not None
    assert [pixels.getpixel((x, 0)) for x in range(3)] == [(0, 0, 0, 255), (0, 0, 0, 127), (0, 127, 191, 55)]
    assert [alpha.getpixel((x, 0)) for x in range(3)] == [255, 128, 0]
    grey, none = cmyk_pixels(Image.new("L", (1, 1), 64))
    assert grey.getpixel((0, 0)) == (0, 0, 0, 191) and none is None


def test_svg_paints_become_cmyk() -> None:
    svg = (b'<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">'
           b'<rect width="10" height="10" fill="#231815" stroke="#ff0000"/>'
           b'<circle cx="15" cy="5" r="4" fill="#808080"/></svg>')
    drawing = cmyk_drawing(svg2rlg(io.BytesIO(svg)))
    shapes = [node for group in drawing.contents for node in group.contents]
    assert all(isinstance(s.fillColor, CMYKColor) for s in shapes)
    rect, circle = shapes
    assert (rect.fillColor.cyan, rect.fillColor.black) == (0, 1)
    assert (rect.strokeColor.magenta, rect.strokeColor.yellow, rect.strokeColor.black) == (1, 1, 0)
    assert (circle.fillColor.cyan, circle.fillColor.magenta, circle.fillColor.yellow) == (0, 0, 0)
