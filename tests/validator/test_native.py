"""The optional mypyc build (`make fast`: the hot modules of gogyo, sanguosha, jinzai, sengoku and sangokushi):
used only while it matches its sources, and plays the same games.

Pure Python is the reference; a compiled module must give every record the pure one gives, seed
for seed, and a build made from other sources must never be imported.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import warnings
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
    assert native.build_in_use(GOGYO).startswith("pure Python")


def test_a_build_matching_the_sources_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUDAYA_NATIVE_DIR", str(tmp_path))
    monkeypatch.delenv("FUDAYA_PURE", raising=False)
    compiled = _stamp(tmp_path, native.source_digests(GOGYO))
    assert native.native_path(GOGYO) == [str(compiled)]
    assert native.build_in_use(GOGYO).startswith("state, scoring, orders, tables, cards, rules, policies, playout "
                                                 "compiled by mypyc")
    monkeypatch.setenv("FUDAYA_PURE", "1")
    assert native.native_path(GOGYO) == []
    assert native.build_in_use(GOGYO).startswith("pure Python")


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
import hashlib, pickle, random, sys
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate
import validator.games.gogyo.state, validator.games.sanguosha.stack, validator.games.jinzai.state
import validator.games.sengoku.policies, validator.games.sangokushi.state
print(*(module.__file__.rsplit(".", 1)[-1] for module in (validator.games.gogyo.state, validator.games.sanguosha.stack,
      validator.games.jinzai.state, validator.games.sengoku.policies, validator.games.sangokushi.state)))
def digest(records):
    return hashlib.sha256(repr(records).encode()).hexdigest()
engine = engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))
for policies in (("random",) * 4, ("greedy",) * 4, ("greedy", "random", "random"), ("random", "greedy")):
    print(policies, digest(simulate(engine, SimConfig(len(policies), policies, 150, seed=11))))
engine = engine_for(load_game(DEFAULT_DECKS_DIR, "sanguosha"))
# an mcts seat clones and deals states (stack frames copied field by field when compiled)
for policies, matches in ((("random",) * 5, 150), (("greedy",) * 6, 40), (("mcts:5", "greedy", "random"), 2)):
    config = SimConfig(len(policies), policies, matches, seed=11, check_invariants=True)
    print(policies, digest(simulate(engine, config)))
# Each through the game's own playout and, invariants checked, through the State API; the engine pickled first, as
# a spawned worker gets it; a state played on after a pickle and after a clone.
for name in ("jinzai", "sengoku", "sangokushi"):
    engine = pickle.loads(pickle.dumps(engine_for(load_game(DEFAULT_DECKS_DIR, name))))
    for game in (engine, engine.with_rules(variant="riichi")) if name == "sengoku" else (engine,):
        for policies, matches, invariants in ((("random",) * 4, 100, False), (("greedy",) * 4, 40, False),
                                              (("greedy", "random", "random"), 40, True),
                                              (("mcts:5", "greedy", "random"), 2, True)):
            config = SimConfig(len(policies), policies, matches, seed=11, check_invariants=invariants)
            print(name, policies, invariants, digest(simulate(game, config)))
    state, rng = engine.new_initial_state(random.Random(3), 4), random.Random(5)
    for _ in range(40):
        if not state.is_terminal():
            state.apply_action(rng.choice(list(state.legal_actions())))
    for copy in (pickle.loads(pickle.dumps(state)), state.clone()):
        while not copy.is_terminal():
            copy.apply_action(copy.legal_actions()[0])
        print(name, "played on", copy.returns())
"""


def _records(env: dict[str, str]) -> list[str]:
    run = subprocess.run([sys.executable, "-c", RECORDS], capture_output=True, text=True, env=env, check=True)
    return run.stdout.splitlines()


def _fresh(folder: Path) -> bool:
    """Whether `folder` holds a build of every package's sources as they are now (native_path's test)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return all(native.native_path(package, folder) for package in native.COMPILED)


def _compiled_build(cache: pytest.Cache) -> Path:
    """A mypyc build of the sources as they are now, compiled at most once per set of sources: the checkout's
    own `make fast` build when it matches them (its stamp records the digest of every source it compiled),
    else the one pytest's cache keeps for these sources and this Python and mypyc, else compiled now (as
    `make fast` does, unoptimised: the same semantics in two thirds of the time, ~55 s) and kept there."""
    from mypy.version import __version__ as mypyc_version

    if _fresh(native.PROJECT_ROOT / ".native"):
        return native.PROJECT_ROOT / ".native"
    sources = json.dumps({package: native.source_digests(package) for package in sorted(native.COMPILED)})
    key = hashlib.sha256(f"{sys.implementation.cache_tag} {mypyc_version} {sources}".encode()).hexdigest()[:16]
    kept = cache.mkdir("fudaya-native")
    target = kept / key
    if not _fresh(target):
        for older in kept.iterdir():  # one build kept: the sources' last
            shutil.rmtree(older, ignore_errors=True)
        env = {name: value for name, value in os.environ.items() if name not in ("FUDAYA_PURE", "FUDAYA_NATIVE_DIR")}
        compile_unoptimised = f"from validator import native; native.build(native.Path({str(target)!r}), opt_level='0')"
        subprocess.run([sys.executable, "-c", compile_unoptimised], check=True, capture_output=True, env=env)
    assert _fresh(target)
    return target


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler")
def test_the_compiled_engine_plays_the_same_games_as_pure_python(request: pytest.FixtureRequest) -> None:
    """Compile (as `make fast` does; once per set of sources, _compiled_build), then play seeded matches both ways."""
    target = _compiled_build(request.config.cache)
    env = {**os.environ, "FUDAYA_NATIVE_DIR": str(target)}
    env.pop("FUDAYA_PURE", None)
    compiled = _records(env)
    pure = _records({**env, "FUDAYA_PURE": "1"})
    assert compiled[0] == "so so so so so" and pure[0] == "py py py py py"
    assert compiled[1:] == pure[1:]
