"""Read untrusted JSON into typed values, key by key: a wrong type, a missing or unknown key, NaN → one-line error.

The simulation report is written to disk (report.json, the report cache) and read back; what comes back
may be stale, damaged or forged. `Fields` takes one JSON object apart the way a dataclass's from_json
needs it, so a reader never holds an untyped value, and every refusal names the JSON path at fault.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import TypeAlias, TypeVar

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"
JsonObject: TypeAlias = "dict[str, JsonValue]"

T = TypeVar("T")


class ReportFormatError(ValueError):
    """The JSON is not of the shape it is read as; the message is one line naming the JSON path."""


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def read_integer(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReportFormatError(f"{path}: expected an integer, found {_kind(value)}")
    return value


def read_number(value: object, path: str) -> float:
    """An int or a float, finite; kept as given (an int stays an int, so it is written back the same)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReportFormatError(f"{path}: expected a number, found {_kind(value)}")
    if not math.isfinite(value):
        raise ReportFormatError(f"{path}: expected a finite number, found {value}")
    return value


def read_text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise ReportFormatError(f"{path}: expected a string, found {_kind(value)}")
    return value


def read_flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise ReportFormatError(f"{path}: expected true or false, found {_kind(value)}")
    return value


class Fields:
    """One JSON object read field by field; `done()` refuses the keys nobody asked for."""

    def __init__(self, data: object, path: str = "$") -> None:
        if not isinstance(data, dict):
            raise ReportFormatError(f"{path}: expected an object, found {_kind(data)}")
        self._data: dict[object, object] = data
        self._path = path
        self._taken: set[str] = set()

    def has(self, key: str) -> bool:
        return key in self._data

    def _take(self, key: str) -> object:
        if key not in self._data:
            raise ReportFormatError(f"{self._path}: missing {key!r}")
        self._taken.add(key)
        return self._data[key]

    def at(self, key: str) -> str:
        return f"{self._path}.{key}"

    def integer(self, key: str) -> int:
        return read_integer(self._take(key), self.at(key))

    def number(self, key: str) -> float:
        return read_number(self._take(key), self.at(key))

    def text(self, key: str) -> str:
        return read_text(self._take(key), self.at(key))

    def flag(self, key: str) -> bool:
        return read_flag(self._take(key), self.at(key))

    def obj(self, key: str) -> Fields:
        return Fields(self._take(key), self.at(key))

    def read(self, key: str, parse: Callable[[Fields], T]) -> T:
        """The object at `key`, made into a value by `parse` (a from_json)."""
        return parse(self.obj(key))

    def optional(self, key: str, parse: Callable[[Fields], T]) -> T | None:
        return self.read(key, parse) if self.has(key) else None

    def array(self, key: str, item: Callable[[object, str], T]) -> tuple[T, ...]:
        raw = self._take(key)
        if not isinstance(raw, list):
            raise ReportFormatError(f"{self.at(key)}: expected an array, found {_kind(raw)}")
        values: list[object] = raw
        return tuple(item(value, f"{self.at(key)}[{index}]") for index, value in enumerate(values))

    def objects(self, key: str, parse: Callable[[Fields], T]) -> tuple[T, ...]:
        return self.array(key, lambda value, path: parse(Fields(value, path)))

    def pair(self, key: str) -> tuple[float, float]:
        values = self.array(key, read_number)
        if len(values) != 2:
            raise ReportFormatError(f"{self.at(key)}: expected 2 numbers, found {len(values)}")
        return values[0], values[1]

    def mapping(self, key: str, item: Callable[[object, str], T]) -> dict[str, T]:
        fields = self.obj(key)
        return {name: item(value, fields.at(name)) for name, value in fields.raw_items()}

    def raw_items(self) -> list[tuple[str, object]]:
        """Every key of the object with its value, in order (all taken)."""
        out = []
        for key, value in self._data.items():
            out.append((read_text(key, self._path), value))
            self._taken.add(str(key))
        return out

    def done(self) -> None:
        unknown = [str(key) for key in self._data if key not in self._taken]
        if unknown:
            raise ReportFormatError(f"{self._path}: unexpected {unknown[0]!r}"
                                    + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))


def parse_object(data: object, parse: Callable[[Fields], T], path: str = "$") -> T:
    """`data` (loaded JSON) made into a value by `parse`; ReportFormatError with one line otherwise."""
    return parse(Fields(data, path))


def json_list(values: Iterable[JsonValue]) -> list[JsonValue]:
    """A list of JSON values (to_json's typed way to write a tuple)."""
    return list(values)


def json_map(values: Mapping[str, JsonValue]) -> JsonObject:
    """A JSON object from a mapping (to_json's typed way to write one)."""
    return dict(values)
