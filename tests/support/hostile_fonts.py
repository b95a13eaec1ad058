"""Test support: small TrueType fonts cut from the shipped BIZ UD Gothic, and hostile edits of them.

`tiny_font` subsets the real font to a few glyphs (fontTools.subset), so every hostile font starts
from a valid one and differs from it in exactly one way: a character map with one huge range, a
licence that forbids embedding, more glyphs declared than its tables hold, a file cut short. The
edits rebuild the sfnt with struct, as a stranger's tool would write it.
"""
from __future__ import annotations

import functools
import io
import struct

from validator.paths import FONTS_DIR

GOTHIC = FONTS_DIR / "BIZUDGothic-Regular.ttf"
TABLES = ("OS/2", "cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "name", "post")


@functools.cache
def tiny_font(text: str = "札") -> bytes:
    """BIZ UD Gothic cut down to .notdef and the glyphs of `text`, no hinting, only the tables a PDF needs."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.hinting = False
    options.layout_features = []
    options.notdef_outline = True
    options.name_IDs = [1, 2, 6]  # family, style, PostScript name: what a PDF and ReportLab read
    options.drop_tables += ["DSIG", "GSUB", "GPOS", "gasp", "meta", "vhea", "vmtx", "cvt ", "fpgm", "prep"]
    font = TTFont(GOTHIC)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in text])
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def tables(data: bytes) -> dict[str, bytes]:
    """The tables of an sfnt by tag (the font's own bytes, as its directory gives them)."""
    count = struct.unpack_from(">H", data, 4)[0]
    found = {}
    for index in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        found[tag.decode("latin-1")] = data[offset:offset + length]
    return found


def sfnt(by_tag: dict[str, bytes], version: int = 0x00010000) -> bytes:
    """An sfnt file of these tables: directory sorted by tag, tables 4-byte aligned, checksums set."""
    count = len(by_tag)
    power = 1 << (count.bit_length() - 1)
    header = struct.pack(">LHHHH", version, count, power * 16, power.bit_length() - 1, count * 16 - power * 16)
    offset = 12 + 16 * count
    directory, body = b"", b""
    for tag in sorted(by_tag):
        table = by_tag[tag]
        padded = table + b"\0" * (-len(table) % 4)
        checksum = sum(struct.unpack(f">{len(padded) // 4}L", padded)) & 0xFFFFFFFF
        directory += struct.pack(">4sLLL", tag.encode("latin-1"), checksum, offset + len(body), len(table))
        body += padded
    return header + directory + body


def with_table(data: bytes, tag: str, table: bytes) -> bytes:
    return sfnt({**tables(data), tag: table})


def cmap_groups(fmt: int, groups: list[tuple[int, int, int]], *, platform: int = 3, encoding: int = 10) -> bytes:
    """A cmap table of one format 12 or 13 subtable: (first code, last code, glyph) groups."""
    body = b"".join(struct.pack(">LLL", *group) for group in groups)
    subtable = struct.pack(">HHLLL", fmt, 0, 16 + len(body), 0, len(groups)) + body
    return struct.pack(">HHHHL", 0, 1, platform, encoding, 12) + subtable


def cmap_format4(segments: list[tuple[int, int, int]]) -> bytes:
    """A cmap table of one (3, 1) format 4 subtable: (first, last, idDelta) segments, 0xFFFF end added."""
    segments = [*segments, (0xFFFF, 0xFFFF, 1)]
    count = len(segments)
    ends = struct.pack(f">{count}H", *(s[1] for s in segments))
    starts = struct.pack(f">{count}H", *(s[0] for s in segments))
    deltas = struct.pack(f">{count}h", *(((s[2] + 0x8000) % 0x10000) - 0x8000 for s in segments))
    offsets = b"\0\0" * count
    body = ends + b"\0\0" + starts + deltas + offsets
    subtable = struct.pack(">HHHHHHH", 4, 14 + len(body), 0, 2 * count, 0, 0, 0) + body
    return struct.pack(">HHHHL", 0, 1, 3, 1, 12) + subtable


def huge_cmap(fmt: int = 13, last: int = 0x10FFFF) -> bytes:
    """The tiny font with every code point up to `last` mapped (format 13: all to its one glyph; a
    format 12 group maps them to successive glyph ids)."""
    return with_table(tiny_font(), "cmap", cmap_groups(fmt, [(0, last, 1)]))


def with_fs_type(data: bytes, fs_type: int) -> bytes:
    """The font with OS/2 fsType (its embedding licence) set: 0x0002 forbids embedding."""
    os2 = bytearray(tables(data)["OS/2"])
    struct.pack_into(">H", os2, 8, fs_type)
    return with_table(data, "OS/2", bytes(os2))


def with_num_glyphs(data: bytes, count: int) -> bytes:
    """The font claiming `count` glyphs in maxp, its loca and hmtx tables unchanged."""
    maxp = bytearray(tables(data)["maxp"])
    struct.pack_into(">H", maxp, 4, count)
    return with_table(data, "maxp", bytes(maxp))


def full_font_with_fs_type(fs_type: int) -> bytes:
    """All of BIZ UD Gothic (so every text checks) with its licence bits set to `fs_type`."""
    return with_fs_type(GOTHIC.read_bytes(), fs_type)




@functools.cache
def composite_font() -> bytes:
    """A three-glyph TrueType font whose 'B' is a composite of its 'A' (the shipped fonts have no composites)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def triangle() -> object:
        pen = TTGlyphPen(None)
        pen.moveTo((0, 0))
        pen.lineTo((500, 0))
        pen.lineTo((250, 700))
        pen.closePath()
        return pen.glyph()

    composite = TTGlyphPen({"A": None})  # a glyph set naming the component is all the pen asks
    composite.addComponent("A", (1, 0, 0, 1, 50, 0))
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "A", "B"])
    builder.setupCharacterMap({0x41: "A", 0x42: "B"})
    builder.setupGlyf({".notdef": triangle(), "A": triangle(), "B": composite.glyph()})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "A": (600, 0), "B": (650, 50)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Hostile", "styleName": "Regular", "psName": "Hostile-Regular"})
    builder.setupOS2()
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


__all__ = ["GOTHIC", "cmap_format4", "cmap_groups", "composite_font", "full_font_with_fs_type", "huge_cmap", "sfnt",
           "tables", "tiny_font", "with_fs_type", "with_num_glyphs", "with_table"]
