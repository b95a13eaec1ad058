"""Vertical text draws the font's own vertical glyphs (its `vert` feature) through a twin font whose cmap
reaches them; a font without them falls back; and two fonts with one PostScript name never draw as one."""
from __future__ import annotations

import io
from pathlib import Path

import pypdfium2 as pdfium
from fontTools.ttLib import TTFont as FontToolsFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from generator.pdfdoc import register_font, register_font_bytes
from generator.vertical_font import vertical_font
from tests.support.hostile_fonts import tiny_font
from validator.paths import FONTS_DIR

GOTHIC = FONTS_DIR / "BIZUDGothic-Regular.ttf"
SIZE = 100.0  # pt: one cell a character, large enough to read the ink's place in it


def _vert_glyph(char: str) -> str:
    """What the font's own GSUB `vert` feature turns `char`'s glyph into."""
    font = FontToolsFont(GOTHIC, lazy=True)
    glyph = font.getBestCmap()[ord(char)]
    gsub = font["GSUB"].table
    for record in gsub.FeatureList.FeatureRecord:
        if record.FeatureTag == "vert":
            for index in record.Feature.LookupListIndex:
                lookup = gsub.LookupList.Lookup[index]
                for table in lookup.SubTable:
                    table = table.ExtSubTable if lookup.LookupType == 7 else table
                    if glyph in getattr(table, "mapping", {}):
                        return str(table.mapping[glyph])
    raise AssertionError(f"no vert glyph for {char}")


def test_each_stand_in_draws_the_glyph_the_vert_feature_names() -> None:
    twin = vertical_font(GOTHIC, register_font(GOTHIC))
    assert twin is not None
    for char in "ょッー、。「〜":
        face = pdfmetrics.getFont(twin.name).face
        stand_in = twin.stand_ins[char]
        assert 0xE000 <= ord(stand_in) < 0xF900
        glyph_order = FontToolsFont(GOTHIC, lazy=True).getGlyphOrder()
        assert glyph_order[face.charToGlyph[ord(stand_in)]] == _vert_glyph(char)
    assert twin.stand_ins["︑"] == twin.stand_ins["、"]  # the presentation form the measured text holds


def _ink_centre(pdf: bytes, cell_left: float) -> tuple[float, float]:
    """Centre of the ink in the one-em cell at `cell_left` (pt), as fractions of the cell from its top-left."""
    page = pdfium.PdfDocument(pdf)[0]
    image = page.render(scale=1).to_pil().convert("L")
    cell = image.crop((int(cell_left), 0, int(cell_left + SIZE), int(SIZE)))
    dark = [(x, y) for x in range(cell.width) for y in range(cell.height) if cell.getpixel((x, y)) < 128]
    assert dark
    return sum(x for x, _ in dark) / len(dark) / SIZE, sum(y for _, y in dark) / len(dark) / SIZE


def test_small_kana_and_comma_move_up_and_right_in_a_vertical_cell() -> None:
    name = register_font(GOTHIC)
    twin = vertical_font(GOTHIC, name)
    assert twin is not None
    for char in "ょ、":
        out = io.BytesIO()
        canvas = Canvas(out, pagesize=(2 * SIZE, SIZE), initialFontName=name, invariant=1)
        baseline = SIZE * 0.88  # BIZ UD's em box: ascender 0.88 em above the baseline
        canvas.setFont(name, SIZE)
        canvas.drawString(0, SIZE - baseline, char)  # the horizontal glyph, in the left cell
        canvas.setFont(twin.name, SIZE)
        canvas.drawString(SIZE, SIZE - baseline, twin.stand_ins[char])  # the vertical one, in the right cell
        canvas.save()
        (hx, hy), (vx, vy) = _ink_centre(out.getvalue(), 0), _ink_centre(out.getvalue(), SIZE)
        assert vy < hy - 0.05 and vx > hx + 0.05, (char, hx, hy, vx, vy)  # moved up and to the right
        assert vx > 0.5, char  # into the cell's right half, where vertical type puts it


def test_a_font_without_vertical_glyphs_has_no_twin(tmp_path: Path) -> None:
    path = tmp_path / "tiny.ttf"
    path.write_bytes(tiny_font("しょ"))  # GSUB dropped
    assert vertical_font(path, register_font(path)) is None


def test_two_fonts_calling_themselves_the_same_draw_each_its_own_glyphs(tmp_path: Path) -> None:
    """ReportLab keeps one font per PostScript name: the second file would have drawn with the first."""
    first, second = tmp_path / "a.ttf", tmp_path / "b.ttf"
    first.write_bytes(tiny_font("甲"))
    second.write_bytes(tiny_font("乙"))  # same PostScript name (BIZUDGothic-Regular), other glyphs
    names = register_font(first), register_font(second)
    fonts = [pdfmetrics.getFont(name) for name in names]
    assert fonts[0] is not fonts[1] and fonts[0].face.name != fonts[1].face.name
    assert ord("乙") in fonts[1].face.charToGlyph and ord("乙") not in fonts[0].face.charToGlyph


def test_a_damaged_layout_table_falls_back_without_a_traceback(tmp_path: Path) -> None:
    data = bytearray(GOTHIC.read_bytes())
    for n in range(int.from_bytes(data[4:6], "big")):  # the table directory: find GSUB and garble its start
        record = 12 + 16 * n
        if data[record:record + 4] == b"GSUB":
            offset = int.from_bytes(data[record + 8:record + 12], "big")
            data[offset:offset + 64] = b"\xff" * 64
    path = tmp_path / "damaged.ttf"
    path.write_bytes(bytes(data))
    name = "damaged-gsub"
    register_font_bytes(name, bytes(data))  # the horizontal font itself is fine
    assert vertical_font(path, name) is None
