"""User-facing problems with a deck: located, collected, rendered one per line."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """A place in a deck file: the file, a JSON pointer and (when known) line and column, 1-based.

    `positions` (pointer -> line, column of the whole file, when read from one) lets `child` find
    the exact line of a nested value instead of repeating its parent's.
    """

    file: Path
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    positions: Mapping[str, tuple[int, int]] | None = field(default=None, compare=False, repr=False)

    def child(self, key: str | int, positions: Mapping[str, tuple[int, int]] | None = None) -> Location:
        positions = self.positions if positions is None else positions
        pointer = f"{self.pointer}/{_escape(str(key))}"
        line, column = (positions or {}).get(pointer, (self.line, self.column))
        return Location(self.file, pointer, line, column, positions)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def json_path(pointer: str) -> str:
    """Render a JSON pointer ('/cards/3/id') as a JSON path ('$.cards[3].id') for people."""
    out = "$"
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        out += f"[{token}]" if token.isdigit() else f".{token}"
    return out


@dataclass(frozen=True)
class Issue:
    """One finding. `code` is a stable short name tests and tools can match on."""

    location: Location
    code: str
    message: str
    severity: str = "error"

    def render(self, root: Path | None = None) -> str:
        file = self.location.file if root is None else shown_path(self.location.file, root)
        where = str(file)
        if self.location.line is not None:
            where += f":{self.location.line}"
            if self.location.column is not None:
                where += f":{self.location.column}"
        return _printable(f"{where}: {json_path(self.location.pointer)}: {_clipped(self.message)}")


def shown_path(file: Path, root: Path) -> Path:
    """`file` relative to `root` when it lies inside it, else as given; a link loop on the way (a deck may
    hold one) leaves it as given rather than raising."""
    try:
        return file.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return file


MAX_MESSAGE_CHARS = 300  # a message quoting a deck's 20,000-character text stays one readable line


def _clipped(message: str) -> str:
    """The message with its middle cut out when too long, keeping the start (what) and the end (why)."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    head = MAX_MESSAGE_CHARS * 2 // 3
    return f"{message[:head]} … {message[-(MAX_MESSAGE_CHARS - head - 3):]}"


# Characters that would break the one line (NEL, U+2028, form feed…) or disguise it (bidi controls)
# when a message quotes deck data; shown escaped instead.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")


def _printable(line: str) -> str:
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), line)


def one_line(text: str, limit: int = 200) -> str:
    """Text from a file (or a library about it) safe on one line of a message: what would break or disguise
    the line escaped, the tail cut when longer than `limit` characters."""
    text = _printable(text)
    return text if len(text) <= limit else text[:limit] + "…"


def shown(text: str, limit: int = 40) -> str:
    """`text` quoted for a message, its tail cut when longer than `limit` characters."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


@dataclass
class CheckResult:
    """Every issue found for one game, best (first found, most basic) first."""

    game: str
    issues: list[Issue] = field(default_factory=list)

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


class DeckError(Exception):
    """Raised when a deck cannot be loaded at all; carries the issues that stopped it."""

    def __init__(self, issues: list[Issue]):
        super().__init__(issues[0].message if issues else "invalid deck")
        self.issues = issues
