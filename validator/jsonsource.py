"""Read a JSON file keeping the line and column of every value, so errors can point at them."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from json_source_map import calculate

from .issues import DeckError, Issue, Location


@dataclass(frozen=True)
class SourcedJson:
    """A parsed JSON document with 1-based (line, column) for every JSON pointer in it."""

    path: Path
    data: Any
    positions: dict[str, tuple[int, int]]

    def location(self, pointer: str = "") -> Location:
        """The nearest located ancestor of `pointer` (a missing key points at its parent)."""
        probe = pointer
        while probe and probe not in self.positions:
            probe = probe.rsplit("/", 1)[0]
        line, column = self.positions.get(probe, (None, None))
        return Location(self.path, pointer, line, column)


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def load_json(path: Path) -> SourcedJson:
    """Parse `path`; any failure becomes a DeckError with one located issue."""
    where = Location(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError([Issue(where, "missing-file", "file not found")]) from None
    except UnicodeDecodeError as exc:
        raise DeckError([Issue(where, "bad-encoding", f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise DeckError([Issue(where, "unreadable", f"cannot read file ({exc.strerror})")]) from None
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicate_keys)
    except json.JSONDecodeError as exc:
        at = Location(path, "", exc.lineno, exc.colno)
        raise DeckError([Issue(at, "invalid-json", f"invalid JSON: {exc.msg}")]) from None
    except _DuplicateKey as exc:
        line = _find_key_line(text, exc.key)
        at = Location(path, "", line, None)
        raise DeckError([Issue(at, "duplicate-key", f"key {exc.key!r} appears twice in one object")]) from None
    positions = {
        pointer: (entry.value_start.line + 1, entry.value_start.column + 1)
        for pointer, entry in calculate(text).items()
    }
    return SourcedJson(path, data, positions)


def _find_key_line(text: str, key: str) -> int | None:
    """Line of the second occurrence of `"key":` — good enough to lead the reader to it."""
    needle = json.dumps(key)
    hits = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return hits[1] if len(hits) > 1 else (hits[0] if hits else None)
