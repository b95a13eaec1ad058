"""Read a JSON file keeping the line and column of every value, so errors can point at them."""
from __future__ import annotations

import json
import json.decoder
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from json_source_map import calculate

from .deckfs import ConfinedError, read_bytes
from .issues import DeckError, Issue, Location
from .limits import MAX_DEPTH, MAX_JSON_BYTES, MAX_NUMBER_DIGITS, MAX_TEXT_CHARS

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


class _NonFinite(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class _TooLong(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    """NaN and ±Infinity are not JSON; Python accepts them by default and they reach the PDF as 'nan'."""
    raise _NonFinite(name)


def _checked_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _TooLong()
    return int(digits)


def _checked_float(digits: str) -> float:
    if sum(ch.isdigit() for ch in digits) > MAX_NUMBER_DIGITS:
        raise _TooLong()
    number = float(digits)
    if number != number or number in (float("inf"), float("-inf")):  # 1e999 overflows to infinity
        raise _NonFinite(digits)
    return number


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


# How the file layer's refusals read as issues of a JSON file: (code, message).
_REFUSED = {
    "missing": ("missing-file", "file not found"),
    "too-large": ("file-too-large", "larger than {limit:,} bytes, the limit for {what}"),
    "outside": ("asset-outside-deck", "{reason}"),
}


def load_json(path: Path, root: Path | None = None, *, limit: int = MAX_JSON_BYTES,
              what: str = "a deck JSON file", located: bool = True) -> SourcedJson:
    """Parse `path` (a deck file when `root`, its deck folder, is given; else a file confined to its own
    folder) through the confined file layer; any failure becomes a DeckError with one located issue.
    `limit` is a deck file's unless the file is one of ours that grows with the deck (build.json).
    `located=False` skips the line and column of every value (the slowest part of reading a large file)
    for a caller that only reads the data: its failures still name their line."""
    where = Location(path)
    try:
        base, name = (path.parent, path.name) if root is None else \
            (root, path.relative_to(root) if path.is_relative_to(root) else path)
        raw = read_bytes(base, name, limit)
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text's newlines
    except ConfinedError as exc:
        code, why = _REFUSED.get(exc.kind, ("unreadable", str(exc)))
        raise DeckError([Issue(where, code, why.format(limit=limit, what=what, reason=exc))]) from None
    except UnicodeDecodeError as exc:
        raise DeckError([Issue(where, "bad-encoding", f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise DeckError([Issue(where, "unreadable", f"cannot read file ({exc.strerror})")]) from None
    if _too_deep(text):
        raise DeckError([Issue(where, "too-deep", f"objects and arrays nest deeper than {MAX_DEPTH} levels")])
    try:
        data = json.loads(text, object_pairs_hook=_reject_duplicate_keys, parse_constant=_refuse_constant,
                          parse_int=_checked_int, parse_float=_checked_float)
    except _NonFinite as exc:
        at = _find_value(path, text, _non_finite)
        raise DeckError([Issue(at, "not-a-number", f"{exc.name} is not a JSON number (use a finite value)")]) from None
    except _TooLong:
        at = _find_value(path, text, _long_number)
        raise DeckError([Issue(at, "number-too-long",
                               f"a number of more than {MAX_NUMBER_DIGITS} digits")]) from None
    except json.JSONDecodeError as exc:
        at = Location(path, "", exc.lineno, exc.colno)
        raise DeckError([Issue(at, "invalid-json", f"invalid JSON: {exc.msg}")]) from None
    except _DuplicateKey as exc:
        at = _find_duplicate(path, text, exc.key)
        raise DeckError([Issue(at, "duplicate-key", f"key {exc.key!r} appears twice in one object")]) from None
    positions = {
        pointer: (entry.value_start.line + 1, entry.value_start.column + 1)
        for pointer, entry in calculate(text).items()
    } if located else {}
    document = SourcedJson(path, data, positions)
    too_long = _first_long_string(data, "")
    if too_long is not None:
        raise DeckError([Issue(document.location(too_long), "text-too-long",
                               f"a string of more than {MAX_TEXT_CHARS:,} characters, the limit for one text")])
    return document


def _first_long_string(value: Any, pointer: str) -> str | None:
    """The JSON pointer of the first string (key or value) longer than MAX_TEXT_CHARS, if any.

    Checked before any layout: one string's length bounds the time to measure and break it.
    """
    if isinstance(value, str):
        return pointer if len(value) > MAX_TEXT_CHARS else None
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, child in items:
        step = f"{pointer}/{key}"  # unescaped, as json_source_map writes its pointers
        if isinstance(key, str) and len(key) > MAX_TEXT_CHARS:
            return step
        found = _first_long_string(child, step)
        if found is not None:
            return found
    return None


@dataclass
class _Open:
    """A container open at the scan position: an object's keys seen so far (None for an array), current child."""

    keys: set[str] | None
    key: str = ""
    index: int = 0

    @property
    def token(self) -> str | int:
        return self.index if self.keys is None else self.key


NON_FINITE = ("NaN", "Infinity", "-Infinity")


def _find_duplicate(path: Path, text: str, key: str) -> Location:
    """The object holding `key` twice, at the line and column of the second `"key":`.

    A small scan of the (valid up to there) text: json.loads reports neither position nor path for it.
    """
    return _scan(path, text, duplicate=key)


def _find_value(path: Path, text: str, starts: Callable[[str, int], bool]) -> Location:
    """The first value (outside strings) for which `starts(text, i)` holds, with its pointer and position."""
    return _scan(path, text, value=starts)


def _too_deep(text: str) -> bool:
    """Whether brackets outside strings nest deeper than MAX_DEPTH (checked before parsing: no recursion)."""
    depth, i, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            end = text.find('"', i + 1)
            while end != -1 and _escaped(text, end):
                end = text.find('"', end + 1)
            if end == -1:
                return False
            i = end + 1
            continue
        if c in "{[":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in "}]":
            depth -= 1
        i += 1
    return False


def _escaped(text: str, quote: int) -> bool:
    backslashes = 0
    while text[quote - 1 - backslashes] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _scan(path: Path, text: str, *, duplicate: str | None = None,
          value: Callable[[str, int], bool] | None = None) -> Location:
    frames: list[_Open] = []
    i, n = 0, len(text)

    def here(at: int, inner: bool) -> Location:
        where = Location(path)
        for frame in frames if inner else frames[:-1]:
            where = where.child(frame.token)
        line = text.count("\n", 0, at) + 1
        return Location(path, where.pointer, line, at - text.rfind("\n", 0, at))

    try:
        while i < n:
            c = text[i]
            if value is not None and c not in ' \t\r\n{}[],:"' and value(text, i):
                return here(i, inner=True)
            if c in "{[":
                frames.append(_Open(set() if c == "{" else None))
            elif c in "}]":
                frames.pop()
            elif c == "," and frames and frames[-1].keys is None:
                frames[-1].index += 1
            elif c == '"':
                found, end = _scanstring(text, i + 1)
                after = end
                while after < n and text[after] in " \t\r\n":
                    after += 1
                keys = frames[-1].keys if frames else None
                if after < n and text[after] == ":" and keys is not None:
                    if found == duplicate and found in keys:
                        return here(i, inner=False)
                    keys.add(found)
                    frames[-1].key = found
                i = end
                continue
            i += 1
    except (ValueError, IndexError):
        pass
    return Location(path)


def _long_number(text: str, i: int) -> bool:
    return sum(ch.isdigit() for ch in _number_at(text, i)) > MAX_NUMBER_DIGITS


def _number_at(text: str, i: int) -> str:
    j = i
    while j < len(text) and (text[j].isdigit() or text[j] in ".eE+-"):
        j += 1
    return text[i:j]


def _non_finite(text: str, i: int) -> bool:
    """NaN, ±Infinity, or a number too large for a float (1e999)."""
    if text.startswith(NON_FINITE, i):
        return True
    token = _number_at(text, i)
    try:
        return bool(token) and abs(float(token)) == float("inf")
    except ValueError:
        return False
