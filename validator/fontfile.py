"""Read a stranger's TrueType font the way ReportLab will, in bounded time and memory, refusing first.

ReportLab's TTFontFile, which embeds the font in every PDF, expands the whole character map into
dicts and reads tables without bounds checks: a 728-byte font whose one cmap group maps 2³² code
points made a build allocate 6 GB, and a font cut short makes it raise struct.error. So the bytes
are read here first, with struct: the table directory, every header ReportLab reads, the cmap
subtables' ranges (counted from their headers before anything is expanded), the character map
ReportLab would pick (picked as it picks), the horizontal metrics, the loca offsets and every
composite glyph's references. Whatever would make ReportLab raise, or go on without bound, is a
FontFileError, and so is a font whose licence (OS/2 fsType) forbids embedding it; what passes,
ReportLab reads without error, and the widths measured here are the ones it draws with.

The validator never imports ReportLab: this mirrors reportlab/pdfbase/ttfonts.py (TTFontFile's
extractInfo and makeSubset), and tests/validator/test_fontfile.py holds the two together.
"""
from __future__ import annotations

import bisect
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .limits import MAX_FONT_CODE_POINTS, MAX_FONT_GLYPHS

_REQUIRED = ("glyf", "cmap", "hmtx", "head", "hhea", "loca", "maxp", "name", "post")
_USED_FORMATS = (0, 4, 12, 13)        # character maps ReportLab reads as Unicode; it misreads 6 and 10
_MORE_COMPONENTS, _WORDS, _SCALE, _XY_SCALE, _TWO_BY_TWO = 1 << 5, 1 << 0, 1 << 3, 1 << 6, 1 << 7
_PS_NAME_FORBIDDEN = frozenset(b" [](){}<>/%")
_Tables = dict[str, tuple[int, int]]  # tag -> (offset, length)
# cmap subtable formats a reader expands: (fixed header bytes, offset of the item count, bytes per item).
# Format 0 reads `length - 6` glyph bytes; format 4 counts segCountX2 and has four words per segment.
_LAYOUT = {0: (6, 2, 1), 4: (16, 6, 8), 6: (10, 8, 2), 8: (8208, 8204, 12), 10: (20, 16, 2),
           12: (16, 12, 12), 13: (16, 12, 12)}


class FontFileError(ValueError):
    """Why the font cannot be read or embedded, in a few words; the caller names the file."""


@dataclass(frozen=True)
class FontFile:
    """What measuring and embedding need from a font, in font units."""

    units_per_em: int
    ascent: int
    descent: int
    glyphs: int
    fs_type: int
    code_points: int  # summed over every cmap subtable's ranges: what a reader would expand
    advances: Mapping[int, int] = field(repr=False)  # code point -> advance; codes mapped to glyph 0 left out
    notdef_advance: int = 0


def read_font(data: bytes) -> FontFile:
    """The font in `data`, or FontFileError saying what ReportLab would trip on or what exceeds the limits."""
    try:
        return _read(data)
    except struct.error:  # every read is bounds-checked first; this net turns a missed one into a refusal
        raise FontFileError("not a readable TrueType font (cut short or damaged)") from None


def _read(data: bytes) -> FontFile:
    tables = _directory(data)
    head = _table(data, tables, "head", 54)
    if _u16(data, head) != 1:
        raise FontFileError(f"its 'head' table is version {_u16(data, head)}, not 1")
    if _u32(data, head + 12) != 0x5F0F3CF5:
        raise FontFileError("its 'head' table lacks the TrueType magic number 0x5F0F3CF5 (damaged)")
    units, loca_format, glyph_format = _u16(data, head + 18), _u16(data, head + 50), _u16(data, head + 52)
    if not 16 <= units <= 16384:
        raise FontFileError(f"its unitsPerEm is {units}, outside 16–16384")
    if loca_format not in (0, 1) or glyph_format != 0:
        raise FontFileError(f"its 'head' table names loca format {loca_format} and glyph format {glyph_format}; "
                            "TrueType has loca 0 or 1 and glyph 0")
    glyphs = _glyph_count(data, tables)
    metrics_count, ascent, descent = _hhea(data, tables)
    fs_type = _licence(data, tables)
    _post(data, tables)
    _postscript_name(data, tables)
    subtables, chosen = _cmap_subtables(data, tables)
    code_points = sum(_code_points(data, at) for at in subtables)
    if code_points > MAX_FONT_CODE_POINTS:
        raise FontFileError(f"its character map (cmap) maps {code_points:,} code points, more than the "
                            f"{MAX_FONT_CODE_POINTS:,} a font may map")
    mapping = _mapping(data, chosen, glyphs)
    widths = _advances(data, tables, glyphs, metrics_count)
    _check_glyphs(data, tables, glyphs, loca_format)
    advances = {code: widths[glyph] for code, glyph in mapping.items() if glyph}
    for space, other in ((0x20, 0xA0), (0xA0, 0x20)):  # ReportLab draws one for the other when one is missing
        if space in mapping and other not in mapping and mapping[space]:
            advances[other] = widths[mapping[space]]
    return FontFile(units, ascent, descent, glyphs, fs_type, code_points, advances, widths[0])


def outline_boxes(data: bytes) -> Callable[[int], tuple[int, int, int, int] | None]:
    """For a font read_font accepted: code point -> the outline box (xMin, yMin, xMax, yMax in font units) of
    the glyph ReportLab draws for it, from that glyph's header; None for a code the font does not map or a
    glyph without outline (a space). The character map's segments and the loca offsets are read once."""
    tables = _directory(data)
    try:
        loca_format = _u16(data, tables["head"][0] + 50)
        glyphs = _glyph_count(data, tables)
        _, chosen = _cmap_subtables(data, tables)
        raw = struct.unpack_from(f">{glyphs + 1}{'L' if loca_format else 'H'}", data, tables["loca"][0])
    except (KeyError, struct.error):  # a deck's font is untrusted: a table missing or cut short
        raise FontFileError("its glyph tables (head, loca, glyf) are missing or cut short") from None
    offsets = raw if loca_format else tuple(2 * o for o in raw)
    glyf, glyf_length = tables["glyf"] if "glyf" in tables else (0, 0)
    glyph_of = _glyph_lookup(data, chosen, glyphs)

    def box(code: int) -> tuple[int, int, int, int] | None:
        try:
            glyph = glyph_of(code)
        except (IndexError, struct.error):
            return None  # a character map pointing past its table: no ink known
        if not glyph or glyph >= glyphs or offsets[glyph + 1] == offsets[glyph]:
            return None
        if offsets[glyph] + 10 > glyf_length or glyf + offsets[glyph] + 10 > len(data):
            return None  # the glyph's header lies outside the glyf table: no ink known
        _, x_min, y_min, x_max, y_max = struct.unpack_from(">hhhhh", data, glyf + offsets[glyph])
        return x_min, y_min, x_max, y_max

    return box


def _glyph_lookup(data: bytes, at: int, glyphs: int) -> Callable[[int], int]:
    """One code point's glyph id in the subtable at `at`, as _mapping would give it (0 when unmapped), without
    expanding the whole map: the segment or group holding the code (the last such one winning, as there)."""
    fmt = _u16(data, at)
    if fmt == 0:
        count = min(256, glyphs, max(0, _u16(data, at + 2) - 6))
        return lambda code: data[at + 6 + code] if 0 <= code < count else 0
    if fmt == 4:
        limit = at + _u16(data, at + 2)
        segments = _segments(data, at)
        ranges_at = at + 16 + 6 * len(segments)

        def in_segment(n: int, code: int) -> int:
            start, _, delta, range_offset = segments[n]
            if range_offset == 0:
                return (code + delta) & 0xFFFF
            offset = ranges_at + 2 * n + range_offset + 2 * (code - start)
            glyph = _u16(data, offset) if offset < limit else 0
            return (glyph + delta) & 0xFFFF if glyph else 0

        return _by_range([(start, end) for start, end, _, _ in segments], in_segment)
    groups = _groups(data, at)

    def in_group(n: int, code: int) -> int:
        start, _, glyph = groups[n]
        return glyph + code - start if fmt == 12 else glyph

    return _by_range([(start, end) for start, end, _ in groups], in_group)


def _by_range(ranges: list[tuple[int, int]], glyph: Callable[[int, int], int]) -> Callable[[int], int]:
    """code -> glyph(n, code) for the last range n holding the code, else 0: a binary search when the ranges,
    ordered by their start, do not overlap (as fonts write them), else every range looked at."""
    order = sorted(range(len(ranges)), key=lambda n: ranges[n])
    starts = [ranges[n][0] for n in order]
    apart = all(ranges[a][1] < ranges[b][0] for a, b in zip(order, order[1:]))

    def lookup(code: int) -> int:
        if apart:
            k = bisect.bisect_right(starts, code) - 1
            return glyph(order[k], code) if k >= 0 and code <= ranges[order[k]][1] else 0
        for n in range(len(ranges) - 1, -1, -1):
            if ranges[n][0] <= code <= ranges[n][1]:
                return glyph(n, code)
        return 0

    return lookup


def _directory(data: bytes) -> _Tables:
    """Table tag -> (offset, length), each inside the file; the sfnt flavours fudaya cannot embed refused."""
    if len(data) < 12:
        raise FontFileError(f"not a readable TrueType font (only {len(data)} bytes)")
    version = data[:4]
    if version == b"OTTO":
        raise FontFileError("CFF (PostScript-outline) OpenType fonts cannot be embedded; use a TrueType (.ttf) font")
    if version in (b"wOFF", b"wOF2"):
        raise FontFileError(f"{'WOFF2' if version == b'wOF2' else 'WOFF'} web fonts cannot be embedded; "
                            "use a TrueType (.ttf) font")
    if version == b"ttcf":
        raise FontFileError("is a font collection (.ttc); use a single TrueType (.ttf) font")
    if version not in (b"\x00\x01\x00\x00", b"true"):
        raise FontFileError(f"not a readable TrueType font (it starts {version!r})")
    count = _u16(data, 4)
    if 12 + 16 * count > len(data):
        raise FontFileError(f"not a readable TrueType font (cut short: its directory of {count:,} tables runs past "
                            "the file's end)")
    tables: _Tables = {}
    for index in range(count):
        raw, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        try:
            tag = raw.decode("utf-8")  # as ReportLab decodes tags
        except UnicodeDecodeError:
            raise FontFileError(f"not a readable TrueType font (its table tag {raw!r} is not text)") from None
        if offset + length > len(data):
            raise FontFileError(f"not a readable TrueType font (cut short: its {tag!r} table ends at byte "
                                f"{offset + length:,}, past the file's {len(data):,})")
        tables.setdefault(tag, (offset, length))
    missing = [tag for tag in _REQUIRED if tag not in tables]
    if "glyf" in missing and ("CFF " in tables or "CFF2" in tables):
        raise FontFileError("CFF (PostScript-outline) OpenType fonts cannot be embedded; use a TrueType (.ttf) font")
    if missing:
        raise FontFileError(f"not a usable TrueType font (missing tables: {', '.join(missing)})")
    return tables


def _table(data: bytes, tables: _Tables, tag: str, minimum: int) -> int:
    """The offset of table `tag`, which must hold at least `minimum` bytes."""
    offset, length = tables[tag]
    if length < minimum:
        raise FontFileError(f"is cut short: its {tag!r} table has {length:,} bytes, fewer than the {minimum:,} "
                            "it needs")
    return offset


def _glyph_count(data: bytes, tables: _Tables) -> int:
    maxp = _table(data, tables, "maxp", 6)
    version, glyphs = _u16(data, maxp), _u16(data, maxp + 4)
    if version != 1:
        raise FontFileError("its 'maxp' table is not version 1.0 (it describes a CFF font, not TrueType outlines)")
    if not 1 <= glyphs <= MAX_FONT_GLYPHS:
        raise FontFileError(f"declares {glyphs:,} glyphs (1 to {MAX_FONT_GLYPHS:,} allowed)")
    return glyphs


def _hhea(data: bytes, tables: _Tables) -> tuple[int, int, int]:
    """numberOfHMetrics, ascender and descender."""
    hhea = _table(data, tables, "hhea", 36)
    major = _u16(data, hhea)
    ascent, descent = struct.unpack_from(">hh", data, hhea + 4)
    data_format, metrics = struct.unpack_from(">hH", data, hhea + 32)
    if major != 1 or data_format != 0 or metrics == 0:
        raise FontFileError(f"its 'hhea' table is not one TrueType readers know (version {major}, metric data "
                            f"format {data_format}, {metrics} horizontal metrics)")
    return metrics, ascent, descent


def _licence(data: bytes, tables: _Tables) -> int:
    """OS/2 fsType, refused when the licence forbids what a PDF does with the font: embed a subset of its outlines.

    fudaya's own rule, not ReportLab's: its test (ttfonts.py, `subsettingAllowed`) only refuses fonts
    named in rl_config.allowTTFSubsetting, so it embeds a restricted-licence font as readily as any.
    """
    if "OS/2" not in tables:
        return 0
    os2 = _table(data, tables, "OS/2", 72)
    version, fs_type = _u16(data, os2), _u16(data, os2 + 8)
    if version > 1:
        _table(data, tables, "OS/2", 90)
    if fs_type & 0x000F == 0x0002:
        raise FontFileError(f"its licence forbids embedding it in a PDF (OS/2 fsType 0x{fs_type:04X}: "
                            "restricted licence embedding)")
    if fs_type & 0x0200:
        raise FontFileError(f"its licence allows embedding only bitmaps, not outlines (OS/2 fsType 0x{fs_type:04X})")
    if fs_type & 0x0100:
        raise FontFileError(f"its licence forbids subsetting (OS/2 fsType 0x{fs_type:04X}), and a PDF embeds only "
                            "the glyphs it uses")
    return fs_type


def _post(data: bytes, tables: _Tables) -> None:
    post = _table(data, tables, "post", 16)
    if _u16(data, post) not in (1, 2, 3, 4):
        raise FontFileError(f"its 'post' table is version {_u16(data, post)}, not 1 to 4")


def _postscript_name(data: bytes, tables: _Tables) -> bytes:
    """The name ReportLab gives the font in the PDF, found as it finds it (IDs 6, then 4, then 1)."""
    name = _table(data, tables, "name", 6)
    name_format, count, strings = struct.unpack_from(">HHH", data, name)
    if name_format != 0:
        raise FontFileError(f"its 'name' table is format {name_format}; ReportLab reads only format 0")
    if 6 + 12 * count > tables["name"][1]:
        raise FontFileError("is cut short: its 'name' table lists more records than it holds")
    found: dict[int, bytes] = {}
    for index in range(count):
        platform, encoding, language, name_id, length, offset = struct.unpack_from(">6H", data, name + 6 + 12 * index)
        if name_id not in (1, 2, 3, 4, 6):
            continue
        raw = data[name + strings + offset:name + strings + offset + length]
        if (platform, encoding, language) == (3, 1, 0x409):
            if length % 2:
                raise FontFileError("its PostScript name is UTF-16 of odd length (damaged 'name' table)")
            text = _decoded(raw, "utf_16_be")
        elif (platform, encoding, language) == (1, 0, 0):
            text = _decoded(raw, "mac_roman")
        else:
            continue
        if text and name_id not in found:
            found[name_id] = text.encode("utf-8")
            if len(found) == 5:
                break
    ps_name = found.get(6) or found.get(4) or found.get(1)
    if not ps_name:
        raise FontFileError("has no PostScript name (name ID 6, 4 or 1) for the PDF to call it by")
    ps_name = ps_name.replace(b" ", b"-")
    bad = [c for c in ps_name if c > 126 or c in _PS_NAME_FORBIDDEN]
    if bad:
        raise FontFileError(f"its PostScript name {ps_name[:60]!r} holds {bytes(bad[:1])!r}, which a PDF font name "
                            "may not")
    return ps_name


def _decoded(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _cmap_subtables(data: bytes, tables: _Tables) -> tuple[list[int], int]:
    """Every distinct subtable's offset (in the file), and the one ReportLab would use.

    The subtables' bytes together may not exceed the table: overlapping subtables would make even
    counting their ranges cost the table's size once per subtable.
    """
    cmap, length = tables["cmap"]
    _table(data, tables, "cmap", 4)
    version, count = struct.unpack_from(">HH", data, cmap)
    if count == 0 and version != 0:  # ReportLab reads the two swapped
        count = version
    if 4 + 8 * count > length:
        raise FontFileError("is cut short: its 'cmap' table lists more subtables than it holds")
    chosen, best = None, 0
    offsets: list[int] = []
    for index in range(count):
        platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * index)
        if offset >= length:
            raise FontFileError(f"is cut short: a character map subtable starts at byte {offset:,} of a "
                                f"{length:,}-byte 'cmap' table")
        if offset not in offsets:
            offsets.append(offset)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            chosen, best = offset, 1
        elif platform == 1 and encoding == 0 and best != 1:
            chosen, best = offset, 2
    spans = sum(_span(data, cmap + offset, cmap + length) for offset in offsets)
    if spans > length:
        raise FontFileError("its character map's subtables overlap (damaged or hostile 'cmap' table)")
    if chosen is None:
        raise FontFileError("its character map has no Unicode subtable (platform 0 or 3)")
    fmt = _u16(data, cmap + chosen)
    if fmt not in _USED_FORMATS:
        raise FontFileError(f"its Unicode character map is format {fmt}; ReportLab draws from formats 0, 4, 12 and 13 "
                            "only (save the font with a format 4 or 12 map)")
    return [cmap + offset for offset in offsets], cmap + chosen


def _span(data: bytes, at: int, end: int) -> int:
    """Bytes of the subtable at `at` that counting or mapping reads; FontFileError when they pass `end`.

    (header size, where its count is, bytes per counted item) per format; format 0's count is its length.
    """
    fmt = _u16(data, at) if at + 2 <= end else -1
    if fmt not in _LAYOUT:  # 2, 14 and unknown formats: nobody expands them (ReportLab skips 14; 2 is refused)
        return 0
    fixed, count_at, each = _LAYOUT[fmt]
    _need(at, fixed, end)
    count = _u32(data, at + count_at) if fmt in (8, 10, 12, 13) else _u16(data, at + count_at)
    size = max(fixed, count) if fmt == 0 else fixed + each * (count // 2 if fmt == 4 else count)
    return _need(at, size, end)


def _u16(data: bytes, at: int) -> int:
    return int(struct.unpack_from(">H", data, at)[0])


def _u32(data: bytes, at: int) -> int:
    return int(struct.unpack_from(">L", data, at)[0])


def _need(at: int, size: int, end: int) -> int:
    if at + size > end:
        raise FontFileError("is cut short: a character map subtable runs past the 'cmap' table")
    return size


def _code_points(data: bytes, at: int) -> int:
    """How many code points the subtable's ranges cover, overlaps counted twice: what expanding it costs.
    (Its bytes were bounded by _span.)"""
    fmt = _u16(data, at)
    if fmt in (8, 12, 13):
        return sum(max(0, end - start + 1) for start, end, _ in _groups(data, at))
    if fmt == 4:
        return sum(max(0, end - start + 1) for start, end, _, _ in _segments(data, at))
    if fmt in (6, 10):
        return _u16(data, at + 8) if fmt == 6 else _u32(data, at + 16)
    return 256 if fmt == 0 else 0


def _groups(data: bytes, at: int) -> list[tuple[int, int, int]]:
    """(first code, last code, glyph) of a format 8, 12 or 13 subtable."""
    fixed, count_at, _ = _LAYOUT[_u16(data, at)]
    count = _u32(data, at + count_at)
    return list(struct.iter_unpack(">LLL", data[at + fixed:at + fixed + 12 * count]))


def _segments(data: bytes, at: int) -> list[tuple[int, int, int, int]]:
    """(first code, last code, idDelta, idRangeOffset) of a format 4 subtable's segments."""
    count = _u16(data, at + 6) // 2
    ends = struct.unpack_from(f">{count}H", data, at + 14)
    starts, deltas, ranges = (struct.unpack_from(f">{count}{kind}", data, at + 16 + 2 * count * (1 + n))
                              for n, kind in enumerate("HhH"))
    return list(zip(starts, ends, deltas, ranges))


def _mapping(data: bytes, at: int, glyphs: int) -> dict[int, int]:
    """Code point -> glyph id of the subtable at `at`, as ReportLab reads it; every glyph id must exist."""
    fmt = _u16(data, at)
    if fmt == 0:
        count = min(256, glyphs, max(0, _u16(data, at + 2) - 6))
        mapping = dict(enumerate(data[at + 6:at + 6 + count]))
    elif fmt == 4:
        mapping = _format4(data, at)
    else:
        mapping = {}
        for start, end, glyph in _groups(data, at):
            for code in range(start, end + 1):
                mapping[code] = glyph + code - start if fmt == 12 else glyph
    for code, glyph in mapping.items():
        if glyph >= glyphs:
            raise FontFileError(f"its character map sends U+{code:04X} to glyph {glyph:,}, but it has {glyphs:,} "
                                "glyphs")
    return mapping


def _format4(data: bytes, at: int) -> dict[int, int]:
    """A format 4 subtable read as ReportLab reads it: later segments win, offsets past its length give glyph 0."""
    limit = at + _u16(data, at + 2)
    segments = _segments(data, at)
    ranges_at = at + 16 + 6 * len(segments)  # idRangeOffset counts from its own entry
    mapping: dict[int, int] = {}
    for n, (start, end, delta, range_offset) in enumerate(segments):
        for code in range(start, end + 1):
            if range_offset == 0:
                mapping[code] = (code + delta) & 0xFFFF
                continue
            offset = ranges_at + 2 * n + range_offset + 2 * (code - start)
            if offset >= limit:
                mapping[code] = 0
                continue
            if offset + 2 > len(data):
                raise FontFileError("is cut short: its character map points past the file's end")
            glyph = _u16(data, offset)
            mapping[code] = (glyph + delta) & 0xFFFF if glyph else 0
    return mapping


def _advances(data: bytes, tables: _Tables, glyphs: int, metrics: int) -> list[int]:
    """Advance width of every glyph id below max(glyphs, metrics); glyphs past the metrics take the last one."""
    hmtx, length = tables["hmtx"]
    if length < 4 * metrics + 2 * max(0, glyphs - metrics):
        held = length // 4 if length < 4 * metrics else metrics + (length - 4 * metrics) // 2
        raise FontFileError(f"declares {max(glyphs, metrics):,} glyphs but its 'hmtx' table holds metrics for "
                            f"{held:,}")
    widths = [width for width, _ in struct.iter_unpack(">Hh", data[hmtx:hmtx + 4 * metrics])]
    return widths + [widths[-1]] * max(0, glyphs - metrics)


def _check_glyphs(data: bytes, tables: _Tables, glyphs: int, loca_format: int) -> None:
    """loca holds an offset for every glyph, in order, inside glyf; composite glyphs name existing glyphs."""
    size = 4 if loca_format else 2
    loca, length = tables["loca"]
    if length < size * (glyphs + 1):
        raise FontFileError(f"declares {glyphs:,} glyphs but its 'loca' table holds offsets for "
                            f"{max(0, length // size - 1):,}")
    raw = struct.unpack_from(f">{glyphs + 1}{'L' if loca_format else 'H'}", data, loca)
    offsets = raw if loca_format else tuple(2 * o for o in raw)
    glyf, glyf_length = tables["glyf"]
    if offsets[-1] > glyf_length:
        raise FontFileError(f"is cut short: its glyphs end at byte {offsets[-1]:,} of a {glyf_length:,}-byte "
                            "'glyf' table")
    for glyph in range(glyphs):
        start, end = offsets[glyph], offsets[glyph + 1]
        if end == start:
            continue
        if not start + 10 <= end <= glyf_length:
            raise FontFileError(f"its glyph {glyph} is damaged (its 'loca' offsets run backwards, past the 'glyf' "
                                f"table or leave it {end - start} bytes)")
        if struct.unpack_from(">h", data, glyf + start)[0] < 0:
            _check_composite(data, glyf + start, glyf + end, glyph, glyphs)


def _check_composite(data: bytes, at: int, end: int, glyph: int, glyphs: int) -> None:
    """Each component's flags and glyph id lie inside the glyph and name an existing glyph (as makeSubset reads)."""
    at += 10
    flags = _MORE_COMPONENTS
    while flags & _MORE_COMPONENTS:
        if at + 4 > end:
            raise FontFileError(f"its glyph {glyph} is damaged (a composite whose parts run past its end)")
        flags, part = struct.unpack_from(">HH", data, at)
        if part >= glyphs:
            raise FontFileError(f"its glyph {glyph} is built from glyph {part:,}, but it has {glyphs:,} glyphs")
        at += 4 + (4 if flags & _WORDS else 2)
        at += 2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0


__all__ = ["FontFile", "FontFileError", "read_font"]
