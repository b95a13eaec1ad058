"""Benchmark sengoku simulation against its target: random-policy 4-player games per second on one core.

A sengoku match is one game (deal, turns until the draw pile runs out or the hands empty). The target
is the issue's 2,000 random-policy 4-player games per second on one core; greedy games and the riichi
variant are measured and reported with no target. Every measurement runs in a fresh process and times
only the simulate() call (seed 1, one worker, no invariant checks, so simulate() plays through the
engine's fast_playout hook: whole games driven through SengokuState by one loop). With `--repeat N`
every measurement runs N times; each run is printed and the verdict is taken on the median. Numbers
are never adjusted; on a shared machine they move with its load, so say what else was running. The
heuristic and the name table run compiled when `make fast` built them (validator/native.py), pure Python
otherwise; the header says which.

    .venv/bin/python bench/bench_sengoku_sim.py              # full sizes
    .venv/bin/python bench/bench_sengoku_sim.py --quick      # a tenth of the games
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from validator.native import build_in_use

ROOT = Path(__file__).resolve().parent.parent
TARGET_RANDOM = 2_000   # random-policy 4-player games per second on one core
GAMES = {"random": 5_000, "greedy": 1_000}


def _one_core(policy: str, games: int, variant: str) -> None:
    """Child process: time simulate() for `games` 4-player games on one core; print JSON."""
    sys.path.insert(0, str(ROOT))
    from validator import simulate as harness
    from validator.engine.registry import engine_for
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR

    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "sengoku")).with_rules(variant=variant)
    start = time.perf_counter()
    records = harness.simulate(engine, harness.SimConfig(4, (policy,) * 4, games, seed=1))
    seconds = time.perf_counter() - start
    print(json.dumps({"games": games, "seconds": seconds, "timed_out": sum(m.timed_out for m in records)}))


def _measure(policy: str, games: int, variant: str, repeat: int) -> float:
    """Run the measurement `repeat` times; print every run; return the median games/s."""
    rates = []
    for _ in range(repeat):
        command = [sys.executable, __file__, "--child", policy, str(games), variant]
        run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout)
        rate = run["games"] / run["seconds"]
        rates.append(rate)
        print(f"  {policy}, {variant}, 1 core: {run['games']:,} games ({run['timed_out']} timed out) "
              f"in {run['seconds']:.2f} s = {rate:,.0f} games/s")
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games (numbers are noisier)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement (verdict on the median)")
    parser.add_argument("--child", nargs=3, metavar=("POLICY", "GAMES", "VARIANT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one_core(args.child[0], int(args.child[1]), args.child[2])
        return
    scale = 10 if args.quick else 1
    print(f"sengoku simulation benchmark — {os.cpu_count()} CPUs visible, Python {sys.version.split()[0]}")
    print("(one game per match; 4 players; seed 1; one worker)")
    print(f"engine: {build_in_use('validator.games.sengoku')}")
    rate = _measure("random", GAMES["random"] // scale, "base", args.repeat)
    verdict = "not judged in --quick mode" if args.quick else ("met" if rate >= TARGET_RANDOM else "NOT met")
    print(f"random, base, 1 core: median {rate:,.0f} games/s (target {TARGET_RANDOM:,}/s: {verdict})")
    for policy, variant in (("random", "riichi"), ("greedy", "base"), ("greedy", "riichi")):
        rate = _measure(policy, GAMES[policy] // scale, variant, args.repeat)
        print(f"{policy}, {variant}, 1 core: median {rate:,.0f} games/s (no target; reported)")


if __name__ == "__main__":
    main()
