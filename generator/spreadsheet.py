"""`fudaya import`: a spreadsheet, one row a card, becomes a deck's cards.json (or several decks').

The first row names the columns. `id`, `face`, `back` and `qty` are the card's own keys (an `id`
left blank becomes the row's number, `qty` defaults to 1); a `component` column sends each row to the
components it names (one or several: a row can print on two card kinds, each cards file deriving the
fields its layout needs with "derived" templates); every other column is a field, and a blank cell
leaves that field out. Numbers stay numbers: typed cells in .xlsx, and in .csv a cell that reads as an
integer or decimal without a leading zero. Only ASCII spaces are trimmed from a cell: a full-width space
(U+3000) is content in a Japanese layout. A .csv is read as its byte order mark says (UTF-8, UTF-16),
else as UTF-8, else as Shift_JIS the way Windows writes it (cp932, what Excel on Japanese Windows saves);
the command says which. The deck's composition and total, if its cards.json has them, are kept, so
`fudaya check` holds the imported cards to what the designer declared. A bad row is "file:row:column:
what" and nothing is written.

Bounded before the work: the file's size (and an .xlsx's unpacked size, against zip bombs) and
the rows read.
"""
from __future__ import annotations

import codecs
import csv
import io
import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.deckfs import ConfinedError, read_named_file, resolve, write_bytes
from validator.issues import DeckError, Issue
from validator.jsonsource import SourcedJson, load_json
from validator.limits import MAX_REPEAT, MAX_TEXT_CHARS

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 10_000
OWN_KEYS = ("id", "face", "back", "qty")
ROUTE = "component"  # a column naming the component(s) a row becomes a card of
_INTEGER = re.compile(r"-?(0|[1-9]\d{0,14})")
_DECIMAL = re.compile(r"-?(0|[1-9]\d{0,14})\.\d{1,10}")
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")
ASCII_SPACE = " \t\r\n\f\v"


@dataclass(frozen=True)
class RowError(Exception):
    """One located problem: the file, the 1-based row and column (0 when it is the whole row)."""

    file: Path
    row: int
    column: int
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.row}:{self.column}: {self.what}"


def read_sheet(path: Path) -> tuple[list[tuple[int, list[Any]]], str]:
    """(row number, cells) of a .csv or .xlsx file's first sheet, at most MAX_ROWS + 1 of them past the header,
    and how it was read ("xlsx" or the CSV's encoding); RowError for what cannot be read."""
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise RowError(path, 0, 0, f"{suffix or 'no suffix'}: import reads .csv (UTF-8, UTF-16 or Shift_JIS) or "
                                   ".xlsx")
    try:
        data = read_named_file(path, MAX_FILE_BYTES)
    except ConfinedError as exc:
        reason = f"larger than the {MAX_FILE_BYTES:,} bytes a card list needs" if exc.kind == "too-large" \
            else str(exc)
        raise RowError(path, 0, 0, reason) from None
    if suffix == ".csv":
        text, how = decode_sheet(path, data)
        rows = _csv_rows(path, text)
    else:
        rows, how = _xlsx_rows(path, data), "xlsx"
    found = []
    for number, cells in rows:
        if number > MAX_ROWS + 2:  # the header, MAX_ROWS cards, and one more to say there are too many
            break
        found.append((number, cells))
    return found, how


BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
GUESSED = ("utf-8", "cp932")  # without a BOM: UTF-8, else what Excel on Japanese Windows saves (Shift_JIS)


def decode_sheet(path: Path, data: bytes) -> tuple[str, str]:
    """The text of a CSV file and the encoding it was read as: the one its BOM names (UTF-8, UTF-16), else
    UTF-8, else Shift_JIS as Windows writes it (cp932). RowError at the first undecodable row otherwise."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding, errors="strict"), encoding.removesuffix("-sig")
            except UnicodeDecodeError as exc:
                row = data[:exc.start].decode(encoding, errors="ignore").count("\n") + 1
                raise RowError(path, row, 0, f"starts as {encoding.removesuffix('-sig').upper()} (its byte order "
                                             "mark) but is not: save the sheet as 'CSV UTF-8'") from None
    failures = []
    for encoding in GUESSED:
        try:
            return data.decode(encoding, errors="strict"), encoding
        except UnicodeDecodeError as exc:
            failures.append((encoding, data[:exc.start].count(b"\n") + 1))
    tried = ", ".join(f"{name} (fails on row {row})" for name, row in failures)
    raise RowError(path, failures[0][1], 0, f"not text in an encoding import reads: tried {tried}, and UTF-16 "
                                            "needs its byte order mark; save the sheet as 'CSV UTF-8'")


def _csv_rows(path: Path, text: str) -> Iterator[tuple[int, list[Any]]]:
    header = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in header and "," not in header else ","  # Excel's "Unicode text" is tab-separated
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    number = 0
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # a cell over csv's field limit (131,072 characters), a NUL character
            raise RowError(path, reader.line_num, 0, f"not a readable CSV row ({exc})") from None
        number += 1
        yield number, cells


def _xlsx_rows(path: Path, data: bytes) -> Iterator[tuple[int, list[Any]]]:
    from openpyxl import load_workbook  # only for .xlsx

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise RowError(path, 0, 0, "not an .xlsx workbook (not a zip archive)") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise RowError(path, 0, 0, f"unpacks to {unpacked:,} bytes, more than {MAX_UNPACKED_BYTES:,}")
    number = 0
    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            if not book.worksheets:
                raise RowError(path, 0, 0, "the workbook has no worksheet")
            for number, row in enumerate(book.worksheets[0].iter_rows(values_only=True), start=1):
                yield number, list(row)
        finally:
            book.close()
    except RowError:
        raise
    except Exception as exc:  # openpyxl and the XML and zip readers raise many types on a damaged workbook
        raise RowError(path, number + 1 if number else 0, 0,
                       f"not a readable .xlsx workbook ({exc.__class__.__name__})") from None


def _value(cell: Any) -> Any:
    """A cell as JSON: numbers stay numbers, text is stripped, a blank is None."""
    if cell is None:
        return None
    if isinstance(cell, bool):
        return cell
    if isinstance(cell, float) and cell.is_integer():
        return int(cell)
    if isinstance(cell, (int, float)):
        return cell
    text = str(cell).strip(ASCII_SPACE)  # U+3000 and other wide spaces are content in a Japanese layout
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    return text


def cards_from_rows(path: Path, rows: Iterable[tuple[int, list[Any]]], *, default_face: str) -> list[dict[str, Any]]:
    """The card objects of cards.json, in row order; RowError for the first bad cell."""
    header: list[str] = []
    cards: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for number, cells in rows:
        if number > MAX_ROWS + 1:
            raise RowError(path, number, 0, f"more than {MAX_ROWS:,} cards")
        values = [_value(cell) for cell in cells]
        if not header:
            header = [str(v) if v is not None else "" for v in values]
            for column, name in enumerate(header, start=1):
                if not name:
                    raise RowError(path, number, column, "a column without a name in the header row")
                if header.index(name) != column - 1:
                    raise RowError(path, number, column, f"column {name!r} appears twice")
            continue
        if all(v is None for v in values):
            continue  # a blank line between groups of cards
        stray = next((i for i in range(len(header), len(values)) if values[i] is not None), None)
        if stray is not None:
            raise RowError(path, number, stray + 1, "a value in a column the header does not name")
        card: dict[str, Any] = {}
        fields: dict[str, Any] = {}
        for column, (name, value) in enumerate(zip(header, values), start=1):
            if value is None:
                continue
            if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
                raise RowError(path, number, column, f"{len(value):,} characters: longer than {MAX_TEXT_CHARS:,}")
            if name == ROUTE:
                continue  # which components the row goes to: read by rows_by_component
            if name in OWN_KEYS:
                card[name] = _own(path, number, column, name, value)
            else:
                fields[name] = value
        card.setdefault("id", f"card-{number - 1:03d}")
        if card["id"] in seen:
            raise RowError(path, number, header.index("id") + 1 if "id" in header else 0,
                           f"id {card['id']!r} again (row {seen[card['id']]} has it)")
        seen[card["id"]] = number
        card.setdefault("face", default_face)
        cards.append({key: card[key] for key in ("id", "face", "back", "qty") if key in card} | {"fields": fields})
    if not header:
        raise RowError(path, 1, 0, "empty: the first row must name the columns (id, qty and the fields)")
    if not cards:
        raise RowError(path, 2, 0, "no cards: only the header row")
    return cards


def _own(path: Path, row: int, column: int, name: str, value: Any) -> Any:
    if name == "qty":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_REPEAT:
            raise RowError(path, row, column, f"qty {value!r}: a whole number of copies from 1 to {MAX_REPEAT}")
        return value
    text = str(value)
    if not _ID.fullmatch(text):
        raise RowError(path, row, column, f"{name} {text!r}: lower-case letters, digits, - and _ only")
    return text


def rows_by_component(path: Path, rows: list[tuple[int, list[Any]]], known: list[str],
                      only: str | None) -> dict[str, list[tuple[int, list[Any]]]]:
    """The sheet's rows for each component they go to, the header row first in each.

    Without a `component` column every row goes to `only` (or the first of `known`). With one, each row
    goes to every component its cell names (ids separated by commas or spaces: one row can print on two
    card kinds), or only to `only` when given; a blank cell, or an id not in `known`, is a RowError."""
    if not rows:
        raise RowError(path, 1, 0, "empty: the first row must name the columns (id, qty and the fields)")
    header_number, header = rows[0]
    names = [str(_value(cell) or "") for cell in header]
    if ROUTE not in names:
        return {only or known[0]: rows}
    column = names.index(ROUTE)
    grouped: dict[str, list[tuple[int, list[Any]]]] = {}
    for number, cells in rows[1:]:
        if all(_value(cell) is None for cell in cells):
            continue
        cell = _value(cells[column]) if column < len(cells) else None
        targets = [t for t in re.split(r"[,\s]+", str(cell or "")) if t]
        if not targets:
            raise RowError(path, number, column + 1, f"no component named (one of: {', '.join(known)})")
        for target in targets:
            if target not in known:
                raise RowError(path, number, column + 1,
                               f"component {target!r}: not a deck or sheet of this game (one of: {', '.join(known)})")
            if only in (None, target):
                grouped.setdefault(target, [(header_number, header)]).append((number, cells))
    if not grouped:
        raise RowError(path, header_number + 1, column + 1, f"no row names component {only!r}")
    return grouped


@dataclass(frozen=True)
class Imported:
    """One component's cards file, written from the sheet."""

    component: str
    cards_file: Path
    count: int  # cards, copies counted


def import_into_game(folder: Path, source: Path, component: str | None) -> tuple[list[Imported], str]:
    """Import `source` into the game in `folder`: its first deck or sheet, `component`, or each component a
    `component` column names. Returns what was written and how the sheet was read (its encoding, or xlsx).

    game.json is read and schema-checked like any deck file, and the cards and layout files it names must lie
    inside the deck: DeckError located in game.json otherwise. Every component's cards are made from the rows
    before any file is written, so a bad cell anywhere writes nothing. Each cards file keeps its other keys
    ($schema, fields, derived, composition, total) and is replaced whole through the confined file layer."""
    from validator import schema  # the import command only

    manifest = load_json(folder / "game.json", root=folder)
    problems = schema.validate(manifest, "game.schema.json")
    if problems:
        raise DeckError(problems)
    parts = {str(c["id"]): i for i, c in enumerate(manifest.data["components"]) if c["kind"] in ("deck", "sheet")}
    if component is not None and component not in parts:
        known = ", ".join(parts) or "none"
        raise DeckError([Issue(manifest.location("/components"), "unknown-component",
                               f"no deck or sheet component {component!r} (components: {known})")])
    if not parts:
        raise DeckError([Issue(manifest.location("/components"), "unknown-component", "no deck or sheet component")])
    rows, how = read_sheet(source)
    documents: list[tuple[str, dict[str, Any], int]] = []
    for target, target_rows in rows_by_component(source, rows, list(parts), component).items():
        index = parts[target]
        existing, face = _component_files(folder, manifest, index)
        cards = cards_from_rows(source, target_rows, default_face=face)
        document: dict[str, Any] = dict(existing) if existing else {"$schema": "../../schema/cards.schema.json"}
        document["cards"] = cards
        documents.append((target, document, sum(card.get("qty", 1) for card in cards)))
    written = []
    for target, document, count in documents:
        text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
        name = str(manifest.data["components"][parts[target]]["cards"])  # as import_cards always wrote it
        write_bytes(folder, name, text.encode("utf-8"))
        written.append(Imported(target, folder / name, count))
    return written, how


def _component_files(folder: Path, manifest: SourcedJson, index: int) -> tuple[dict[str, Any] | None, str]:
    """What a component's cards file holds now (if it exists), and the face template new cards get."""
    layout = load_json(_named_file(folder, manifest, f"/components/{index}/layout"), root=folder)
    cards_path = _named_file(folder, manifest, f"/components/{index}/cards", must_exist=False)
    existing = load_json(cards_path, root=folder) if cards_path.is_file() else None
    for doc in (layout, existing):
        if doc is not None and not isinstance(doc.data, dict):
            raise DeckError([Issue(doc.location(), "schema", "not a JSON object: check the game first")])
    templates = layout.data.get("templates")
    cards_list = existing.data.get("cards") if existing is not None else None
    face = next((c.get("face") for c in cards_list if isinstance(c, dict) and isinstance(c.get("face"), str)),
                None) if isinstance(cards_list, list) else None
    if face is None:
        face = next(iter(templates), "front") if isinstance(templates, dict) else "front"
    return existing.data if existing is not None else None, str(face)


def _named_file(folder: Path, manifest: SourcedJson, pointer: str, *, must_exist: bool = True) -> Path:
    """The deck file game.json names at `pointer`, resolved inside the deck; DeckError located there otherwise."""
    value = manifest.data
    for token in pointer.split("/")[1:]:
        value = value[int(token) if isinstance(value, list) else token]
    try:
        return resolve(folder, str(value), must_exist=must_exist)
    except ConfinedError as exc:
        raise DeckError([Issue(manifest.location(pointer), "asset-outside-deck", str(exc))]) from None


__all__ = ["Imported", "RowError", "cards_from_rows", "import_into_game", "read_sheet", "rows_by_component"]
