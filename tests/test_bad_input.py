"""Bad input, end to end: every real user mistake gets one clear, located error line, exit 1 and no files.

Each case copies decks/gogyo into a temporary decks folder (with tmp/schema -> the real schema/ so the
deck's relative "$schema" values still resolve), applies one mutation, runs the CLI in-process and
checks: exit code 1, no traceback, an error line naming the file, the JSON path and the problem,
and an output folder with no files in it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from generator.cli import app

ROOT = Path(__file__).resolve().parents[1]
GOGYO = ROOT / "decks" / "gogyo"
SCHEMA_DIR = ROOT / "schema"

# Indices into decks/gogyo/cards.json "cards": 60 dynasty cards (夏 … 清 × 木火土金水), then 天 and 閥.
TEN = 60        # {"id": "ten", "face": "heaven", "qty": 3, ...}
BATSU = 61      # {"id": "batsu", "face": "faction", "qty": 3, ...}
QING_WATER = 59  # the last dynasty card: 清 × 水

runner = CliRunner()


# --- a throw-away copy of the deck ------------------------------------------------------------


def make_decks(tmp_path: Path) -> Path:
    """tmp/decks/gogyo (a copy) and tmp/schema (a link to the real schemas); returns tmp/decks."""
    decks = tmp_path / "decks"
    shutil.copytree(GOGYO, decks / "gogyo")
    (tmp_path / "schema").symlink_to(SCHEMA_DIR, target_is_directory=True)
    return decks


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def edit(name: str, change: Callable[[Any], None]) -> Callable[[Path], None]:
    """A mutation that loads `name` from the game folder, lets `change` edit it in place and saves it."""

    def mutate(game: Path) -> None:
        data = read_json(game / name)
        change(data)
        write_json(game / name, data)

    return mutate


def replace_text(name: str, old: str, new: str) -> Callable[[Path], None]:
    """A mutation on the raw text (for syntax mistakes), keeping every other line where it was."""

    def mutate(game: Path) -> None:
        path = game / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} must occur exactly once in {name}"
        path.write_text(text.replace(old, new), encoding="utf-8")

    return mutate


def element(layout: dict[str, Any], template: str, index: int) -> dict[str, Any]:
    return layout["templates"][template]["elements"][index]


def files_in(folder: Path) -> list[Path]:
    """Every file (not folder) below `folder`, hidden ones included."""
    return [Path(d, f) for d, _, names in os.walk(folder) for f in names]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in files_in(folder)}


# --- mutations --------------------------------------------------------------------------------


def set_field(index: int, key: str, value: Any) -> Callable[[Path], None]:
    return edit("cards.json", lambda d: d["cards"][index]["fields"].__setitem__(key, value))


def _delete_seal(game: Path) -> None:
    (game / "assets" / "seal.png").unlink()


def _garbage_seal(game: Path) -> None:
    (game / "assets" / "seal.png").write_bytes(b"\x89PNG\r\n\x1a\nthis is not really an image" * 10)


def _tiny_seal(game: Path) -> None:
    Image.new("RGB", (20, 20), (200, 30, 30)).save(game / "assets" / "seal.png")


def _broken_svg(game: Path) -> None:
    (game / "assets" / "cloud.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n'
                                               '  <path d="M0 0 L10 10"\n</svg>\n', encoding="utf-8")


def _garbage_font(game: Path) -> None:
    (game / "assets" / "gothic.ttf").write_bytes(b"\x00\x01\x00\x00" + b"not a font at all " * 64)
    edit("game.json", lambda d: d["fonts"].__setitem__("gothic", "assets/gothic.ttf"))(game)


def _extends_cycle(layout: dict[str, Any]) -> None:
    layout["templates"]["frame"]["extends"] = "dynasty"


def _remove_map_key(layout: dict[str, Any]) -> None:
    del layout["color_maps"]["element"]["水"]


def _delete_card(cards: dict[str, Any]) -> None:
    assert cards["cards"][QING_WATER]["id"] == "qing-water"
    del cards["cards"][QING_WATER]


def _big_card(layout: dict[str, Any]) -> None:
    layout["card"]["size"] = {"width": 250, "height": 280}


@dataclass(frozen=True)
class Case:
    """One mistake: how to make it, and the error lines it must produce (each a tuple of fragments
    that must all appear on one line of stderr). `game` is the name passed on the command line."""

    mutate: Callable[[Path], None] | None
    lines: tuple[tuple[str, ...], ...]
    game: str = "gogyo"


LONG_RULE = "ゲーム終了時、好きな王朝として数える。" * 12

CASES: dict[str, Case] = {
    # --- JSON syntax -----------------------------------------------------------------------
    "broken-json-missing-comma": Case(
        replace_text("cards.json", '"total": 66,\n', '"total": 66\n'),
        (("cards.json:4:", "$:", "invalid JSON", "Expecting ',' delimiter"),)),
    "broken-json-trailing-comma": Case(
        replace_text("layout.json", '"corner_radius": 3},', '"corner_radius": 3,},'),
        (("layout.json:3:", "invalid JSON"),)),
    "duplicate-key": Case(
        replace_text("cards.json", '{"id": "ten", "face": "heaven", "qty": 3,',
                     '{"id": "ten", "face": "heaven", "qty": 3, "qty": 2,'),
        (("cards.json:70:", f"$.cards[{TEN}]", "key 'qty' appears twice in one object"),)),
    "not-utf8": Case(
        lambda game: (game / "game.json").write_bytes(
            (game / "game.json").read_text(encoding="utf-8").encode("shift_jis")),
        (("game.json", "$:", "not UTF-8 text"),)),
    # --- "$schema" and schema violations ------------------------------------------------------
    "schema-missing": Case(
        edit("layout.json", lambda d: d.pop("$schema")),
        (("layout.json:1:", "$:", '"$schema" is missing', "layout.schema.json"),)),
    "schema-wrong": Case(
        edit("cards.json", lambda d: d.__setitem__("$schema", "../../schema/layout.schema.json")),
        (("cards.json:2:", "$.$schema:", "'../../schema/layout.schema.json'", "schema/cards.schema.json"),)),
    "qty-as-string": Case(
        edit("cards.json", lambda d: d["cards"][TEN].__setitem__("qty", "3")),
        (("cards.json", f"$.cards[{TEN}].qty:", "\"3\" is not of type 'integer'"),)),
    "required-property-missing": Case(
        edit("cards.json", lambda d: d["cards"][BATSU].pop("face")),
        (("cards.json", f"$.cards[{BATSU}]:", "'face' is required"),)),
    "unknown-element-type": Case(
        edit("layout.json", lambda d: element(d, "frame", 2).__setitem__("type", "star")),
        (("layout.json", "$.templates.frame.elements[2].type:", '"star" is not one of', '"circle"'),)),
    "card-width-absurd": Case(
        edit("layout.json", lambda d: d["card"].__setitem__("size", {"width": 5000, "height": 88})),
        (("layout.json", "$.card.size.width:", "5000 is out of range (must be <= 300)"),)),
    "game-id-mismatch": Case(
        edit("game.json", lambda d: d.__setitem__("id", "gogyo2")),
        (("game.json:3:", "$.id:", "'gogyo2' must equal the folder name 'gogyo'"),)),
    "unknown-game": Case(
        None,
        (("nosuch", "game.json", "no game 'nosuch'", "games: gogyo"),),
        game="nosuch"),
    # --- references between files -------------------------------------------------------------
    "face-template-missing": Case(
        edit("cards.json", lambda d: d["cards"][TEN].__setitem__("face", "heavn")),
        (("cards.json", f"$.cards[{TEN}].face:", "front template 'heavn' is not in the layout"),)),
    "text-field-unknown": Case(
        edit("layout.json", lambda d: element(d, "heaven", 6).__setitem__("text", "{nope}")),
        (("layout.json", "$.templates.heaven.elements[6].text:", "card 'ten'", "no field 'nope'"),)),
    "colour-unknown": Case(
        edit("layout.json", lambda d: element(d, "frame", 0).__setitem__("fill", "papr")),
        (("layout.json", "$.templates.frame.elements[0].fill:", "unknown colour 'papr'"),)),
    "colour-map-key-missing": Case(
        edit("layout.json", _remove_map_key),
        (("layout.json", "$.templates.dynasty.elements[0].fill:", "colour map 'element' has no entry for '水'"),)),
    "font-key-unknown": Case(
        edit("layout.json", lambda d: element(d, "heaven", 6).__setitem__("font", "gothik")),
        (("layout.json", "$.templates.heaven.elements[6].font:", "font 'gothik' is not declared in game.json"),)),
    "extends-cycle": Case(
        edit("layout.json", _extends_cycle),
        (("layout.json", "extends:", "cycle", "dynasty -> frame -> dynasty"),)),
    "duplicate-card-id": Case(
        edit("cards.json", lambda d: d["cards"][BATSU].__setitem__("id", "ten")),
        (("cards.json", f"$.cards[{BATSU}].id:", "card id 'ten' is used more than once"),)),
    "composition-mismatch": Case(
        edit("cards.json", _delete_card),
        (("cards.json", "$.composition[0]:", "dynasty=清, element=水 appears 0 times, expected 1"),
         ("cards.json", "$.total:", "declares 66 cards but defines 65"))),
    # --- assets ---------------------------------------------------------------------------------
    "image-missing": Case(
        _delete_seal,
        (("layout.json", "$.templates.back.elements[17].src:", "'assets/seal.png' not found"),)),
    "image-corrupt": Case(
        _garbage_seal,
        (("layout.json", "$.templates.back.elements[17].src:", "'assets/seal.png' is not a readable image"),)),
    "image-low-resolution": Case(
        _tiny_seal,
        (("layout.json", "$.templates.back.elements[17].src:", "prints at 51 dpi", "20×20 px",
          "at least 300 dpi"),)),
    "svg-invalid": Case(
        _broken_svg,
        (("layout.json", "$.templates.heaven.elements[4].src:", "'assets/cloud.svg' is not valid SVG"),)),
    "asset-leaves-deck": Case(
        edit("layout.json", lambda d: element(d, "heaven", 4).__setitem__("src", "../../etc/passwd")),
        (("layout.json", "$.templates.heaven.elements[4].src:", "'../../etc/passwd' leaves the deck folder"),)),
    "asset-absolute": Case(
        edit("layout.json", lambda d: element(d, "back", 17).__setitem__("src", "/etc/passwd")),
        (("layout.json", "$.templates.back.elements[17].src:", "'/etc/passwd' is absolute"),)),
    "cards-file-leaves-deck": Case(
        edit("game.json", lambda d: d["components"][0].__setitem__("cards", "../../etc/passwd")),
        (("game.json", "$.components[0].cards:", "leaves the deck folder"),)),
    # --- fonts and text -------------------------------------------------------------------------
    "glyph-missing": Case(
        set_field(TEN, "rule", "🀄をゲーム終了時に数える。"),
        (("layout.json", "$.templates.heaven.elements[6].text:", "card 'ten'",
          "BIZUDGothic-Regular.ttf has no glyph for '🀄' (U+1F004)"),)),
    "text-overflow": Case(
        set_field(BATSU, "rule", LONG_RULE),
        (("layout.json", "$.templates.faction.elements[7].text:", "card 'batsu'", "does not fit 38×14 mm at 6 pt"),)),
    "builtin-font-unknown": Case(
        edit("game.json", lambda d: d["fonts"].__setitem__("mincho", "builtin:BIZUDMincho-Bold")),
        (("game.json", "$.fonts.mincho:", "no built-in font 'BIZUDMincho-Bold'", "BIZUDMincho-Regular"),)),
    "font-file-garbage": Case(
        _garbage_font,
        (("game.json", "$.fonts.gothic:", "'assets/gothic.ttf'", "not a readable TrueType font"),)),
    # --- geometry -------------------------------------------------------------------------------
    "card-too-big-for-paper": Case(
        edit("layout.json", _big_card),
        (("layout.json", "$.card:", "250×280 mm card", "does not fit on 210×297 mm paper"),)),
}

# Cases also run through `fudaya check` (which never writes) — the same located line must appear.
CHECK_CASES = ["duplicate-key", "qty-as-string", "colour-map-key-missing", "image-low-resolution",
               "composition-mismatch"]


# --- the runs ---------------------------------------------------------------------------------


def run(args: list[str]):
    result = runner.invoke(app, args)
    text = result.output + result.stderr
    assert "Traceback" not in text, text
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def assert_lines(stderr: str, lines: tuple[tuple[str, ...], ...]) -> None:
    """Each expected tuple of fragments appears together on one line of stderr."""
    got = stderr.splitlines()
    for fragments in lines:
        assert any(all(f in line for f in fragments) for line in got), (
            f"no stderr line contains all of {fragments!r}; stderr was:\n{stderr}")


def assert_one_line_issues(stderr: str) -> None:
    """Every issue is one line `file[:line[:col]]: $path: message`, ending with a summary."""
    for line in stderr.splitlines():
        line = line.strip()
        if not line or re.match(r"^\w+ *(\[.*\])?.*%?$", line) and "$" not in line and ": " not in line:
            continue  # progress bar chatter
        if re.match(r"^\w+: not built \(\d+ problems?\)$", line) or re.match(r"^\w+: \d+ problems", line):
            continue
        assert re.search(r"\.json(:\d+(:\d+)?)?: \$[^ ]*: \S", line), f"not a located issue line: {line!r}"


def test_unmutated_copy_checks_and_builds(tmp_path: Path) -> None:
    decks = make_decks(tmp_path)
    out = tmp_path / "out"
    checked = run(["check", "gogyo", "--decks", str(decks)])
    assert checked.exit_code == 0, checked.output
    assert "gogyo: ok (1 deck, 66 cards)" in checked.stdout
    built = run(["build", "gogyo", "--decks", str(decks), "--output", str(out)])
    assert built.exit_code == 0, built.output
    assert built.stderr.count(".json") == 0, built.stderr  # no issue lines, not even warnings
    assert sorted(p.name for p in files_in(out)) == ["build.json", "cards-printshop.pdf", "cards.pdf"]


@pytest.mark.parametrize("case", [pytest.param(c, id=name) for name, c in CASES.items()])
def test_build_refuses_bad_input(tmp_path: Path, case: Case) -> None:
    decks = make_decks(tmp_path)
    game = decks / "gogyo"
    if case.mutate is not None:
        case.mutate(game)
    before = snapshot(decks)
    out = tmp_path / "out"

    result = run(["build", case.game, "--decks", str(decks), "--output", str(out)])

    assert result.exit_code == 1, result.output
    assert_lines(result.stderr, case.lines)
    assert_one_line_issues(result.stderr)
    assert "wrote" not in result.stdout
    assert files_in(out) == [] if out.exists() else True, files_in(out)
    assert snapshot(decks) == before, "the build changed the deck folder"


@pytest.mark.parametrize("name", CHECK_CASES)
def test_check_reports_the_same_line(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    decks = make_decks(tmp_path)
    assert case.mutate is not None
    case.mutate(decks / "gogyo")
    before = snapshot(decks)

    result = run(["check", case.game, "--decks", str(decks)])

    assert result.exit_code == 1, result.output
    assert_lines(result.stderr, case.lines)
    assert_one_line_issues(result.stderr)
    assert "gogyo: ok" not in result.stdout
    assert snapshot(decks) == before


def test_failed_build_keeps_the_previous_output(tmp_path: Path) -> None:
    """A good build, then a broken deck: the second build fails and leaves the first one's files as they were."""
    decks = make_decks(tmp_path)
    out = tmp_path / "out"
    assert run(["build", "gogyo", "--decks", str(decks), "--output", str(out)]).exit_code == 0
    good = snapshot(out)
    CASES["colour-unknown"].mutate(decks / "gogyo")  # type: ignore[misc]

    result = run(["build", "gogyo", "--decks", str(decks), "--output", str(out)])

    assert result.exit_code == 1
    assert_lines(result.stderr, CASES["colour-unknown"].lines)
    assert snapshot(out) == good
