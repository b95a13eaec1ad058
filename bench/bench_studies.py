"""Benchmark: the studies of every shipped game (`fudaya build --studies`: the strength ladder and the
variant study's strong play), nothing cached, with each ladder pair's verdict (issue 27).

Target from the issue: all five games' studies under 10 minutes on 2 cores. Each line gives one
game's study time, each pair's win rate with its 95 % interval against the fair share, how many
matches the sequential test needed of its cap, and the strongest rung shown. The build in use
(pure Python, or the `make fast` compiled modules) is printed first: the figures depend on it.

Run: .venv/bin/python bench/bench_studies.py [game ...]   (default: every shipped game; workers = cores)
"""
from __future__ import annotations

import sys
import time

from validator.loader import find_games, load_game
from validator.native import build_in_use
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, default_workers
from validator.study import play_studies, simulate_main, studies_wanted


def main() -> None:
    games = sys.argv[1:] or find_games(DEFAULT_DECKS_DIR)
    workers = default_workers()
    for name in ("gogyo", "jinzai", "sangokushi", "sanguosha", "sengoku"):
        print(f"{name}: {build_in_use(f'validator.games.{name}')}", flush=True)
    print(f"{workers} workers", flush=True)
    total = 0.0
    for game_id in games:
        game = load_game(DEFAULT_DECKS_DIR, game_id)
        plan = SimulationPlan.from_game(game)
        if plan is None or not studies_wanted(game):
            continue
        report = simulate_main(game, plan, workers)  # the strong play compares against the main run's study
        start = time.perf_counter()
        studies = play_studies(game, plan, report, workers)
        seconds = time.perf_counter() - start
        total += seconds
        print(f"{game_id}: studies {seconds:.0f} s", flush=True)
        ladder = studies.ladder
        if ladder is not None:
            for pair in ladder.pairs:
                low, high = pair.ci95
                print(f"  {pair.stronger} over {pair.weaker}: {pair.rate:.1%} [{low:.1%}, {high:.1%}] against "
                      f"{pair.reference:.1%} after {pair.matches} of {ladder.matches_per_pair} matches"
                      f"{'' if pair.separated else ' (not shown)'}")
            print(f"  {ladder.strongest()}")
        if studies.strong_play is not None:
            print(f"  strong play: {studies.strong_play.conclusion}")
    print(f"all studies: {total:.0f} s ({total / 60:.1f} min; target under 10 min on 2 cores)")


if __name__ == "__main__":
    main()
