"""Benchmark: random 5-player sanguosha games per second on one core, through the harness's play_game.

Builds the engine straight from decks/sanguosha's card files (validator.games.sanguosha.positions.
game_from_files), so it runs while layouts or the rulebook are unfinished. Median of 5 runs; the target
is 200 games/s.
Run: .venv/bin/python bench/bench_sanguosha_sim.py [games per run]
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from validator.engine.policies import RandomPolicy
from validator.games.sanguosha.positions import game_from_files
from validator.games.sanguosha.game import SanguoshaGame
from validator.simulate import play_game

TARGET = 200.0
PLAYERS = 5


def one_run(game: SanguoshaGame, games: int, base: int) -> tuple[float, int]:
    policies = [RandomPolicy() for _ in range(PLAYERS)]
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        record = play_game(game, policies, random.Random(base + i), random.Random(base + i + 10**6),
                           first_player=None, step_cap=5000)
        steps += record.steps
    return games / (time.perf_counter() - start), steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    game = game_from_files()
    results = [one_run(game, games, run * games) for run in range(5)]
    rates = [rate for rate, _ in results]
    median = statistics.median(rates)
    print(f"sanguosha, {PLAYERS} random players, {games} games per run, 5 runs; deck: decks/sanguosha card files")
    print(f"games/s: median {median:.0f}, best {max(rates):.0f}, worst {min(rates):.0f}; "
          f"decisions per game {results[0][1] / games:.0f}")
    print(f"target {TARGET:.0f} games/s: {'met' if median >= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
