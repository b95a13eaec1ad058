"""ReportLab's parse of a TrueType font kept per machine: each font's tables are read once, not per build.

ReportLab's TTFont reads the whole font when it is made (character map, widths, glyph offsets): about
20 ms for each bundled Japanese font, in every build. What it reads is plain data (TTFontFace's
attributes), so it is kept in fudaya's cache (validator/cache.py), keyed by the font bytes' sha256 and
stamped with ReportLab's version; a font made from it measures, subsets and embeds as a freshly
parsed one (tests/generator/test_face_cache.py holds them equal attribute by attribute, and the PDFs
drawn with each byte for byte).
"""
from __future__ import annotations

import functools
import sys
from fnmatch import fnmatch
from typing import Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace

from validator.cache import BadEntry, cached, code_stamp, sha256_key

KIND = "reportlab-face"
_NOT_KEPT = frozenset({"_ttf_data", "_pdfScale"})  # the bytes (the caller holds them) and a function (made again)
# What subsetting and measuring read, with the type each must have: checked before an entry is trusted.
_INTS = ("unitsPerEm", "numGlyphs", "flags", "version", "numTables")
_MAPS = ("charToGlyph", "glyphToChar", "charWidths", "table")
_LISTS = ("hmetrics", "glyphPos", "tables", "bbox")


@functools.cache
def _stamp() -> str:
    return code_stamp(sys.modules[__name__], ttfonts, extra=[f"reportlab{reportlab.Version}"])


def cached_ttfont(name: str, data: bytes) -> TTFont:
    """TTFont(name, BytesIO(data)), its face read from the cache when these bytes were parsed before."""
    state = cached(KIND, sha256_key(data), _stamp(), lambda: _parsed(data), _encode, _decode)
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(state)
    face._ttf_data = data
    face._pdfScale = _scale(state["unitsPerEm"])
    # As TTFont.__init__ sets a font up around its face (the test compares every attribute with one it made).
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, pattern) for pattern in rl_config.unShapedFontGlob)
    return font


def _parsed(data: bytes) -> dict[str, Any]:
    import io

    face = TTFontFace(io.BytesIO(data))
    return {key: value for key, value in vars(face).items() if key not in _NOT_KEPT}


def _scale(units_per_em: int) -> Any:
    """ReportLab's font units -> 1/1000 em, computed as it computes it (extractInfo's `scale`)."""
    if units_per_em == 1000:
        return lambda x: x
    factor = 1000 / units_per_em
    return lambda x: x * factor


def _encode(state: dict[str, Any]) -> object:
    names = sorted(key for key, value in state.items() if isinstance(value, TTFNameBytes))
    plain = {key: bytes(value) if key in names else value for key, value in state.items()}
    return plain, names


def _decode(data: Any) -> dict[str, Any]:
    state, names = data
    if not isinstance(state, dict) or not isinstance(names, list) or not set(map(type, state)) <= {str}:
        raise BadEntry("not a parsed face")
    for key in names:
        if not isinstance(state[key], bytes):
            raise BadEntry("a name is not bytes")
        state[key] = TTFNameBytes(state[key], "utf8")  # its bytes are its text in UTF-8, as TTFNameBytes made them
    typed = all(type(state[key]) is int for key in _INTS) and all(type(state[key]) is dict for key in _MAPS) \
        and all(type(state[key]) is list for key in _LISTS)
    if "name" not in names or not typed:
        raise BadEntry("a parsed face's fields are not of their types")
    glyphs = state["numGlyphs"]
    if not 16 <= state["unitsPerEm"] <= 16384 or len(state["hmetrics"]) != glyphs \
            or len(state["glyphPos"]) != glyphs + 1:
        raise BadEntry("a parsed face's tables disagree with its glyph count")
    to_glyph, widths = state["charToGlyph"], state["charWidths"]
    if not set(map(type, to_glyph)) <= {int} or not set(map(type, to_glyph.values())) <= {int} \
            or not set(map(type, widths)) <= {int} or not set(map(type, widths.values())) <= {int, float} \
            or not set(map(type, state["glyphToChar"].values())) <= {list} \
            or not set(map(type, state["glyphPos"])) <= {int} or not set(map(type, state["hmetrics"])) <= {tuple}:
        raise BadEntry("a parsed face's maps are not numbers")
    return state
