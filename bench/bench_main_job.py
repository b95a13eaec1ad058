"""Benchmark: the main job's speed goals (issue 14), each from a cold process on this machine.

- gogyo cards (sheets and print-shop file): target under 1 s
- a 600-card deck (the starter deck's card repeated): target under 2 s
- every game without reports: target under 5 s
- every game with reports, nothing cached: target under 30 s on 2 cores
- every game with reports after a layout-only change (reports read from the cache)

Run: .venv/bin/python bench/bench_main_job.py [runs]   (median of the runs; the two all-games
builds with reports run once each: they take tens of seconds)
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUDAYA = Path(sys.executable).with_name("fudaya")


# As on a designer's machine, Python keeps compiled bytecode: a machine that sets PYTHONDONTWRITEBYTECODE
# (this one does) would compile every module of fudaya again in every run. "Cold" is a new process.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def timed(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([str(FUDAYA), *args], check=True, capture_output=True, cwd=cwd, env=ENV)
    return time.perf_counter() - start


def big_deck(folder: Path, cards: int) -> Path:
    """decks/big: the starter deck with `cards` distinct cards (each a copy of the starter's first)."""
    subprocess.run([str(FUDAYA), "new", "big", "--decks", str(folder / "decks")], check=True, capture_output=True,
                   env=ENV)
    path = folder / "decks" / "big" / "cards.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    first = data["cards"][0]
    data["cards"] = [{**first, "id": f"card-{n:03d}", "fields": {**first["fields"], "value": n}}
                     for n in range(cards)]
    data.pop("composition", None)
    data["total"] = cards
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder / "decks"


def report(name: str, seconds: list[float], target: float | None) -> None:
    median = statistics.median(seconds)
    verdict = "" if target is None else f" (target {target:g} s: {'met' if median < target else 'NOT met'})"
    print(f"{name}: median {median:.2f} s of {len(seconds)}{verdict}")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        out = folder / "out"
        timed(["build", "gogyo", "--only", "cards", "--output", str(out)], ROOT)  # warm .pyc and file cache
        report("gogyo cards", [timed(["build", "gogyo", "--only", "cards", "--output", str(out)], ROOT)
                               for _ in range(runs)], 1.0)
        decks = big_deck(folder, 600)
        report("600-card deck", [timed(["build", "big", "--decks", str(decks), "--output", str(out)], ROOT)
                                 for _ in range(runs)], 2.0)
        report("all games, --no-report", [timed(["build", "--no-report", "--output", str(out)], ROOT)
                                          for _ in range(runs)], 5.0)
        shutil.rmtree(out / ".cache", ignore_errors=True)
        report("all games with reports, nothing cached", [timed(["build", "--output", str(out)], ROOT)], 30.0)
        report("all games with reports, cached", [timed(["build", "--output", str(out)], ROOT)], None)


if __name__ == "__main__":
    main()
