"""Benchmark: sanguosha's clone() at points through 5-player games (the cost mcts pays per iteration).

Plays seeded random 5-player games and, at the decisions after 50, 200 and 400 actions (and at
every 7th decision for the overall figure), times clone() of the state. Target: under 30 µs at any
point of a game (issue 26; the generator engine replayed the history: 0.65 ms after 57 actions, 3.6 ms
after 229, 6.8 ms after 457).
Run: .venv/bin/python bench/bench_sanguosha_clone.py [games]
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from validator.games.sanguosha.positions import game_from_files

TARGET_US = 30.0
PLAYERS = 5
REPEAT = 50   # clones a timing
ROUNDS = 5    # timings a state, the fastest kept (a busy machine's pauses are not the engine's cost)


def clone_us(state: object) -> float:
    clone = state.clone  # type: ignore[attr-defined]
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(REPEAT):
            clone()
        best = min(best, time.perf_counter() - start)
    return best / REPEAT * 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    game = game_from_files()
    at_step: dict[int, list[float]] = {50: [], 200: [], 400: []}
    every: list[float] = []
    depth: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(rng, PLAYERS)
        steps = 0
        while not state.is_terminal():
            if steps in at_step:
                at_step[steps].append(clone_us(state))
            if steps % 7 == 0:
                every.append(clone_us(state))
                depth.append(len(state.stack))
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    print(f"sanguosha clone(), {PLAYERS} random players, {games} games; "
          f"each state: fastest of {ROUNDS} timings of {REPEAT}")
    for step, values in at_step.items():
        if values:
            print(f"  after {step} actions: median {statistics.median(values):.1f} µs ({len(values)} states)")
    worst = max(every)
    print(f"  every 7th decision: median {statistics.median(every):.1f} µs, worst {worst:.1f} µs "
          f"({len(every)} states; stack depth median {statistics.median(depth):.0f}, max {max(depth)})")
    print(f"target < {TARGET_US:.0f} µs at any point: {'met' if worst < TARGET_US else 'NOT met'}")


if __name__ == "__main__":
    main()
