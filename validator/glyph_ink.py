"""Where a glyph's ink lies in its em: its outline's box, from the glyph's header in the font's glyf table.

The layout measures advances (validator.typeset); a check that asks how close printed text comes to a
line needs the ink, which for a digit stops well short of the em box (no descender, cap height under
the ascent). The font was read and accepted first (validator.fontfile, the same bounded reader); here
the character map's segments and the loca offsets are read once per font, then one 10-byte header per
character asked for.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from .fontfile import FontFileError, outline_boxes
from .typeset import font_bytes, load_metrics

Box = tuple[float, float, float, float]  # x_min, y_min, x_max, y_max in em, from the glyph's origin, y up


@functools.cache
def _boxes(path: Path) -> Callable[[int], tuple[int, int, int, int] | None] | None:
    try:
        return outline_boxes(font_bytes(path))
    except FontFileError:  # read_font accepted it, so this does not happen; no ink known if it did
        return None


@functools.cache
def glyph_ink(path: Path, char: str) -> Box | None:
    """The ink of `char` in the font at `path`, in em; None for a glyph without outline (a space) or a
    character the font lacks."""
    boxes = _boxes(path)
    found = boxes(ord(char)) if boxes is not None else None
    if found is None:
        return None
    units = load_metrics(path).units_per_em
    return found[0] / units, found[1] / units, found[2] / units, found[3] / units
