"""Tests for validator.typeset against the real BIZ UD fonts shipped in fonts/."""
from __future__ import annotations

from pathlib import Path

import pytest

from validator.compose import FREE, NO_END, NO_START, break_classes, squeezed
from validator.geometry import mm_to_pt
from validator.typeset import (
    FontError,
    FontMetrics,
    TextLayout,
    break_lines,
    fit_text,
    load_metrics,
)

FONTS = Path(__file__).resolve().parents[2] / "fonts"
GOTHIC = FONTS / "BIZUDGothic-Regular.ttf"

SENTENCE = (
    "「吾輩は猫である。」名前はまだ無い。どこで生れたかとんと見当がつかぬ。"
    "何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。"
    "吾輩はここで始めて人間というものを見た、しかもあとで聞くとそれは書生という"
    "人間中で一番獰悪な種族であったそうだ。『カード』を２枚引き、手札を１枚捨てる。"
)


@pytest.fixture(scope="module")
def gothic() -> FontMetrics:
    return load_metrics(GOTHIC)


# --- metrics -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["BIZUDGothic-Regular.ttf", "BIZUDGothic-Bold.ttf", "BIZUDMincho-Regular.ttf"])
def test_kanji_is_one_em_and_latin_narrower(name: str) -> None:
    m = load_metrics(FONTS / name)
    assert m.advance("漢") == 1.0
    assert m.advance("あ") == 1.0
    assert 0 < m.advance("A") < m.advance("漢")
    assert m.units_per_em == 2048
    assert 0 < m.descent < m.ascent < 1.5


def test_text_width_scales_linearly(gothic: FontMetrics) -> None:
    text = "カードをDraw 2枚"
    w10 = gothic.text_width(text, 10)
    assert w10 > 0
    assert gothic.text_width(text, 20) == pytest.approx(2 * w10)
    assert gothic.text_width(text, 7.5) == pytest.approx(0.75 * w10)
    assert gothic.text_width("漢字", 12) == pytest.approx(24.0)


def test_missing_glyphs(gothic: FontMetrics) -> None:
    absent = "🀄"
    assert not gothic.has_glyph(absent), "test premise: the font lacks this emoji"
    assert gothic.has_glyph("夏")
    assert gothic.missing_glyphs("夏殷周") == []
    assert gothic.missing_glyphs("夏\n殷\n") == []
    assert gothic.missing_glyphs(f"夏{absent}殷{absent}") == [absent]
    # a missing glyph is measured as the .notdef glyph the PDF would show
    assert gothic.advance(absent) == gothic.notdef_advance > 0


def test_load_metrics_is_cached(gothic: FontMetrics) -> None:
    assert load_metrics(GOTHIC) is gothic
    assert load_metrics(str(GOTHIC)) is gothic
    assert load_metrics(GOTHIC.parent / ".." / "fonts" / GOTHIC.name) is gothic


def test_garbage_file_is_font_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.ttf"
    bad.write_bytes(b"this is not a font at all" * 10)
    with pytest.raises(FontError) as info:
        load_metrics(bad)
    assert info.value.path == bad.resolve()
    assert str(bad.resolve()) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_missing_file_is_font_error(tmp_path: Path) -> None:
    with pytest.raises(FontError):
        load_metrics(tmp_path / "nope.ttf")


def test_cff_font_is_rejected(tmp_path: Path) -> None:
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((100, 0))
    pen.lineTo((0, 100))
    pen.closePath()
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder([".notdef", "A"])
    fb.setupCharacterMap({65: "A"})
    fb.setupCFF("Test", {"FullName": "Test"}, {".notdef": pen.getCharString(), "A": pen.getCharString()}, {})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "A": (500, 0)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Test", "styleName": "Regular"})
    fb.setupOS2()
    fb.setupPost()
    otf = tmp_path / "test.otf"
    fb.save(otf)
    with pytest.raises(FontError, match="CFF"):
        load_metrics(otf)


# --- break_lines -------------------------------------------------------------


@pytest.mark.parametrize("width", range(30, 201, 7))
def test_break_lines_properties(gothic: FontMetrics, width: int) -> None:
    size = 10
    lines = break_lines(SENTENCE, gothic, size, width)
    assert "".join(lines) == SENTENCE
    for n, line in enumerate(lines):
        assert line
        assert gothic.text_width(line, size) <= width + 1e-6 or len(line) == 1
        if n > 0:
            assert line[0] not in "。、」』", lines
            assert line[0] not in NO_START, lines
        if n < len(lines) - 1:
            assert line[-1] not in NO_END, lines
    # greedy: the line could not have run on to the next allowed break (the line before the last
    # excepted: it may have given characters to a short last line)
    classes, start = break_classes(SENTENCE), 0
    for line, nxt in list(zip(lines, lines[1:]))[:-1]:
        start += len(line)
        run = next((k for k in range(1, len(nxt)) if classes[start + k] == FREE), len(nxt))
        assert gothic.text_width(line + nxt[:run], size) > width, (line, nxt)


def test_kinsoku_push_out(gothic: FontMetrics) -> None:
    four = 4 * 10.0  # four full-width chars at 10 pt
    assert break_lines("あいうえおかき。", gothic, 10, four) == ["あいうえ", "おかき。"]
    assert break_lines("あいうえおか「き」", gothic, 10, four) == ["あいうえ", "おか", "「き」"]
    # え。 would be a one-character last line: the line above gives it う
    assert break_lines("あいうえ。", gothic, 10, four) == ["あい", "うえ。"]
    # pushing out would empty the line: the violation is accepted rather than overflowing
    assert break_lines("あ。", gothic, 10, 10) == ["あ", "。"]


def test_explicit_newlines(gothic: FontMetrics) -> None:
    assert break_lines("夏\n殷周", gothic, 10, 500) == ["夏", "殷周"]
    assert break_lines("夏\n\n殷", gothic, 10, 500) == ["夏", "", "殷"]
    assert break_lines("", gothic, 10, 500) == []


def test_latin_breaks_at_spaces_only(gothic: FontMetrics) -> None:
    text = "Draw two cards, then discard one card of your choice."
    words = text.split()
    for width in (40, 60, 90, 150):
        lines = break_lines(text, gothic, 10, width)
        assert " ".join(lines) == text
        for line in lines:
            assert line == line.strip(" ")
            assert all(w in words for w in line.split(" "))
            assert gothic.text_width(line, 10) <= width


def test_overlong_word_is_split_as_last_resort(gothic: FontMetrics) -> None:
    word = "Supercalifragilisticexpialidocious"
    lines = break_lines(f"a {word}", gothic, 10, 50)
    assert lines[0] == "a"
    assert "".join(lines[1:]) == word
    assert all(gothic.text_width(line, 10) <= 50 for line in lines)


def test_mixed_japanese_and_latin(gothic: FontMetrics) -> None:
    lines = break_lines("カードを2枚引く。Then discard 1 card。", gothic, 10, 60)
    assert "".join(lines).replace(" ", "") == "カードを2枚引く。Thendiscard1card。"
    assert all(not line.startswith(" ") and not line.endswith(" ") for line in lines)


# --- fit_text ----------------------------------------------------------------


def test_fit_text_keeps_requested_size_when_it_fits(gothic: FontMetrics) -> None:
    layout = fit_text("カードを引く", gothic, width=100, height=20, size=10, min_size=6)
    assert layout == TextLayout(10, ("カードを引く",), 12.0, (60.0,))


def test_fit_text_shrinks(gothic: FontMetrics) -> None:
    layout = fit_text(SENTENCE, gothic, width=80, height=100, size=12, min_size=5)
    assert layout is not None
    assert 5 <= layout.size < 12
    assert ((12 - layout.size) / 0.25).is_integer()
    assert max(layout.line_widths) <= 80
    assert layout.size + (len(layout.lines) - 1) * layout.leading <= 100
    assert layout.leading == pytest.approx(layout.size * 1.2)
    assert "".join(layout.lines) == SENTENCE
    # the next larger size would not have fitted
    assert fit_text(SENTENCE, gothic, width=80, height=100, size=layout.size + 0.25) is None


def test_fit_text_none_when_min_size_does_not_fit(gothic: FontMetrics) -> None:
    assert fit_text(SENTENCE, gothic, width=30, height=20, size=12, min_size=8) is None
    assert fit_text(SENTENCE, gothic, width=80, height=100, size=12) is None  # no min_size: only 12 tried


def test_fit_text_without_wrap(gothic: FontMetrics) -> None:
    assert fit_text("あいうえお", gothic, width=40, height=100, size=10, wrap=False) is None
    layout = fit_text("あいうえお\nかき", gothic, width=40, height=100, size=10, min_size=4, wrap=False)
    assert layout is not None
    assert layout.lines == ("あいうえお", "かき")
    assert layout.size == 8.0


def test_fit_text_vertical(gothic: FontMetrics) -> None:
    layout = fit_text(SENTENCE, gothic, width=60, height=120, size=10, min_size=5, vertical=True)
    assert layout is not None
    assert all(h <= 120 for h in layout.line_widths)
    cells = [squeezed(col, [1.0] * len(col), [1.0] * len(col)) for col in layout.lines]  # 。」 set solid
    assert layout.line_widths == tuple(layout.size * (sum(c.cells) + c.trail.get(len(col), 0.0) if c else len(col))
                                       for c, col in zip(cells, layout.lines))
    assert any(cells)  # the sentence has marks side by side
    assert layout.size + (len(layout.lines) - 1) * layout.leading <= 60
    for col in layout.lines[1:]:
        assert col[0] not in NO_START
    # BIZ UD maps vertical forms only through GSUB 'vert', not cmap: punctuation stays as is
    assert not gothic.has_glyph("︑")
    assert "、" in "".join(layout.lines)


@pytest.mark.parametrize("vertical", [False, True])
def test_fit_text_justified_lines_fill_the_box(gothic: FontMetrics, vertical: bool) -> None:
    """Every line but a paragraph's last runs from one side of the box to the other (to 0.1 mm);
    vertical columns from the top to the bottom."""
    text = SENTENCE[:60] + "\n" + SENTENCE[60:]
    width, height = (60.0, 150.0) if vertical else (150.0, 100.0)
    layout = fit_text(text, gothic, width=width, height=height, size=10, min_size=5, vertical=vertical,
                      justified=True)
    plain = fit_text(text, gothic, width=width, height=height, size=10, min_size=5, vertical=vertical)
    assert layout is not None and plain is not None
    assert (layout.size, layout.lines, layout.line_widths) == (plain.size, plain.lines, plain.line_widths)
    assert plain.spacing == ()
    measure = height if vertical else width
    last = {len(layout.lines) - 1, next(n for n, line in enumerate(layout.lines) if line.endswith(SENTENCE[59]))}
    for n, (line, natural, spacing) in enumerate(zip(layout.lines, layout.line_widths, layout.spacing)):
        if n in last:
            assert spacing == ()  # a paragraph's last line stays as set
        else:
            assert len(spacing) == len(line)
            assert abs(natural + sum(spacing) - measure) < mm_to_pt(0.1)
    assert len(last) == 2 and len(layout.lines) >= 4


def test_vertical_forms_used_when_font_has_them() -> None:
    chars = "あいうえお、。「」︑︒﹁﹂"
    fake = FontMetrics(Path("fake.ttf"), 1000, 0.88, 0.12, {ord(c): 1.0 for c in chars})
    layout = fit_text("「あい、うえ。」", fake, width=100, height=100, size=10, vertical=True)
    assert layout is not None
    assert layout.lines == ("﹁あい︑うえ︒﹂",)
    layout = fit_text("あい、う", fake, width=100, height=20, size=10, vertical=True)
    assert layout is not None
    assert layout.lines == ("あ", "い︑", "う")  # ︑ may not start a column: い is pushed out with it
