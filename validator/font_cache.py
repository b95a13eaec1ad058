"""A font's reading (validator/fontfile.py) kept per machine: the same bytes are read once, not per build.

Only fonts read without error are kept: a refused font is read (and refused) again each time, so its
message always comes from the reader as it is now.
"""
from __future__ import annotations

import functools
from typing import Any

from . import fontfile, limits
from .cache import BadEntry, cached, code_stamp, sha256_key
from .fontfile import FontFile, read_font

KIND = "font-metrics"


@functools.cache
def _stamp() -> str:
    return code_stamp(fontfile, limits)  # the reader and the limits it refuses by


def read_font_cached(data: bytes) -> FontFile:
    """read_font(data), from the cache when these bytes were read before by this version."""
    return cached(KIND, sha256_key(data), _stamp(), lambda: read_font(data), _encode, _decode)


def _encode(font: FontFile) -> object:
    return (font.units_per_em, font.ascent, font.descent, font.glyphs, font.fs_type, font.code_points,
            dict(font.advances), font.notdef_advance)


def _decode(data: Any) -> FontFile:
    if not isinstance(data, tuple) or len(data) != 8:
        raise BadEntry("not a font reading")
    units, ascent, descent, glyphs, fs_type, code_points, advances, notdef = data
    if not all(type(n) is int for n in (units, ascent, descent, glyphs, fs_type, code_points, notdef)):
        raise BadEntry("a font reading's numbers are not integers")
    if not 16 <= units <= 16384 or not isinstance(advances, dict):
        raise BadEntry("not a font reading")
    if not set(map(type, advances)) <= {int} or not set(map(type, advances.values())) <= {int}:
        raise BadEntry("a font reading's advances are not integers")
    return FontFile(units, ascent, descent, glyphs, fs_type, code_points, advances, notdef)
