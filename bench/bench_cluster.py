"""Benchmark: the same simulations in this process and on a Dask cluster of 1, 2 and 4 workers (issue 27).

Each cluster is a distributed.LocalCluster of single-threaded worker processes on this machine (what
`dask worker tcp://HOST:8786 --nworkers N --nthreads 1` starts), warmed by a few matches first so the
workers' imports are not timed: a long-lived cluster pays them once. The jobs are fixed: gogyo at 4 seats,
400 and 4000 greedy matches (cheap matches, so messaging shows) and 20 matches of one mcts:50 seat against
three greedy ones (dear matches). Every cluster run is checked to give the records of the local run. The speed-up
is against the 1-worker cluster; workers beyond the machine's cores only share them, which the last column
shows. The load average is printed, since other work on the machine slows every figure.

Run: .venv/bin/python bench/bench_cluster.py [--workers 1,2,4] [--repeat N] (the median of N runs is printed)
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

import distributed

from validator.engine.api import RulesGame
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import MatchRecord, SimConfig, simulate

JOBS = {
    "400 greedy matches": SimConfig(4, ("greedy",) * 4, 400, seed=1),
    "4000 greedy matches": SimConfig(4, ("greedy",) * 4, 4000, seed=1),
    "20 mcts:50 matches": SimConfig(4, ("mcts:50", "greedy", "greedy", "greedy"), 20, seed=1),
}


def timed(engine: RulesGame, config: SimConfig, repeat: int) -> tuple[float, list[MatchRecord]]:
    """The median wall time of `repeat` runs, and the records (the same every run)."""
    seconds, records = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        records = simulate(engine, config)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2,4", help="cluster sizes to time, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the median is printed")
    args = parser.parse_args()
    sizes = [int(size) for size in args.workers.split(",")]
    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    local = {name: timed(engine, config, args.repeat) for name, config in JOBS.items()}
    for name, (seconds, _) in local.items():
        print(f"{name}: {seconds:.1f} s in this process (workers=1)", flush=True)
    on_one: dict[str, float] = {}  # each job's time on the first cluster size
    for size in sizes:
        with distributed.LocalCluster(n_workers=size, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address="127.0.0.1:0") as cluster:
            address = cluster.scheduler_address
            simulate(engine, replace(JOBS["400 greedy matches"], matches=2 * size, cluster=address))  # warm up
            for name, config in JOBS.items():
                seconds, records = timed(engine, replace(config, cluster=address), args.repeat)
                on_one.setdefault(name, seconds)
                same = "identical records" if records == local[name][1] else "RECORDS DIFFER"
                print(f"{name}: {seconds:.1f} s on {size} Dask worker{'s' if size > 1 else ''}, "
                      f"speed-up {on_one[name] / seconds:.2f}x over {sizes[0]}, {same}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
