"""Benchmark: the figures behind the simulation cost model (validator/sim_cost.py, issue 23).

For each game and table size, in one-core (process) milliseconds: a match with every seat random, a
match with every seat greedy, and what one mcts seat adds to a match per iteration of its budget
(one mcts:10 seat among greedy ones, less the all-greedy match, over 10): an iteration deals a state
and plays the rest of the game by the heuristic, once for every decision with a choice the seat makes.
Also the decisions with a choice a seat makes per match, for reading. The games' TableCost figures in
their SPEC (GameSpec.match_cost) are these, rounded up.

Run: .venv/bin/python bench/bench_sim_cost.py [matches] [game ...]   (default 20 a table, every shipped game)
"""
from __future__ import annotations

import sys
import time

from validator.engine.api import RulesGame
from validator.engine.registry import engine_for
from validator.loader import find_games, load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import MatchRecord, SimConfig, simulate


def timed(engine: RulesGame, policies: tuple[str, ...], matches: int, step_cap: int,
          ) -> tuple[float, list[MatchRecord]]:
    start = time.process_time()
    records = simulate(engine, SimConfig(len(policies), policies, matches, seed=1, step_cap=step_cap))
    return (time.process_time() - start) / matches, records


def per_seat_choices(records: list[MatchRecord], players: int) -> float:
    return sum(g.choices for m in records for g in m.games) / len(records) / players


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for name in sys.argv[2:] or find_games(DEFAULT_DECKS_DIR):
        game = load_game(DEFAULT_DECKS_DIR, name)
        engine = engine_for(game)
        spec = game.simulation or {}
        cap = spec.get("step_cap", 1000)
        for players in range(engine.min_players, engine.max_players + 1):
            random_s, _ = timed(engine, ("random",) * players, matches, cap)
            greedy_s, records = timed(engine, ("greedy",) * players, matches, cap)
            games = sum(len(m.games) for m in records) / len(records)
            few = max(2, matches // 4)
            base_s, _ = timed(engine, ("greedy",) * players, few, cap)
            mcts_s, _ = timed(engine, ("mcts:10",) + ("greedy",) * (players - 1), few, cap)
            search_s = max(0.0, mcts_s - base_s) / 10  # one mcts seat's cost a match, per iteration of its budget
            print(f"{name} {players}p: random {random_s * 1000:.1f} ms/match, greedy {greedy_s * 1000:.1f} "
                  f"ms/match ({games:.1f} games), {per_seat_choices(records, players):.1f} choices a seat a match, "
                  f"search {search_s * 1000:.1f} ms a match per iteration", flush=True)


if __name__ == "__main__":
    main()
