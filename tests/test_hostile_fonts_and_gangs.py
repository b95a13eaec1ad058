"""Hostile fonts and oversized ganged pieces (issue 23): check refuses them with one located line, and
build refuses them the same way, exit 1, never a traceback, never gigabytes.

Before: a 728-byte font whose one cmap group mapped 2³² code points passed check (2.1 s) and made build
allocate 6.3 GB before a MemoryError; a font whose licence forbids embedding, one declaring more glyphs
than it holds, or one cut short passed check and build raised from inside ReportLab; a ganged piece too
large for the paper passed check and build raised GangError.
"""
from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from deckcopies import copy_decks, edit_json, json_pointer
from generator.cli import app
from hostile_fonts import (
    cmap_groups,
    full_font_with_fs_type,
    tables,
    tiny_font,
    with_fs_type,
    with_num_glyphs,
    with_table,
)
from validator.checks import check_game
from validator.jsonsource import load_json
from validator.limits import MAX_FONT_BYTES
from validator.loader import load_game

runner = CliRunner()
FONT = "assets/hostile.ttf"


def _located(file: Path, path: str, message: str) -> str:
    """The line fudaya prints: file:line:col of the JSON path, the path, the message."""
    line, column = load_json(file).positions[json_pointer(path)]
    return f"{file}:{line}:{column}: {path}: {message}"


def _run(*args: str) -> Result:
    result = runner.invoke(app, list(args), catch_exceptions=True)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output + result.stderr, result.stderr
    return result


def _refused_by_check_and_build(decks: Path, game: str, line: str, tmp_path: Path) -> None:
    checked = _run("check", game, "--no-simulate", "--decks", str(decks))
    assert checked.exit_code == 1, checked.output
    assert line in checked.stderr.splitlines(), checked.stderr
    built = _run("build", game, "--no-report", "--decks", str(decks), "--output", str(tmp_path / "out"))
    assert built.exit_code == 1, built.output
    assert line in built.stderr.splitlines(), built.stderr
    assert f"{game}: not built (1 problem)" in built.stderr
    assert not (tmp_path / "out" / game).exists()


# --- fonts ---------------------------------------------------------------------------------------------


def _truncated() -> tuple[bytes, str]:
    data = tiny_font()
    cut = len(data) * 2 // 3
    directory = [struct.unpack_from(">4sLLL", data, 12 + 16 * n) for n in range(struct.unpack_from(">H", data, 4)[0])]
    tag, end = next((t.decode(), o + n) for t, _, o, n in directory if o + n > cut)
    return data[:cut], f"not a readable TrueType font (cut short: its {tag!r} table ends at byte {end:,}, past the " \
                       f"file's {cut:,})"


def _huge_cmap() -> tuple[bytes, str]:
    return (with_table(tiny_font("i"), "cmap", cmap_groups(13, [(0, 0xFFFFFFFF, 1)])),
            "its character map (cmap) maps 4,294,967,296 code points, more than the 200,000 a font may map")


def _huge_format4() -> tuple[bytes, str]:
    """Format 4 ranges are 16-bit, but 8,000 overlapping ones still ask ReportLab for 524 million entries."""
    from hostile_fonts import cmap_format4

    return (with_table(tiny_font("i"), "cmap", cmap_format4([(0, 0xFFFE, 0)] * 8000)),
            "its character map (cmap) maps 524,280,001 code points, more than the 200,000 a font may map")


def _restricted() -> tuple[bytes, str]:
    return (full_font_with_fs_type(0x0002),
            "its licence forbids embedding it in a PDF (OS/2 fsType 0x0002: restricted licence embedding)")


def _too_many_glyphs() -> tuple[bytes, str]:
    data = tiny_font()
    held = struct.unpack_from(">H", tables(data)["maxp"], 4)[0]  # the glyphs it really has metrics for
    return with_num_glyphs(data, 65_535), f"declares 65,535 glyphs but its 'hmtx' table holds metrics for {held}"


FONT_CASES: dict[str, Callable[[], tuple[bytes, str]]] = {
    "huge-cmap": _huge_cmap, "huge-format-4": _huge_format4, "restricted-licence": _restricted,
    "too-many-glyphs": _too_many_glyphs, "truncated": _truncated,
}


@pytest.mark.parametrize("case", sorted(FONT_CASES))
def test_a_hostile_font_is_one_located_line_in_check_and_build(tmp_path: Path, case: str) -> None:
    data, message = FONT_CASES[case]()
    decks = copy_decks(tmp_path, "gogyo")
    game = decks / "gogyo"
    (game / FONT).write_bytes(data)
    edit_json(game / "game.json", lambda d: d["fonts"].__setitem__("gothic", FONT))
    line = _located(game / "game.json", "$.fonts.gothic", f"font {FONT!r}: {message}")
    _refused_by_check_and_build(decks, "gogyo", line, tmp_path)


def test_a_font_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    game = decks / "gogyo"
    with (game / FONT).open("wb") as sparse:  # no disk blocks: the size is known from stat, nothing is read
        sparse.truncate(MAX_FONT_BYTES + 1)
    edit_json(game / "game.json", lambda d: d["fonts"].__setitem__("gothic", FONT))
    message = f"font {FONT!r}: is {MAX_FONT_BYTES + 1:,} bytes, over the {MAX_FONT_BYTES:,}-byte limit for a font"
    _refused_by_check_and_build(decks, "gogyo", _located(game / "game.json", "$.fonts.gothic", message), tmp_path)


def test_a_licence_forbidding_embedding_subsetting_or_outlines_is_refused() -> None:
    """fudaya's rule: ReportLab 4-5 embeds such fonts (its fsType test only refuses fonts listed in
    rl_config.allowTTFSubsetting), which the licence forbids."""
    from validator.fontfile import FontFileError, read_font

    for fs_type, words in ((0x0002, "forbids embedding"), (0x0200, "only bitmaps"), (0x0100, "forbids subsetting"),
                           (0x0302, "forbids embedding")):
        with pytest.raises(FontFileError, match=words):
            read_font(with_fs_type(tiny_font(), fs_type))
    for allowed in (0x0000, 0x0004, 0x0008):  # installable, preview & print, editable
        read_font(with_fs_type(tiny_font(), allowed))


# --- gangs ---------------------------------------------------------------------------------------------


def _zaiya_width(decks: Path, width: float) -> None:
    edit_json(decks / "jinzai" / "zaiya-layout.json", lambda d: d["card"]["size"].__setitem__("width", width))


def _gang_pointer(decks: Path) -> str:
    components = json.loads((decks / "jinzai" / "game.json").read_text(encoding="utf-8"))["components"]
    return f"$.components[{next(n for n, c in enumerate(components) if c['id'] == 'zaiya-card')}].gang"


def test_a_ganged_piece_too_large_for_the_paper_is_one_located_line_in_check_and_build(tmp_path: Path) -> None:
    # 190 mm fits an n-up A4 sheet (4 mm margins) but not the packer (bleed, marks' lane, 5 mm margins):
    # build raised GangError after check said ok
    decks = copy_decks(tmp_path, "jinzai")
    _zaiya_width(decks, 190)
    message = ("component 'zaiya-card' in gang 'card-stock': a 190×110 mm piece with its 3 mm bleed and cut marks "
               "takes 202×122 mm and does not fit the 200×287 mm inside the 5 mm margins of 210×297 mm paper; "
               "it fits Letter and A3 (check and build --paper letter)")
    line = _located(decks / "jinzai" / "game.json", _gang_pointer(decks), message)
    _refused_by_check_and_build(decks, "jinzai", line, tmp_path)


def test_the_paper_is_builds(tmp_path: Path) -> None:
    """check measures against A4, build's default; a build on A3 checks against A3, on letter against letter."""
    decks = copy_decks(tmp_path, "jinzai")
    _zaiya_width(decks, 190)
    game = load_game(decks, "jinzai")
    assert [i.code for i in check_game(game).errors] == ["gang-paper"]
    assert check_game(game, paper="a3").errors == []
    shipped = load_game(copy_decks(tmp_path / "shipped", "jinzai"), "jinzai")
    assert check_game(shipped).errors == []
    # the 196×280 mm personal sheets do not fit letter's 279.4 mm: build --paper letter says so before drawing
    assert [i.render().split(": ", 2)[2] for i in check_game(shipped, paper="letter").errors] == [
        "a 196×280 mm card with 0 mm bleed does not fit on 215.9×279.4 mm paper with 4 mm margins; "
        "it fits A4 and A3 (check and build --paper a4)"]


def test_check_takes_the_paper_build_will_use(tmp_path: Path) -> None:
    """A deck made for A3 passes `check --paper a3` (and build --paper a3), not a plain check."""
    from typer.testing import CliRunner

    from generator.cli import app

    decks = copy_decks(tmp_path, "jinzai")
    _zaiya_width(decks, 190)
    runner = CliRunner()
    plain = runner.invoke(app, ["check", "jinzai", "--no-simulate", "--decks", str(decks)])
    assert plain.exit_code == 1 and "margins of 210×297 mm paper" in plain.stderr
    on_a3 = runner.invoke(app, ["check", "jinzai", "--no-simulate", "--paper", "a3", "--decks", str(decks)])
    assert on_a3.exit_code == 0, on_a3.output


def test_a_card_too_large_for_any_paper_gets_no_hint(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "layout.json", lambda d: d["card"].__setitem__("size", {"width": 300, "height": 300}))
    errors = check_game(load_game(decks, "gogyo")).errors
    assert [(i.code, i.location.pointer, i.message) for i in errors] == [
        ("imposition", "/card", "a 300×300 mm card with 3 mm bleed does not fit on 210×297 mm paper with 4 mm margins")]


def test_a_tall_narrow_card_still_fits_the_rulebook_page(tmp_path: Path) -> None:
    """Found by tests/fuzz/test_fuzz_fonts_gangs.py: a 13×190 mm card passed check, and its rulebook figure,
    drawn 26 mm wide, was 380 mm tall: ReportLab's LayoutError, a traceback. Figures are capped at the column."""
    decks = copy_decks(tmp_path, "gogyo")

    def tall_narrow(layout: dict) -> None:  # text boxes wider than the card would now fail check (outside-trim)
        layout["card"]["size"] = {"width": 13, "height": 190}
        for template in layout["templates"].values():
            template["elements"] = [e for e in template["elements"] if e["type"] not in ("text", "table")]

    edit_json(decks / "gogyo" / "layout.json", tall_narrow)
    assert _run("check", "gogyo", "--no-simulate", "--decks", str(decks)).exit_code == 0
    built = _run("build", "gogyo", "--no-report", "--only", "rulebook", "--decks", str(decks),
                 "--output", str(tmp_path / "out"))
    assert built.exit_code == 0, built.stderr
