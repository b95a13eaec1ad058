"""Build an area map component (map.json, already schema-checked) into the model's GameMap.

The loader refuses a map whose names do not resolve — two areas with one name, a route to an area
that does not exist or of a kind route_kinds does not define, a start area that does not exist — so
every GameMap hands the rules engines and the drawing only names that mean an area. Everything else
about a map (routes listed both ways, connected, start areas apart, reachable targets, a legible
drawing) is for validator/checks/maps.py to report.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .issues import Issue, Location
from .jsonsource import SourcedJson
from .model import GameMap, MapArea, MapRoute

DRAWING_KEYS = ("title", "subtitle", "colors", "fonts", "style", "labels", "cartouche", "legend", "compass", "terrain")


def build_map(doc: SourcedJson, component: Mapping[str, Any], where: Location,
              game_palette: Mapping[str, str]) -> tuple[GameMap | None, list[Issue]]:
    """The GameMap of `doc`, or None and the located reasons it cannot be one."""
    data = doc.data
    issues: list[Issue] = []
    areas: list[MapArea] = []
    seen: set[str] = set()
    for index, raw in enumerate(data["areas"]):
        at = doc.location(f"/areas/{index}")
        if raw["name"] in seen:
            issues.append(Issue(at.child("name"), "map-duplicate-area",
                                f"area {raw['name']!r} is defined twice (names are the keys routes and rules use)"))
            continue
        seen.add(raw["name"])
        areas.append(MapArea(raw["name"], raw["reading"], raw["points"], float(raw["x"]), float(raw["y"]), at,
                             label=raw.get("label", {})))
    listings = _listings(doc, seen, issues)
    for count, names in data["start_areas"].items():
        for k, name in enumerate(names):
            if name not in seen:
                issues.append(Issue(doc.location(f"/start_areas/{count}/{k}"), "map-unknown-area",
                                    f"start area {name!r} for {count} players is not an area of the map"))
    if issues:
        return None, issues
    size = data["size"]
    return GameMap(
        id=component["id"],
        title=component.get("title", data["title"]),
        width=float(size["width"]),
        height=float(size["height"]),
        areas=tuple(areas),
        routes=_pairs(listings),
        start_areas={int(n): tuple(names) for n, names in data["start_areas"].items()},
        victory_points={int(n): int(v) for n, v in data["victory_points"].items()},
        location=where,
        source=doc.location(),
        route_kinds=data["route_kinds"],
        listings=tuple(listings),
        drawing={key: data[key] for key in DRAWING_KEYS if key in data},
        palette={**game_palette, **data.get("palette", {})},
        paper=component.get("paper", "a3"),
        tiles=None if component.get("tiles", "a4") == "none" else component.get("tiles", "a4"),
        overlap=float(component.get("overlap", 10.0)),
    ), []


def _listings(doc: SourcedJson, names: set[str], issues: list[Issue]) -> list[MapRoute]:
    """Every route as written on its area, checking that its far end and its kind exist."""
    kinds = doc.data["route_kinds"]
    known = ", ".join(kinds)  # once, not once a route: a map may define many kinds and misname many routes
    found = []
    for index, raw in enumerate(doc.data["areas"]):
        for k, route in enumerate(raw["routes"]):
            at = doc.location(f"/areas/{index}/routes/{k}")
            if route["to"] not in names:
                issues.append(Issue(at.child("to"), "map-unknown-area",
                                    f"route from {raw['name']!r} to {route['to']!r}: no area of that name"))
            elif route["to"] == raw["name"]:
                issues.append(Issue(at.child("to"), "map-route-loop", f"route from {raw['name']!r} to itself"))
            elif route["kind"] not in kinds:
                issues.append(Issue(at.child("kind"), "map-unknown-kind",
                                    f"route {raw['name']}–{route['to']}: kind {route['kind']!r} is not in "
                                    f"route_kinds ({known})"))
            else:
                found.append(MapRoute(raw["name"], route["to"], route["kind"], at))
    return found


def _pairs(listings: list[MapRoute]) -> tuple[MapRoute, ...]:
    """Each route once (both directions are one route), at its first listing, in listing order."""
    pairs: dict[frozenset[str], MapRoute] = {}
    for route in listings:
        pairs.setdefault(frozenset((route.a, route.b)), route)
    return tuple(pairs.values())
