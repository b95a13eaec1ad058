"""Every module imports alone in a fresh interpreter, so an import cycle cannot hide behind conftest's imports,
and without the optional extras' packages, so none is imported before it is asked for."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from validator.engine.registry import GAMES_PACKAGE, known_games

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("validator", "generator")
OPTIONAL = ("distributed", "dask")  # the [cluster] extra: the test extra installs it, so it is hidden here


def all_modules() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            names.append(".".join(parts))
    return names


def _import_alone(module: str) -> tuple[str, int, str]:
    hide = "; ".join(f"sys.modules[{name!r}] = None" for name in OPTIONAL)
    done = subprocess.run([sys.executable, "-c", f"import sys; {hide}; import {module}"], cwd=ROOT,
                          capture_output=True, text=True)
    return module, done.returncode, done.stderr.strip().splitlines()[-1:][0] if done.stderr.strip() else ""


def test_the_module_list_covers_every_game_package() -> None:
    modules = all_modules()
    assert "validator.engine.registry" in modules and "generator.cli" in modules
    assert {f"{GAMES_PACKAGE}.{name}" for name in known_games()} <= set(modules)


@pytest.mark.slow
def test_every_module_imports_alone_in_a_fresh_interpreter() -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(_import_alone, all_modules()))
    failures = [f"{module}: {last}" for module, code, last in results if code != 0]
    assert not failures, "\n".join(failures)
