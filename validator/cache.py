"""A per-machine cache of what is slow to derive and fixed by its input: parse a font once, not per build.

An entry is one file, <root>/<kind>/<key>.bin, where `key` is the sha256 of the input (a font file's
bytes) and <root> is FUDAYA_CACHE or the user's cache folder (platformdirs). Its header names the
kind, the key, a stamp (fudaya's version, Python's, and a digest of the source of the code that
derived it: a changed parser, even in a checkout whose version number stayed, is a new stamp), and
the payload's length and sha256. On read everything in the header must match, then the caller's
decoder checks the payload's shape; an entry that fails any of it (cut short, damaged, from another
version, of the wrong shape) is ignored, derived again and written over. Entries are written whole or
not at all (a temporary file renamed over the entry, by the confined file layer), so a reader never
sees half an entry; a cache that cannot be read or written (a read-only home) costs only the time.

Payloads are marshal data, as Python's own __pycache__ is: written only by fudaya, read only after
their digest matched, and never holding code. Nothing a deck names reaches this folder.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import marshal
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from .deckfs import ConfinedError, read_bytes, write_bytes
from .version import fudaya_version

T = TypeVar("T")

CACHE_ENV = "FUDAYA_CACHE"
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # a font's parsed tables are a few MB at most; anything larger is not ours
MAX_ENTRIES = 2000  # the most a kind's folder holds: reaching it, the least recently written half go
_MAGIC = b"fudaya-cache 1\n"


class BadEntry(ValueError):
    """A cache entry (or its payload) that is not what this version wrote: ignored and rewritten."""


def cache_root() -> Path:
    """FUDAYA_CACHE when set (tests point it at a temporary folder), else the user's cache folder for fudaya."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("fudaya", appauthor=False))


def code_stamp(*modules: ModuleType, extra: Iterable[str] = ()) -> str:
    """fudaya's and Python's versions, marshal's format and a digest of each module's source: an entry made
    by other code (another release, an edited checkout, another Python) never matches."""
    digest = hashlib.sha256()
    for module in modules:
        source = getattr(module, "__file__", None)
        digest.update(Path(source).read_bytes() if source else module.__name__.encode())
    parts = [fudaya_version(), f"py{sys.version_info[0]}.{sys.version_info[1]}", f"marshal{marshal.version}",
             *extra, digest.hexdigest()[:16]]
    return " ".join(parts)


def entry_path(kind: str, key: str) -> Path:
    return cache_root() / kind / f"{key}.bin"


def cached(kind: str, key: str, stamp: str, derive: Callable[[], T], encode: Callable[[T], Any],
           decode: Callable[[Any], T]) -> T:
    """The value cached as `kind`/`key` with `stamp`, or `derive()` (then written for next time).

    `encode` turns the value into plain data marshal can write; `decode` turns it back, raising
    BadEntry (or TypeError, ValueError, KeyError) when the data is not the shape it writes.
    Errors of `derive` pass through, and nothing is written for them.
    """
    found = lookup(kind, key, stamp, decode)
    if found is not None:
        return found
    value = derive()
    store(kind, key, stamp, encode(value))
    return value


def lookup(kind: str, key: str, stamp: str, decode: Callable[[Any], T]) -> T | None:
    """The decoded value of a whole entry made with `stamp`, or None (missing, damaged, foreign, wrong shape)."""
    found = _read(kind, key, stamp)
    if found is None:
        return None
    try:
        return decode(found)
    except (BadEntry, TypeError, ValueError, KeyError, IndexError):
        return None  # the wrong shape: the caller derives it again and stores it over this one


def store(kind: str, key: str, stamp: str, payload: Any) -> None:
    """Write `payload` (plain data) as the entry `kind`/`key`, whole or not at all."""
    _write(kind, key, stamp, marshal.dumps(payload))


def _read(kind: str, key: str, stamp: str) -> object | None:
    """The payload of a whole, matching entry; None for a missing, damaged or foreign one."""
    folder = cache_root() / kind
    try:
        raw = read_bytes(folder, f"{key}.bin", MAX_ENTRY_BYTES)
    except (ConfinedError, OSError):
        return None
    try:
        return _payload(raw, kind, key, stamp)
    except (BadEntry, ValueError, EOFError, TypeError):
        return None


def _payload(raw: bytes, kind: str, key: str, stamp: str) -> object:
    if not raw.startswith(_MAGIC):
        raise BadEntry("not a fudaya cache entry")
    end = raw.index(b"\n", len(_MAGIC))
    header = json.loads(raw[len(_MAGIC):end])
    body = raw[end + 1:]
    if not isinstance(header, dict) or header.get("kind") != kind or header.get("key") != key \
            or header.get("stamp") != stamp:
        raise BadEntry("made for another input or by other code")
    if header.get("size") != len(body) or header.get("sha256") != hashlib.sha256(body).hexdigest():
        raise BadEntry("cut short or damaged")
    return marshal.loads(body)


def _write(kind: str, key: str, stamp: str, body: bytes) -> None:
    """Write the entry whole (temporary file renamed over it); a cache that cannot be written is skipped."""
    header = json.dumps({"kind": kind, "key": key, "stamp": stamp, "size": len(body),
                         "sha256": hashlib.sha256(body).hexdigest()}, ensure_ascii=True).encode()
    folder = cache_root() / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _prune(folder)
        write_bytes(folder, f"{key}.bin", _MAGIC + header + b"\n" + body)
    except (ConfinedError, OSError):
        pass


def _prune(folder: Path) -> None:
    """Keep a kind's folder under MAX_ENTRIES: past it, the least recently written half goes. (Each edit of
    a deck file that checks clean adds a schema verdict; fonts come and go with decks.)"""
    with os.scandir(folder) as found:
        entries = [entry for entry in found if entry.name.endswith(".bin")]
    if len(entries) < MAX_ENTRIES:
        return
    entries.sort(key=lambda entry: entry.stat(follow_symlinks=False).st_mtime_ns)
    for entry in entries[: len(entries) - MAX_ENTRIES // 2]:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


@functools.lru_cache(maxsize=16)
def sha256_key(data: bytes) -> str:
    """The key of an input: its bytes' sha256, computed once for the same bytes object (a font's is asked for
    its reading, its ReportLab parse and its PDF name; the bytes' own hash, which the lookup takes, is kept
    by the object itself)."""
    return hashlib.sha256(data).hexdigest()
