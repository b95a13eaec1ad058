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
from typer.testing import CliRunner, Result

from deckcopies import LOCATED, copy_decks, json_pointer
from generator.cli import app
from validator.issues import DeckError
from validator.jsonsource import load_json
from validator.schema import check_declared_schema

ROOT = Path(__file__).resolve().parents[1]
GOGYO = ROOT / "decks" / "gogyo"

# Indices into decks/gogyo/cards.json "cards": 60 dynasty cards (夏 … 清 × 木火土金水), then 天 and 閥.
TEN = 60        # {"id": "ten", "face": "heaven", "qty": 3, ...}
BATSU = 61      # {"id": "batsu", "face": "faction", "qty": 3, ...}
QING_WATER = 59  # the last dynasty card: 清 × 水

runner = CliRunner()


# --- a throw-away copy of the deck ------------------------------------------------------------


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


def _remove_map_key(game: dict[str, Any]) -> None:
    del game["color_maps"]["element"]["水"]


def _delete_card(cards: dict[str, Any]) -> None:
    assert cards["cards"][QING_WATER]["id"] == "qing-water"
    del cards["cards"][QING_WATER]


def _big_card(layout: dict[str, Any]) -> None:
    layout["card"]["size"] = {"width": 250, "height": 280}


def _nested_repeats(layout: dict[str, Any]) -> None:
    """Four repeats of 200, each within bounds: 1.6 billion circles on every 天 card, which build drew into 4 GB."""
    inner: dict[str, Any] = {"type": "circle", "cx": 5, "cy": 5, "r": 0.1, "fill": "ink"}
    for _ in range(4):
        inner = {"type": "repeat", "count": 200, "dx": 0.01, "dy": 0.01, "element": inner}
    layout["templates"]["heaven"]["elements"].append(inner)


def _polygons_repeated(layout: dict[str, Any]) -> None:
    """A polygon of 20,000 corners repeated 100 times on every front: 2 million corners a card."""
    polygon = {"type": "polygon", "points": [[5 + n % 7, 5 + n % 11] for n in range(20_000)], "fill": "ink"}
    layout["templates"]["frame"]["elements"].append(
        {"type": "repeat", "count": 100, "dx": 0.1, "dy": 0, "element": polygon})


def _many_sheets(sheets: dict[str, Any]) -> None:
    """Ten sheets of qty 500: 5,000 sheets besides the 66 cards (2,000 of them kept check busy for minutes)."""
    first = sheets["cards"][0]
    sheets["cards"] = [{**first, "id": f"sheet-{n}", "qty": 500} for n in range(10)]


def _many_components(game: dict[str, Any]) -> None:
    game["components"] += [{"id": f"copy-{n}", "kind": "deck", "cards": "cards.json", "layout": "layout.json"}
                           for n in range(62)]


def _one_big_file_named_often(game: Path) -> None:
    """cards.json padded to 1.9 MB (still the same JSON, each file under 2 MiB) and named by four more
    components: 64 such components were 64 parses of it, over 2 minutes and 2.8 GB."""
    cards = game / "cards.json"
    cards.write_text(cards.read_text(encoding="utf-8") + " " * 1_900_000, encoding="utf-8")
    edit("game.json", lambda d: d["components"].extend(
        {"id": f"copy-{n}", "kind": "deck", "cards": "cards.json", "layout": "layout.json"} for n in range(4)))(game)


def _figures_redrawn(book: dict[str, Any]) -> None:
    """6,000 figures of eight 天 cards: 48,000 cards drawn again, each with all its shapes (12 on a 天 front)."""
    book["blocks"] += [{"type": "figure", "cards": ["ten"] * 8}] * 6_000


def _undrawable_svg(game: Path) -> None:
    """Well-formed SVG with a viewBox (so the validator's XML check passes) that svglib cannot convert."""
    (game / "assets" / "cloud.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                               '<rect width="wide" height="5"/></svg>\n', encoding="utf-8")


@dataclass(frozen=True)
class Case:
    """One mistake: how to make it, and the error lines it must produce (each a tuple of fragments
    that must all appear on one line of stderr). `game` is the name passed on the command line."""

    @property
    def count(self) -> int:
        return len(self.lines) if self.problems is None else self.problems

    mutate: Callable[[Path], None] | None
    lines: tuple[tuple[str, ...], ...]
    game: str = "gogyo"
    problems: int | None = None  # issue lines in all; default: one per expected line (one mistake, one line)


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
    "nan-number": Case(
        replace_text("layout.json", '"bleed": 3, "safe": 3', '"bleed": NaN, "safe": 3'),
        (("layout.json:3:", "$.card.bleed", "NaN is not a JSON number"),)),
    "infinite-number": Case(
        replace_text("layout.json", '"bleed": 3, "safe": 3', '"bleed": 1e999, "safe": 3'),
        (("layout.json:3:", "$.card.bleed", "1e999 is not a JSON number"),)),
    "number-of-5000-digits": Case(
        replace_text("layout.json", '"bleed": 3, "safe": 3', '"bleed": ' + "9" * 5000 + ', "safe": 3'),
        (("layout.json:3:", "$.card.bleed", "a number of more than 30 digits"),)),
    "json-file-over-2-mib": Case(  # refused before parsing: a 6.4 MB cards.json took 42 s and 924 MB
        replace_text("cards.json", '"total": 66,\n', '"total": 66,' + " " * (2 * 1024 * 1024) + '\n'),
        (("cards.json:", "larger than 2,097,152 bytes, the limit for a deck JSON file"),)),
    "text-over-20000-characters": Case(  # bounds layout time: one string is measured and broken as a whole
        edit("cards.json", lambda d: d["cards"][TEN]["fields"].__setitem__("rule", "天" * 20_001)),
        (("cards.json:", f"$.cards[{TEN}].fields.rule", "more than 20,000 characters"),)),
    "dynasty-card-without-number": Case(  # found by tests/fuzz: the rules engine raised KeyError('number')
        edit("cards.json", lambda d: d["cards"][49]["fields"].pop("number")),
        (("game.json:", "$.rules:", "the gogyo rules cannot read the card data (no 'number' where the rules need one)"),
         ("game.json:", "$.simulation:", "cannot simulate: the gogyo rules cannot read the card data"),
         ("layout.json:", "$.templates.dynasty.elements[7].count:", "card 'yuan-water': card has no field 'number'")),
        problems=5),
    "rules-deleted": Case(  # found by tests/fuzz: the rules schema was applied to a missing value (KeyError)
        edit("game.json", lambda d: d.pop("rules")),
        (("game.json:1:1:", "$:", "'rules' is required; see schema/rules/gogyo.schema.json"),)),
    # --- output collisions (issue 12 item 10) ----------------------------------------------------
    "duplicate-component-id": Case(  # the second deck overwrote the first's cards.pdf, exit 0
        edit("game.json", lambda d: d["components"].append(dict(d["components"][0]))),
        (("game.json:", "$.components[3].id:", "component id 'cards' is used twice; each writes cards.pdf"),
         ("game.json:", "$.rules:", "132 cards do not fit the action encoding")),  # the engine sees both decks
        problems=3),
    "rulebook-named-like-a-deck-file": Case(
        edit("game.json", lambda d: d["components"][2].__setitem__("id", "cards-printshop")),
        (("game.json:", "$.components[2].id:",
          "component 'cards-printshop' would write cards-printshop.pdf, which component 'cards' writes too"),)),
    "component-named-report": Case(  # the simulation report overwrote its PDF
        edit("game.json", lambda d: d["components"][2].__setitem__("id", "report")),
        (("game.json:", "$.components[2].id:", "component id 'report' is reserved"),)),
    "nested-600-deep": Case(
        replace_text("cards.json", '"total": 66,\n', '"total": 66, "x": ' + "[" * 600 + "]" * 600 + ',\n'),
        (("cards.json", "$:", "nest deeper than 64 levels"),)),
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
    "colour-map-cmyk-over-100": Case(
        edit("game.json", lambda d: d["color_maps"]["element"].__setitem__("木", "cmyk(120,0,0,0)")),
        (("game.json:", "$.color_maps.element.木:", "CMYK percentages must be 0–100"),),
        problems=4),  # the map entry, then each of the 3 elements that use it
    "colour-map-key-missing": Case(
        edit("game.json", _remove_map_key),
        (("layout.json", "$.templates.dynasty.elements[0].fill:", "colour map 'element' has no entry for '水'"),),
        problems=3),  # once for each element that looks 水 up
    "text-format-spec-wrong": Case(
        edit("layout.json", lambda d: element(d, "frame", 4).__setitem__("text", "{reading:d}")),
        (("layout.json", "$.templates.frame.elements[4].text:",
          "field 'reading' cannot be formatted as {reading:d}"),)),
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
        (("cards.json:5:5:", "$.composition[0]:", "dynasty=清, element=水 appears 0 times, expected 1"),
         ("cards.json:3:12:", "$.total:", "declares 66 cards but defines 65"))),
    # --- assets ---------------------------------------------------------------------------------
    "image-missing": Case(
        _delete_seal,
        (("layout.json:", "$.templates.back.elements[18].src:", "'assets/seal.png' not found"),)),
    "image-corrupt": Case(
        _garbage_seal,
        (("layout.json:", "$.templates.back.elements[18].src:", "'assets/seal.png' is not a readable image"),)),
    "image-low-resolution": Case(
        _tiny_seal,
        (("layout.json:", "$.templates.back.elements[18].src:", "prints at 51 dpi", "20×20 px",
          "at least 300 dpi"),)),
    "svg-invalid": Case(
        _broken_svg,
        (("layout.json:", "$.templates.heaven.elements[4].src:", "'assets/cloud.svg' is not valid SVG"),)),
    "svg-undrawable": Case(  # passes `check` (valid XML); the generator must still refuse it cleanly
        _undrawable_svg,
        (("layout.json:", "$.templates.heaven.elements[4]:", "cloud.svg could not be drawn as SVG",
          "Can't convert 'wide' to length"),)),
    "path-data-malformed": Case(  # likewise: svglib, not the validator, parses path data
        edit("layout.json", lambda d: d["templates"]["frame"]["elements"].append(
            {"type": "path", "d": "M 0 0 L 10", "fill": "ink"})),
        (("layout.json", "$.templates.frame.elements[5]:", "path data 'M 0 0 L 10' could not be parsed"),)),
    "asset-is-a-folder": Case(
        edit("layout.json", lambda d: element(d, "back", 18).__setitem__("src", "assets")),
        (("layout.json", "$.templates.back.elements[18].src:", "'assets' is a folder, not a file"),)),
    "asset-leaves-deck": Case(
        edit("layout.json", lambda d: element(d, "heaven", 4).__setitem__("src", "../../etc/passwd")),
        (("layout.json", "$.templates.heaven.elements[4].src:", "'../../etc/passwd' leaves the deck folder"),)),
    "asset-absolute": Case(
        edit("layout.json", lambda d: element(d, "back", 18).__setitem__("src", "/etc/passwd")),
        (("layout.json", "$.templates.back.elements[18].src:", "'/etc/passwd' is absolute"),)),
    "cards-file-leaves-deck": Case(
        edit("game.json", lambda d: d["components"][0].__setitem__("cards", "../../etc/passwd")),
        (("game.json", "$.components[0].cards:", "leaves the deck folder"),)),
    # --- fonts and text -------------------------------------------------------------------------
    "glyph-missing": Case(
        set_field(TEN, "rule", "🀄をゲーム終了時に数える。"),
        (("layout.json:", "$.templates.heaven.elements[6].text:", "card 'ten'",
          "BIZUDGothic-Regular.ttf has no glyph for '🀄' (U+1F004)"),)),
    "text-overflow": Case(
        set_field(BATSU, "rule", LONG_RULE),
        (("layout.json:", "$.templates.faction.elements[7].text:", "card 'batsu'", "does not fit 38×14 mm at 6 pt"),)),
    "ruby-never-closed": Case(
        set_field(TEN, "rule", "ゲーム終了時、好きな王朝《おうちょう として数える。"),
        (("cards.json:", f"$.cards[{TEN}].fields.rule:", "card 'ten': field 'rule' at character 13",
          "《 of the reading over '王朝' is never closed by 》",
          "(printed by layout.json $.templates.heaven.elements[6].text)"),)),
    "ruby-empty-reading": Case(
        set_field(TEN, "rule", "ゲーム終了時、好きな｜王朝《》として数える。"),
        (("cards.json:", f"$.cards[{TEN}].fields.rule:", "empty reading 《》 over '王朝'"),)),
    "ruby-in-rulebook-unbalanced": Case(
        replace_text("rulebook.json", "これを五行《ごぎょう》と呼びます", "これを五行《ごぎょう と呼びます"),
        (("rulebook.json:", "ruby markup at character", "never closed by 》"),)),
    "builtin-font-unknown": Case(
        edit("game.json", lambda d: d["fonts"].__setitem__("mincho", "builtin:BIZUDMincho-Bold")),
        (("game.json", "$.fonts.mincho:", "no built-in font 'BIZUDMincho-Bold'", "BIZUDMincho-Regular"),)),
    "font-file-garbage": Case(
        _garbage_font,
        (("game.json", "$.fonts.gothic:", "'assets/gothic.ttf'", "not a readable TrueType font"),)),
    # --- what loading and drawing would cost (docs/security.md, Limits) ------------------------------
    "repeats-nested": Case(
        edit("layout.json", _nested_repeats),
        (("layout.json:", "$.templates.heaven.elements[7].count:",
          "card 'ten' would draw 1,600,000,012 shapes on one side, over the limit of 5,000"),)),
    "polygon-corners-repeated": Case(
        edit("layout.json", _polygons_repeated),
        (("layout.json:", "$.templates.frame.elements[5].count:",
          "card 'xia-wood' would draw 2,000,016 shapes on one side, over the limit of 5,000"),)),
    "printed-pieces-over-limit": Case(
        edit("score-sheets.json", _many_sheets),
        (("game.json:", "$.components[1].cards:", "with 'score-sheets.json' the game prints 5,066 cards and sheets",
          "over the limit of 5,000"),)),
    "composition-grid-of-10-billion": Case(  # a small file: the combinations were listed, 13 GB and no end
        edit("cards.json", lambda d: d["composition"][0].__setitem__(
            "grid", {f"k{n}": [str(v) for v in range(100)] for n in range(5)})),
        (("cards.json:", "$.composition[0].grid:", "王朝カード: the grid declares 10,000,000,000 combinations, "
          "more than the 5,000 cards a game may print"),)),
    "json-read-over-8-mib-in-all": Case(
        _one_big_file_named_often,
        (("game.json:", "$.components[6].cards:", "reading 'cards.json' (1,912,786 bytes) would take the JSON this "
          "game loads over 8,388,608 bytes (a file named by several components counts each time)"),)),
    "components-over-64": Case(
        edit("game.json", _many_components),
        (("game.json:", "$.components:", "65 items, where at most 64 are allowed"),)),
    "rulebook-figures-draw-too-much": Case(
        edit("rulebook.json", _figures_redrawn),
        (("rulebook.json:", "$.blocks[", "with this rulebook block the game would draw",
          "over the limit of 500,000"),)),
    # --- geometry -------------------------------------------------------------------------------
    "card-too-big-for-paper": Case(
        edit("layout.json", _big_card),
        (("layout.json", "$.card:", "250×280 mm card", "does not fit on 210×297 mm paper"),)),
}

# Cases also run through `fudaya check` (which never writes) — the same located line must appear.
CHECK_CASES = ["duplicate-key", "qty-as-string", "colour-map-key-missing", "colour-map-cmyk-over-100",
               "text-format-spec-wrong", "image-low-resolution", "composition-mismatch", "ruby-never-closed",
               "ruby-in-rulebook-unbalanced", "repeats-nested", "printed-pieces-over-limit",
               "composition-grid-of-10-billion"]


# --- the runs ---------------------------------------------------------------------------------


def run(args: list[str]) -> Result:
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


ISSUE_LINE = re.compile(r"\.json(:\d+:\d+|:\d+)?: \$\S*: \S")  # file[:line[:col]]: $.json.path: message
SUMMARY_LINE = re.compile(r"\w+: not built \(\d+ problems?\)")
PROGRESS_LINE = re.compile(r"\w+\s*")  # the progress bar's label, printed once the build has started


def assert_locations_are_real(stderr: str) -> None:
    """Every file:line:col printed is where the named JSON path (or its nearest existing parent) starts."""
    for line in stderr.splitlines():
        found = LOCATED.match(line)
        if not found or found["path"] == "$":
            continue
        try:
            doc = load_json(Path(found["file"]))  # the mutated file, as the user would open it
        except DeckError:
            continue  # unreadable JSON: its cases assert the exact line themselves
        pointer = json_pointer(found["path"])
        while pointer and pointer not in doc.positions:
            pointer = pointer.rsplit("/", 1)[0]
        assert doc.positions.get(pointer) == (int(found["line"]), int(found["col"])), line


def assert_one_line_issues(stderr: str, count: int) -> None:
    """Every line of stderr is a located issue, the summary or the progress label (nothing else),
    and there are exactly `count` issues."""
    issues = 0
    for line in stderr.splitlines():
        if line.strip() and not (SUMMARY_LINE.fullmatch(line) or PROGRESS_LINE.fullmatch(line)):
            assert ISSUE_LINE.search(line), f"not a located issue line: {line!r}"
            issues += 1
    assert issues == count, f"expected {count} issue lines, got {issues}:\n{stderr}"


def test_the_cases_aim_at_what_they_say() -> None:
    """The table edits cards and elements by index: fail here, plainly, if decks/gogyo is reshuffled."""
    cards = read_json(GOGYO / "cards.json")["cards"]
    assert [cards[i]["id"] for i in (QING_WATER, TEN, BATSU)] == ["qing-water", "ten", "batsu"]
    layout = read_json(GOGYO / "layout.json")
    aimed = {
        ("frame", 0): ("rect", "fill", "paper"), ("frame", 2): ("circle", "fill", "ink"),
        ("frame", 4): ("text", "text", "{reading}"), ("heaven", 4): ("svg", "src", "assets/cloud.svg"),
        ("heaven", 6): ("text", "text", "{rule}"), ("faction", 7): ("text", "text", "{rule}"),
        ("back", 18): ("image", "src", "assets/seal.png"),
    }
    for (template, index), (kind, key, value) in aimed.items():
        found = element(layout, template, index)
        assert (found["type"], found.get(key)) == (kind, value), (template, index, found)
    assert len(layout["templates"]["frame"]["elements"]) == 5  # path-data-malformed appends elements[5]
    assert layout["templates"]["dynasty"]["elements"][0]["fill"] == {"map": "element", "key": "{element}"}


@pytest.fixture(scope="module")
def good_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """A copy of gogyo built whole (reports too) into tmp/out, once for the module's tests that start from it."""
    tmp_path = tmp_path_factory.mktemp("good")
    decks = copy_decks(tmp_path, "gogyo")
    return tmp_path, run(["build", "gogyo", "--decks", str(decks), "--output", str(tmp_path / "out")])


@pytest.mark.slow
def test_unmutated_copy_checks_and_builds(good_build: tuple[Path, Result]) -> None:
    tmp_path, built = good_build
    decks = tmp_path / "decks"
    out = tmp_path / "out"
    for name in ("game", "cards", "layout"):  # the relative "$schema" reaches the real schema/ through the link
        assert check_declared_schema(load_json(decks / "gogyo" / f"{name}.json"), f"{name}.schema.json") == []
    checked = run(["check", "gogyo", "--decks", str(decks)])
    assert checked.exit_code == 0, checked.output
    assert "gogyo: ok (66 cards, 4 sheets)" in checked.stdout
    assert built.exit_code == 0, built.output
    assert not ISSUE_LINE.search(built.stderr), built.stderr  # no issue lines, not even warnings
    cache = out / ".cache" / "reports"  # reports kept for the next build, beside the games' folders
    names = {p.name for p in files_in(out) if cache not in p.parents}
    assert [p.name.split("-")[0] for p in files_in(cache)] == ["gogyo"]
    manifest = read_json(out / "gogyo" / "build.json")
    listed = {Path(f["file"]).name for f in manifest["files"]} | {Path(f).name for f in manifest["data_files"]}
    assert names == listed | {"build.json"}  # exactly the files build.json lists, nothing half-written
    assert {"cards.pdf", "cards-printshop.pdf"} <= names


@pytest.mark.parametrize("case", [pytest.param(c, id=name) for name, c in CASES.items()])
def test_build_refuses_bad_input(tmp_path: Path, case: Case) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    game = decks / "gogyo"
    if case.mutate is not None:
        case.mutate(game)
    before = snapshot(decks)
    out = tmp_path / "out"

    result = run(["build", case.game, "--decks", str(decks), "--output", str(out)])

    assert result.exit_code == 1, result.output
    assert_lines(result.stderr, case.lines)
    assert_one_line_issues(result.stderr, case.count)
    assert_locations_are_real(result.stderr)
    plural = "s" if case.count > 1 else ""
    assert f"{case.game}: not built ({case.count} problem{plural})" in result.stderr
    assert "wrote" not in result.stdout
    assert not out.exists() or files_in(out) == [], files_in(out)
    assert snapshot(decks) == before, "the build changed the deck folder"


@pytest.mark.parametrize("name", CHECK_CASES)
def test_check_reports_the_same_line(tmp_path: Path, name: str) -> None:
    case = CASES[name]
    decks = copy_decks(tmp_path, "gogyo")
    assert case.mutate is not None
    case.mutate(decks / "gogyo")
    before = snapshot(decks)

    result = run(["check", case.game, "--decks", str(decks)])

    assert result.exit_code == 1, result.output
    assert_lines(result.stderr, case.lines)
    assert_one_line_issues(result.stderr, case.count)
    assert_locations_are_real(result.stderr)
    assert f"gogyo: {case.count} problem" in result.stdout
    assert snapshot(decks) == before


def test_output_is_a_file(tmp_path: Path) -> None:
    """`--output cards.pdf` by mistake: a clear message, exit 1, and the file is left alone."""
    decks = copy_decks(tmp_path, "gogyo")
    target = tmp_path / "cards.pdf"
    target.write_bytes(b"%PDF-1.4 someone's file")

    result = run(["build", "gogyo", "--decks", str(decks), "--output", str(target)])

    assert result.exit_code == 1, result.output
    assert_lines(result.stderr, (("cards.pdf: --output names a file, not a folder",),))
    assert target.read_bytes() == b"%PDF-1.4 someone's file"
    assert sorted(p.name for p in files_in(tmp_path) if "decks" not in p.parts) == ["cards.pdf"]


@pytest.mark.slow
def test_failed_build_keeps_the_previous_output(good_build: tuple[Path, Result], tmp_path: Path) -> None:
    """A good build, then a broken deck: the second build fails and leaves the first one's files as they were.
    (The good build is the module's, copied with its deck: one whole build fewer.)"""
    assert good_build[1].exit_code == 0
    decks = copy_decks(tmp_path, "gogyo")
    out = tmp_path / "out"
    shutil.copytree(good_build[0] / "out", out, symlinks=True)
    good = snapshot(out)
    CASES["colour-unknown"].mutate(decks / "gogyo")  # type: ignore[misc]

    result = run(["build", "gogyo", "--decks", str(decks), "--output", str(out)])

    assert result.exit_code == 1
    assert_lines(result.stderr, CASES["colour-unknown"].lines)
    assert snapshot(out) == good


# --- folders and names on the command line (issue 12 items 7 and 10) ------------------------------


@pytest.mark.parametrize("command", [["build", "--no-report"], ["check"]])
def test_output_naming_a_file_or_a_read_only_folder(tmp_path: Path, command: list[str], monkeypatch) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    target = tmp_path / "cards.pdf"
    target.write_bytes(b"%PDF-1.4 someone's file")
    result = run([command[0], "gogyo", *command[1:], "--decks", str(decks), "--output", str(target)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert_lines(result.stderr, (("cards.pdf: --output names a file, not a folder",),))
    result = run([command[0], "gogyo", *command[1:], "--decks", str(decks), "--output", str(target / "sub")])
    assert result.exit_code == 1 and "Traceback" not in result.output  # a folder that cannot be made
    assert f"{target / 'sub'}: cannot write the " in result.stderr and "(Not a directory)" in result.stderr
    assert "gogyo:" not in result.stdout  # said before the game is checked or simulated, not after
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.geteuid() == 0:  # root may write into a read-only folder: the OS is asked as an ordinary user would be
        access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
            not mode & os.W_OK if Path(path) == locked else access(path, mode, **kw)))
    try:
        result = run([command[0], "gogyo", *command[1:], "--decks", str(decks), "--output", str(locked)])
    finally:
        locked.chmod(0o755)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Permission denied" in result.stderr


@pytest.mark.parametrize(("args", "expected"), [
    (["gogyo", "--decks", "decks\x00x"], "Invalid value for '--decks': a path cannot hold a NUL byte"),
    (["gogyo", "--output", "out\x00"], "Invalid value for '--output' / '-o': a path cannot hold a NUL byte"),
    (["../gogyo"], "'../gogyo': not a game name"),
    (["gogyo\x00"], "not a game name"),
    (["/etc"], "'/etc': not a game name"),
])
def test_bad_paths_and_names_on_the_command_line(tmp_path: Path, args: list[str], expected: str) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    for command in (["build", "--no-report"], ["check", "--no-simulate"]):
        full = [command[0], *args, *command[1:]]
        if "--decks" not in args:
            full += ["--decks", str(decks)]
        if "--output" not in args:
            full += ["--output", str(tmp_path / "out")]
        result = run(full)
        usage_error = "Invalid value" in expected  # Click's own refusal: exit 2, as for any bad option
        assert result.exit_code == (2 if usage_error else 1), result.output
        assert expected in result.stderr, result.stderr


@pytest.mark.parametrize(("args", "option"), [
    (["preflight", "cards\x00.pdf"], "'FILE.pdf'"),
    (["import", "gogyo", "cards\x00.csv"], "'FILE.csv|FILE.xlsx'"),
    (["new", "mine", "--decks", "decks\x00"], "'--decks'"),
    (["list", "--decks", "decks\x00"], "'--decks'"),
])
def test_every_path_on_the_command_line_refuses_a_nul_byte(tmp_path: Path, args: list[str], option: str) -> None:
    """Every command's path options and arguments, not only build's and check's: a usage error, nothing made."""
    result = run(args)
    assert result.exit_code == 2, result.output
    assert f"Invalid value for {option}: a path cannot hold a NUL byte" in result.stderr, result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("where", ["decks", "deck", "inside-deck", "decks-inside-output"])
def test_output_may_not_overwrite_a_deck(tmp_path: Path, where: str) -> None:
    """`--output` equal to `--decks` wrote into the deck folder and overwrote a source file."""
    decks = copy_decks(tmp_path, "gogyo")
    output = {"decks": decks, "deck": decks / "gogyo", "inside-deck": decks / "gogyo" / "assets",
              "decks-inside-output": tmp_path}[where]
    before = {p: p.read_bytes() for p in (decks / "gogyo").rglob("*") if p.is_file()}
    result = run(["build", "gogyo", "--no-report", "--decks", str(decks), "--output", str(output)])
    assert result.exit_code == 1, result.output
    assert "--output may not be the decks folder" in result.stderr or "may not lie inside --output" in result.stderr
    assert {p: p.read_bytes() for p in (decks / "gogyo").rglob("*") if p.is_file()} == before


def test_links_out_of_the_deck_are_not_followed(tmp_path: Path) -> None:
    """game.json and a layout linked to files outside the deck: refused, nothing read from there."""
    decks = copy_decks(tmp_path, "gogyo")
    outside = tmp_path / "elsewhere.json"
    outside.write_text((decks / "gogyo" / "layout.json").read_text(encoding="utf-8"), encoding="utf-8")
    (decks / "gogyo" / "layout.json").unlink()
    (decks / "gogyo" / "layout.json").symlink_to(outside)
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1
    assert_lines(result.stderr, (("game.json:", "asset path 'layout.json' leaves the deck folder"),))
    game_json = decks / "gogyo" / "game.json"
    outside.write_text(game_json.read_text(encoding="utf-8"), encoding="utf-8")
    game_json.unlink()
    game_json.symlink_to(outside)
    result = run(["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert result.exit_code == 1
    assert_lines(result.stderr, (("game.json: $: 'game.json' leaves the deck folder",),))


def test_an_unknown_game_names_the_folder_looked_in_and_the_way_out(tmp_path: Path) -> None:
    """Not a located issue: there is no file to name (the old line named a game.json that does not exist)."""
    decks = copy_decks(tmp_path, "gogyo")
    result = run(["build", "nosuch", "--decks", str(decks), "--output", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"nosuch: no such game in {decks} (games there: gogyo); --decks FOLDER "
                                          "reads the games of another folder"]
    assert not (tmp_path / "out").exists()
