"""Deck assets: resolve paths named in deck files (refusing any that leave the deck folder) and open them safely."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree

from PIL import Image, UnidentifiedImageError

from .issues import Issue, Location
from .paths import FONTS_DIR

BUILTIN_PREFIX = "builtin:"


def resolve_asset(deck_dir: Path, relative: str, where: Location) -> Path | Issue:
    """The absolute path of a deck asset, or an issue if it is absolute or escapes the deck."""
    candidate = Path(relative)
    if candidate.is_absolute():
        return Issue(where, "asset-outside-deck",
                     f"asset path {relative!r} is absolute; use a path inside the deck folder")
    root = deck_dir.resolve()
    resolved = (root / candidate).resolve()
    if not resolved.is_relative_to(root):
        return Issue(where, "asset-outside-deck", f"asset path {relative!r} leaves the deck folder")
    if resolved.is_dir():
        return Issue(where, "asset-missing", f"asset path {relative!r} is a folder, not a file")
    if not resolved.is_file():
        return Issue(where, "asset-missing", f"asset file {relative!r} not found in the deck folder")
    return resolved


def resolve_font(deck_dir: Path, spec: str, where: Location) -> Path | Issue:
    """'builtin:NAME' names a font shipped in fonts/; anything else is a deck asset."""
    if spec.startswith(BUILTIN_PREFIX):
        name = spec[len(BUILTIN_PREFIX):]
        path = FONTS_DIR / f"{name}.ttf"
        if "/" in name or not path.is_file():
            known = ", ".join(sorted(p.stem for p in FONTS_DIR.glob("*.ttf")))
            return Issue(where, "font-unknown", f"no built-in font {name!r} (built-in: {known})")
        return path
    return resolve_asset(deck_dir, spec, where)


@lru_cache(maxsize=256)
def image_pixels(path: Path) -> tuple[int, int] | str:
    """(width, height) in pixels, or why the file is not a usable PNG/JPEG."""
    try:
        with Image.open(path) as img:
            if img.format not in ("PNG", "JPEG"):
                return f"is {img.format}, not PNG or JPEG"
            img.verify()
            size = img.size
        with Image.open(path) as img:
            img.load()
        return size
    except UnidentifiedImageError:
        return "is not a readable image (not PNG or JPEG data, or damaged)"
    except (OSError, SyntaxError, ValueError) as exc:
        return f"is not a readable image ({exc.__class__.__name__}: {str(exc)[:60]})"


@lru_cache(maxsize=256)
def svg_problem(path: Path) -> str | None:
    try:
        root = ElementTree.parse(path).getroot()
    except ElementTree.ParseError as exc:
        return f"is not valid SVG ({exc})"
    if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
        return f"is not SVG (root element is <{root.tag}>)"
    if "viewBox" not in root.attrib and not ("width" in root.attrib and "height" in root.attrib):
        return "has neither a viewBox nor width and height"
    return None
