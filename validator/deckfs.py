"""The one confined file layer: every file fudaya reads from or writes into a deck goes through here.

A deck is untrusted (docs/security.md): its author controls file names, symbolic links, FIFOs and
sizes. So a path named by a deck is resolved (links included) and must stay inside the deck; it
must be a regular file; its size is checked before a byte is read. The resolved path (which holds
no link) is opened with O_NOFOLLOW and O_NONBLOCK and checked again with fstat, so a link or FIFO
put in its place after the check is refused rather than followed or waited on. Writes go to a
unique temporary name created with O_EXCL|O_NOFOLLOW in the target's folder and are renamed over
the target, so a link planted at the target (or at a guessable temporary name) is replaced, never
written through.
"""
from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO opened to be refused must not block the open


class ConfinedError(ValueError):
    """A deck file that may not be read or written; the message says why in a few words, `kind` which
    refusal it is, for callers that word or code it their own way: "outside" (leaves the deck), "missing",
    "folder" (a folder, not a file), "not-regular" (device, FIFO, socket), "too-large", "unreadable"."""

    def __init__(self, message: str, kind: str = "unreadable") -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class DeckFile:
    """A regular file inside a deck: its resolved path and its path relative to the deck folder."""

    root: Path
    path: Path      # resolved
    relative: str   # the resolved path, relative to the deck folder
    name: str       # as named (a link's own name)
    size: int


def deck_root(folder: Path) -> Path:
    """The deck folder itself, resolved; ConfinedError when it is not a folder or its links loop."""
    try:
        root = folder.resolve(strict=True)
    except FileNotFoundError:
        raise ConfinedError(f"folder {folder} not found", "missing") from None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python 3.11)
        raise ConfinedError(f"folder {folder} cannot be resolved ({_why(exc)})") from None
    if not root.is_dir():
        raise ConfinedError(f"{folder} is not a folder")
    return root


def resolve(root: Path, name: str | Path, *, must_exist: bool = True) -> Path:
    """`name` (relative to the deck folder `root`, or absolute) resolved through its links; inside `root` or
    ConfinedError. A deck's own data may not name absolute paths: its loader refuses them before this.

    With must_exist=False the file may be missing (a file about to be written); its folder may not.
    """
    text = os.fspath(name)
    if "\x00" in text:
        raise ConfinedError("path holds a NUL character")
    if not text:
        raise ConfinedError("path is empty")
    base = deck_root(root)
    try:
        resolved = (base / text).resolve()  # where it leads, present or not: leaving is said first
    except (OSError, RuntimeError) as exc:
        raise ConfinedError(f"{text[:80]!r} cannot be resolved ({_why(exc)})") from None
    if resolved == base or not resolved.is_relative_to(base):
        raise ConfinedError(f"{text[:80]!r} leaves the deck folder", "outside")
    if must_exist and not os.path.lexists(resolved):
        raise ConfinedError(f"{text[:80]!r} not found in the deck folder", "missing")
    return resolved


def inside_or_none(root: Path, name: object, *, must_exist: bool = True) -> Path | None:
    """resolve() for a name that may be anything a deck holds (a JSON value): None unless it is a path
    that leads inside the deck."""
    if not isinstance(name, (str, Path)):
        return None
    try:
        return resolve(root, name, must_exist=must_exist)
    except ConfinedError:
        return None


def stat_file(root: Path, name: str | Path) -> DeckFile:
    """The regular file `name` inside the deck, with its size; ConfinedError for anything else."""
    path = resolve(root, name)
    try:
        info = path.stat()
    except OSError as exc:
        raise ConfinedError(f"{os.fspath(name)[:80]!r} cannot be read ({_why(exc)})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ConfinedError(f"{os.fspath(name)[:80]!r} is a folder, not a file", "folder")
    if not stat.S_ISREG(info.st_mode):
        raise ConfinedError(f"{os.fspath(name)[:80]!r} is not a regular file (a device, FIFO or socket)",
                            "not-regular")
    base = deck_root(root)
    return DeckFile(base, path, path.relative_to(base).as_posix(), Path(os.fspath(name)).as_posix(), info.st_size)


def read_bytes(root: Path, name: str | Path, limit: int) -> bytes:
    """The bytes of the regular file `name` inside the deck, at most `limit` of them (else ConfinedError).

    The size is checked from stat before reading and again while reading (a file growing in between
    is cut off at limit + 1 bytes and refused).
    """
    found = stat_file(root, name)
    if found.size > limit:
        raise ConfinedError(f"{found.relative!r} is {found.size:,} bytes, over the {limit:,}-byte limit", "too-large")
    try:
        descriptor = os.open(found.path, os.O_RDONLY | _NONBLOCK | _NOFOLLOW | _CLOEXEC)
    except OSError as exc:
        raise ConfinedError(f"{found.relative!r} cannot be opened ({_why(exc)})") from None
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ConfinedError(f"{found.relative!r} is not a regular file", "not-regular")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise ConfinedError(f"{found.relative!r} is over the {limit:,}-byte limit", "too-large")
    return data


def read_named_file(path: Path, limit: int) -> bytes:
    """A file the user named on the command line (not a deck's): resolved, a regular file, at most `limit`
    bytes, checked before reading; a FIFO or device is refused rather than waited on or read forever."""
    try:
        resolved = path.resolve(strict=True)
    except FileNotFoundError:
        raise ConfinedError("file not found", "missing") from None
    except (OSError, RuntimeError) as exc:
        raise ConfinedError(f"cannot be resolved ({_why(exc)})") from None
    folder = resolved.parent
    return read_bytes(folder, resolved.name, limit)


def write_bytes(root: Path, name: str | Path, data: bytes) -> Path:
    """Replace the file `name` inside the deck with `data`, whole or not at all; returns its path.

    The folder is resolved and must lie inside the deck; the bytes go to a fresh temporary name
    (O_CREAT|O_EXCL|O_NOFOLLOW) in it, which is renamed over the target: a link at the target is
    replaced, never followed.
    """
    text = os.fspath(name)
    final = Path(text).name
    if "\x00" in text or final in ("", ".", ".."):
        raise ConfinedError(f"{text[:80]!r} is not a file name")
    base = deck_root(root)
    parent = Path(text).parent
    folder_path = base if parent == Path(".") else resolve(base, parent)
    if not folder_path.is_dir():
        raise ConfinedError(f"{parent.as_posix()[:80]!r} is not a folder")
    target = folder_path / final
    temporary = folder_path / f".{final[:60]}.{os.getpid()}-{secrets.token_hex(6)}.tmp"
    if target.is_dir() and not target.is_symlink():
        raise ConfinedError(f"{text[:80]!r} is a folder, not a file", "folder")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644)
    except OSError as exc:
        raise ConfinedError(f"{text[:80]!r} cannot be written ({_why(exc)})") from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def real_folder(root: Path, relative: str) -> Path:
    """The folder `relative` below `root`, each part made if missing; ConfinedError when a part is a symbolic
    link or not a folder. For the folders fudaya keeps its own files in below a folder it was given (the report
    cache under the output folder): a link there, in an output folder shared with a project, would send the
    files it writes and the old entries it deletes anywhere on the machine."""
    folder = Path(root)
    for part in Path(relative).parts:
        if part in ("", ".", "..") or Path(part).is_absolute():
            raise ConfinedError(f"{relative!r} is not a folder below {root}")
        folder = folder / part
        try:
            os.mkdir(folder)
        except FileExistsError:
            pass
        except OSError as exc:
            raise ConfinedError(f"{folder} cannot be made ({_why(exc)})") from None
        if not stat.S_ISDIR(os.lstat(folder).st_mode):  # lstat: a link, even to a folder, is refused
            raise ConfinedError(f"{folder} is a link or a file, not a folder", "not-regular")
    return folder


def regular_files(root: Path, suffix: str = "", *, limit: int = 10_000) -> Iterator[DeckFile]:
    """The regular files under the deck (names ending in `suffix`), in sorted order, links not followed.

    A symbolic link to a file inside the deck is listed at its own name; one pointing outside, at a
    device, FIFO or loop is skipped: the deck's files are what it holds, not what it points at.
    More than `limit` entries is a ConfinedError (a deck is a few dozen files).
    """
    base = deck_root(root)
    seen = 0
    for folder, folders, files in os.walk(base, followlinks=False):
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        seen += len(files) + len(folders)
        if seen > limit:
            raise ConfinedError(f"more than {limit:,} files and folders in the deck folder")
        for file_name in sorted(files):
            if not file_name.endswith(suffix) or file_name.startswith("."):
                continue
            relative = (Path(folder) / file_name).relative_to(base).as_posix()
            try:
                yield stat_file(base, relative)
            except ConfinedError:
                continue


def _why(exc: BaseException) -> str:
    if isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP:
        return "its links loop"
    return getattr(exc, "strerror", None) or exc.__class__.__name__
