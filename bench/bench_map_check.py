"""Benchmark: the map checks on a plausible big map (issue 23: a map of many areas hung `fudaya check`).

Generates sangokushi's deck with its map replaced by N areas on a jittered grid over an A0 sheet
(1189×841 mm), each with routes to 2–6 of its grid neighbours (right, down, down-right: one diagonal
per grid square, so no routes cross), labels up and right of their seats (where no route runs),
start areas and victory points for 2–6 players.
Times what `fudaya check` spends on a map: loading the deck (map.json parsed, schema-checked, built
into the model) and validator.checks.maps.check (layout plan, every check, every finding).
Median of 3 runs, wall and CPU time (the machine may be shared: CPU time does not count waiting for a
core); the target is under 2 s for 2,000 areas on this 2-core machine; 500 and 8,000 show the scaling.
At 8,000 areas the areas are 10.5 mm apart, and labels in the smallest text the schema allows (6 pt)
run into the next seat: the thousands of findings are real, and making them is part of the cost.
Run: .venv/bin/python bench/bench_map_check.py [areas ...]
"""
from __future__ import annotations

import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from validator.checks import maps
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR

GAME = "sangokushi"
SHEET = (1189.0, 841.0)   # A0 landscape
TARGET_AREAS = 2000
TARGET_SECONDS = 2.0
KANJI = ("東西南北山川田中村上下大小金木水火土日月天地人国城州郡県京都江河湖海島原野林森石岩谷沢池橋門寺宮神明"
         "光春夏秋冬朝夕青赤白黒黄緑松竹梅桜花鳥風雲雪星平安長高広新古本元正和美宝福寿")
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわ"


def name(n: int) -> str:
    """A distinct two-kanji name per area (three from the 7,744th on), like the shipped map's."""
    base = len(KANJI)
    head = KANJI[n // base % base] + KANJI[n % base]
    return head if n < base * base else KANJI[n // (base * base)] + head


def reading(n: int) -> str:
    """Two kana: readings need not be distinct."""
    return KANA[n % len(KANA)] + KANA[n // len(KANA) % len(KANA)]


def big_map(count: int, seed: int = 23) -> dict[str, Any]:
    """A map of `count` areas (the last grid row partly filled) in the shape of decks/sangokushi/map.json."""
    rng = random.Random(seed)
    width, height = SHEET
    cols = max(2, round(math.sqrt(count * width / height)))
    rows = max(2, math.ceil(count / cols))
    step = min((width - 40) / cols, (height - 40) / rows)
    seat = max(5.0, round(step * 0.25, 1))
    jitter = step * 0.04
    names = {(r, c): name(r * cols + c) for r in range(rows) for c in range(cols) if r * cols + c < count}
    areas: dict[str, dict[str, Any]] = {}
    for (r, c), here in names.items():
        n = r * cols + c
        areas[here] = {
            "name": here, "reading": reading(n), "points": 1 + n % 3,
            "x": round(20 + step * (c + 0.5) + rng.uniform(-jitter, jitter), 2),
            "y": round(20 + step * (r + 0.5) + rng.uniform(-jitter, jitter), 2),
            "label": {"side": "right", "dy": -3.8}, "routes": [],
        }

    def link(a: str, b: str, kind: str) -> None:
        areas[a]["routes"].append({"to": b, "kind": kind})
        areas[b]["routes"].append({"to": a, "kind": kind})

    for (r, c), here in names.items():
        for cell in ((r, c + 1), (r + 1, c), (r + 1, c + 1)):  # one diagonal per grid square: none cross
            there = names.get(cell)
            if there is not None and (len(areas[here]["routes"]) < 2 or rng.random() < 0.6):
                link(here, there, "river" if rng.random() < 0.2 else "land")
        if r and not areas[here]["routes"]:  # the last row's end: nothing ahead of it
            link(here, names[r - 1, c], "land")
    spread = [names[r, c] for r in (0, rows // 2, rows - 2) for c in (0, cols // 2, cols - 1)]
    total = sum(a["points"] for a in areas.values())
    return {
        "$schema": "../../schema/map.schema.json",
        "title": "大地図",
        "size": {"width": width, "height": height},
        "style": {"seat": seat, "name_size": 6, "reading_size": 6, "points_size": 6, "start_size": 6,
                  "label_gap": 0.3, "frame": 4},
        "route_kinds": {"land": {"label": "陸路", "line": "solid"}, "river": {"label": "水路", "line": "double"}},
        "areas": list(areas.values()),
        "start_areas": {str(p): spread[:: max(1, len(spread) // p)][:p] for p in range(2, 7)},
        "victory_points": {str(p): total // p + 1 for p in range(2, 7)},
    }


def deck_with_map(folder: Path, count: int) -> tuple[Path, int, int]:
    """decks/sangokushi with only its map component, the map replaced; (decks dir, areas, routes)."""
    decks = folder / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / GAME, decks / GAME)
    manifest_path = decks / GAME / "game.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["components"] = [c for c in manifest["components"] if c["kind"] == "map"]
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    data = big_map(count)
    (decks / GAME / "map.json").write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")),
                                           encoding="utf-8")
    routes = sum(len(a["routes"]) for a in data["areas"]) // 2
    return decks, len(data["areas"]), routes


def one_check(decks: Path) -> tuple[float, float, int]:
    """Wall and CPU seconds to load the deck and run the map checks, and how many findings they made."""
    wall, cpu = time.perf_counter(), time.process_time()
    game = load_game(decks, GAME)
    found = list(maps.check(game))
    return time.perf_counter() - wall, time.process_time() - cpu, len(found)


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [500, TARGET_AREAS, 8000]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (CPU seconds do not count waiting for one)")
    for count in counts:
        with tempfile.TemporaryDirectory() as tmp:
            decks, areas, routes = deck_with_map(Path(tmp), count)
            size = (decks / GAME / "map.json").stat().st_size
            one_check(decks)  # warm: font metrics, schema registry, imports
            runs = [one_check(decks) for _ in range(3)]
        wall = statistics.median(run[0] for run in runs)
        cpu = statistics.median(run[1] for run in runs)
        line = (f"map check, {areas} areas, {routes} routes ({size / 1024:.0f} KB map.json), {runs[0][2]} findings: "
                f"median of 3 {wall:.3f} s ({cpu:.3f} s CPU)")
        if count == TARGET_AREAS:
            verdict = "met" if wall < TARGET_SECONDS else "NOT met"
            line += f"; target under {TARGET_SECONDS:.1f} s -> {verdict}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
