"""The map checks compare only parts that share a grid cell (issue 23); on random maps they say exactly what
comparing every pair said: the same findings, in the same order, with the same words.

The oracle below is the pairwise code the checks had before (cubic in the number of areas), kept here
verbatim. Maps of 5-60 areas are drawn from seeds, half of them on a coarse lattice so that the
degenerate cases come up often: routes along one line, routes meeting end to end, seats at one
position, labels and seats edge to edge, routes along a seat's edge.
"""
from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from validator import schema
from validator.checks import maps
from validator.checks.maps import _cross
from validator.issues import Issue, Location
from validator.jsonsource import SourcedJson
from validator.limits import MAX_FINDINGS_PER_KIND, MAX_MAP_AREAS, MAX_MAP_ROUTES_PER_AREA
from validator.loader import load_game
from validator.mapfile import build_map
from validator.maplayout import CellGrid, MapPlan, Rect
from validator.model import Game, GameMap
from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR
from validator.wording import counted

KANJI = "東西南北山川田中村上下大小金木水火土日月天地人国城州郡県京都江河湖海島原野林森石岩谷沢池橋門寺宮神"
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねの"
SEEDS = range(120)


# --- the oracle: the checks as they were, every pair compared -------------------------------------------------

def oracle_check(game: Game) -> Iterator[Issue]:
    for game_map in game.maps:
        yield from maps.check_routes(game_map)
        yield from maps.check_connected(game_map)
        yield from oracle_starts(game, game_map)
        yield from maps.check_victory(game, game_map)
        yield from maps.check_colors(game_map)
        yield from maps.check_paper(game_map)
        metrics = maps._role_metrics(game, game_map)
        if isinstance(metrics, Issue):
            yield metrics
            continue
        plan = MapPlan.build(game_map, metrics)
        yield from maps.check_glyphs(plan)
        for finding in (oracle_crossings, oracle_routes_through, oracle_overlaps):  # listed as far as the cap
            yield from maps.at_most(finding(plan), MAX_FINDINGS_PER_KIND, game_map.source.child("areas"))


def oracle_starts(game: Game, game_map: GameMap) -> Iterator[Issue]:
    where = game_map.source.child("start_areas")
    said: set[frozenset[str]] = set()
    low, high = game.players
    for players in range(low, high + 1):
        names = game_map.start_areas.get(players)
        if names is None:
            yield Issue(where, "map-start-missing", f"no start areas for {counted(players, 'player')} "
                                                   f"(the game is for {low}–{high})")
            continue
        at = where.child(str(players))
        if len(names) != players:
            yield Issue(at, "map-start-count", f"{counted(players, 'player')} need "
                                               f"{counted(players, 'start area')}, not {len(names)}")
        for k, name in enumerate(names):
            for other in names[:k]:
                pair = frozenset((name, other))
                if other in game_map.neighbours[name] and pair not in said:
                    said.add(pair)
                    yield Issue(at.child(k), "map-start-adjacent",
                                f"start areas {other} and {name} ({counted(players, 'player')}) are adjacent: a "
                                f"player could "
                                f"attack another's start on the first turn")


def oracle_crossings(plan: MapPlan) -> Iterator[Issue]:
    routes = plan.game_map.routes
    for i, route in enumerate(routes):
        p, q = plan.segment(route)
        for other in routes[:i]:
            if {route.a, route.b} & {other.a, other.b}:
                continue
            if _cross(p, q, *plan.segment(other)):
                yield Issue(route.location, "map-routes-cross",
                            f"route {route.a}–{route.b} crosses route {other.a}–{other.b} as drawn: move an area")


def oracle_routes_through(plan: MapPlan) -> Iterator[Issue]:
    panels = list(plan.boxes())
    for route in plan.game_map.routes:
        p, q = plan.segment(route)
        for name, area in plan.areas.items():
            if name not in (route.a, route.b) and area.marker.hits_segment(p, q):
                yield Issue(route.location, "map-route-through",
                            f"route {route.a}–{route.b} runs through {name}'s seat as drawn: move an area")
        for panel, box, _ in panels:
            if box.hits_segment(p, q):
                yield Issue(route.location, "map-route-through",
                            f"route {route.a}–{route.b} runs under the {panel} as drawn")


def oracle_overlaps(plan: MapPlan) -> Iterator[Issue]:
    frame = plan.frame
    panels = list(plan.boxes())
    names = list(plan.areas)
    for i, name in enumerate(names):
        area = plan.areas[name]
        where = area.area.location.child("label") if area.area.label else area.area.location
        if not area.marker.inside(frame):
            yield Issue(area.area.location, "map-outside", f"{name}'s seat reaches outside the frame")
        if not area.label.inside(frame):
            yield Issue(where, "map-outside", f"{name}'s label reaches outside the frame")
        for other in names:
            them = plan.areas[other]
            if other != name and area.label.overlaps(them.marker):
                yield Issue(where, "map-label-overlap", f"{name}'s label overlaps {other}'s seat")
            if other in names[:i] and area.label.overlaps(them.label):
                yield Issue(where, "map-label-overlap", f"{name}'s label overlaps {other}'s label")
            if other in names[:i] and area.marker.overlaps(them.marker):
                yield Issue(area.area.location, "map-seat-overlap", f"{name}'s seat overlaps {other}'s seat")
        for panel, box, _ in panels:
            if area.label.overlaps(box) or area.marker.overlaps(box):
                yield Issue(where, "map-label-overlap", f"{name} overlaps the {panel}")
        for route in plan.game_map.routes:
            if area.label.hits_segment(*plan.segment(route)):
                yield Issue(where, "map-label-route", f"{name}'s label lies on route {route.a}–{route.b}",
                            severity="warning")


# --- random maps -----------------------------------------------------------------------------------------------

def random_map(seed: int) -> dict[str, Any]:
    """A schema-valid map.json of 5-60 areas: even seeds put everything on a 6 mm lattice in a small box, every
    fourth seed spreads the areas on a jittered grid with routes to near areas only (a map like a real one,
    where most pairs are far apart), the others scatter them at random."""
    rng = random.Random(seed)
    count = rng.randint(5, 60)
    lattice = seed % 2 == 0
    spread = seed % 4 == 3
    width, height = rng.choice([(420, 297), (297, 210), (160, 120)]) if lattice else (rng.uniform(100, 1200),
                                                                                        rng.uniform(100, 1200))

    def coordinate(limit: float) -> float:
        if lattice:
            return float(6 * rng.randint(0, int(limit * 0.8) // 6))
        return round(rng.uniform(0, limit), rng.choice([0, 1, 3]))

    names = [KANJI[n // len(KANJI)] + KANJI[n % len(KANJI)] for n in rng.sample(range(len(KANJI) ** 2), count)]
    areas: list[dict[str, Any]] = []
    cols = max(1, round((count * width / height) ** 0.5))
    step = min(width / cols, height / -(-count // cols))
    for n, name in enumerate(names):
        x, y = coordinate(width), coordinate(height)
        if spread:
            x = round(step * (n % cols + 0.5) + rng.uniform(-step, step) / 5, 2)
            y = round(step * (n // cols + 0.5) + rng.uniform(-step, step) / 5, 2)
        if areas and rng.random() < 0.08:  # a seat drawn where another is
            twin = rng.choice(areas)
            x, y = twin["x"], twin["y"]
        if len(areas) >= 2 and rng.random() < 0.08:  # halfway between two others: on the route between them
            a, b = rng.sample(areas, 2)
            x, y = (a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2
        area: dict[str, Any] = {"name": name, "reading": "".join(rng.choices(KANA, k=rng.randint(1, 6))),
                                "points": rng.randint(0, 4), "x": x, "y": y, "routes": []}
        if rng.random() < 0.6:
            label: dict[str, Any] = {"side": rng.choice(["right", "left", "above", "below"])}
            if rng.random() < 0.4:
                label["dx"], label["dy"] = (rng.choice([-6, 0, 6, 12]), rng.choice([-6, 0, 6])) if lattice else \
                    (round(rng.uniform(-30, 30), 2), round(rng.uniform(-30, 30), 2))
            area["label"] = label
        areas.append(area)
    for n, area in enumerate(areas):
        near = sorted(range(count), key=lambda k: (areas[k]["x"] - area["x"]) ** 2 + (areas[k]["y"] - area["y"]) ** 2)
        targets = near[1:rng.randint(1, 5)] + rng.sample(range(count), rng.randint(0, 0 if spread else 2))
        for k in dict.fromkeys(targets):
            if k == n or any(r["to"] == names[k] for r in area["routes"]):
                continue
            kind = rng.choice(["land", "land", "river", "sea"])
            area["routes"].append({"to": names[k], "kind": kind})
            if rng.random() < 0.93:  # now and then listed one way only, or with another kind back
                back = kind if rng.random() < 0.95 else "sea"
                if not any(r["to"] == area["name"] for r in areas[k]["routes"]):
                    areas[k]["routes"].append({"to": area["name"], "kind": back})
        if area["routes"] and rng.random() < 0.03:
            area["routes"].append(dict(area["routes"][0]))  # listed twice
    data: dict[str, Any] = {
        "$schema": "../../schema/map.schema.json",
        "title": "試験図",
        "size": {"width": round(width, 1), "height": round(height, 1)},
        "style": {"seat": rng.choice([6, 12, 18]) if lattice else round(rng.uniform(5, 30), 1),
                  "label_gap": rng.choice([0, 1.2, 3]), "frame": rng.choice([0, 8])},
        "route_kinds": {"land": {"label": "陸路", "line": "solid"}, "river": {"label": "水路", "line": "double"},
                        "sea": {"label": "海路", "line": "dashed"}},
        "areas": areas,
        "start_areas": {str(p): rng.sample(names, min(count, p + rng.choice([0, 0, 0, 1, -1])) or 1)
                        for p in range(2, 7) if rng.random() < 0.9},
        "victory_points": {str(p): rng.randint(1, 60) for p in range(2, 7)},
    }
    for key in ("cartouche", "legend"):
        if rng.random() < 0.5:
            data[key] = {"x": min(coordinate(width), 1000), "y": min(coordinate(height), 1000),
                         "w": rng.choice([30, 60, 90]), "h": rng.choice([18, 36])}
    if rng.random() < 0.5:
        data["compass"] = {"x": coordinate(width), "y": coordinate(height), "r": rng.choice([6, 12])}
    return data


@cache
def base_game() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "sangokushi")


@cache
def map_schema_issues(text: str) -> list[Issue]:
    return schema.validate(SourcedJson(Path("map.json"), json.loads(text), {}), "map.schema.json")


def game_with(data: dict[str, Any]) -> Game:
    doc = SourcedJson(Path("map.json"), data, {})
    assert map_schema_issues(json.dumps(data)) == []
    game_map, issues = build_map(doc, {"id": "map"}, Location(Path("game.json"), "/components/9"), {})
    assert game_map is not None, [i.render() for i in issues]
    return dataclasses.replace(base_game(), maps=(game_map,))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_map_checks_say_what_comparing_every_pair_said(seed: int) -> None:
    game = game_with(random_map(seed))
    found = list(maps.check(game))
    assert found == list(oracle_check(game))


def test_the_random_maps_meet_every_drawing_finding_and_every_degenerate_case() -> None:
    """Else the test above would compare empty lists: the maps must be bad in every way the checks see."""
    codes: Counter[str] = Counter()
    touching = collinear = stacked = 0
    for seed in SEEDS:
        game = game_with(random_map(seed))
        codes.update(issue.code for issue in maps.check(game))
        game_map = game.maps[0]
        at = {(a.x, a.y) for a in game_map.areas}
        stacked += len(game_map.areas) - len(at)
        segments = [((game_map.area[r.a].x, game_map.area[r.a].y), (game_map.area[r.b].x, game_map.area[r.b].y))
                    for r in game_map.routes]
        for i, (p, q) in enumerate(segments):
            for r, s in segments[:i]:
                if {p, q} & {r, s}:
                    continue
                if _cross(p, q, r, s) and not _proper(p, q, r, s):
                    touching += 1
                    collinear += _orient(p, q, r) == 0 == _orient(p, q, s)
    for code in ("map-routes-cross", "map-route-through", "map-label-overlap", "map-seat-overlap", "map-label-route",
                 "map-outside", "map-start-adjacent", "map-one-way", "map-island"):
        assert codes[code] >= 10, (code, codes)
    assert touching >= 100 and collinear >= 10 and stacked >= 50, (touching, collinear, stacked)


def _orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _proper(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Do the segments cross at one point inside both (not merely touch or run along each other)?"""
    return _orient(r, s, p) * _orient(r, s, q) < 0 and _orient(p, q, r) * _orient(p, q, s) < 0


def test_a_cell_grid_puts_parts_that_touch_in_one_cell() -> None:
    """Edge to edge, corner to corner and end to end: touching is meeting, and no cell boundary hides it."""
    grid = CellGrid.over([Rect(0, 0, 10, 10), Rect(90, 90, 10, 10)])
    assert set(grid.rect_cells(Rect(0, 0, 10, 10))) & set(grid.rect_cells(Rect(10, 10, 5, 5)))
    on_edge = grid.size  # a vertical segment on a cell boundary, and one ending on it
    assert set(grid.segment_cells((on_edge, 0), (on_edge, 50))) & set(grid.segment_cells((0, 20), (on_edge, 20)))
    assert set(grid.segment_cells((0, 0), (100, 100))) & set(grid.segment_cells((100, 0), (0, 100)))
    far = grid.segment_cells((-500, -500), (-400, -400))  # beyond the grid's box: its edge cells
    assert far == [0]


def test_the_map_schema_caps_areas_and_routes_per_area_far_above_the_shipped_map() -> None:
    spec = json.loads((SCHEMA_DIR / "map.schema.json").read_text(encoding="utf-8"))
    areas = spec["properties"]["areas"]
    assert areas["maxItems"] == MAX_MAP_AREAS
    assert areas["items"]["properties"]["routes"]["maxItems"] == MAX_MAP_ROUTES_PER_AREA
    shipped = json.loads((DEFAULT_DECKS_DIR / "sangokushi" / "map.json").read_text(encoding="utf-8"))
    assert len(shipped["areas"]) * 100 <= MAX_MAP_AREAS
    assert max(len(a["routes"]) for a in shipped["areas"]) * 5 <= MAX_MAP_ROUTES_PER_AREA


def test_findings_of_one_kind_stop_at_the_cap_and_say_so() -> None:
    """300 seats on one point overlap pairwise (44,850 lines, 18.6 million at 2,000 areas): the first
    hundred of a kind are listed, then one line says more were left; the rest is never computed."""
    data = random_map(1)
    first = data["areas"][0]
    data["areas"] = [{**first, "name": KANJI[n // len(KANJI)] + KANJI[n % len(KANJI)], "x": 100.0, "y": 100.0,
                      "routes": []} for n in range(300)]
    names = [area["name"] for area in data["areas"]]
    data["start_areas"] = {count: names[:int(count)] for count in data["start_areas"]}
    game = game_with(data)
    started = time.monotonic()
    found = list(maps.check(game))
    assert time.monotonic() - started < 10
    drawing = [issue for issue in found if issue.code in ("map-seat-overlap", "map-label-overlap", "map-label-route")]
    assert len(drawing) == MAX_FINDINGS_PER_KIND + 1
    assert drawing[-1].message.startswith(f"more findings like the {MAX_FINDINGS_PER_KIND} above were not listed")
