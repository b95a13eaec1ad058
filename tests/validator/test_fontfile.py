"""validator/fontfile.py reads a font as ReportLab will: what it accepts, ReportLab reads, subsets and
measures the same; what would make ReportLab raise or expand without bound, it refuses first.

The validator may not import ReportLab; this test holds the two together: the shipped fonts measure
the same, and mutated small fonts (bytes changed, cut short) that read_font accepts are read and
subset by ReportLab without error and with the same widths.
"""
from __future__ import annotations

import io
import re
import struct
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.pdfbase.ttfonts import TTFontFile

from hostile_fonts import (
    cmap_format4,
    cmap_groups,
    composite_font,
    tables,
    tiny_font,
    with_num_glyphs,
    with_table,
)
from validator.fontfile import (
    FontFileError,
    _cmap_subtables,
    _directory,
    _glyph_count,
    _mapping,
    outline_boxes,
    read_font,
)
from validator.limits import MAX_FONT_CODE_POINTS
from validator.paths import FONTS_DIR

SHIPPED = sorted(FONTS_DIR.glob("*.ttf"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_shipped_fonts_measure_as_reportlab_draws_them(path: Path) -> None:
    data = path.read_bytes()
    started = time.perf_counter()
    font = read_font(data)
    assert time.perf_counter() - started < 1.0
    assert (font.glyphs, font.code_points, font.fs_type) == (13_932, 23_169, 0)  # docs/security.md quotes these
    face = TTFontFile(io.BytesIO(data))
    scale = 1000 / font.units_per_em
    drawn = {code: width for code, width in face.charWidths.items() if face.charToGlyph[code]}
    assert {code: width * scale for code, width in font.advances.items()} == pytest.approx(drawn)
    assert font.notdef_advance * scale == pytest.approx(face.defaultWidth)


def _reportlab_reads(data: bytes) -> dict[int, float]:
    """What ReportLab makes of the font: its widths, after subsetting every mapped code it would draw."""
    face = TTFontFile(io.BytesIO(data))
    codes = sorted(code for code in face.charToGlyph if code < 0x110000)
    for start in range(0, len(codes), 255):
        face.makeSubset(codes[start:start + 255])
    face.makeSubset([0x20, 0x41, 0x10FFFF])  # and codes it does not map
    return {code: width for code, width in face.charWidths.items() if face.charToGlyph[code]}


BASES = (tiny_font("iA札"), tiny_font("éÅが"), composite_font(),
         with_table(tiny_font("iA札"), "cmap", cmap_format4([(0x41, 0x41, 2 - 0x41), (0x69, 0x69, 3 - 0x69)])),
         with_table(tiny_font("iA札"), "cmap", cmap_groups(13, [(0x20, 0x7E, 1)])))


@st.composite
def mutated_fonts(draw: st.DrawFn) -> bytes:
    """A small valid font with a few bytes or words overwritten, or cut short."""
    data = bytearray(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 4))):
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["byte", "word", "cut"]))
        if action == "cut":
            del data[at:]
        elif action == "byte":
            data[at] = draw(st.integers(0, 255))
        else:
            word = draw(st.sampled_from([0, 1, 2, 0xFF, 0x100, 0x7FFF, 0xFFFF]) | st.integers(0, 0xFFFF))
            data[at:at + 2] = struct.pack(">H", word)[:len(data) - at]
    return bytes(data)


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_fonts())
def test_what_read_font_accepts_reportlab_reads_and_subsets_alike(data: bytes) -> None:
    try:
        font = read_font(data)
    except FontFileError:
        return
    drawn = _reportlab_reads(data)
    scale = 1000 / font.units_per_em
    assert {code: width * scale for code, width in font.advances.items()} == pytest.approx(drawn)


def test_ranges_are_counted_from_their_headers_before_anything_is_expanded() -> None:
    # 4,294,967,296 code points in one format 13 group: refused in microseconds, not after 6 GB
    huge = with_table(tiny_font("i"), "cmap", cmap_groups(13, [(0, 0xFFFFFFFF, 1)]))
    started = time.perf_counter()
    with pytest.raises(FontFileError, match="maps 4,294,967,296 code points"):
        read_font(huge)
    assert time.perf_counter() - started < 0.05
    at_limit = with_table(tiny_font("i"), "cmap", cmap_groups(13, [(0x20, 0x20 + MAX_FONT_CODE_POINTS - 1, 1)]))
    assert read_font(at_limit).code_points == MAX_FONT_CODE_POINTS
    over = with_table(tiny_font("i"), "cmap", cmap_groups(13, [(0x20, 0x20 + MAX_FONT_CODE_POINTS, 1)]))
    with pytest.raises(FontFileError, match="200,001 code points"):
        read_font(over)


def _format6_cmap() -> bytes:
    """A (3, 1) format 6 map, which ReportLab reads with codes and glyphs swapped."""
    return struct.pack(">HHHHL", 0, 1, 3, 1, 12) + struct.pack(">HHHHHH", 6, 12, 0, 0x41, 1, 1)


def _overlapping_cmap() -> bytes:
    """Two format 12 subtables, the second starting inside the first's groups: counting both reads bytes twice
    (a thousand such records would cost the table's size a thousand times)."""
    first = struct.pack(">HHLLL", 12, 0, 40, 0, 2) + struct.pack(">LLL", 0x000C0000, 28, 0)  # group 1 reads as
    first += struct.pack(">LLL", 1, 0x41, 1)  # a format 12 header with one group: (0x41, 1, padding)
    return struct.pack(">HHHHLHHL", 0, 2, 3, 10, 20, 0, 4, 36) + first + b"\0" * 4


@pytest.mark.parametrize(("font", "words"), [
    (with_table(tiny_font(), "cmap", cmap_groups(12, [(0x41, 0x5A, 1)])), "sends U+0042 to glyph 2, but it has 2"),
    (with_table(tiny_font(), "cmap", _format6_cmap()), "format 6"),
    (with_table(tiny_font(), "cmap", _overlapping_cmap()), "overlap"),
    (with_num_glyphs(tiny_font(), 0), "declares 0 glyphs"),
    (with_table(tiny_font(), "head", tables(tiny_font())["head"][:12] + b"\0\0\0\0" + tables(tiny_font())["head"][16:]),
     "magic number"),
    (with_table(tiny_font(), "loca", b""), "'loca' table holds offsets for 0"),
    (b"OTTO" + tiny_font()[4:], "CFF"),
    (b"wOF2" + tiny_font()[4:], "WOFF2 web fonts"),
    (b"ttcf" + tiny_font()[4:], "font collection"),
])
def test_what_reportlab_would_trip_on_is_refused(font: bytes, words: str) -> None:
    with pytest.raises(FontFileError, match=re.escape(words)):
        read_font(font)


# -- outline boxes (validator.glyph_ink: how close ink comes to a frame) ---------------------------------------
@pytest.mark.parametrize("path", sorted(FONTS_DIR.glob("*.ttf")), ids=lambda p: p.name)
def test_outline_boxes_are_the_glyf_headers_fonttools_reads(path: Path) -> None:
    from fontTools.ttLib import TTFont

    data = path.read_bytes()
    font = TTFont(io.BytesIO(data))
    cmap, glyf = font.getBestCmap(), font["glyf"]
    box = outline_boxes(data)
    codes = sorted(cmap)[::max(1, len(cmap) // 1500)] + [ord(c) for c in " 7在。♠"]
    for code in codes:
        glyph = glyf[cmap[code]]
        expected = None if glyph.numberOfContours == 0 else (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
        assert box(code) == expected, hex(code)
    assert box(0xE000) is None and box(0x10FFFF) is None  # not mapped


OVERLAPPING_GROUPS = with_table(tiny_font("iA札"), "cmap", cmap_groups(12, [(0x41, 0x43, 1), (0x42, 0x42, 2)]))


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*BASES, OVERLAPPING_GROUPS]) | mutated_fonts())
def test_one_code_is_looked_up_as_the_whole_map_reads_it(data: bytes) -> None:
    """outline_boxes finds a code's glyph without expanding the map: the glyph _mapping gives it, overlapping
    groups included (the later one wins)."""
    try:
        font = read_font(data)
    except FontFileError:
        return
    directory = _directory(data)
    mapping = _mapping(data, _cmap_subtables(data, directory)[1], _glyph_count(data, directory))
    box = outline_boxes(data)
    glyf = directory["glyf"][0]
    loca_format = struct.unpack_from(">H", data, directory["head"][0] + 50)[0]
    raw = struct.unpack_from(f">{font.glyphs + 1}{'L' if loca_format else 'H'}", data, directory["loca"][0])
    offsets = raw if loca_format else tuple(2 * o for o in raw)
    for code, glyph in list(mapping.items())[:300]:
        empty = not glyph or offsets[glyph] == offsets[glyph + 1]
        expected = None if empty else struct.unpack_from(">4h", data, glyf + offsets[glyph] + 2)
        assert box(code) == expected, hex(code)
    assert box(max(mapping, default=0) + 1) is None


def test_a_glyph_table_cut_short_gives_no_ink_and_a_missing_one_is_refused_not_a_traceback() -> None:
    """A deck's font is untrusted: loca may point past glyf, or the tables may be missing."""
    data = tiny_font("iA札")
    box = outline_boxes(data)
    assert box(ord("A")) is not None
    at = data.index(b"glyf")
    cut = data[:at + 12] + struct.pack(">L", 4) + data[at + 16:]  # glyf's length in the directory: 4 bytes
    assert outline_boxes(cut)(ord("A")) is None
    renamed = data[:at] + b"glyX" + data[at + 4:]
    with pytest.raises(FontFileError):
        outline_boxes(renamed)
