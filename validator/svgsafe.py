"""Deck SVG files made safe to draw: parsed without DTDs or entities, references kept inside the document.

A deck is untrusted. svglib (through lxml) would follow `<image href="../../x.png">`,
`<use href="other.svg#s">` and CSS `url(...)` to any file, expand entity bombs, and build every
element in memory. So the check and the generator both read an SVG through `checked_svg`: it
returns the bytes svglib may parse, or why the file is refused, one line.
"""
from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from .deckfs import ConfinedError, read_bytes
from .limits import MAX_SVG_BYTES, MAX_SVG_ELEMENTS

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
MAX_SVG_SIDE = 100_000.0  # in its own units; a crest is tens to hundreds
_LENGTH = re.compile(r"^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in)?\s*$")
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)


@lru_cache(maxsize=256)
def checked_svg(path: Path) -> bytes | str:
    """The file's bytes when svglib may draw them, else what is wrong with it."""
    try:
        data = read_bytes(path.parent, path.name, MAX_SVG_BYTES)
    except ConfinedError as exc:
        if exc.kind == "too-large":
            return f"is larger than {MAX_SVG_BYTES:,} bytes, the limit for an SVG"
        return f"cannot be read ({exc})"
    problem = svg_data_problem(data)
    return data if problem is None else problem


def svg_data_problem(data: bytes) -> str | None:
    """Why these SVG bytes may not be drawn, or None."""
    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException:
        return "declares a DTD or entities, which are not allowed in deck SVGs"
    except ParseError as exc:
        return f"is not valid SVG ({exc})"
    if root.tag not in ("svg", f"{SVG_NS}svg"):
        return f"is not SVG (root element is <{root.tag}>)"
    count = 0
    for element in root.iter():
        count += 1
        if count > MAX_SVG_ELEMENTS:
            return f"has more than {MAX_SVG_ELEMENTS:,} elements"
        problem = _reference_problem(element)
        if problem:
            return problem
    return _size_problem(root)


def _reference_problem(element: Element) -> str | None:
    """Only references inside the document (#id) are allowed: anything else reads another file.

    Raster images inside an SVG are refused outright: a data: URI would bypass the image limits,
    and svglib fails on any other href. Raster art is an `image` element of the layout instead.
    """
    if _local(element.tag) == "image":
        return "holds an <image>; raster art belongs in the layout's image element, not inside an SVG"
    for name in ("href", XLINK_HREF):
        href = element.get(name)
        if href is not None and not href.strip().startswith("#"):
            return f"refers to {href[:60]!r}; an SVG may only refer inside itself (#id)"
    css = " ".join(filter(None, (element.get("style"), element.text if _local(element.tag) == "style" else None)))
    if "@import" in css.lower():
        return "imports a style sheet (@import), which is not allowed"
    for found in _URL.finditer(css):
        if not found.group(1).startswith("#"):
            return f"refers to url({found.group(1)[:60]}); an SVG may only refer inside itself (#id)"
    for value in element.attrib.values():
        for found in _URL.finditer(value):
            if not found.group(1).startswith("#"):
                return f"refers to url({found.group(1)[:60]}); an SVG may only refer inside itself (#id)"
    return None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _size_problem(root: Element) -> str | None:
    """Width, height and viewBox, where given, are finite and positive: svglib would draw nothing or fail."""
    view_box = root.get("viewBox")
    if view_box is not None:
        parts = view_box.replace(",", " ").split()
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) != 4 or not all(math.isfinite(n) and abs(n) <= MAX_SVG_SIDE for n in numbers):
            return f"has viewBox {view_box[:40]!r}; it must be four numbers: x y width height"
        if numbers[2] <= 0 or numbers[3] <= 0:
            return f"has viewBox {view_box[:40]!r}; its width and height must be above 0"
    for name in ("width", "height"):
        value = root.get(name)
        if value is None:
            continue
        if view_box is not None and value.strip() == "100%":
            continue  # scaled to the viewBox
        found = _LENGTH.match(value)
        number = float(found.group(1)) if found else math.nan
        if not (found and math.isfinite(number) and 0.001 <= number <= MAX_SVG_SIDE):
            return (f"has {name}={value[:40]!r}; it must be a number above 0 and at most {MAX_SVG_SIDE:g}, "
                    f"with no unit or px, pt, pc, mm, cm, in")
    if view_box is None and (root.get("width") is None or root.get("height") is None):
        return "has neither a viewBox nor width and height"
    return None
