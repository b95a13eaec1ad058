"""validator/cache.py: a font's reading kept per machine is used again, never trusted when it is damaged, cut
short, of the wrong shape or made by other code, and written whole or not at all."""
from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hostile_fonts import tiny_font
from validator import cache, font_cache
from validator.fontfile import FontFileError, read_font
from validator.paths import FONTS_DIR

FONT = FONTS_DIR / "BIZUDGothic-Regular.ttf"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    return folder


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every time the font reader itself runs (a cache miss), the bytes it read."""
    seen: list[bytes] = []

    def counted(data: bytes) -> object:
        seen.append(data)
        return read_font(data)

    monkeypatch.setattr(font_cache, "read_font", counted)
    return seen


def _entry(data: bytes) -> Path:
    return cache.entry_path(font_cache.KIND, cache.sha256_key(data))


def test_a_font_is_read_once_then_taken_from_the_cache(cache_dir: Path, reads: list[bytes]) -> None:
    data = FONT.read_bytes()
    first = font_cache.read_font_cached(data)
    assert len(reads) == 1 and _entry(data).is_file() and _entry(data).is_relative_to(cache_dir)
    second = font_cache.read_font_cached(data)
    assert len(reads) == 1  # the second reading came from the entry
    assert second == first == read_font(data) and dict(second.advances) == dict(read_font(data).advances)


def test_the_tests_never_use_the_users_own_cache() -> None:
    """conftest points FUDAYA_CACHE at a folder of the run; without it the cache is the user's (platformdirs)."""
    import platformdirs

    assert os.environ[cache.CACHE_ENV] and cache.cache_root() == Path(os.environ[cache.CACHE_ENV])
    assert not cache.cache_root().is_relative_to(platformdirs.user_cache_dir())


def test_without_fudaya_cache_the_entries_go_to_the_users_cache_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    monkeypatch.delenv(cache.CACHE_ENV)
    assert cache.cache_root() == Path(platformdirs.user_cache_dir("fudaya", appauthor=False))


@pytest.mark.parametrize("damage", ["cut short", "a byte changed", "not an entry", "empty"])
def test_a_damaged_entry_is_ignored_and_written_again(cache_dir: Path, reads: list[bytes], damage: str) -> None:
    data = FONT.read_bytes()
    font_cache.read_font_cached(data)
    entry = _entry(data)
    whole = entry.read_bytes()
    damaged = {"cut short": whole[: len(whole) // 2], "a byte changed": whole[:-100] + bytes([whole[-100] ^ 1])
               + whole[-99:], "not an entry": b"\x00" * 64, "empty": b""}[damage]
    entry.write_bytes(damaged)
    assert font_cache.read_font_cached(data) == read_font(data)
    assert len(reads) == 2  # read again, not trusted
    assert entry.read_bytes() == whole  # and written again, whole
    font_cache.read_font_cached(data)
    assert len(reads) == 2


def test_an_entry_of_the_wrong_shape_is_ignored_and_written_again(cache_dir: Path, reads: list[bytes]) -> None:
    """A whole entry (its digest right) whose payload is not a font reading: the decoder refuses it."""
    data = FONT.read_bytes()
    font_cache.read_font_cached(data)
    entry = _entry(data)
    good = entry.read_bytes()
    wrong = font_cache._encode(read_font(data))
    for payload in [(1, 2, 3), {"units": 1000}, (*wrong[:6], {"a": 1}, wrong[7]), (8, *wrong[1:])]:
        cache._write(font_cache.KIND, cache.sha256_key(data), font_cache._stamp(), marshal.dumps(payload))
        assert cache._read(font_cache.KIND, cache.sha256_key(data), font_cache._stamp()) == payload
        before = len(reads)
        assert font_cache.read_font_cached(data) == read_font(data)
        assert len(reads) == before + 1 and entry.read_bytes() == good


def test_an_entry_made_by_another_version_is_not_trusted(cache_dir: Path, reads: list[bytes],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    data = FONT.read_bytes()
    font_cache.read_font_cached(data)
    monkeypatch.setattr(cache, "fudaya_version", lambda: "99.0.0")
    font_cache._stamp.cache_clear()
    try:
        assert "99.0.0" in font_cache._stamp()
        font_cache.read_font_cached(data)
        assert len(reads) == 2  # the old version's entry was ignored ...
        assert b"99.0.0" in _entry(data).read_bytes()  # ... and replaced by this version's
        font_cache.read_font_cached(data)
        assert len(reads) == 2
    finally:
        font_cache._stamp.cache_clear()


def test_a_change_to_the_readers_source_is_a_new_stamp(tmp_path: Path) -> None:
    """An edited checkout keeps its version number; the digest of the deriving code tells its entries apart."""
    import types

    module = types.ModuleType("reader")
    module.__file__ = str(tmp_path / "reader.py")
    Path(module.__file__).write_text("A = 1\n")
    before = cache.code_stamp(module)
    Path(module.__file__).write_text("A = 2\n")
    assert cache.code_stamp(module) != before and cache.code_stamp(module).split()[0] == before.split()[0]


def test_a_failed_write_leaves_no_partial_file_and_the_old_entry_whole(cache_dir: Path, reads: list[bytes],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    data = FONT.read_bytes()
    font_cache.read_font_cached(data)
    entry = _entry(data)
    old = entry.read_bytes()
    entry.write_bytes(old[:100])  # damaged: the next read derives and writes it again ...

    def interrupted(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", interrupted)  # ... and the write fails at its rename
    assert font_cache.read_font_cached(data) == read_font(data)  # the build goes on without the cache
    assert sorted(p.name for p in entry.parent.iterdir()) == [entry.name]  # no temporary left beside it
    assert entry.read_bytes() == old[:100]  # what was there is untouched, never half of the new entry


def test_entries_written_at_once_by_several_processes_are_whole(cache_dir: Path) -> None:
    """Four processes miss at the same moment and all write: each rename is whole, the last one stays."""
    script = ("import sys; from pathlib import Path; from validator.font_cache import read_font_cached; "
              "read_font_cached(Path(sys.argv[1]).read_bytes())")
    runs = [subprocess.Popen([sys.executable, "-c", script, str(FONT)], env={**os.environ}) for _ in range(4)]
    assert all(run.wait(timeout=120) == 0 for run in runs)
    data = FONT.read_bytes()
    entry = _entry(data)
    assert sorted(p.name for p in entry.parent.iterdir()) == [entry.name]
    assert cache._read(font_cache.KIND, cache.sha256_key(data), font_cache._stamp()) == \
        font_cache._encode(read_font(data))


def test_a_refused_font_is_not_kept(cache_dir: Path) -> None:
    bad = tiny_font()[:40]
    for _ in range(2):
        with pytest.raises(FontFileError):
            font_cache.read_font_cached(bad)
    assert not _entry(bad).exists()


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocked))
    data = FONT.read_bytes()
    assert font_cache.read_font_cached(data) == read_font(data)
    assert blocked.read_text() == "not a folder"


def test_a_kinds_folder_is_pruned_to_half_when_it_fills(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind's folder holds at most MAX_ENTRIES: reaching it, the least recently written half go; the newest stay."""
    monkeypatch.setattr(cache, "MAX_ENTRIES", 10)
    for n in range(25):
        cache.store("test-kind", f"k{n:02d}", "stamp", n)
        os.utime(cache.entry_path("test-kind", f"k{n:02d}"), ns=(n * 10**9, n * 10**9))  # written in this order
    kept = sorted(p.stem for p in (cache_dir / "test-kind").iterdir())
    assert 5 <= len(kept) <= 10 and "k24" in kept
    assert kept == sorted(f"k{n:02d}" for n in range(25 - len(kept), 25))  # the newest ones
    assert cache.lookup("test-kind", "k24", "stamp", int) == 24
