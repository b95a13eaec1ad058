"""Rulebooks fill whole sheets of four pages, and --booklet imposes them for saddle stitching."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.booklet import booklet_order, sheet_size, write_booklet
from generator.build import BuildOptions, build_game, load_checked
from rulebookpdf import write_rulebook_alone
from validator.loader import find_games, load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.mark.parametrize("pages", [4, 8, 12, 16, 40])
def test_the_folded_stack_reads_in_order(pages: int) -> None:
    sides = booklet_order(pages)
    assert len(sides) == pages // 2 and sorted(p for side in sides for p in side) == list(range(1, pages + 1))
    # Fold the stack: sheet i's front right is read before its back left, and the second half
    # of the booklet comes back on the left halves in reverse.
    reading = [side[1] if n % 2 == 0 else side[0] for n, side in enumerate(sides)]
    reading += [side[1] if n % 2 else side[0] for n, side in reversed(list(enumerate(sides)))]
    assert reading == list(range(1, pages + 1))


@pytest.mark.parametrize("pages", [0, 6, 11])
def test_only_whole_sheets_can_be_imposed(pages: int) -> None:
    with pytest.raises(ValueError, match="multiple of 4"):
        booklet_order(pages)


def test_sheet_sizes() -> None:
    assert sheet_size((148, 210)) == (297, 210)   # A5 pages on A4
    assert sheet_size((210, 297)) == (420, 297)   # A4 on A3
    assert sheet_size((300, 400)) == (600, 400)   # nothing standard holds it: exactly two pages


@pytest.mark.slow
@pytest.mark.parametrize("game_id", find_games(DEFAULT_DECKS_DIR))
def test_every_rulebook_fills_whole_sheets_with_blank_padding(game_id: str, tmp_path: Path) -> None:
    path = write_rulebook_alone(load_game(DEFAULT_DECKS_DIR, game_id), tmp_path / "rulebook.pdf")
    texts = [page.extract_text().strip() for page in PdfReader(path).pages]
    assert len(texts) % 4 == 0
    written = len(texts) - next(n for n, text in enumerate(reversed(texts)) if text)
    assert len(texts) - written < 4 and all(texts[:written])  # padding only after the last written page


def test_booklet_of_a_real_rulebook(tmp_path: Path) -> None:
    """jinzai's 11 written pages pad to 12, imposed on six A4 sides; build.json lists the booklet."""
    output = tmp_path / "output"
    result = build_game(load_checked("jinzai", DEFAULT_DECKS_DIR),
                        BuildOptions(decks_dir=DEFAULT_DECKS_DIR, output_dir=output, report=False,
                                     only=("rulebook",), booklet=True))
    names = {f.name: f for f in result.files}
    assert names["jinzai/rulebook.pdf"].pages == 12
    booklet = names["jinzai/rulebook-booklet.pdf"]
    assert (booklet.pages, booklet.page_size) == (6, (297.0, 210.0))
    pages = PdfReader(output / "jinzai" / "rulebook.pdf").pages
    sides = PdfReader(output / "jinzai" / "rulebook-booklet.pdf").pages
    first = sides[0].extract_text()  # page 12 (left, a ruled メモ page: rulebook.MEMO) beside page 1
    assert "メモ" in first.split() and pages[0].extract_text().strip() in first
    assert sides[1].extract_text().strip().startswith(pages[1].extract_text().strip()[:20])
    manifest = json.loads((output / "jinzai" / "build.json").read_text(encoding="utf-8"))
    assert {"file": "jinzai/rulebook-booklet.pdf", "pages": 6, "page_size": [297.0, 210.0], "use": "home"} \
        in manifest["files"]
    again = write_booklet(output / "jinzai" / "rulebook.pdf", tmp_path / "again.pdf", "again")
    assert again.pages == 6  # and byte-identical, as every build output is
    assert again.path.read_bytes() == (output / "jinzai" / "rulebook-booklet.pdf").read_bytes()
