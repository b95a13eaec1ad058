"""Ruby read back from real PDFs with poppler's glyph boxes: over its base in horizontal text and right of
it in vertical text, touching it, centred on it, at half its size; the tategaki starter
(`fudaya new --template tategaki`) checks clean, builds, and prints its poets' readings that way."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from composedtext import TextLine, page_words
from generator.cli import app
from generator.elements import _horizontal_lines
from generator.pdfdoc import register_font
from validator.geometry import mm_to_pt
from validator.paths import FONTS_DIR
from validator.typeset import fit_text, load_metrics

GOTHIC = FONTS_DIR / "BIZUDGothic-Regular.ttf"
TOUCH = 0.3  # pt: a reading set solid on its base


@pytest.fixture(scope="module")
def tategaki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tategaki starter made, checked and built: its print-shop deck (one card a page)."""
    root = tmp_path_factory.mktemp("tategaki")
    runner = CliRunner()
    decks, output = ["--decks", str(root / "decks")], ["--output", str(root / "output")]
    made = runner.invoke(app, ["new", "karuta", "--template", "tategaki", "--title", "百人一首", *decks])
    assert made.exit_code == 0, made.output
    checked = runner.invoke(app, ["check", "karuta", "--no-simulate", *decks])
    assert checked.exit_code == 0 and "karuta: ok" in checked.output, checked.output
    built = runner.invoke(app, ["build", "karuta", "--no-report", *decks, *output])
    assert built.exit_code == 0, built.output
    return root / "output" / "karuta" / "cards-printshop.pdf"


def _centre(word: TextLine) -> tuple[float, float]:
    return (word.x0 + word.x1) / 2, (word.top + word.bottom) / 2


def test_the_starter_prints_each_poets_reading_right_of_the_name_touching_it_at_half_size(tategaki: Path) -> None:
    words = page_words(tategaki)[0][1]  # card 1: 天智天皇《てんじてんのう》 at 12 pt, readings at 6 pt
    name = [w for w in words if w.text in "天智皇" and w.bottom - w.top == pytest.approx(12, abs=0.1)]
    reading = [w for w in words if set(w.text) <= set("てんじのう") and w.x1 - w.x0 == pytest.approx(6, abs=0.1)]
    assert len(name) == 4 and "".join(w.text for w in reading) == "てんじてんのう", [w.text for w in words]
    assert all(abs(w.x0 - name[0].x1) < TOUCH for w in reading)  # right of the column, set solid on it
    top, bottom = min(w.top for w in name), max(w.bottom for w in name)
    first, last = min(w.top for w in reading), max(w.bottom for w in reading)
    assert top <= first and last <= bottom  # 7 readings of 6 pt within 4 kanji of 12 pt
    assert abs((first - top) - (bottom - last)) < 0.1  # centred on the name: 1:2:1 leaves equal ends


def test_every_reading_on_the_cards_sits_right_of_a_base_character_at_half_its_size(tategaki: Path) -> None:
    looked = 0
    for _, words in page_words(tategaki)[0::2]:  # the faces
        bases = [w for w in words if w.bottom - w.top > 10]
        for word in words:
            size = word.x1 - word.x0  # a reading's column is as wide as its size
            if word.bottom - word.top > 10 or size > 8 or word.text.isdigit():
                continue
            owner = [b for b in bases if abs(b.x1 - word.x0) < TOUCH and b.top - 8 < word.top < b.bottom + 8]
            assert owner, (word.text, [b.text for b in bases])
            assert size == pytest.approx((owner[0].x1 - owner[0].x0) / 2, abs=0.1)
            looked += 1
    assert looked >= 30


def test_a_reading_is_centred_over_its_base_and_set_solid_on_it(tmp_path: Path) -> None:
    metrics = load_metrics(GOTHIC)
    name = register_font(GOTHIC)
    laid = fit_text("これは｜漢字《かんじ》と山《やま》です。", metrics, width=200, height=40, size=20)
    assert laid is not None and laid.ruby_size == 10
    path = tmp_path / "h.pdf"
    canvas = Canvas(str(path), pagesize=(mm_to_pt(90), mm_to_pt(40)), initialFontName=name, invariant=1)
    canvas.setFont(name, laid.size)
    _horizontal_lines(canvas, laid, metrics, {"valign": "top", "align": "left"}, 20, mm_to_pt(30), 200, 40,
                      greek=False, font=name)
    canvas.save()
    words = page_words(path)[0][1]
    line = next(w for w in words if w.bottom - w.top > 15)
    readings = {w.text: w for w in words if w.bottom - w.top < 15}
    assert set(readings) == {"かんじ", "やま"}, [w.text for w in words]
    per_char = (line.x1 - line.x0) / len("これは漢字と山です。")
    kanji = (line.x0 + 3 * per_char, line.x0 + 5 * per_char)
    mountain = (line.x0 + 6 * per_char, line.x0 + 7 * per_char)
    for reading, (left, right) in ((readings["かんじ"], kanji), (readings["やま"], mountain)):
        assert reading.bottom - reading.top == pytest.approx(10, abs=0.1)  # half the base's 20 pt
        assert abs(reading.bottom - line.top) < TOUCH  # on the base's em box
        assert abs(_centre(reading)[0] - (left + right) / 2) < 0.5  # centred over its base
    assert readings["かんじ"].x0 > kanji[0] + 1  # 1.5 em of reading over 2 em: the ends are inset (1:2:1)


def test_a_rulebook_paragraph_sets_ruby_over_its_base_inside_its_frame(tmp_path: Path) -> None:
    """The rulebook's paragraph (generator.kinsoku): the markup is gone from the page, each reading is centred
    over its base at half its size and set solid on it, and a first line with readings moves the paragraph
    down so they stay inside the frame."""
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Frame

    from generator.kinsoku import KinsokuParagraph

    name = register_font(GOTHIC)
    style = ParagraphStyle("body", fontName=name, fontSize=10, leading=17.5, wordWrap="CJK", alignment=TA_JUSTIFY)
    text = ("周瑜《しゅうゆ》は<b>英姿</b>《えいし》で3枚引けます。" + "山札からカードを引きます。" * 4
            + "許褚《きょちょ》。")
    path = tmp_path / "p.pdf"
    canvas = Canvas(str(path), pagesize=(300, 300), initialFontName=name, invariant=1)
    frame = Frame(20, 20, 200, 260, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    assert frame.addFromList([KinsokuParagraph(text, style)], canvas) is None
    canvas.save()
    words = page_words(path)[0][1]
    shown = "".join(w.text for w in words)
    assert "《" not in shown and "》" not in shown and "しゅうゆ" in shown and "えいし" in shown
    readings = [w for w in words if w.bottom - w.top < 7]
    lines = [w for w in words if w.bottom - w.top > 9]
    assert {w.text for w in readings} == {"しゅうゆ", "えいし", "きょちょ"}, [w.text for w in words]
    for reading in readings:
        assert reading.bottom - reading.top == pytest.approx(5, abs=0.1)
        assert reading.top >= 300 - 280 - 0.1  # inside the frame, whose top is 20 pt below the page's
        below = [w for w in lines if w.top - 0.3 <= reading.bottom <= w.top + 0.3]
        assert below and below[0].x0 - 0.5 <= reading.x0 and reading.x1 <= below[0].x1 + 0.5, reading.text


def test_a_shift_jis_sheet_with_ruby_and_wide_spaces_imports_and_prints_as_written(tmp_path: Path) -> None:
    """Excel's "CSV" on Japanese Windows is cp932: a poem with ruby markup, an indent of full-width spaces
    and line breaks inside its cell comes through import unchanged, checks clean, and prints with its
    readings right of their kanji and its indented column two cells down."""
    runner = CliRunner()
    decks = ["--decks", str(tmp_path / "decks")]
    assert runner.invoke(app, ["new", "karuta", "--template", "tategaki", *decks]).exit_code == 0
    cards_file = tmp_path / "decks" / "karuta" / "cards.json"
    declared = json.loads(cards_file.read_text(encoding="utf-8"))
    starter = declared.pop("cards")
    poem = "秋の田の　かりほの庵《いほ》の\n　　苫《とま》をあらみ\nわが衣手《ころも｜で》は\n　　露《つゆ》にぬれつつ"
    assert starter[0]["fields"]["poem"] == poem
    rows = "".join(f'{c["id"]},{c["fields"]["number"]},{c["fields"]["poet"]},"{c["fields"]["poem"]}"\r\n'
                   for c in starter)
    sheet = tmp_path / "poems.csv"
    sheet.write_bytes(("id,number,poet,poem\r\n" + rows).encode("cp932"))
    cards_file.write_text(json.dumps({**declared, "cards": []}), encoding="utf-8")  # only the sheet fills it
    imported = runner.invoke(app, ["import", "karuta", str(sheet), *decks])
    assert imported.exit_code == 0 and "read as cp932" in imported.output, imported.output
    assert json.loads(cards_file.read_text(encoding="utf-8"))["cards"] == starter  # as written, to the character
    built = runner.invoke(app, ["build", "karuta", "--no-report", *decks, "--output", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    words = page_words(tmp_path / "out" / "karuta" / "cards-printshop.pdf")[0][1]
    poem_size = [w for w in words if w.text == "秋"][0].x1 - [w for w in words if w.text == "秋"][0].x0
    first, indented = [w for w in words if w.text == "秋"][0], [w for w in words if w.text == "苫"][0]
    assert indented.top == pytest.approx(first.top + 2 * poem_size, abs=0.2)  # 　　 kept: two cells down
    for base, reading in (("苫", "とま"), ("露", "つゆ"), ("庵", "いほ")):
        [kanji] = [w for w in words if w.text == base]
        [ruby] = [w for w in words if w.text == reading]
        assert abs(ruby.x0 - kanji.x1) < TOUCH and ruby.x1 - ruby.x0 == pytest.approx(poem_size / 2, abs=0.1)


def test_marks_side_by_side_print_set_solid(tmp_path: Path) -> None:
    """。」 and 」「 read back half an em shorter each than one em a mark, in card text and in a rulebook
    paragraph alike, and as long as the fit measured."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Frame

    from generator.kinsoku import KinsokuParagraph

    metrics = load_metrics(GOTHIC)
    name = register_font(GOTHIC)
    text = "「山です。」「川」"  # 9 characters, two pairs squeezed: 8 em
    laid = fit_text(text, metrics, width=300, height=40, size=20)
    assert laid is not None and laid.line_widths == (160.0,)
    path = tmp_path / "m.pdf"
    canvas = Canvas(str(path), pagesize=(400, 200), initialFontName=name, invariant=1)
    canvas.setFont(name, 20)
    _horizontal_lines(canvas, laid, metrics, {"valign": "top", "align": "left"}, 20, 180, 300, 40, greek=False,
                      font=name)
    style = ParagraphStyle("body", fontName=name, fontSize=20, leading=30, wordWrap="CJK")
    frame = Frame(20, 20, 300, 100, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    assert frame.addFromList([KinsokuParagraph(text, style)], canvas) is None
    canvas.save()
    lines = [w for w in page_words(path)[0][1] if w.text == text]
    assert len(lines) == 2, page_words(path)[0][1]
    assert all(line.x1 - line.x0 == pytest.approx(160.0, abs=0.3) for line in lines)  # not 180
