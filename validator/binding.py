"""Bind template values to a card: {field} text, colours by name or map, counts, `when` filters.

Pure functions shared by the checks and the generator, so both see exactly the same values.
"""
from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .limits import MAX_REPEAT
from .model import Layout

_FORMATTER = string.Formatter()
_HEX = re.compile(r"^#([0-9A-Fa-f]{6})$")
_CMYK = re.compile(r"^cmyk\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*\)$")


# Text and rules with no colour given print in pure black ink (K only), not RGB black, which a
# print shop converts to a four-ink "rich" black that blurs fine lines and small type.
DEFAULT_INK = "cmyk(0,0,0,100)"


class BindingError(ValueError):
    """A template names something the card or layout does not have."""


@dataclass(frozen=True)
class Color:
    """A print colour: RGB (0–1) or CMYK (0–1) components."""

    space: str  # "rgb" or "cmyk"
    components: tuple[float, ...]


# Text under this size prints on K alone when its colour is a dark mix (card.small_text_black):
# four inks misregister on hairline strokes of small characters.
SMALL_TEXT_PT = 12.0


def is_dark_mix(color: Color) -> bool:
    """A near-black CMYK colour that uses more than the K ink (e.g. C30 M40 Y40 K85)."""
    if color.space != "cmyk":
        return False
    cyan, magenta, yellow, black = color.components
    return black >= 0.7 and (cyan > 0 or magenta > 0 or yellow > 0)


def small_dark_mix(color: Color | None, size_pt: float) -> bool:
    """Text that card.small_text_black puts on K alone: under SMALL_TEXT_PT, in a dark mix."""
    return color is not None and size_pt < SMALL_TEXT_PT and is_dark_mix(color)


def fields_used(template: str) -> list[str]:
    try:
        return [name for _, name, _, _ in _FORMATTER.parse(template) if name is not None]
    except ValueError as exc:
        raise BindingError(f"bad template {template!r}: {exc}") from None


class TypesetNumber(int):
    """A number as Japanese text sets signs: ＋ and a true minus (＋2, −2, not +2, -2), ±0 for a signed
    zero, as the rulebooks write them and a card template asks with a spec opening with ＋ ({x:＋d})."""

    def __format__(self, spec: str) -> str:
        text = format(int(self), spec)
        if "+" in spec and self == 0:
            text = text.replace("+", "±")
        return text.replace("-", "\u2212").replace("+", "＋")


TYPESET_SIGN = "＋"  # a card template's format spec opening with it prints typeset signs: {rules[bonus]:＋d}


def _format(value: Any, spec: str) -> str:
    if spec.startswith(TYPESET_SIGN) and isinstance(value, int) and not isinstance(value, bool):
        return format(TypesetNumber(value), "+" + spec[1:])
    return format(value, spec) if spec else str(value)


def bind_text(template: str, fields: Mapping[str, Any]) -> str:
    """Replace each {name} with the card's field ({name:spec} formatted, {name:＋d} with typeset signs);
    an unknown name is a BindingError."""
    return bound_spans(template, fields)[0]


def bound_spans(template: str, fields: Mapping[str, Any]) -> tuple[str, list[tuple[int, int, str]]]:
    """The bound text and where each field's value landed in it: (start, end, the field's own name, the
    part before any [index]), so a finding in the text can name the field that holds it."""
    out: list[str] = []
    spans: list[tuple[int, int, str]] = []
    at = 0
    try:
        parsed = list(_FORMATTER.parse(template))
    except ValueError as exc:
        raise BindingError(f"bad template {template!r}: {exc}") from None
    for literal, name, spec, _ in parsed:
        out.append(literal)
        at += len(literal)
        if name is None:
            continue
        value = _lookup(name, fields)
        try:
            shown = _format(value, spec or "")
        except ValueError as exc:
            raise BindingError(f"field {name!r} cannot be formatted as {{{name}:{spec}}} ({exc})") from None
        out.append(shown)
        spans.append((at, at + len(shown), name.split("[", 1)[0]))
        at += len(shown)
    return "".join(out), spans


_INDEXED = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]+\])*)$")


def _lookup(name: str, fields: Mapping[str, Any]) -> Any:
    """A field's value; `a[b][c]` steps into nested objects and lists.

    E.g. {rules[type_of_number][3]}, {rules[rank_vp][4][0]}.
    """
    found = _INDEXED.match(name)
    if found is None:
        raise BindingError(f"bad field reference {name!r}")
    head, path = found.group(1), re.findall(r"\[([^\[\]]+)\]", found.group(2))
    if head not in fields:
        raise BindingError(f"card has no field {head!r}")
    value = fields[head]
    for step, key in enumerate(path):
        if isinstance(value, Mapping) and key in value:
            value = value[key]
        elif isinstance(value, (list, tuple)) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        else:
            where = head + "".join(f"[{k}]" for k in path[:step])
            raise BindingError(f"{where} has no entry {key!r}")
    return value


def matches(when: Mapping[str, Any] | None, fields: Mapping[str, Any]) -> bool:
    return not when or all(fields.get(k) == v for k, v in when.items())


def bind_count(spec: int | str, fields: Mapping[str, Any]) -> int:
    """A repeat count, written or read from a card field; bounded like a written one (0..MAX_REPEAT)."""
    if isinstance(spec, int):
        return spec
    text = bind_text(spec, fields)
    try:
        count = int(text) if len(text) <= 12 else None
    except ValueError:
        count = None
    if count is None:
        shown = text if len(text) <= 20 else text[:19] + "…"
        raise BindingError(f"count {spec!r} gives {shown!r}, not a whole number")
    if not 0 <= count <= MAX_REPEAT:
        raise BindingError(f"count {spec!r} gives {count}; a repeat count must be 0 to {MAX_REPEAT}")
    return count


@lru_cache(maxsize=1024)
def parse_color(text: str) -> Color | None:
    """A literal colour, or None if `text` is not one (it may be a palette name)."""
    if m := _HEX.match(text):
        value = int(m.group(1), 16)
        return Color("rgb", ((value >> 16) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255))
    if m := _CMYK.match(text):
        parts = tuple(float(g) for g in m.groups())
        if any(p > 100 for p in parts):
            raise BindingError(f"colour {text!r}: CMYK percentages must be 0–100")
        return Color("cmyk", tuple(p / 100 for p in parts))
    return None


def bind_color(spec: str | Mapping[str, str] | None, fields: Mapping[str, Any], layout: Layout) -> Color | None:
    """The colour an element uses for this card; None for 'none' or absent."""
    if spec is None or spec == "none":
        return None
    if isinstance(spec, Mapping):
        table = layout.color_maps.get(spec["map"])
        if table is None:
            raise BindingError(f"no colour map {spec['map']!r} in the layout")
        key = bind_text(spec["key"], fields)
        if key not in table:
            raise BindingError(f"colour map {spec['map']!r} has no entry for {key!r}")
        return bind_color(table[key], fields, layout)
    literal = parse_color(spec)
    if literal is not None:
        return literal
    if spec in layout.palette:
        named = parse_color(layout.palette[spec])
        if named is None:
            raise BindingError(f"palette colour {spec!r} is not a colour")
        return named
    raise BindingError(f"unknown colour {spec!r} (not #RRGGBB, cmyk(...), 'none' or a palette name)")
