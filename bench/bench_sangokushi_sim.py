"""Benchmark: random 4-player sangokushi games per second on one core, through the harness's play_game.

Uses the real deck (decks/sangokushi: its generals and map) when the engine can be built from it, else
the synthetic deck and suggested map of tests/validator/games/test_sangokushi.py, and says which.
Median of 5 runs; the target is 500 games/s. The engine runs compiled when `make fast` built it
(validator/native.py) and pure Python otherwise; the first line says which.
Run: .venv/bin/python bench/bench_sangokushi_sim.py [games per run]
"""
from __future__ import annotations

import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from validator.engine.policies import RandomPolicy
from validator.native import build_in_use
from validator.simulate import play_game

ROOT = Path(__file__).resolve().parent.parent
TARGET = 500.0
PLAYERS = 4


def load_game() -> tuple[Any, str]:
    try:
        from validator.engine.registry import engine_for
        from validator.loader import load_game as load
        from validator.paths import DEFAULT_DECKS_DIR

        return engine_for(load(DEFAULT_DECKS_DIR, "sangokushi")), "decks/sangokushi"
    except Exception as exc:  # the deck's map may not exist yet
        path = ROOT / "tests/validator/games/test_sangokushi.py"
        spec = importlib.util.spec_from_file_location("sangokushi_rules_tests", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.GAME, f"synthetic deck of the tests ({type(exc).__name__}: {exc})"


def one_run(game: Any, games: int, base: int) -> tuple[float, int]:
    policies = [RandomPolicy() for _ in range(PLAYERS)]
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        record = play_game(game, policies, random.Random(base + i), random.Random(base + i + 10**6),
                           first_player=None)
        steps += record.steps
    return games / (time.perf_counter() - start), steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    game, source = load_game()
    results = [one_run(game, games, run * games) for run in range(5)]
    rates = [rate for rate, _ in results]
    median = statistics.median(rates)

    build = build_in_use("validator.games.sangokushi")
    print(f"sangokushi, {PLAYERS} random players, {games} games per run, 5 runs; deck: {source}; engine: {build}")
    print(f"games/s: median {median:.0f}, best {max(rates):.0f}, worst {min(rates):.0f}; "
          f"decisions per game {results[0][1] / games:.0f}")
    print(f"target {TARGET:.0f} games/s: {'met' if median >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
