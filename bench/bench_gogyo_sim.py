"""Benchmark gogyo simulation against its targets: random and greedy games/s on one core, 10,000 games on 2 workers.

gogyo has one engine, GogyoState; simulate() plays it through the engine's playout hook
(validator/games/gogyo/playout.py), which drives that same state: a random seat's pick is sampled
by index without building the legal-action list, and GogyoState.run plays on through the following
random seats' moves in one call; a greedy seat gets its observation and legal actions as
play_game gives them.

A "game" here is one deal (new state to end of game); `fudaya simulate --games N` plays N
two-game matches, so 10,000 games are `--games 5000`. Every measurement runs in a fresh
process, so the hand-score memo starts empty as it does for a user. Per-core figures time only
the simulate() call; the 2-worker run is the whole `fudaya simulate` command, wall clock. With
`--repeat N` every measurement runs N times; each run is printed and the verdict is taken on the
median. Numbers are never adjusted.

    .venv/bin/python bench/bench_gogyo_sim.py --repeat 5    # full sizes, median of 5
    .venv/bin/python bench/bench_gogyo_sim.py --quick       # a tenth of the games, once
    FUDAYA_PURE=1 .venv/bin/python bench/bench_gogyo_sim.py  # pure Python even after `make fast`
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
from typing import Any

from validator.native import build_in_use

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


def _per_core(policy: str, matches: int, repeat: int) -> float:
    """Run the one-core measurement `repeat` times; print every run; return the median games/s."""
    rates = []
    for _ in range(repeat):
        command = [sys.executable, __file__, "--child", policy, str(matches)]
        run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout)
        rates.append(run["games"] / run["seconds"])
        print(f"  {policy}, 1 core: {run['games']:,} games in {run['seconds']:.2f} s = {rates[-1]:,.0f} games/s")
    return statistics.median(rates)


def _cli_run(matches: int, workers: int) -> tuple[float, dict[str, Any]]:
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games (numbers are noisier)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement (verdict on the median)")
    parser.add_argument("--child", nargs=2, metavar=("POLICY", "MATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one_core(args.child[0], int(args.child[1]))
        return
    scale = 10 if args.quick else 1
    print(f"gogyo simulation benchmark — {os.cpu_count()} CPUs visible, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    print("(a game is one deal; a match is two games; 4 players; seed 1; memo cold at the start of each run; "
          f"{args.repeat} run(s) per measurement, verdict on the median)")
    print(f"engine: {build_in_use('validator.games.gogyo')}")

    rate = _per_core("random", 10_000 // scale, args.repeat)
    print(f"random, 1 core: median {rate:,.0f} games/s (target {TARGET_RANDOM:,}/s: "
          f"{_verdict(rate >= TARGET_RANDOM, args.quick)})")

    rate = _per_core("greedy", 2_000 // scale, args.repeat)
    print(f"greedy, 1 core: median {rate:,.0f} games/s (target {TARGET_GREEDY:,}/s: "
          f"{_verdict(rate >= TARGET_GREEDY, args.quick)})")

    matches = 5_000 // scale
    times, finished, games = [], True, 0
    for _ in range(args.repeat):
        seconds, summary = _cli_run(matches, 2)
        times.append(seconds)
        finished = finished and summary["finished"]["all_finished"]
        games = summary["games"]
        print(f"  greedy, 2 workers: {games:,} games ({matches:,} matches) in {seconds:.2f} s wall")
    seconds = statistics.median(times)
    print(f"greedy, 2 workers: {games:,} games (`fudaya simulate --games {matches} --workers 2`), median "
          f"{seconds:.2f} s wall, all finished: {finished} (target 10,000 games under {TARGET_RUN_SECONDS:g} s: "
          f"{_verdict(seconds < TARGET_RUN_SECONDS and finished, args.quick)})")


if __name__ == "__main__":
    main()
