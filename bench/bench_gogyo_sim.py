"""Benchmark gogyo simulation against its targets: random and greedy games/s on one core, a 10,000-game run on 2 workers.

A "game" here is one deal (new state to end of game); `fudaya simulate --games N` plays N
two-game matches, so 10,000 games are `--games 5000`. Every measurement runs in a fresh
process, so the hand-score memo starts empty as it does for a user. Per-core figures time only
the simulate() call; the 2-worker run is the whole `fudaya simulate` command, wall clock.
Prints the measured numbers and whether each target is met; numbers are never adjusted.

    .venv/bin/python bench/bench_gogyo_sim.py            # full sizes
    .venv/bin/python bench/bench_gogyo_sim.py --quick    # a tenth of the games
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_RANDOM = 10_000   # random-policy games per second on one core
TARGET_GREEDY = 1_000    # greedy games per second on one core
TARGET_RUN_SECONDS = 8.0  # 10,000 greedy 4-player games on 2 workers


def _one_core(policy: str, matches: int) -> None:
    """Child process: time simulate() for `matches` 4-player matches on one core; print JSON."""
    sys.path.insert(0, str(ROOT))
    from validator.engine.registry import engine_for
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR
    from validator.simulate import SimConfig, simulate

    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))
    start = time.perf_counter()
    records = simulate(engine, SimConfig(4, (policy,) * 4, matches, seed=1))
    seconds = time.perf_counter() - start
    games = sum(len(m.games) for m in records)
    print(json.dumps({"games": games, "matches": matches, "seconds": seconds}))


def _child(policy: str, matches: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", policy, str(matches)], check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def _cli_run(matches: int, workers: int) -> tuple[float, dict]:
    fudaya = Path(sys.executable).with_name("fudaya")
    command = [str(fudaya), "simulate", "gogyo", "--players", "4", "--games", str(matches), "--policy", "greedy",
               "--seed", "1", "--workers", str(workers), "--json"]
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - start, json.loads(out.stdout)


def _verdict(met: bool, quick: bool) -> str:
    if quick:
        return "not judged in --quick mode"
    return "met" if met else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games (numbers are noisier)")
    parser.add_argument("--child", nargs=2, metavar=("POLICY", "MATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one_core(args.child[0], int(args.child[1]))
        return
    scale = 10 if args.quick else 1
    print(f"gogyo simulation benchmark — {os.cpu_count()} CPUs visible, Python {sys.version.split()[0]}")
    print("(a game is one deal; a match is two games; 4 players; seed 1; memo cold at the start of each run)")

    random_run = _child("random", 10_000 // scale)
    rate = random_run["games"] / random_run["seconds"]
    print(f"random, 1 core: {random_run['games']} games in {random_run['seconds']:.2f} s = {rate:,.0f} games/s "
          f"(target {TARGET_RANDOM:,}/s: {_verdict(rate >= TARGET_RANDOM, args.quick)})")

    greedy_run = _child("greedy", 2_000 // scale)
    rate = greedy_run["games"] / greedy_run["seconds"]
    print(f"greedy, 1 core: {greedy_run['games']} games in {greedy_run['seconds']:.2f} s = {rate:,.0f} games/s "
          f"(target {TARGET_GREEDY:,}/s: {_verdict(rate >= TARGET_GREEDY, args.quick)})")

    matches = 5_000 // scale
    seconds, summary = _cli_run(matches, 2)
    finished = summary["finished"]["all_finished"]
    print(f"greedy, 2 workers: {summary['games']:,} games ({matches:,} matches, `fudaya simulate --games {matches}"
          f" --workers 2`) in {seconds:.2f} s wall, all finished: {finished} "
          f"(target 10,000 games under {TARGET_RUN_SECONDS:g} s: "
          f"{_verdict(seconds < TARGET_RUN_SECONDS and finished, args.quick)})")


if __name__ == "__main__":
    main()
