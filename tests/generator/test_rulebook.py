"""gogyo's rulebook.pdf read back with pypdf: size, fonts, page numbers, running header, kinsoku, cards, bytes."""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.lib.styles import ParagraphStyle

from generator.kinsoku import KinsokuParagraph
from generator.pdfdoc import register_font
from rulebookpdf import iter_fonts, write_rulebook_alone
from validator.geometry import POINTS_PER_MM
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR, FONTS_DIR

NO_LINE_START = "、。」）"
NO_LINE_END = "「（"


@pytest.fixture(scope="module")
def rulebook(gogyo_build: Path) -> Path:
    return gogyo_build / "rulebook.pdf"


@pytest.fixture(scope="module")
def reader(rulebook: Path) -> PdfReader:
    return PdfReader(rulebook)


def write_gogyo_rulebook(out: Path) -> Path:
    """The rulebook alone, set up as `fudaya build` sets it up."""
    return write_rulebook_alone(load_game(DEFAULT_DECKS_DIR, "gogyo"), out / "rulebook.pdf")


def placed_text(page: Any) -> list[tuple[str, float, float]]:
    """(text, x mm, y mm) of every text run on the page."""
    runs: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            runs.append((text.strip(), x / POINTS_PER_MM, y / POINTS_PER_MM))

    page.extract_text(visitor_text=visit)
    return runs


def iter_images(resources: Any) -> Iterator[Any]:
    resources = resources.get_object() if resources is not None else {}
    for ref in resources.get("/XObject", {}).values():
        xobject = ref.get_object()
        if xobject.get("/Subtype") == "/Image":
            yield xobject
        elif xobject.get("/Subtype") == "/Form":
            yield from iter_images(xobject.get("/Resources"))


# --- the built file ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_build_lists_the_rulebook_with_pages_and_size(gogyo_manifest: dict[str, Any], reader: PdfReader) -> None:
    entry = {f["file"]: f for f in gogyo_manifest["files"]}["gogyo/rulebook.pdf"]
    assert entry["page_size"] == [148.0, 210.0]  # A5
    assert entry["pages"] == len(reader.pages) > 1
    for page in reader.pages:
        assert (round(float(page.mediabox.width) / POINTS_PER_MM, 1),
                round(float(page.mediabox.height) / POINTS_PER_MM, 1)) == (148.0, 210.0)


@pytest.mark.slow
def test_every_font_is_embedded_and_none_is_helvetica(reader: PdfReader) -> None:
    found = {name: font for page in reader.pages for name, font in iter_fonts(page.get("/Resources"))}
    assert {name.split("+")[-1] for name in found} >= {"BIZUDMincho-Regular", "BIZUDGothic-Bold",
                                                        "BIZUDGothic-Regular"}
    for name, font in found.items():
        assert "Helvetica" not in name
        assert "/FontFile2" in font["/FontDescriptor"].get_object(), f"{name} is not embedded"
        assert name[7] == "+", f"{name} is not a subset"  # /AAAAAA+Name


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler's pdffonts is not installed")
def test_pdffonts_sees_no_unembedded_font(rulebook: Path) -> None:
    table = subprocess.run(["pdffonts", str(rulebook)], capture_output=True, text=True, check=True).stdout
    rows = table.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), table  # the emb column
    assert "Helvetica" not in table


@pytest.mark.slow
def test_page_numbers_sit_in_the_footer(reader: PdfReader) -> None:
    for number, page in enumerate(reader.pages, 1):
        footer = [text for text, _, y in placed_text(page) if y < 12]
        assert footer == [str(number)], (number, footer)


@pytest.mark.slow
def test_title_page_and_running_header(reader: PdfReader) -> None:
    first = reader.pages[0].extract_text()
    for fact in ("五行中国史カードゲーム", "ルールブック", "2〜4人", "20〜30分", "10才以上"):
        assert fact in first
    top_of_first = [text for text, _, y in placed_text(reader.pages[0]) if y > 210 - 12]
    assert top_of_first == []  # no running header over the title
    chapters = set()
    for page in reader.pages[1:]:
        header = [text for text, _, y in placed_text(page) if y > 210 - 12]
        assert header[0] == "五行中国史カードゲーム", header
        chapters.add("".join(header[1:]))  # one string may span two font subsets, so two runs
    assert {"得点計算", "ルールの補足"} <= chapters


@pytest.mark.slow
def test_no_line_breaks_kinsoku(reader: PdfReader) -> None:
    lines = [line.strip() for page in reader.pages for line in page.extract_text().splitlines() if line.strip()]
    assert len(lines) > 200
    assert [line for line in lines if line[0] in NO_LINE_START] == []
    assert [line for line in lines if line[-1] in NO_LINE_END] == []


@pytest.mark.slow
def test_cards_are_real_cards_drawn_as_vectors(reader: PdfReader) -> None:
    text = "".join(page.extract_text() for page in reader.pages)
    # the 唐 cards' kanji and numbers as text; their reading and 天's rule text would print under 5 pt at
    # figure size, so they are greeked (bars where the lines run), never tiny text
    assert "唐" in text and "12" in text
    assert "とう" not in text and "ゲーム終了時、好きな王朝と" not in text
    assert [image for page in reader.pages for image in iter_images(page.get("/Resources"))] == []


@pytest.mark.slow
def test_examples_and_clarifications_are_printed(reader: PdfReader) -> None:
    text = "".join(page.extract_text() for page in reader.pages)
    for points in ("＝ 16点", "＝ 18点", "＝ 46点", "＝ 30点", "＝ 31点"):
        assert points in text
    assert "唐火　漢土　閥　天　隋金" in text
    assert "閔" in text and "誤記" in text  # in the designers' appendix


@pytest.mark.slow
def test_same_input_same_bytes(tmp_path: Path, rulebook: Path) -> None:
    first = write_gogyo_rulebook(tmp_path)
    (tmp_path / "again").mkdir()
    again = write_gogyo_rulebook(tmp_path / "again")
    assert first.read_bytes() == again.read_bytes() == rulebook.read_bytes()


def test_a_failed_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.rulebook as module

    def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(module._RulebookDoc, "build", explode)
    with pytest.raises(RuntimeError):
        write_gogyo_rulebook(tmp_path)
    assert list(tmp_path.iterdir()) == []


# --- line breaking ------------------------------------------------------------------------------------


def lines_of(text: str, chars: int, size: float = 10.0) -> list[str]:
    font = register_font(FONTS_DIR / "BIZUDMincho-Regular.ttf")
    para = KinsokuParagraph(text, ParagraphStyle("t", fontName=font, fontSize=size, leading=size * 1.5,
                                                 wordWrap="CJK"))
    para.wrap(chars * size, 1000)
    return ["".join(frag.text for frag in line.words) for line in para.blPara.lines]


@pytest.mark.parametrize(("text", "expected"), [
    # "」。" never opens a line: "お" goes with them; and a last line of one or two characters ("く")
    # takes more from the line above
    ("あいうえお」。かきく", ["あいうえ", "お」。", "かきく"]),
    ("あいうえおかきくけこさ", ["あいうえお", "かきく", "けこさ"]),  # "さ" alone would be a runt
    ("あいうえおかきくけこさしす", ["あいうえお", "かきくけこ", "さしす"]),  # three characters stand alone
    ("あいうえ（おか）", ["あいうえ", "（おか）"]),  # "（" never closes a line
    ("あいうえ12345", ["あいうえ", "12345"]),  # digits stay together
    ("あいうえお〜か", ["あいうえ", "お〜か"]),  # nor does a wave dash open a line
])
def test_kinsoku_breaks(text: str, expected: list[str]) -> None:
    got = lines_of(text, 5)
    assert "".join(got) == text
    for line in got:
        assert len(line) <= 5
        assert line[0] not in NO_LINE_START + "〜" and line[-1] not in NO_LINE_END
    assert got == expected


def test_can_break() -> None:
    from validator.compose import FREE, break_classes

    def can_break(before: str, after: str) -> bool:
        return break_classes(before + after)[1] == FREE

    assert can_break("あ", "い") and can_break("。", "あ") and can_break(" ", "a")
    assert not can_break("あ", "。") and not can_break("「", "あ") and not can_break("1", "2")


def test_ideographic_spaces_survive_parsing() -> None:
    assert lines_of("2〜4人用\u3000\u300020分", 20) == ["2〜4人用\u3000\u300020分"]


def test_claimed_numbers_are_set_with_a_true_minus_and_a_signed_zero() -> None:
    from validator.binding import TypesetNumber
    assert f"{TypesetNumber(-2)}点" == "\u22122点"
    assert [f"{TypesetNumber(v):+d}" for v in (1, 0, -1)] == ["＋1", "±0", "\u22121"]  # the texts' signs
    assert f"{TypesetNumber(18)}" == "18"


@pytest.mark.parametrize("game_id", ["jinzai", "sengoku"])
def test_the_pages_left_on_the_last_sheet_are_ruled_notes_pages_not_blanks(tmp_path: Path, game_id: str) -> None:
    """A booklet is sheets of four pages; what the story leaves of the last one is a メモ page with its page
    number and ruled lines, not a blank a reader takes for a printing fault (jinzai and sengoku have some)."""
    from generator.rulebook import MEMO

    path = write_rulebook_alone(load_game(DEFAULT_DECKS_DIR, game_id), tmp_path / "rulebook.pdf")
    pages = PdfReader(path).pages
    assert len(pages) % 4 == 0
    texts = [page.extract_text() or "" for page in pages]
    memos = [n for n, text in enumerate(texts, start=1) if MEMO in text.split()]
    assert memos and memos == list(range(memos[0], len(pages) + 1))  # the trailing pages, and only those
    for n in memos:
        assert str(n) in texts[n - 1].split()  # numbered like every other page
        content = pages[n - 1].get_contents().get_data().decode("latin-1")
        assert content.count(" l\n") + content.count(" l ") >= 15  # ruled: a line every 8 mm down the page
    assert all(len(text.strip()) > 60 for text in texts[:memos[0] - 1])  # no blank page before them
