"""Benchmark: how strong the mcts policy plays against greedy, and how long it takes (issue 15).

Targets from the issue: one mcts:200 seat among three greedy seats at 4 players wins at least 40 %
of gogyo and of jinzai matches (a fair share is 25 %); mcts:200 against greedy at 2 players well
over half; a 200-match study at mcts:200 within 10 minutes on 2 cores. Each line gives the mcts
seat's match win share with its 95 % Wilson interval (a shared win split) and the wall time, and
the same seat's share when it plays greedy too (what "fair" measures at this seed); results
depend on the seed alone.

Run: .venv/bin/python bench/bench_mcts.py [matches] [game ...]   (default 40 a table, gogyo and jinzai)
"""
from __future__ import annotations

import sys
import time

from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate
from validator.stats import wilson


def head_to_head(game: str, policies: tuple[str, ...], matches: int, workers: int = 2) -> None:
    engine = engine_for(load_game(DEFAULT_DECKS_DIR, game))
    start = time.perf_counter()
    records = simulate(engine, SimConfig(len(policies), policies, matches, seed=1, workers=workers))
    seconds = time.perf_counter() - start
    finished = [match for match in records if match.winners]
    wins = sum(1 / len(match.winners) for match in finished if 0 in match.winners)
    low, high = wilson(wins, len(finished))
    print(f"{game} {len(policies)}p {','.join(policies)}: seat 1 ({policies[0]}) won {wins / len(finished):.1%} "
          f"[{low:.1%}, {high:.1%}] of {len(finished)} matches, {seconds:.0f} s on {workers} workers", flush=True)


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    for game in sys.argv[2:] or ("gogyo", "jinzai"):
        if game == "gogyo":
            head_to_head(game, ("mcts:200", "greedy"), matches)
        head_to_head(game, ("mcts:200", "greedy", "greedy", "greedy"), matches)
        head_to_head(game, ("greedy", "greedy", "greedy", "greedy"), matches)  # the fair share, measured


if __name__ == "__main__":
    main()
