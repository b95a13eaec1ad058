"""Resolve paths named in deck files, refusing any that leave the deck folder."""
from __future__ import annotations

from pathlib import Path

from .issues import Issue, Location
from .paths import FONTS_DIR

BUILTIN_PREFIX = "builtin:"


def resolve_asset(deck_dir: Path, relative: str, where: Location) -> Path | Issue:
    """The absolute path of a deck asset, or an issue if it is absolute or escapes the deck."""
    candidate = Path(relative)
    if candidate.is_absolute():
        return Issue(where, "asset-outside-deck", f"asset path {relative!r} is absolute; use a path inside the deck folder")
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
