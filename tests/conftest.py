"""Shared fixtures: the real gogyo deck built once per session into a temporary folder."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.build import BuildOptions, build_game, load_checked
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture(scope="session")
def gogyo_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """output/ folder of a default build (A4, トンボ, sheets and print-shop files)."""
    out = tmp_path_factory.mktemp("out")
    build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=out, workers=2))
    return out / "gogyo"


@pytest.fixture(scope="session")
def gogyo_manifest(gogyo_build: Path) -> dict:
    return json.loads((gogyo_build / "build.json").read_text(encoding="utf-8"))
