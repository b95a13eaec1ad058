"""The font's own vertical glyphs (its OpenType `vert` feature), made drawable with ReportLab.

A Japanese font draws small kana (ゃっァ), the long vowel mark ー, 、。, brackets and dashes for vertical
text as separate glyphs that only the `vert` feature reaches, and ReportLab cannot apply features: it
draws by character. So each font gets a twin whose character map also gives those glyphs private-use
code points (free ones of U+E000–U+F8FF), and vertical text draws the stand-in. The twin is the same
font file with a longer cmap (fontTools rewrites that table alone), registered once per process; a font
with no such glyphs, or one fontTools cannot read, has no twin, and vertical text falls back to turning
and moving the horizontal glyphs (elements._vertical_char).

Text read from the PDF (search, copy, screen readers) gets the characters back: the twin's ToUnicode map
sends each stand-in to the character it stands for, not to its private-use code point.
"""
from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from validator.compose import VERTICAL_FORMS
from validator.typeset import font_bytes

PRIVATE_USE = range(0xE000, 0xF900)
_SINGLE, _EXTENSION = 1, 7  # GSUB lookup types: one glyph for another; a wrapper around another lookup


@dataclass(frozen=True)
class VerticalFont:
    """A registered twin of a font: its ReportLab name, and for each character with a vertical glyph the
    private-use stand-in that draws that glyph."""

    name: str
    stand_ins: Mapping[str, str]


@cache
def vertical_font(path: Path, horizontal_name: str) -> VerticalFont | None:
    """The twin of the font at `path` (registered as `horizontal_name`), or None when it has no vertical
    glyphs or cannot be read for them."""
    from .pdfdoc import register_font_bytes

    try:
        derived = _with_stand_ins(font_bytes(path))
    except Exception:  # noqa: BLE001 - fontTools raises many types on a damaged table; the fallback draws
        return None
    if derived is None:
        return None
    data, stand_ins = derived
    name = f"{horizontal_name}-vert"
    try:
        register_font_bytes(name, data, face_suffix="-Vert")  # its own PostScript name: not taken for the font
    except Exception:  # noqa: BLE001 - ReportLab refusing the rewritten file: draw without the twin
        return None
    _read_back_as(name, {ord(stand_in): ord(char) for char, stand_in in stand_ins.items()
                         if char not in _PRESENTATION_FORMS})
    return VerticalFont(name, stand_ins)


_PRESENTATION_FORMS = frozenset(VERTICAL_FORMS.values())
_ORIGINALS: dict[str, dict[int, int]] = {}  # a twin's PostScript name -> stand-in code point -> character's


def _read_back_as(name: str, originals: dict[int, int]) -> None:
    """Have the twin's ToUnicode maps give each stand-in's character. ReportLab writes them with its module
    function makeToUnicodeCMap(subset name, code points), looked up when a PDF is saved: it is wrapped once,
    and the wrapper changes only subsets of the twins registered here."""
    from reportlab.pdfbase import pdfmetrics, ttfonts

    face = pdfmetrics.getFont(name).face.name
    _ORIGINALS[face.decode("latin-1") if isinstance(face, bytes) else str(face)] = originals
    if getattr(ttfonts.makeToUnicodeCMap, "_fudaya_originals", False):
        return
    wrapped = ttfonts.makeToUnicodeCMap

    def to_unicode(font_name: str, subset: list[int]) -> str:
        originals = _ORIGINALS.get(font_name.split("+", 1)[-1])
        return str(wrapped(font_name, [originals.get(code, code) for code in subset] if originals else subset))

    to_unicode._fudaya_originals = True  # type: ignore[attr-defined]
    ttfonts.makeToUnicodeCMap = to_unicode


def _with_stand_ins(data: bytes) -> tuple[bytes, dict[str, str]] | None:
    """The font's bytes with private-use code points for its `vert` glyphs, and char -> stand-in."""
    from fontTools.ttLib import TTFont

    reader = TTFont(io.BytesIO(data), lazy=True)
    if "GSUB" not in reader:
        return None
    cmap = reader.getBestCmap() or {}
    first_code: dict[str, int] = {}
    for code, glyph in sorted(cmap.items()):
        first_code.setdefault(glyph, code)
    vertical = _vert_substitutions(reader["GSUB"].table)
    wanted = {first_code[glyph]: alternate for glyph, alternate in vertical.items() if glyph in first_code}
    free = [code for code in PRIVATE_USE if code not in cmap]
    assigned = dict(zip(sorted(wanted), free))  # past the free code points, a character keeps its fallback
    if not assigned:
        return None
    writer = TTFont(io.BytesIO(data), lazy=True)  # only cmap is decompiled, so only cmap is rewritten
    for table in writer["cmap"].tables:
        if table.isUnicode():
            table.cmap.update({stand_in: wanted[code] for code, stand_in in assigned.items()})
    out = io.BytesIO()
    writer.save(out)
    stand_ins = {chr(code): chr(stand_in) for code, stand_in in assigned.items()}
    for horizontal, presentation in VERTICAL_FORMS.items():  # the measured text holds these forms
        if horizontal in stand_ins:
            stand_ins.setdefault(presentation, stand_ins[horizontal])
    return out.getvalue(), stand_ins


def _vert_substitutions(gsub: Any) -> dict[str, str]:
    """Glyph -> vertical glyph, from every single substitution the `vert` feature's lookups hold."""
    found: dict[str, str] = {}
    if gsub.FeatureList is None or gsub.LookupList is None:
        return found
    lookups = gsub.LookupList.Lookup
    for record in gsub.FeatureList.FeatureRecord:
        if record.FeatureTag != "vert":
            continue
        for index in record.Feature.LookupListIndex:
            if not 0 <= index < len(lookups):
                continue
            lookup = lookups[index]
            for subtable in lookup.SubTable:
                kind = lookup.LookupType
                if kind == _EXTENSION:
                    kind, subtable = subtable.ExtensionLookupType, subtable.ExtSubTable
                if kind == _SINGLE:
                    for glyph, alternate in subtable.mapping.items():
                        found.setdefault(glyph, alternate)
    return found


__all__ = ["VerticalFont", "vertical_font"]
