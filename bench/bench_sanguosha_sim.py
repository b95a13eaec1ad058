"""Benchmark: random 5-player sanguosha games per second on one core, the way simulate() plays them and
through the State API alone.

Builds the engine straight from decks/sanguosha's card files (validator.games.sanguosha.positions.
game_from_files), so it runs while layouts or the rulebook are unfinished. Two figures, median of 5
runs each: "simulate" plays through validator.simulate.play_match, which uses the engine's
fast_playout hook (what `fudaya simulate` and every report do); "State API" plays through
validator.simulate.play_game (what a search or invariant-checked run does). Target: 3x the generator
engine's 578 games/s (issue 26), i.e. 1,734 games/s. The engine runs compiled when `make fast` built
it (validator/native.py) and pure Python otherwise; the first line says which.
Run: .venv/bin/python bench/bench_sanguosha_sim.py [games per run]
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from validator.engine.policies import RandomPolicy
from validator.games.sanguosha.positions import game_from_files
from validator.native import build_in_use
from validator.simulate import fast_playout, play_game, play_match

BEFORE = 578.0  # games/s of the generator engine (bench of 2026-11-28, before issue 26)
TARGET = 3 * BEFORE
PLAYERS = 5


def state_api(game: object, games: int, base: int) -> float:
    policies = [RandomPolicy() for _ in range(PLAYERS)]
    start = time.perf_counter()
    for i in range(games):
        play_game(game, policies, random.Random(base + i), random.Random(base + i + 10**6),  # type: ignore[arg-type]
                  first_player=None, step_cap=5000)
    return games / (time.perf_counter() - start)


def simulate_path(game: object, games: int, base: int) -> float:
    policies = [RandomPolicy() for _ in range(PLAYERS)]
    fast = fast_playout(game, policies)  # type: ignore[arg-type]
    start = time.perf_counter()
    for i in range(games):
        play_match(game, policies, base, i, step_cap=5000, fast=fast)  # type: ignore[arg-type]
    return games / (time.perf_counter() - start)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    game = game_from_files()

    build = build_in_use("validator.games.sanguosha")
    print(f"sanguosha, {PLAYERS} random players, {games} games per run, 5 runs; deck: decks/sanguosha card files; "
          f"engine: {build}")
    for name, run in (("simulate", simulate_path), ("State API", state_api)):
        rates = [run(game, games, k * games) for k in range(5)]
        median = statistics.median(rates)
        print(f"{name:>9}: median {median:.0f} games/s (best {max(rates):.0f}, worst {min(rates):.0f}); "
              f"{median / BEFORE:.2f}x the generator engine's {BEFORE:.0f}; target {TARGET:.0f}: "
              f"{'met' if median >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
