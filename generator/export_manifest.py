"""build.json as export and proof read it: each value they use checked against the files, none trusted.

The manifest lies in the output folder, which anyone may have edited and a crash may have cut short.
It is read through the deck files' reader (validator.jsonsource: size, nesting and numbers bounded),
then each value export uses is checked: a file is a plain file name of the game's output folder
naming a regular file there, a placement's file is a PDF, its page is one of that PDF's pages and
its box lies inside that page. The first problem is one line with its JSON path and the way out: a
rebuild. Stamps of the files read let the export notice a build that replaced them meanwhile.
"""
from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from validator.geometry import POINTS_PER_MM
from validator.issues import DeckError, Issue, shown
from validator.jsonsource import SourcedJson, load_json
from validator.limits import MAX_MANIFEST_BYTES
from validator.model import Game

from .output_set import locked

Box = tuple[float, float, float, float]  # x, y, width, height in mm from the page's bottom-left
Stamp = tuple[int, int, int, int] | None  # device, inode, modification time (ns), size; None: no such file
SIDES = ("front", "back")  # also part of the exported file names
TOLERANCE_MM = 0.01  # build.json rounds to 0.001 mm


class ExportError(ValueError):
    """Nothing to export from (no build, a build without card files, a build.json that cannot be
    trusted), or more asked than an image may hold."""


@dataclass(frozen=True, slots=True)
class Placed:
    """One side of one card as build.json places it, checked against the PDF it names."""

    card: str
    side: str  # one of SIDES
    file: str  # a plain file name in the game's output folder
    page: int  # 1-based, one of the file's pages
    box: Box  # the trim box, inside the page


@dataclass(frozen=True)
class Manifest:
    """What export and proof use of a game's build.json, with the stamps of the files it was checked against."""

    path: Path
    game_id: str
    placements: tuple[Placed, ...]
    files: tuple[str, ...]  # the build's files, plain names in the game's output folder
    stamps: tuple[tuple[Path, Stamp], ...]

    @property
    def folder(self) -> Path:
        return self.path.parent

    def problem(self, message: str) -> str:
        return f"{self.path}: {message}; rebuild with `fudaya build {self.game_id}`"

    def verify(self) -> None:
        """Raise ExportError if build.json or a file it names changed since they were read: a build ran."""
        for path, stamp in self.stamps:
            if _stamp(path) != stamp:
                raise ExportError(f"{self.folder}: rebuilt while this ran ({path.name} changed); nothing was "
                                  "written, run it again")


def _stamp(path: Path) -> Stamp:
    try:
        return _stamped(os.lstat(path))
    except FileNotFoundError:
        return None


def _stamped(info: os.stat_result) -> Stamp:
    return info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size


def load_manifest(output_dir: Path, game: Game) -> Manifest:
    """The game's build.json, checked; ExportError with one line if there is none or it cannot be trusted.

    Read under the game's lock, so that a build running now finishes first and its result is read."""
    path = output_dir / game.id / "build.json"
    no_build = ExportError(f"{path}: no build to export from; run `fudaya build {game.id}` first")
    if not output_dir.is_dir():
        raise no_build
    with locked(output_dir, game.id):
        if not path.is_file():
            raise no_build
        stamp = _stamp(path)
        try:
            return _Reader(load_json(path, limit=MAX_MANIFEST_BYTES, what="a build manifest"), game.id).manifest(stamp)
        except DeckError as exc:
            raise ExportError(f"{exc.issues[0].render()}; rebuild with `fudaya build {game.id}`") from None


def _is_plain(name: str) -> bool:
    """A file name with no folder in it, not hidden (nor '.' or '..'): a file the build wrote, not beside it."""
    return bool(name) and not name.startswith(".") and not any(c in name for c in "/\\\x00")


class _Reader:
    """Walks the parsed manifest; the first value that cannot be trusted raises DeckError at its JSON path."""

    def __init__(self, document: SourcedJson, game_id: str) -> None:
        import pypdfium2  # only for export

        self._pdfium = pypdfium2
        self.document, self.game_id, self.folder = document, game_id, document.path.parent
        self._pdfs: dict[str, Any] = {}  # open while reading
        self._stamps: dict[Path, Stamp] = {}

    def fail(self, pointer: str, message: str) -> NoReturn:
        raise DeckError([Issue(self.document.location(pointer), "untrusted-manifest", message)])

    def manifest(self, stamp: Stamp) -> Manifest:
        data = self.document.data
        if not isinstance(data, dict):
            self.fail("", "not a JSON object")
        try:
            placements = tuple(self._placement(entry, f"/placements/{n}")
                               for n, entry in enumerate(self._list(data, "placements")))
            files = tuple(self._entry(entry, f"/files/{n}") for n, entry in enumerate(self._list(data, "files")))
        finally:
            for pdf in self._pdfs.values():
                pdf.close()
        return Manifest(self.document.path, self.game_id, placements, files,
                        ((self.document.path, stamp), *self._stamps.items()))

    def _list(self, data: dict[str, Any], key: str) -> list[Any]:
        value = data.get(key, [])
        if not isinstance(value, list):
            self.fail(f"/{key}", "not a list")
        return value

    def _entry(self, entry: Any, at: str) -> str:
        if not isinstance(entry, dict):
            self.fail(at, "not an object")
        return self._file(entry.get("file"), f"{at}/file")

    def _file(self, value: Any, at: str) -> str:
        prefix = f"{self.game_id}/"
        if not (isinstance(value, str) and value.startswith(prefix) and _is_plain(value[len(prefix):])):
            self.fail(at, f"{shown(str(value))} is not {prefix}NAME with NAME a plain file name (no folder, no '..')")
        name = value[len(prefix):]
        path = self.folder / name
        if path not in self._stamps:
            try:
                info = os.lstat(path)
            except OSError:
                self.fail(at, f"{shown(value)}: no such file in {self.folder}")
            if not stat.S_ISREG(info.st_mode):
                self.fail(at, f"{shown(value)} is not a regular file in {self.folder} (a link, a folder?)")
            self._stamps[path] = _stamped(info)
        return name

    def _pdf(self, name: str, at: str) -> Any:
        if name not in self._pdfs:
            try:
                self._pdfs[name] = self._pdfium.PdfDocument(self.folder / name)
            except self._pdfium.PdfiumError as exc:
                self.fail(at, f"{name}: not a PDF that can be read ({exc})")
        return self._pdfs[name]

    def _number(self, entry: dict[str, Any], key: str, at: str) -> float:
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(f"{at}/{key}", f"{shown(str(value))} is not a finite number")
        return float(value)

    def _placement(self, entry: Any, at: str) -> Placed:
        if not isinstance(entry, dict):
            self.fail(at, "not an object")
        card, side, page = entry.get("card"), entry.get("side"), entry.get("page")
        if not isinstance(card, str):
            self.fail(f"{at}/card", "not a card id")
        if side not in SIDES:
            self.fail(f"{at}/side", f"{shown(str(side))} is neither 'front' nor 'back'")
        name = self._file(entry.get("file"), f"{at}/file")
        pdf = self._pdf(name, f"{at}/file")
        if type(page) is not int or not 1 <= page <= len(pdf):
            self.fail(f"{at}/page", f"{shown(str(page))} is not a page of {name} (1 to {len(pdf)})")
        x, y, width, height = (self._number(entry, key, at) for key in ("x", "y", "width", "height"))
        page_width, page_height = (v / POINTS_PER_MM for v in pdf.get_page_size(page - 1))
        if not (width > 0 and height > 0 and min(x, y) >= -TOLERANCE_MM and x + width <= page_width + TOLERANCE_MM
                and y + height <= page_height + TOLERANCE_MM):
            self.fail(at, f"the box {x:g}, {y:g}, {width:g} × {height:g} mm is not inside page {page} of {name} "
                          f"({page_width:.1f} × {page_height:.1f} mm)")
        return Placed(card, side, name, page, (x, y, width, height))


__all__ = ["Box", "ExportError", "Manifest", "Placed", "load_manifest"]
