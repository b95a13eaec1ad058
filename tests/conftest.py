"""Shared fixtures: the real gogyo deck built once per session into a temporary folder.

fudaya's per-machine cache (validator/cache.py) lives in a folder of this run for every test and every
process a test starts (xdist's workers inherit it): tests never read or write the user's own cache.
"""
from __future__ import annotations

import sys

# A machine may set PYTHONDONTWRITEBYTECODE (this one does): then no .pyc is ever written, and every run of
# the suite rewrites the asserts of every test module again (pytest keeps its rewrite as a .pyc) and compiles
# every fudaya module again, in each worker: about 4 s of each worker's start. The suite keeps bytecode as
# Python does by default; processes the tests start read it.
sys.dont_write_bytecode = False

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from generator.build import BuildOptions, build_game, load_checked
from validator.paths import DEFAULT_DECKS_DIR

if "PYTEST_XDIST_WORKER" not in os.environ:  # the run's first process; its workers share its folder
    _CACHE = tempfile.mkdtemp(prefix="fudaya-test-cache-")
    os.environ["FUDAYA_CACHE"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def gogyo_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output/ folder of a default build (A4, トンボ, sheets and print-shop files)."""
    out = tmp_path_factory.mktemp("out")
    build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=out, workers=2))
    return out / "gogyo"


@pytest.fixture(scope="session")
def gogyo_manifest(gogyo_build: Path) -> dict:
    return json.loads((gogyo_build / "build.json").read_text(encoding="utf-8"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules holding slow tests run first (each module kept whole, so its module fixtures are made once):
    make test's workers start the long tests at once instead of finding one at the end, run alone."""
    slow_modules = {getattr(item, "module", None) for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: getattr(item, "module", None) not in slow_modules)
