"""The optional mypyc build (`make fast`: gogyo's and sanguosha's hot modules): used only while it matches
its sources, and plays the same games.

Pure Python is the reference; a compiled module must give every record the pure one gives, seed
for seed, and a build made from other sources must never be imported.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from validator import native

GOGYO = "validator.games.gogyo"


def _stamp(folder: Path, sources: dict[str, str], python: str = sys.implementation.cache_tag) -> Path:
    compiled = folder.joinpath(*GOGYO.split("."))
    compiled.mkdir(parents=True)
    (compiled / native.STAMP).write_text(json.dumps({"python": python, "sources": sources}), encoding="utf-8")
    return compiled


def test_no_build_means_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUDAYA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("FUDAYA_PURE", raising=False)
    assert native.native_path(GOGYO) == []


def test_a_build_matching_the_sources_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUDAYA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("FUDAYA_PURE", raising=False)
    compiled = _stamp(tmp_path, native.source_digests(GOGYO))
    assert native.native_path(GOGYO) == [str(compiled)]
    monkeypatch.setenv("FUDAYA_PURE", "1")
    assert native.native_path(GOGYO) == []


@pytest.mark.parametrize("change", ["one source edited", "another Python", "a broken stamp"])
def test_a_stale_build_is_ignored_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 change: str) -> None:
    monkeypatch.setenv("FUDAYA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("FUDAYA_PURE", raising=False)
    sources = native.source_digests(GOGYO)
    if change == "one source edited":
        _stamp(tmp_path, {**sources, "state": "0" * 64})
    elif change == "another Python":
        _stamp(tmp_path, sources, python="cpython-39")
    else:
        (_stamp(tmp_path, sources) / native.STAMP).write_text("{not json", encoding="utf-8")
    with pytest.warns(RuntimeWarning, match="make fast"):
        assert native.native_path(GOGYO) == []


RECORDS = """
import hashlib, sys
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate
import validator.games.gogyo.state as state
import validator.games.sanguosha.stack as stack
engine = engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))
print(state.__file__.rsplit(".", 1)[-1], stack.__file__.rsplit(".", 1)[-1])
for policies in (("random",) * 4, ("greedy",) * 4, ("greedy", "random", "random"), ("random", "greedy")):
    records = simulate(engine, SimConfig(len(policies), policies, 150, seed=11))
    print(policies, hashlib.sha256(repr(records).encode()).hexdigest())
engine = engine_for(load_game(DEFAULT_DECKS_DIR, "sanguosha"))
# an mcts seat clones and deals states (stack frames copied field by field when compiled)
for policies, matches in ((("random",) * 5, 150), (("greedy",) * 6, 40), (("mcts:5", "greedy", "random"), 2)):
    records = simulate(engine, SimConfig(len(policies), policies, matches, seed=11, check_invariants=True))
    print(policies, hashlib.sha256(repr(records).encode()).hexdigest())
"""


def _records(env: dict[str, str]) -> list[str]:
    run = subprocess.run([sys.executable, "-c", RECORDS], capture_output=True, text=True, env=env, check=True)
    return run.stdout.splitlines()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_the_compiled_engine_plays_the_same_games_as_pure_python(tmp_path: Path) -> None:
    """Compile (as `make fast` does) into a temporary folder, then play seeded matches both ways."""
    target = tmp_path / "native"
    env = {**os.environ, "FUDAYA_NATIVE_DIR": str(target)}
    env.pop("FUDAYA_PURE", None)
    compile_unoptimised = f"from validator import native; native.build(native.Path({str(target)!r}), opt_level='0')"
    subprocess.run([sys.executable, "-c", compile_unoptimised], check=True, capture_output=True, env=env)
    compiled = _records(env)
    pure = _records({**env, "FUDAYA_PURE": "1"})
    assert compiled[0] == "so so" and pure[0] == "py py"
    assert compiled[1:] == pure[1:]
