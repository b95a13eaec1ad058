"""PDF files the way print needs them: embedded fonts only, reproducible bytes, atomic writes."""
from __future__ import annotations

import os
import re
import secrets
import struct
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError
from reportlab.pdfgen.canvas import Canvas

from validator.cache import sha256_key
from validator.model import FontRef
from validator.typeset import FontError, font_bytes

from .face_cache import cached_ttfont


def font_name(path: Path, data: bytes) -> str:
    """ReportLab's name for a TrueType file: its stem plus a digest of its bytes.

    Not the stem alone: a deck's `BIZUDGothic-Regular.ttf` that is really another font would
    otherwise be taken for the built-in one registered under that name, and draw the wrong face.
    (pdffonts shows the font's own PostScript name either way.)

    The stem is a deck's file name, and the name is written into paragraph markup (`<font face="…">`
    for **strong** runs): only letters, digits and `._-` are kept, so a file named `x" color="red.ttf`
    cannot add attributes (it raised a traceback from ReportLab's parser) or tags.
    """
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", path.stem)
    return f"{stem}-{sha256_key(data)[:12]}"


@cache
def register_font(path: Path) -> str:
    """Register a .ttf once per process; ReportLab embeds a subset of it in every PDF that uses it.

    From the bytes the check read, bounded and accepted (validator.typeset.font_bytes), not from the
    file again: what is embedded is what was checked and measured, even if the file changed since.
    """
    data = font_bytes(path)
    name = font_name(path, data)
    register_font_bytes(name, data)
    return name


def register_font_bytes(name: str, data: bytes, *, face_suffix: str = "") -> None:
    """Register a TrueType font under `name` unless it is registered already.

    ReportLab keeps one font per PostScript name: a second file with the same name inside (another
    font calling itself BIZUDGothic-Regular, or a font's vertical twin) would silently draw with the
    first. Such a file gets its own name in the PDF (`face_suffix`, else part of `name`'s digest)."""
    if name in pdfmetrics.getRegisteredFontNames():
        return
    font = cached_ttfont(name, data)  # parsed once per machine
    face = font.face.name.decode("latin-1") if isinstance(font.face.name, bytes) else str(font.face.name)
    taken = {registered.face.name for registered in map(pdfmetrics.getFont, pdfmetrics.getRegisteredFontNames())
             if getattr(registered, "_dynamicFont", False)}
    if face_suffix or font.face.name in taken:
        renamed = f"{face}{face_suffix or '-' + name.rsplit('-', 1)[-1][:6]}"
        font.face.name = renamed.encode("latin-1") if isinstance(font.face.name, bytes) else renamed
    pdfmetrics.registerFont(font)


def register_fonts(fonts: Mapping[str, FontRef]) -> dict[str, str]:
    """Font key -> registered ReportLab name. A font ReportLab refuses all the same (the check reads it as
    ReportLab does, validator/fontfile.py, so this is a gap there) is one located line, not a traceback."""
    names = {}
    for key, ref in sorted(fonts.items()):
        try:
            names[key] = register_font(ref.path)
        except (FontError, TTFError, ValueError, LookupError, struct.error) as exc:
            from .elements import DrawError

            raise DrawError(f"font {ref.path.name!r} cannot be embedded ({str(exc)[:160]})", ref.location) from None
    return names


def new_canvas(path: Path, pagesize: tuple[float, float], initial_font: str, *, title: str,
               pdfx: str | None) -> Canvas:
    """A canvas in invariant mode that starts on an embedded font (never on unembedded Helvetica).

    `pdfx` names the PDF/X standard the file declares (generator.pdfx.STANDARDS), None for on-screen files."""
    canvas = Canvas(
        str(path),
        pagesize=pagesize,
        invariant=1,
        pageCompression=1,
        initialFontName=initial_font,
        initialFontSize=10,
    )
    canvas.setTitle(title)
    canvas.setCreator("fudaya")
    canvas.setProducer("fudaya (ReportLab)")
    if pdfx is not None:
        from .pdfx import declare

        declare(canvas, pdfx)
    return canvas


@contextmanager
def atomic_path(final: Path) -> Iterator[Path]:
    """Yield a temporary sibling path; rename it to `final` only if the block finishes."""
    final.parent.mkdir(parents=True, exist_ok=True)
    # Unique per writer: two processes writing one file never share (and delete) a temporary.
    temporary = final.with_name(f".{final.name}.{os.getpid()}-{secrets.token_hex(4)}.partial")
    try:
        yield temporary
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
