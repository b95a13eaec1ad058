"""Deck assets: resolve paths named in deck files (refusing any that leave the deck folder) and open them safely."""
from __future__ import annotations

import io
import struct
import warnings
import zlib
from functools import lru_cache
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from .deckfs import ConfinedError, read_bytes, stat_file
from .issues import Issue, Location
from .limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS
from .paths import FONTS_DIR
from .svgsafe import checked_svg

BUILTIN_PREFIX = "builtin:"


def resolve_asset(deck_dir: Path, relative: str, where: Location) -> Path | Issue:
    """The absolute path of a deck asset, or an issue if it is absolute or escapes the deck."""
    if "\x00" in relative:
        return Issue(where, "asset-bad-path", f"asset path {relative[:60]!r} holds a NUL character")
    if Path(relative).is_absolute():
        return Issue(where, "asset-outside-deck",
                     f"asset path {relative!r} is absolute; use a path inside the deck folder")
    try:
        return stat_file(deck_dir, relative).path
    except ConfinedError as exc:
        if exc.kind == "outside":
            return Issue(where, "asset-outside-deck", f"asset path {relative!r} leaves the deck folder")
        if exc.kind == "missing":
            return Issue(where, "asset-missing", f"asset file {relative!r} not found in the deck folder")
        if exc.kind == "folder":
            return Issue(where, "asset-missing", f"asset path {relative!r} is a folder, not a file")
        return Issue(where, "asset-unreadable", f"asset {exc}")


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
    """(width, height) in pixels, or why the file is not a usable PNG/JPEG.

    Bounded before decoding: the file's size from stat, the pixel count from the header (Pillow
    opens lazily), so a 109 KB PNG declaring 30000×30000 pixels is refused without being inflated.
    """
    try:
        size = path.stat().st_size
        if size > MAX_IMAGE_BYTES:
            return f"is larger than {MAX_IMAGE_BYTES:,} bytes, the limit for an image"
        data = read_bytes(path.parent, path.name, MAX_IMAGE_BYTES)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limit is lower
            with Image.open(io.BytesIO(data)) as img:
                if img.format not in ("PNG", "JPEG"):
                    return f"is {img.format}, not PNG or JPEG"
                width, height = img.size
                if width * height > MAX_IMAGE_PIXELS:
                    return (f"is {width}×{height} pixels, more than the {MAX_IMAGE_PIXELS:,} allowed "
                            f"(about A2 at 300 dpi)")
                img.verify()
            with Image.open(io.BytesIO(data)) as img:
                img.load()
        return width, height
    except Image.DecompressionBombError:
        return f"declares more than {MAX_IMAGE_PIXELS:,} pixels (a decompression bomb)"
    except ConfinedError as exc:
        return f"cannot be read ({exc})"
    except UnidentifiedImageError:
        return "is not a readable image (not PNG or JPEG data, or damaged)"
    except (OSError, SyntaxError, ValueError, EOFError, struct.error, zlib.error) as exc:
        return f"is not a readable image ({exc.__class__.__name__}: {str(exc)[:60]})"


def svg_problem(path: Path) -> str | None:
    """Why the deck SVG may not be drawn (see svgsafe), or None."""
    checked = checked_svg(path)
    return checked if isinstance(checked, str) else None
