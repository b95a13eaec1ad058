"""Optional mypyc builds of a game's hot modules, used only while they match their sources.

Pure Python is the engine; a compiled copy is an accelerator kept beside it. `make fast` compiles
the modules listed in COMPILED into `.native/` (never over the sources) and records a digest of
every source it compiled. A game package calls `native_path` from its `__init__` and puts the
returned folder in front of its `__path__`: Python then imports the compiled module where one is
fresh, the `.py` everywhere else. Once any compiled source changes, the whole compiled set is
ignored (with one warning) until `make fast` runs again, so a stale build can never play a game.
`FUDAYA_PURE=1` ignores it too; tests use that to compare both paths seed for seed.

    python -m validator.native build     # what `make fast` runs (needs the `fast` extra: mypy)
    python -m validator.native clean     # what `make pure` runs
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from .paths import PROJECT_ROOT

# Per game package: the modules whose loops dominate a simulation (measured with perf: the state's
# run loop, the scorer's search and memo, the greedy policy). The game's dataclass (game.py) mixes
# in an interpreted base and stays pure. sanguosha: the state, its stack of steps and every rule
# module (random 5-player games 3.4x the pure engine's speed, bench/bench_sanguosha_sim.py), and
# its heuristic, half of a search's time (greedy 5-player: 200 games 1.38 -> 0.61 s; a pimc:50 seat
# among four greedy 5.8 -> 2.4 s a match).
# jinzai, sengoku, sangokushi (cProfile, then kept only where compiling paid; one core, 2026-11-28,
# greedy 4-player matches/s and ms a match of an mcts:50 seat among three greedy, pure -> compiled):
# jinzai 518 -> 1,224/s and 1,414 -> 625 ms (rules, scoring, determinize gained nothing);
# sengoku 272 -> 457/s and 1,314 -> 845 ms (its state stays pure: SengokuGame lives in state.py,
# where determinize.py imports it from); sangokushi 392 -> 731/s and 3,675 -> 1,886 ms
# (battle.py is 7% of that, determinize.py 5% of the mcts figure).
COMPILED: dict[str, tuple[str, ...]] = {
    "validator.games.gogyo": ("state", "scoring", "orders", "tables", "cards", "rules", "policies", "playout"),
    "validator.games.sanguosha": ("stack", "state", "options", "flow", "damage", "cards", "skills", "turn", "setup",
                                  "playout", "views", "invariants", "policies"),
    "validator.games.jinzai": ("state", "policies", "columns", "playout"),
    "validator.games.sengoku": ("policies", "names"),
    "validator.games.sangokushi": ("state", "views", "policies", "knowledge", "battle", "economy", "determinize"),
}
STAMP = "sources.json"


def native_dir() -> Path:
    """Where compiled modules live: FUDAYA_NATIVE_DIR, else `.native/` in the checkout."""
    return Path(os.environ.get("FUDAYA_NATIVE_DIR") or PROJECT_ROOT / ".native")


def _package_dir(package: str) -> Path:
    return PROJECT_ROOT.joinpath(*package.split("."))


def source_digests(package: str) -> dict[str, str]:
    """sha256 of each compiled module's source as it is now."""
    folder = _package_dir(package)
    return {name: hashlib.sha256((folder / f"{name}.py").read_bytes()).hexdigest() for name in COMPILED[package]}


def native_path(package: str, root: Path | None = None) -> list[str]:
    """The compiled folder for `package` when it exists and matches the sources, else nothing (`root`: the
    compiled set to look in, native_dir() by default)."""
    if os.environ.get("FUDAYA_PURE") or package not in COMPILED:
        return []
    folder = (root or native_dir()).joinpath(*package.split("."))
    stamp = folder / STAMP
    if not stamp.is_file():
        return []
    try:
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        recorded = None
    if not isinstance(recorded, dict) or recorded.get("python") != sys.implementation.cache_tag \
            or recorded.get("sources") != source_digests(package):
        warnings.warn(f"{folder} was compiled from other sources or another Python: using pure Python "
                      f"(run `make fast` again, or `make pure`)", RuntimeWarning, stacklevel=2)
        return []
    return [str(folder)]


def build_in_use(package: str) -> str:
    """What a game package plays with, in words for a benchmark's first line: its compiled modules (as
    native_path decides, so FUDAYA_PURE and a stale build count) or pure Python."""
    if not native_path(package):
        return "pure Python (`make fast` compiles the hot modules; FUDAYA_PURE=1 ignores them)"
    return f"{', '.join(COMPILED[package])} compiled by mypyc (`make pure` or FUDAYA_PURE=1 for pure Python)"


def build(target: Path | None = None, opt_level: str = "3") -> Path:
    """Compile every package's COMPILED modules with mypyc into `target` (default native_dir()).

    The new set replaces the old one only once the compiler succeeded; its stamp records the
    digests of the sources actually compiled. `opt_level` is the C compiler's (the test that both
    paths agree uses "0": the same semantics, compiled in two thirds of the time)."""
    from mypyc.build import mypycify  # the `fast` extra; imported here so pure installs never need it
    from setuptools import setup  # type: ignore[import-untyped]

    target = target or native_dir()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".native-", dir=target.parent) as work:
        staging, temp = Path(work) / "lib", Path(work) / "temp"
        before = {package: source_digests(package) for package in COMPILED}
        groups: list[tuple[list[str], str | None]] = [
            ([str((_package_dir(package) / f"{name}.py").relative_to(PROJECT_ROOT)) for name in names],
             f"{package}.native") for package, names in COMPILED.items()]
        cwd = os.getcwd()
        try:
            os.chdir(PROJECT_ROOT)  # mypyc names modules by their path from here
            # One mypy pass for every package (a pass per package was half the build), one library per package.
            modules = mypycify([source for sources, _ in groups for source in sources], opt_level=opt_level,
                               separate=groups, target_dir=str(Path(work) / "c"))
            os.chdir(work)  # away from pyproject.toml, which setup() would read as this build's config
            # --parallel: the packages' C files compile side by side (64 -> 43 s on 2 cores)
            setup(name="fudaya-native", ext_modules=modules, py_modules=[],
                  script_args=["--quiet", "build_ext", "--parallel", str(os.cpu_count() or 1),
                               "--build-lib", str(staging), "--build-temp", str(temp)])
        finally:
            os.chdir(cwd)
        for package, digests in before.items():
            if source_digests(package) != digests:
                raise RuntimeError(f"{package} changed while it was compiled: run the build again")
            stamp = {"python": sys.implementation.cache_tag, "sources": digests}
            compiled = staging.joinpath(*package.split("."))
            (compiled / STAMP).write_text(json.dumps(stamp, indent=1), encoding="utf-8")
        old = Path(work) / "old"
        if target.exists():
            target.rename(old)
        staging.rename(target)
    return target


def clean(target: Path | None = None) -> None:
    shutil.rmtree(target or native_dir(), ignore_errors=True)


def main(argv: list[str]) -> int:
    if argv[1:] == ["build"]:
        print(f"compiled into {build()}")
        return 0
    if argv[1:] == ["clean"]:
        clean()
        print(f"removed {native_dir()}: pure Python")
        return 0
    print("usage: python -m validator.native build|clean", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
