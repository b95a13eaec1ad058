"""generator/face_cache.py: a TrueType font made from ReportLab's parse kept in the cache is the font ReportLab
makes itself: every attribute equal, the same widths, and a page drawn with it the same PDF, byte for byte."""
from __future__ import annotations

import io
import marshal
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFNameBytes, TTFont
from reportlab.pdfgen.canvas import Canvas

from generator import face_cache
from validator import cache
from validator.paths import FONTS_DIR

SHIPPED = sorted(FONTS_DIR.glob("*.ttf"))
TEXT = "五行 Gogyō 木火土金水 ruby《るび》 ０１２ \u00a0 \U0001f600"  # kana, kanji, Latin, full-width, NBSP, no glyph


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def _page(font: TTFont) -> bytes:
    """One page of TEXT in `font`, registered for the drawing only under a face name no other test uses."""
    font.face.name = TTFNameBytes(b"FudayaFaceCacheTest")
    pdfmetrics.registerFont(font)
    try:
        out = io.BytesIO()
        canvas = Canvas(out, invariant=1, initialFontName=font.fontName)
        canvas.setFont(font.fontName, 9)
        canvas.drawString(20, 700, TEXT)
        canvas.drawRightString(500, 600, TEXT[::-1])
        canvas.save()
        return out.getvalue()
    finally:
        font.unregister()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_font_from_the_cache_is_the_font_reportlab_parses(path: Path, cache_dir: Path) -> None:
    data = path.read_bytes()
    fresh = TTFont("FaceCacheTest", io.BytesIO(data))
    missed = face_cache.cached_ttfont("FaceCacheTest", data)  # parsed, then kept
    assert cache.entry_path(face_cache.KIND, cache.sha256_key(data)).is_file()
    hit = face_cache.cached_ttfont("FaceCacheTest", data)  # from the entry
    for font in (missed, hit):
        assert vars(font).keys() == vars(fresh).keys()
        assert {k: v for k, v in vars(font).items() if k not in ("face", "state", "encoding")} == \
            {k: v for k, v in vars(fresh).items() if k not in ("face", "state", "encoding")}
        face, parsed = vars(font.face), vars(fresh.face)
        assert face.keys() == parsed.keys()
        assert {k: v for k, v in face.items() if k != "_pdfScale"} == \
            {k: v for k, v in parsed.items() if k != "_pdfScale"}
        assert {k: type(v) for k, v in face.items()} == {k: type(v) for k, v in parsed.items()}
        names = [k for k, v in parsed.items() if isinstance(v, TTFNameBytes)]
        assert "name" in names and all(face[k].ustr == parsed[k].ustr for k in names)
        assert [face["_pdfScale"](v) for v in (0, 1, 777, -5, 2048)] == [parsed["_pdfScale"](v) for v in
                                                                          (0, 1, 777, -5, 2048)]
        assert font.stringWidth(TEXT, 9) == fresh.stringWidth(TEXT, 9)
    assert _page(hit) == _page(TTFont("FaceCacheTest", io.BytesIO(data)))  # subset, widths, names: all the same


def test_a_face_entry_of_the_wrong_shape_is_parsed_again(cache_dir: Path) -> None:
    data = SHIPPED[0].read_bytes()
    face_cache.cached_ttfont("FaceCacheTest", data)
    entry = cache.entry_path(face_cache.KIND, cache.sha256_key(data))
    good = entry.read_bytes()
    state, names = face_cache._encode(face_cache._parsed(data))
    for broken in ({**state, "numGlyphs": state["numGlyphs"] + 1}, {**state, "charToGlyph": {"a": 1}},
                   {**state, "hmetrics": state["hmetrics"][:-1]}, {k: v for k, v in state.items() if k != "glyphPos"}):
        cache._write(face_cache.KIND, cache.sha256_key(data), face_cache._stamp(), marshal.dumps((broken, names)))
        font = face_cache.cached_ttfont("FaceCacheTest", data)
        assert font.face.numGlyphs == state["numGlyphs"] and entry.read_bytes() == good
