"""RGB art turned into the CMYK a print file needs, with black and greys on the K plate alone.

SVG and raster art arrive in RGB. Left so, a shop converts them itself and prints black as a
four-colour mix that misregisters on thin lines and small text. The conversion here is declared
and simple, not a colour profile: the black generation takes all the grey a colour holds into K
(c = (max - r) / max with k = 1 - max), so every neutral (r = g = b) prints on K alone, and the
RGB values that Japanese design tools write for K100 black (#231815, Japan Color 2011 Coated;
#000000) print as K100 itself. Saturated colours keep their hue; exact matches to a brand colour
belong in the deck's palette, which is CMYK from the start.
"""
from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops, ImageMath
from reportlab.graphics.shapes import Drawing, Group, Shape
from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.utils import ImageReader

# RGB written for K100 by tools set up for Japan Color, and plain black, within a rounding step.
K100_RGB = ((0x23, 0x18, 0x15), (0, 0, 0))
_NEAR = 3 / 255


def cmyk_of(red: float, green: float, blue: float) -> tuple[float, float, float, float]:
    """CMYK (0-1) for RGB (0-1): full grey replacement, K100 for the RGB of K100 black."""
    for rgb in K100_RGB:
        if max(abs(red - rgb[0] / 255), abs(green - rgb[1] / 255), abs(blue - rgb[2] / 255)) <= _NEAR:
            return 0.0, 0.0, 0.0, 1.0
    brightest = max(red, green, blue)
    if brightest <= 0:
        return 0.0, 0.0, 0.0, 1.0
    return ((brightest - red) / brightest, (brightest - green) / brightest, (brightest - blue) / brightest,
            1.0 - brightest)


def print_color(color: Any) -> Any:
    """A ReportLab colour as CMYK (already CMYK, or None: unchanged); alpha is kept."""
    if color is None or isinstance(color, CMYKColor) or not isinstance(color, Color):
        return color
    c, m, y, k = cmyk_of(color.red, color.green, color.blue)
    return CMYKColor(round(c, 4), round(m, 4), round(y, 4), round(k, 4), alpha=color.alpha)


def shapes(node: Any) -> list[Shape]:
    """The leaf shapes of a drawing or group (where svglib puts every paint), in drawing order."""
    if isinstance(node, (Group, Drawing)):
        return [s for child in node.contents for s in shapes(child)]
    return [node] if isinstance(node, Shape) else []


def cmyk_drawing(drawing: Drawing) -> Drawing:
    """Every fill and stroke colour of an SVG drawing made CMYK, in place; returns it."""
    for shape in shapes(drawing):
        for attribute in ("fillColor", "strokeColor"):
            if hasattr(shape, attribute):
                setattr(shape, attribute, print_color(getattr(shape, attribute)))
    return drawing


def cmyk_pixels(image: Image.Image) -> tuple[Image.Image, Image.Image | None]:
    """The image as CMYK pixels by cmyk_of's rule (per pixel, K100 matches aside), and its alpha if any."""
    alpha = None
    if image.mode in ("RGBA", "LA", "PA") or image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
        alpha = image.getchannel("A")
    if image.mode in ("L", "LA", "1", "I", "F", "I;16"):
        grey = image.convert("L")
        empty = Image.new("L", grey.size, 0)
        return Image.merge("CMYK", (empty, empty, empty, ImageChops.invert(grey))), alpha
    if image.mode == "CMYK":
        return image, alpha
    rgb = image.convert("RGB")
    pixels = Image.new("CMYK", rgb.size)
    for top in range(0, rgb.height, _STRIP_ROWS):  # in strips: the arithmetic works on 32-bit pixels
        box = (0, top, rgb.width, min(top + _STRIP_ROWS, rgb.height))
        pixels.paste(_cmyk_strip(rgb.crop(box)), box)
    return pixels, alpha


_STRIP_ROWS = 256


def _cmyk_strip(rgb: Image.Image) -> Image.Image:
    red, green, blue = rgb.split()
    brightest = ImageChops.lighter(ImageChops.lighter(red, green), blue)

    def share(channel: Image.Image) -> Image.Image:  # (max - channel) / max, scaled to 0-255
        return ImageMath.lambda_eval(  # type: ignore[no-any-return]
            lambda env: env["convert"]((env["top"] - env["ch"]) * 255 / (env["top"] + (env["top"] == 0)), "L"),
            top=brightest, ch=channel)

    return Image.merge("CMYK", (share(red), share(green), share(blue), ImageChops.invert(brightest)))


class CMYKImageReader(ImageReader):  # type: ignore[misc]
    """An image that reaches the PDF as DeviceCMYK, its alpha as a soft mask."""

    def __init__(self, image: Image.Image) -> None:
        cmyk, self._alpha = cmyk_pixels(image)
        super().__init__(cmyk)  # the RGB original is not kept: at 50 MP each copy is 150-200 MB

    def getRGBData(self) -> bytes:  # noqa: N802 - ReportLab's name; it asks for the pixel bytes here
        if self._data is None:  # type: ignore[has-type]
            self._dataA = ImageReader(self._alpha) if self._alpha is not None else None
            self.mode = "CMYK"
            self._data = self._image.tobytes()
        return self._data  # type: ignore[no-any-return]
