"""Benchmark: build gogyo's 66 cards from a cold process (new interpreter each run), both modes, with backs.

`--only cards` leaves out the score sheets, rulebook and simulation report, which are timed
by their own benchmarks; loading and checking the whole game is still part of every run.

Reports wall time per build and cards per second; the target is under 1 s for the 66 cards.
Run: .venv/bin/python bench/bench_build.py [runs]
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUDAYA = Path(sys.executable).with_name("fudaya")
CARDS = 66
TARGET_SECONDS = 1.0


def one_build(output: Path) -> float:
    start = time.perf_counter()
    subprocess.run([str(FUDAYA), "build", "gogyo", "--only", "cards", "--mode", "both", "--output", str(output)],
                   check=True, capture_output=True, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as tmp:
        one_build(Path(tmp))  # warm the OS file cache and .pyc files, as any second run would be
        times = [one_build(Path(tmp)) for _ in range(runs)]
    median = statistics.median(times)
    print(f"gogyo build, cold process, {CARDS} cards with backs, n-up sheets + print-shop file, {runs} runs")
    print(f"wall time: median {median:.3f} s, best {min(times):.3f} s, worst {max(times):.3f} s")
    print(f"cards per second (median): {CARDS / median:.1f}")
    verdict = "met" if median < TARGET_SECONDS else "NOT met"
    print(f"target: under {TARGET_SECONDS:.1f} s -> {verdict}")


if __name__ == "__main__":
    main()
