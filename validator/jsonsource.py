"""Read a JSON file keeping the line and column of every value, so errors can point at them."""
from __future__ import annotations

import json
import json.decoder
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from json_source_map import calculate

from .issues import DeckError, Issue, Location

# json.decoder.scanstring (the C string scanner json.loads uses) is public but missing from typeshed.
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


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
        return Location(self.path, pointer, line, column, self.positions)


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
        at = _find_duplicate(path, text, exc.key)
        raise DeckError([Issue(at, "duplicate-key", f"key {exc.key!r} appears twice in one object")]) from None
    positions = {
        pointer: (entry.value_start.line + 1, entry.value_start.column + 1)
        for pointer, entry in calculate(text).items()
    }
    return SourcedJson(path, data, positions)


@dataclass
class _Open:
    """A container open at the scan position: an object's keys seen so far (None for an array), current child."""

    keys: set[str] | None
    key: str = ""
    index: int = 0

    @property
    def token(self) -> str | int:
        return self.index if self.keys is None else self.key


def _find_duplicate(path: Path, text: str, key: str) -> Location:
    """The object holding `key` twice, at the line and column of the second `"key":`.

    A small scan of the (valid up to there) text: json.loads reports neither position nor path for it.
    """
    frames: list[_Open] = []
    i, n = 0, len(text)
    try:
        while i < n:
            c = text[i]
            if c in "{[":
                frames.append(_Open(set() if c == "{" else None))
            elif c in "}]":
                frames.pop()
            elif c == "," and frames and frames[-1].keys is None:
                frames[-1].index += 1
            elif c == '"':
                value, end = _scanstring(text, i + 1)
                after = end
                while after < n and text[after] in " \t\r\n":
                    after += 1
                keys = frames[-1].keys if frames else None
                if after < n and text[after] == ":" and keys is not None:
                    if value == key and value in keys:
                        where = Location(path)
                        for frame in frames[:-1]:
                            where = where.child(frame.token)
                        line = text.count("\n", 0, i) + 1
                        return Location(path, where.pointer, line, i - text.rfind("\n", 0, i))
                    keys.add(value)
                    frames[-1].key = value
                i = end
                continue
            i += 1
    except (ValueError, IndexError):
        pass
    return Location(path)
