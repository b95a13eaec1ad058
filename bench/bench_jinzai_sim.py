"""Benchmark jinzai simulation against its target: random-policy 4-player full matches per second on one core.

A jinzai match is one State from the first deal until someone has the winning VP (about 2 games);
`fudaya simulate jinzai --games N` plays N matches. The target is the issue's 2,000 random-policy
4-player matches per second on one core; greedy matches per second are measured and reported with
no target. There is one engine (JinzaiState): simulate() plays it through the game's whole-match
player (JinzaiGame.fast_playout, the State driven by its own methods), `--generic` through the
harness's generic play_game loop instead, for comparison. Every measurement runs in a fresh process
and times only the simulate() call (seed 1, one worker), `--repeat` times (default 5); each run is
printed and the verdict is taken on the median. Numbers are never adjusted; on a shared machine they
are noisy, so say when and under what load they were taken. The engine runs compiled when `make fast`
built it (validator/native.py) and pure Python otherwise; the header says which.

    .venv/bin/python bench/bench_jinzai_sim.py              # full sizes, median of 5
    .venv/bin/python bench/bench_jinzai_sim.py --quick      # a tenth of the matches
    .venv/bin/python bench/bench_jinzai_sim.py --generic    # the harness's generic loop
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
TARGET_RANDOM = 2_000   # random-policy 4-player matches per second on one core
MATCHES = {"random": 10_000, "greedy": 1_000}


def _one_core(policy: str, matches: int, generic: bool) -> None:
    """Child process: time simulate() for `matches` 4-player matches on one core; print JSON."""
    sys.path.insert(0, str(ROOT))
    from validator import simulate as harness
    from validator.engine.registry import engine_for
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR

    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "jinzai"))
    if generic:
        harness.fast_playout = lambda game, policies: None  # the harness's play_game plays every match
    start = time.perf_counter()
    records = harness.simulate(engine, harness.SimConfig(4, (policy,) * 4, matches, seed=1))
    seconds = time.perf_counter() - start
    games = sum(dict(g.counters).get("games", 1) for m in records for g in m.games)
    fast = harness.fast_playout(engine, [harness.find_policy(policy, "jinzai")] * 4) is not None
    print(json.dumps({"matches": matches, "games": games, "seconds": seconds, "fast": fast,
                      "timed_out": sum(m.timed_out for m in records)}))


def _child(policy: str, matches: int, generic: bool) -> dict:
    command = [sys.executable, __file__, "--child", policy, str(matches)] + (["--generic"] if generic else [])
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(out.stdout)


def _verdict(met: bool, quick: bool) -> str:
    if quick:
        return "not judged in --quick mode"
    return "met" if met else "NOT met"


def _measure(policy: str, matches: int, args: argparse.Namespace) -> float:
    """Run the measurement args.repeat times; print every run; return the median matches/s."""
    rates = []
    for _ in range(args.repeat):
        run = _child(policy, matches, args.generic)
        rate = run["matches"] / run["seconds"]
        rates.append(rate)
        engine = "game playout" if run["fast"] else "generic loop"
        print(f"  {policy}, 1 core, {engine}: {run['matches']:,} matches ({run['games']:,} games, "
              f"{run['timed_out']} timed out) in {run['seconds']:.2f} s = {rate:,.0f} matches/s "
              f"({run['games'] / run['seconds']:,.0f} games/s)")
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the matches (numbers are noisier)")
    parser.add_argument("--generic", action="store_true", help="time the harness's generic loop")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (verdict on the median)")
    parser.add_argument("--child", nargs=2, metavar=("POLICY", "MATCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one_core(args.child[0], int(args.child[1]), args.generic)
        return
    scale = 10 if args.quick else 1
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"jinzai simulation benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs visible, "
          f"load average {load:.2f}, Python {sys.version.split()[0]}")
    print("(a match is games repeated until someone has 4 VP; 4 players; seed 1; one worker)")
    print(f"engine: {build_in_use('validator.games.jinzai')}")

    rate = _measure("random", MATCHES["random"] // scale, args)
    print(f"random, 1 core: median {rate:,.0f} matches/s "
          f"(target {TARGET_RANDOM:,}/s: {_verdict(rate >= TARGET_RANDOM, args.quick)})")

    rate = _measure("greedy", MATCHES["greedy"] // scale, args)
    print(f"greedy, 1 core: median {rate:,.0f} matches/s (no target; reported)")


if __name__ == "__main__":
    main()
