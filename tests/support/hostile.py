"""Test support for the fuzz suite: hostile mutations of a shipped deck, and the watch on what a run reads.

A mutation is data (`Mutation`): which file, what is done to it; hypothesis draws them, `apply`
makes them on a throw-away copy of the deck. The read watch is a Python audit hook: every file
a check or build opens must lie inside the deck, the output folder, or the tool's own files.
"""
from __future__ import annotations

import json
import os
import resource
import struct
import sys
import sysconfig
import threading
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from validator.cache import cache_root
from validator.paths import FONTS_DIR, PROJECT_ROOT, SCHEMA_DIR

JSON_FILES = ("game.json", "cards.json", "layout.json", "rulebook.json")

# An outside file every hostile path points at; a run that reads it has escaped the deck.
SECRET_NAME = "outside-secret"

HOSTILE_STRINGS = (
    "", " ", "{", "}", "{nope}", "{0}", "{name!r:>99999}", "%s%n", "\u202e", "\x00", "a\x00b.png",
    "<img src='/etc/hostname'/>", "<b>", "A<B", "R&D <Deluxe>", "&amp;", "]]>", "<![CDATA[",
    "../" * 8 + SECRET_NAME + ".png", "/etc/hostname", "assets/../../" + SECRET_NAME + ".svg",
    "file:///etc/hostname", "http://127.0.0.1:9/x.png", "builtin:../../" + SECRET_NAME,
    "cmyk(0,0,0,1000)", "#zzzzzz", "nan", "1e999", "-0", "天" * 21_000, "x" * 5_000,
)


def _json_leaf() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(),
        st.integers(min_value=-(10**6), max_value=10**7), st.sampled_from([0, -1, 10**29, -(10**29)]),
        st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([1e300, -1e300, 5e-324, 0.0]),
        st.text(max_size=40), st.sampled_from(HOSTILE_STRINGS),
    )


JSON_VALUES = st.recursive(_json_leaf(), lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)


@dataclass(frozen=True)
class Mutation:
    """One change to one file of the deck copy. `at` picks a JSON value by its index in document order."""

    file: str
    kind: str  # replace | delete | duplicate | raw
    at: int
    value: Any = None


def mutations() -> st.SearchStrategy[Mutation]:
    return st.one_of(
        st.builds(Mutation, st.sampled_from(JSON_FILES), st.sampled_from(["replace", "delete", "duplicate"]),
                  st.integers(min_value=0, max_value=10**6), JSON_VALUES),
        st.builds(Mutation, st.sampled_from(JSON_FILES), st.just("raw"), st.integers(min_value=0, max_value=10**6),
                  st.sampled_from(["", "NaN", "Infinity", "[" * 70, "\x00", ",", "\"", "9" * 40, "\ufeff", "\\u0000"])),
    )


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*path, index))


def apply(game_dir: Path, mutation: Mutation) -> str:
    """Make the mutation on the copy; returns a short description for failure messages."""
    path = game_dir / mutation.file
    if not path.exists():
        return f"{mutation.file}: absent, nothing changed"
    if mutation.kind == "raw":
        text = path.read_text(encoding="utf-8")
        cut = mutation.at % (len(text) + 1)
        path.write_text(text[:cut] + mutation.value + text[cut:], encoding="utf-8")
        return f"{mutation.file}: inserted {mutation.value[:12]!r} at {cut}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return f"{mutation.file}: no longer JSON, {mutation.kind} skipped"
    paths = list(_paths(data))[1:] or [()]
    target = paths[mutation.at % len(paths)]
    if not target:
        data = mutation.value
    else:
        parent = data
        for step in target[:-1]:
            parent = parent[step]
        last = target[-1]
        if mutation.kind == "replace":
            parent[last] = mutation.value
        elif mutation.kind == "delete":
            del parent[last]
        elif isinstance(parent, list):  # duplicate a list entry (ids then collide)
            parent.insert(last, json.loads(json.dumps(parent[last])))
        else:
            parent[f"{last}_copy"] = parent[last]
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8", errors="surrogatepass")
    return f"{mutation.file}: {mutation.kind} at {'/'.join(map(str, target))} -> {str(mutation.value)[:60]!r}"


# --- hostile art ------------------------------------------------------------------------------

SVG_HREFS = ("#a", f"../../{SECRET_NAME}.png", f"../../{SECRET_NAME}.svg#s", "file:///etc/hostname",
             "http://127.0.0.1:9/x.svg", "data:image/png;base64,AAAA", "/etc/hostname", "seal.png")
SVG_SIZES = ("0", "-5", "1e300", "NaN", "inf", "garbage", "10", "10mm", "100%", "")
SVG_VIEWBOXES = ("0 0 10 10", "garbage", "0 0 0 0", "0 0 1e300 1e300", "0 0 -1 10", "", "0,0,10")


@st.composite
def hostile_svgs(draw: st.DrawFn) -> bytes:
    width, height = draw(st.sampled_from(SVG_SIZES)), draw(st.sampled_from(SVG_SIZES))
    view_box = draw(st.sampled_from(SVG_VIEWBOXES))
    href = draw(st.sampled_from(SVG_HREFS))
    body = draw(st.sampled_from([
        f'<image xlink:href="{href}" width="5" height="5"/>',
        f'<use xlink:href="{href}"/>',
        f'<rect width="5" height="5" style="fill: url({href})"/>',
        f'<style>@import url("{href}"); rect {{ fill: #f00 }}</style><rect width="5" height="5"/>',
        '<rect width="5" height="5" fill="#231815"/>' * draw(st.sampled_from([1, 60_000])),
        '<text x="1" y="5">&big;</text>',
    ]))
    doctype = draw(st.sampled_from([
        "",
        '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY big "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>',
        '<!DOCTYPE svg [<!ENTITY big SYSTEM "file:///etc/hostname">]>',
    ]))
    if "&big;" in body and not doctype:
        body = '<rect width="5" height="5"/>'
    return (f'<?xml version="1.0"?>{doctype}<svg xmlns="http://www.w3.org/2000/svg" '
            f'xmlns:xlink="http://www.w3.org/1999/xlink" width="{width}" height="{height}" viewBox="{view_box}">'
            f"{body}</svg>").encode()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header declares width×height and whose data is a few bytes: a decompression bomb's shape."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


HOSTILE_IMAGES = st.one_of(
    st.builds(png_header_only, st.sampled_from([1, 100, 30_000, 2**31 - 1]), st.sampled_from([1, 100, 30_000])),
    st.sampled_from([b"", b"GIF89a", b"\x89PNG\r\n\x1a\n", b"<svg/>", os.urandom(64)]),
)


# --- the memory cap ---------------------------------------------------------------------------

MEMORY_HEADROOM = 1024**3  # what one command may add to the process's address space: "never > 1 GiB"


def _address_space() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


@contextmanager
def memory_capped(headroom: int = MEMORY_HEADROOM) -> Iterator[None]:
    """Within the block the process may grow its address space by `headroom` at most (RLIMIT_AS): a
    blow-up raises MemoryError in the test instead of taking the machine. Restored afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = _address_space() + headroom
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# --- the read watch ---------------------------------------------------------------------------

_tool_roots = [Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sysconfig.get_paths()["stdlib"],
                                           sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}]
_tool_roots += [FONTS_DIR.resolve(), SCHEMA_DIR.resolve(), (PROJECT_ROOT / "generator").resolve(),
                (PROJECT_ROOT / "validator").resolve(), (PROJECT_ROOT / "fudaya.egg-info").resolve(),
                Path("/dev").resolve(), Path("/proc").resolve(),
                Path("/usr/share/zoneinfo"), Path("/etc/localtime")]
_watch = threading.local()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    allowed = getattr(_watch, "allowed", None)
    if allowed is None or event != "open" or not args or not isinstance(args[0], (str, bytes, os.PathLike)):
        return
    raw = os.fsdecode(args[0])
    if "\x00" in raw:
        return  # refused by the OS before anything is read
    path = Path(raw)
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):
        resolved = path
    if not any(resolved == root or resolved.is_relative_to(root) for root in allowed):
        _watch.outside.append(raw)


sys.addaudithook(_audit)


@contextmanager
def reads_watched(*roots: Path) -> Iterator[list[str]]:
    """Within the block, record every file opened outside `roots` and the tool's own files (its per-machine
    cache among them: validator/cache.py)."""
    _watch.allowed = [r.resolve() for r in roots] + _tool_roots + [cache_root().resolve()]
    _watch.outside = []
    try:
        yield _watch.outside
    finally:
        _watch.allowed = None
