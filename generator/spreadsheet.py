"""`fudaya import`: a spreadsheet, one row a card, becomes a deck's cards.json.

The first row names the columns. `id`, `face`, `back` and `qty` are the card's own keys (an `id`
left blank becomes the row's number, `qty` defaults to 1); every other column is a field, and a
blank cell leaves that field out. Numbers stay numbers: typed cells in .xlsx, and in .csv a cell
that reads as an integer or decimal without a leading zero. The deck's composition and total, if
its cards.json has them, are kept, so `fudaya check` holds the imported cards to what the
designer declared. A bad row is "file:row:column: what" and nothing is written.

Bounded before the work: the file's size (and an .xlsx's unpacked size, against zip bombs) and
the rows read.
"""
from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.limits import MAX_REPEAT, MAX_TEXT_CHARS

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
MAX_ROWS = 10_000
OWN_KEYS = ("id", "face", "back", "qty")
_INTEGER = re.compile(r"-?(0|[1-9]\d{0,14})")
_DECIMAL = re.compile(r"-?(0|[1-9]\d{0,14})\.\d{1,10}")
_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")


@dataclass(frozen=True)
class RowError(Exception):
    """One located problem: the file, the 1-based row and column (0 when it is the whole row)."""

    file: Path
    row: int
    column: int
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.row}:{self.column}: {self.what}"


def read_rows(path: Path) -> Iterator[tuple[int, list[Any]]]:
    """(row number, cells) of a .csv or .xlsx file's first sheet; RowError for what cannot be read."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise RowError(path, 0, 0, f"{size:,} bytes: larger than the {MAX_FILE_BYTES:,} a card list needs")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        text = path.read_bytes().decode("utf-8-sig", errors="strict")
        yield from enumerate(csv.reader(io.StringIO(text)), start=1)
    elif suffix == ".xlsx":
        yield from _xlsx_rows(path)
    else:
        raise RowError(path, 0, 0, f"{suffix or 'no suffix'}: import reads .csv (UTF-8) or .xlsx")


def _xlsx_rows(path: Path) -> Iterator[tuple[int, list[Any]]]:
    from openpyxl import load_workbook  # only for .xlsx

    try:
        with zipfile.ZipFile(path) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise RowError(path, 0, 0, "not an .xlsx workbook (not a zip archive)") from None
    if unpacked > MAX_UNPACKED_BYTES:
        raise RowError(path, 0, 0, f"unpacks to {unpacked:,} bytes, more than {MAX_UNPACKED_BYTES:,}")
    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises KeyError, ValueError… on a damaged workbook
        raise RowError(path, 0, 0, f"not a readable .xlsx workbook ({exc.__class__.__name__})") from None
    try:
        for number, row in enumerate(book.worksheets[0].iter_rows(values_only=True), start=1):
            yield number, list(row)
    finally:
        book.close()


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
    text = str(cell).strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    if _DECIMAL.fullmatch(text):
        return float(text)
    return text


def cards_from_rows(path: Path, rows: Iterator[tuple[int, list[Any]]], *, default_face: str) -> list[dict[str, Any]]:
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


def import_cards(source: Path, cards_file: Path, *, default_face: str) -> int:
    """Write `cards_file` from the spreadsheet at `source`; returns the number of cards (copies counted)."""
    cards = cards_from_rows(source, read_rows(source), default_face=default_face)
    document: dict[str, Any] = {"$schema": "../../schema/cards.schema.json"}
    if cards_file.is_file():
        document = json.loads(cards_file.read_text(encoding="utf-8"))  # keep $schema, composition, total
    document["cards"] = cards
    temporary = cards_file.with_name(f".{cards_file.name}.partial")
    temporary.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    temporary.replace(cards_file)
    return sum(card.get("qty", 1) for card in cards)


__all__ = ["RowError", "cards_from_rows", "import_cards", "read_rows"]
