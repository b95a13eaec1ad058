"""Reports are cached by what they depend on: a rebuild after a layout or rulebook edit reads the
report back instead of simulating again; new card data or rules simulate again."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import generator.report as report
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", tmp_path / "decks" / "gogyo")
    return tmp_path / "decks"


def _key(decks: Path) -> str:
    return report.report_key(load_game(decks, "gogyo"))


def _touch(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_key_ignores_layout_and_rulebook_edits_but_not_data(decks: Path) -> None:
    game = decks / "gogyo"
    first = _key(decks)
    _touch(game / "layout.json", '"size": 22', '"size": 21')
    _touch(game / "rulebook.json", "ゲームの概要", "ゲームのあらまし")
    assert _key(decks) == first  # drawn only: the simulation never reads them
    _touch(game / "game.json", '"declare_threshold": 30', '"declare_threshold": 31')
    second = _key(decks)
    assert second != first
    _touch(game / "cards.json", '"reading": "か"', '"reading": "かあ"')  # card data: the engine reads cards
    assert _key(decks) != second


def test_a_cached_report_is_read_back_instead_of_simulated(decks: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[int] = []

    def simulate(game: Any, plan: Any, workers: Any) -> dict[str, Any]:
        runs.append(1)
        return {"matches": len(runs), "game": game.id}

    monkeypatch.setattr(report, "_simulate", simulate)
    cache = tmp_path / "output" / report.REPORT_CACHE
    first = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    _touch(decks / "gogyo" / "layout.json", '"size": 22', '"size": 21')
    again = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert again == first and len(runs) == 1
    _touch(decks / "gogyo" / "game.json", '"declare_threshold": 30', '"declare_threshold": 31')
    changed = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert changed == {"matches": 2, "game": "gogyo"} and len(list(cache.glob("gogyo-*.json"))) == 1
    assert report.simulate_for_report(load_game(decks, "gogyo"), cache=None) == {"matches": 3, "game": "gogyo"}
