"""`fudaya import`: a spreadsheet's rows become a component's cards (CSV and .xlsx), the declared
composition stays to be checked, and a bad cell is one "file:row:column: what" line with nothing written."""
from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook
from typer.testing import CliRunner

from generator.cli import app

HEADER = ["id", "qty", "colour", "name", "value", "text"]
ROWS = [[f"{colour}-{v}", 1, colour, kanji, v, f"{kanji}の{v}"]
        for colour, kanji in (("red", "赤"), ("blue", "青"), ("green", "緑")) for v in range(1, 5)]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    runner = CliRunner()
    assert runner.invoke(app, ["new", "mygame", "--decks", str(tmp_path / "decks")]).exit_code == 0
    return tmp_path / "decks"


def _csv(path: Path, rows: list[list[object]]) -> Path:
    path.write_text("\n".join(",".join("" if c is None else str(c) for c in row) for row in rows) + "\n",
                    encoding="utf-8")
    return path


def _import(decks: Path, source: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["import", "mygame", str(source), "--decks", str(decks)])
    return result.exit_code, result.output


def test_a_csv_replaces_the_cards_and_the_game_still_checks(game: Path, tmp_path: Path) -> None:
    code, output = _import(game, _csv(tmp_path / "cards.csv", [HEADER, *ROWS]))
    assert code == 0 and "12 cards" in output, output
    cards = json.loads((game / "mygame" / "cards.json").read_text(encoding="utf-8"))
    assert cards["total"] == 12 and cards["composition"]  # the designer's declarations are kept
    assert cards["cards"][0] == {"id": "red-1", "face": "face", "qty": 1,
                                 "fields": {"colour": "red", "name": "赤", "value": 1, "text": "赤の1"}}
    checked = CliRunner().invoke(app, ["check", "mygame", "--no-simulate", "--decks", str(game)])
    assert checked.exit_code == 0, checked.output


def test_an_xlsx_keeps_typed_numbers_and_leading_zeros_in_text(game: Path, tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(HEADER)
    for row in ROWS:
        sheet.append(row)
    sheet.append(["green-9", 2, "green", "緑", 9.0, "001"])
    book.save(tmp_path / "cards.xlsx")
    code, output = _import(game, tmp_path / "cards.xlsx")
    assert code == 0 and "14 cards" in output, output  # 12 + two copies
    last = json.loads((game / "mygame" / "cards.json").read_text(encoding="utf-8"))["cards"][-1]
    assert last == {"id": "green-9", "face": "face", "qty": 2,
                    "fields": {"colour": "green", "name": "緑", "value": 9, "text": "001"}}
    checked = CliRunner().invoke(app, ["check", "mygame", "--no-simulate", "--decks", str(game)])
    assert "declares 12 cards but defines 14" in checked.output  # held to the declared composition


@pytest.mark.parametrize(("rows", "where", "what"), [
    ([HEADER, ["red-1", 0, "red", "赤", 1, "x"]], "2:2", "qty 0: a whole number of copies from 1 to 200"),
    ([HEADER, ["red-1", 1, "red", "赤", 1, "x"], ["red-1", 1, "red", "赤", 2, "y"]], "3:1",
     "id 'red-1' again (row 2 has it)"),
    ([["id", "name", "name"], ["a", "x", "y"]], "1:3", "column 'name' appears twice"),
    ([["id", "name"], ["a", "x", "stray"]], "2:3", "a value in a column the header does not name"),
    ([["id", "name"], ["Red 1", "x"]], "2:1", "id 'Red 1': lower-case letters, digits, - and _ only"),
    ([HEADER], "2:0", "no cards: only the header row"),
])
def test_a_bad_cell_is_located_and_nothing_is_written(game: Path, tmp_path: Path, rows: list[list[object]],
                                                      where: str, what: str) -> None:
    before = (game / "mygame" / "cards.json").read_bytes()
    source = _csv(tmp_path / "bad.csv", rows)
    code, output = _import(game, source)
    assert code == 1 and output.strip() == f"{source}:{where}: {what}"
    assert (game / "mygame" / "cards.json").read_bytes() == before


def test_unreadable_and_oversized_workbooks_are_refused(game: Path, tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (60 * 1024 * 1024))
    code, output = _import(game, bomb)
    assert code == 1 and "unpacks to 62,914,560 bytes, more than 52,428,800" in output
    fake = tmp_path / "fake.xlsx"
    fake.write_text("not a zip", encoding="utf-8")
    assert "not an .xlsx workbook" in _import(game, fake)[1]
    other = tmp_path / "cards.ods"
    other.write_text("x", encoding="utf-8")
    assert ".ods: import reads .csv (UTF-8, UTF-16 or Shift_JIS) or .xlsx" in _import(game, other)[1]


# --- a shared deck is untrusted: import never writes outside it, never a traceback (issue 23) ---------

def _manifest(decks: Path) -> tuple[Path, dict[str, object]]:
    path = decks / "mygame" / "game.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


def test_a_cards_path_outside_the_deck_is_refused_and_the_file_there_untouched(game: Path, tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text('{"keep": true}', encoding="utf-8")
    path, manifest = _manifest(game)
    for target in (str(settings), "../../settings.json"):
        manifest["components"][0]["cards"] = target  # type: ignore[index]
        path.write_text(json.dumps(manifest), encoding="utf-8")
        code, output = _import(game, _csv(tmp_path / "cards.csv", [HEADER, *ROWS]))
        assert code == 1 and "$.components[0].cards" in output and "leaves the deck folder" in output, output
        assert "Traceback" not in output
        assert settings.read_text(encoding="utf-8") == '{"keep": true}'


def test_links_planted_at_the_cards_file_or_a_temporary_name_are_replaced_not_written_through(
        game: Path, tmp_path: Path) -> None:
    outside = tmp_path / "victim.json"
    outside.write_text("precious", encoding="utf-8")
    deck = game / "mygame"
    (deck / ".cards.json.partial").symlink_to(outside)
    code, output = _import(game, _csv(tmp_path / "cards.csv", [HEADER, *ROWS]))
    assert code == 0, output
    assert outside.read_text(encoding="utf-8") == "precious"
    assert not (deck / "cards.json").is_symlink()


@pytest.mark.parametrize("name", ["../x", "..", "a/b", "My Game", "x\n"])
def test_a_game_name_that_is_a_path_is_refused(game: Path, tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(app, ["import", name, str(_csv(tmp_path / "c.csv", [HEADER, *ROWS])),
                                      "--decks", str(game)])
    assert result.exit_code == 1 and "not a game name" in result.output


@pytest.mark.parametrize("content", ["[]", "{", '{"id": "mygame"}', '"text"', "[" * 70])
def test_a_game_json_that_is_not_a_game_is_located_errors(game: Path, tmp_path: Path, content: str) -> None:
    (game / "mygame" / "game.json").write_text(content, encoding="utf-8")
    code, output = _import(game, _csv(tmp_path / "cards.csv", [HEADER, *ROWS]))
    assert code == 1 and "Traceback" not in output
    assert all("game.json" in line for line in output.strip().splitlines()), output


def test_an_oversized_csv_cell_is_one_located_line(game: Path, tmp_path: Path) -> None:
    source = tmp_path / "big.csv"
    source.write_text("id,text\nx,\"" + "あ" * 200_000 + "\"\n", encoding="utf-8")
    code, output = _import(game, source)
    assert code == 1 and output.startswith(f"{source}:2:0: not a readable CSV row"), output


@pytest.mark.parametrize(("encoding", "bom", "read_as"), [
    ("utf-8", b"", "utf-8"), ("utf-8", b"\xef\xbb\xbf", "utf-8"), ("cp932", b"", "cp932"),
    ("utf-16-le", b"\xff\xfe", "utf-16"), ("utf-16-be", b"\xfe\xff", "utf-16")])
def test_a_sheet_as_japanese_excel_saves_it_is_read_and_wide_spaces_kept(game: Path, tmp_path: Path, encoding: str,
                                                                         bom: bytes, read_as: str) -> None:
    """Excel on Japanese Windows saves "CSV" as Shift_JIS (cp932), "CSV UTF-8" with a BOM, "Unicode text" as
    UTF-16 with tabs. A full-width space is content (an indent, a gap in a name): only ASCII spaces are trimmed."""
    separator = "\t" if encoding.startswith("utf-16") else ","
    text = separator.join(["id", "name", "text"]) + "\n" + separator.join(["x", " 髙橋　一二三 ", "　字下げ"]) + "\n"
    source = tmp_path / "cards.csv"
    source.write_bytes(bom + text.encode(encoding))
    code, output = _import(game, source)
    assert code == 0, output
    assert output.splitlines()[0].endswith(f"1 card from {source}, read as {read_as}"), output
    fields = json.loads((game / "mygame" / "cards.json").read_text(encoding="utf-8"))["cards"][0]["fields"]
    assert fields == {"name": "髙橋　一二三", "text": "　字下げ"}


def test_a_sheet_in_no_encoding_import_reads_names_the_encodings_tried(game: Path, tmp_path: Path) -> None:
    source = tmp_path / "latin.csv"
    source.write_bytes(b"id,name\nx,ok\ny,caf\xe9,\xff\n")
    cards = game / "mygame" / "cards.json"
    before = cards.read_bytes()
    code, output = _import(game, source)
    assert code == 1
    assert output.splitlines() == [f"{source}:3:0: not text in an encoding import reads: tried utf-8 (fails on row 3), "
                                   "cp932 (fails on row 3), and UTF-16 needs its byte order mark; save the sheet as "
                                   "'CSV UTF-8'"]
    assert cards.read_bytes() == before  # refused whole: not its first, readable row either (a search for the
    # row's "ok" in the file also found the folder's name, when the checkout's path held those letters)


@pytest.mark.parametrize("part", ["xl/workbook.xml", "xl/worksheets/sheet1.xml", "xl/_rels/workbook.xml.rels",
                                  "[Content_Types].xml"])
def test_a_workbook_with_a_broken_part_is_one_line(game: Path, tmp_path: Path, part: str) -> None:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in [HEADER, *ROWS]:
        sheet.append(row)
    good = tmp_path / "good.xlsx"
    book.save(good)
    broken = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(broken, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            target.writestr(info, data[: len(data) // 2] if info.filename == part else data)
    code, output = _import(game, broken)
    assert "Traceback" not in output and output.count("\n") <= 2, output
    assert code == 1 and f"{broken}:" in output, output


def test_a_fifo_named_as_the_spreadsheet_is_refused_without_waiting(game: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    code, output = _import(game, fifo)
    assert code == 1 and "not a regular file" in output, output


@pytest.fixture
def two_kinds(game: Path) -> Path:
    """The starter game with a second card kind, `tokens`, whose layout prints {label}, a field its cards file
    derives from the spreadsheet's columns ({name}{value})."""
    folder = game / "mygame"
    manifest = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    manifest["components"].append({"id": "tokens", "kind": "deck", "title": "トークン", "cards": "tokens.json",
                                   "layout": "tokens-layout.json"})
    (folder / "game.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    layout = (folder / "layout.json").read_text(encoding="utf-8").replace('"text": "{name}"', '"text": "{label}"')
    assert '"{label}"' in layout
    (folder / "tokens-layout.json").write_text(layout, encoding="utf-8")
    schema = json.loads((folder / "cards.json").read_text(encoding="utf-8"))["$schema"]
    (folder / "tokens.json").write_text(json.dumps({
        "$schema": schema, "derived": {"label": "{name}{value}"},
        "cards": [{"id": "placeholder", "face": "face", "fields": {"label": "仮"}}]}, ensure_ascii=False),
        encoding="utf-8")
    return game


def test_one_sheet_feeds_two_card_kinds_by_its_component_column(two_kinds: Path, tmp_path: Path) -> None:
    rows = [["component", *HEADER]] + [["cards tokens" if row[4] == 1 else "cards", *row] for row in ROWS]
    code, output = _import(two_kinds, _csv(tmp_path / "both.csv", rows))
    assert code == 0, output
    assert [line.split(": ")[1].split(" from")[0] for line in output.splitlines()[:2]] == ["12 cards", "3 cards"]
    tokens = json.loads((two_kinds / "mygame" / "tokens.json").read_text(encoding="utf-8"))
    assert tokens["derived"] == {"label": "{name}{value}"}  # the cards file's own keys are kept
    assert [card["id"] for card in tokens["cards"]] == ["red-1", "blue-1", "green-1"]
    assert all("component" not in card["fields"] for card in tokens["cards"])
    from validator.loader import load_game

    game = load_game(two_kinds, "mygame")
    labels = [card.fields["label"] for deck in game.decks if deck.id == "tokens" for card in deck.cards]
    assert labels == ["赤1", "青1", "緑1"]
    checked = CliRunner().invoke(app, ["check", "mygame", "--no-simulate", "--decks", str(two_kinds)])
    assert checked.exit_code == 0, checked.output


def test_a_row_naming_no_such_component_is_located_and_nothing_written(two_kinds: Path, tmp_path: Path) -> None:
    before = (two_kinds / "mygame" / "cards.json").read_text(encoding="utf-8")
    rows = [["id", "component", "name"], ["a", "cards", "甲"], ["b", "cards tokenz", "乙"]]
    source = _csv(tmp_path / "bad.csv", rows)
    code, output = _import(two_kinds, source)
    assert code == 1
    assert output.splitlines() == [f"{source}:3:2: component 'tokenz': not a deck or sheet of this game (one of: "
                                   "cards, tokens)"]
    assert (two_kinds / "mygame" / "cards.json").read_text(encoding="utf-8") == before


def test_a_derived_field_naming_a_missing_field_is_located_in_the_cards_file(two_kinds: Path) -> None:
    path = two_kinds / "mygame" / "tokens.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["derived"] = {"title": "{nmae}の札"}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    checked = CliRunner().invoke(app, ["check", "mygame", "--no-simulate", "--decks", str(two_kinds)])
    assert checked.exit_code == 1
    [line] = [line for line in checked.stderr.splitlines() if "derived" in line]
    assert line.startswith(f"{path}:1:") and line.endswith(": $.derived.title: card 'placeholder' (/cards/0): card has "
                                                             "no field 'nmae'")
