"""What a build keeps up to date beside its print files: the exports and the proof gallery made from them.

`fudaya export` and `fudaya proof` write folders inside a game's output set (export/png, export/tts,
proof). A build replaces the set, so a Tabletop Simulator object saved from export/tts used to lose its
images at the next build. Now a build carries those folders into its new set and, once the set is in,
makes each again from the new print files with the settings it was made with (each export records them
in its folder, SETTINGS_FILE): the paths and URLs stay, the pictures follow the cards. A refresh that
fails leaves the carried folder, older than the cards, and says so.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

from validator.issues import DeckError, Issue
from validator.jsonsource import load_json
from validator.model import Game

SETTINGS_FILE = "fudaya-export.json"  # not <game>.json: that name is the saved object TTS loads
DERIVED = ("export/png", "export/tts", "proof")  # folders of a set a build carries over and refreshes
MAX_URL = 2000


@dataclass(frozen=True)
class ExportSettings:
    """How an export was made, so a build can make it again the same way."""

    format: str  # "png" or "tts"
    dpi: int = 300  # png
    base_url: str | None = None  # tts: the address the images are hosted at, or None with `local`
    local: bool = False  # tts: file:// URLs of this machine

    def to_json(self) -> dict[str, object]:
        return {"format": self.format, "dpi": self.dpi, "base_url": self.base_url, "local": self.local}


def check_base_url(url: str) -> str:
    """The address as given when it can prefix image names (http or https, a host, no query or fragment);
    else ValueError saying what is wrong."""
    parts = urlsplit(url)
    if (len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.netloc or parts.query
            or parts.fragment or any(c.isspace() for c in url)):
        raise ValueError(f"--base-url {url!r}: not an http:// or https:// address of a folder (no query, no "
                         f"fragment, at most {MAX_URL} characters)")
    return url


def image_url(name: str, folder: Path, settings: ExportSettings) -> str:
    """The URL a saved object gives TTS for one image of export/tts: under --base-url, or file:// when local."""
    if settings.base_url is not None:
        return f"{settings.base_url.rstrip('/')}/{quote(name)}"
    return (folder / name).as_uri()


def read_settings(folder: Path) -> ExportSettings:
    """The settings an export folder records; ValueError naming the file and what is wrong."""
    path = folder / SETTINGS_FILE
    if not path.exists():
        raise ValueError(f"{path}: missing (an export of an earlier fudaya); `fudaya export` makes it again")
    try:
        data = load_json(path, what="an export's settings", located=False).data
    except DeckError as exc:
        raise ValueError(exc.issues[0].message) from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: $: not an object")
    fmt, dpi, base_url, local = data.get("format"), data.get("dpi"), data.get("base_url"), data.get("local")
    if fmt not in ("png", "tts"):
        raise ValueError(f"{path}: $.format: {fmt!r} is not png or tts")
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 72 <= dpi <= 1200:
        raise ValueError(f"{path}: $.dpi: {dpi!r} is not a whole number from 72 to 1200")
    if not isinstance(local, bool):
        raise ValueError(f"{path}: $.local: {local!r} is not true or false")
    if base_url is not None:
        if not isinstance(base_url, str):
            raise ValueError(f"{path}: $.base_url: not a string")
        try:
            check_base_url(base_url)
        except ValueError as exc:
            raise ValueError(f"{path}: $.base_url: {exc}") from None
    if fmt == "tts" and (base_url is None) == (not local):
        raise ValueError(f"{path}: $: a tts export has either base_url or local")
    return ExportSettings(fmt, dpi, base_url, local)


def carry_over(final: Path, staging: Path) -> None:
    """Copy the derived folders of the set in place (`final`) into the new set, where it has none of its own."""
    for relative in DERIVED:
        source, target = final / relative, staging / relative
        if source.is_dir() and not source.is_symlink() and not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(source, target, symlinks=True)


def refresh(game: Game, output_dir: Path, issues: Callable[[], Sequence[Issue]]) -> list[str]:
    """Make every derived folder of the game's set again from its new print files; one line for each that
    could not be (it stays as it was). `issues` gives the check's findings, asked only for a proof gallery."""
    from .export import ExportError, export_png, export_tts
    from .proof import write_proof

    folder = output_dir / game.id
    lines: list[str] = []
    for relative in DERIVED:
        where = folder / relative
        if not where.is_dir():
            continue
        try:
            if relative == "proof":
                write_proof(game, output_dir, issues())
                continue
            settings = read_settings(where)
            if settings.format != where.name:
                raise ValueError(f"{where / SETTINGS_FILE}: $.format: {settings.format!r} in the {where.name} folder")
            if settings.format == "png":
                export_png(game, output_dir, dpi=settings.dpi)
            else:
                export_tts(game, output_dir, settings)
        except (ExportError, ValueError, OSError) as exc:
            lines.append(f"warning: {where}: not remade from this build, so older than its cards ({exc})")
    return lines

