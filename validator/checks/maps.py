"""Area maps hold together and print legibly: routes both ways, connected, fair starts and targets, a clean drawing.

Names that do not resolve (a route or start area naming no area, two areas with one name) stop the
map at loading (validator/mapfile.py). Here, each finding is one located line:
- a route listed on one of its areas only, or with another kind on the way back, or twice;
- areas cut off from the rest (one line per cut-off group);
- start areas: a list for every player count the game plays, one area per player, none adjacent;
- victory points for every player count, no more than the map holds, and more than a fair share
  (players x target > total points, so two players can never reach it at once);
- the drawing: no two routes cross, no route runs through a third area's seat or a panel, no label
  overlaps another label, a seat or a panel, everything inside the frame;
- every text has a glyph in its font, every font key and colour resolves, the map fits its paper.

Every check is near-linear in the map (issue 23: comparing every pair of parts was cubic, and a map
of a few thousand areas hung `fudaya check`): the drawing checks compare only parts that share a cell
of a grid (validator/maplayout.py CellGrid), so their cost grows with the map and its findings.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..binding import BindingError, parse_color
from ..issues import Issue, Location
from ..limits import MAX_FINDINGS_PER_KIND
from ..maplayout import DEFAULT_FONTS, CellGrid, MapPlan, bucketed, merged, sharing
from ..model import Game, GameMap, MapRoute
from ..presets import PAPER_SIZES
from ..ruby import RubyError, has_markup, parse_ruby
from ..typeset import FontMetrics, load_metrics
from ..wording import counted

Point = tuple[float, float]


def check(game: Game) -> Iterator[Issue]:
    for game_map in game.maps:
        yield from check_routes(game_map)
        yield from check_connected(game_map)
        yield from check_starts(game, game_map)
        yield from check_victory(game, game_map)
        yield from check_colors(game_map)
        yield from check_paper(game_map)
        metrics = _role_metrics(game, game_map)
        if isinstance(metrics, Issue):
            yield metrics
            continue
        plan = MapPlan.build(game_map, metrics)
        yield from check_glyphs(plan)
        yield from check_drawing(plan)


def check_routes(game_map: GameMap) -> Iterator[Issue]:
    """Every route is listed on both its areas, once each, with one kind."""
    written: dict[tuple[str, str], MapRoute] = {}
    for route in game_map.listings:
        if (route.a, route.b) in written:
            yield Issue(route.location.child("to"), "map-route-twice",
                        f"{route.a} lists its route to {route.b} twice")
            continue
        written[(route.a, route.b)] = route
    for (a, b), route in written.items():
        back = written.get((b, a))
        if back is None:
            yield Issue(route.location, "map-one-way",
                        f"route {a}→{b} ({route.kind}) is listed on {a} only: add {{\"to\": \"{a}\", "
                        f"\"kind\": \"{route.kind}\"}} to {b}'s routes")
        elif back.kind != route.kind and a > b:  # report each mismatched pair once, at one of its two listings
            yield Issue(route.location.child("kind"), "map-route-kind",
                        f"route {a}→{b} is {route.kind!r} but {b}→{a} is {back.kind!r}: one route has one kind")


def check_connected(game_map: GameMap) -> Iterator[Issue]:
    """Every area can be reached from every other: one line per group cut off from the first area."""
    if not game_map.areas:
        return
    seen: set[str] = set()
    groups: list[list[str]] = []
    for area in game_map.areas:
        if area.name in seen:
            continue
        group, queue = [area.name], deque([area.name])
        seen.add(area.name)
        while queue:
            for near in game_map.neighbours[queue.popleft()]:
                if near not in seen:
                    seen.add(near)
                    group.append(near)
                    queue.append(near)
        groups.append(group)
    main = groups[0]
    for group in groups[1:]:
        first = game_map.area[group[0]]
        what = f"area {group[0]} is" if len(group) == 1 else f"areas {', '.join(group)} are"
        yield Issue(first.location.child("routes"), "map-island",
                    f"{what} cut off from the rest of the map (no route leads to {main[0]} and the "
                    f"{counted(len(main), 'area')} with it)")


def check_starts(game: Game, game_map: GameMap) -> Iterator[Issue]:
    """A start area per player for every player count; no two of one count adjacent (each pair said once)."""
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
        first: dict[str, int] = {}
        for k, name in enumerate(names):
            first.setdefault(name, k)
        for k, name in enumerate(names):
            # the earlier start areas next to this one, in list order: a route each, not every earlier pair
            for other in sorted((n for n in game_map.neighbours[name] if first.get(n, k) < k), key=first.__getitem__):
                pair = frozenset((name, other))
                if pair not in said:
                    said.add(pair)
                    yield Issue(at.child(k), "map-start-adjacent",
                                f"start areas {other} and {name} ({counted(players, 'player')}) are adjacent: a "
                                f"player could "
                                f"attack another's start on the first turn")


def check_victory(game: Game, game_map: GameMap) -> Iterator[Issue]:
    """Each player count's target is reachable (≤ total) and only by one player at a time (players × target > total)."""
    where = game_map.source.child("victory_points")
    total = game_map.total_points
    low, high = game.players
    for players in range(low, high + 1):
        target = game_map.victory_points.get(players)
        if target is None:
            yield Issue(where, "map-victory-missing", f"no victory points for {counted(players, 'player')}")
        elif target > total:
            yield Issue(where.child(str(players)), "map-victory-unreachable",
                        f"{counted(players, 'player')}: {counted(target, 'point')} to win, but the map holds {total}")
        elif players * target <= total:
            yield Issue(where.child(str(players)), "map-victory-shared",
                        f"{counted(players, 'player')}: {counted(target, 'point')} to win, and {players} × "
                        f"{target} ≤ {total} (the map's "
                        f"points), so two players could hold {target} at once; the target must exceed "
                        f"{total // players}")


def check_colors(game_map: GameMap) -> Iterator[Issue]:
    source = game_map.source
    wanted = [(source.child("colors").child(role), value)
              for role, value in game_map.drawing.get("colors", {}).items()]
    wanted += [(source.child("route_kinds").child(kind).child("color"), spec["color"])
               for kind, spec in game_map.route_kinds.items() if "color" in spec]
    for where, value in wanted:
        try:
            literal = parse_color(value)
        except BindingError as exc:
            yield Issue(where, "unknown-color", str(exc))
            continue
        if literal is None and value not in game_map.palette:
            yield Issue(where, "unknown-color", f"{value!r} is not a colour or a palette name")


def check_paper(game_map: GameMap) -> Iterator[Issue]:
    """The one-sheet print holds the whole map (turned the way the map is)."""
    long_side, short_side = max(PAPER_SIZES[game_map.paper]), min(PAPER_SIZES[game_map.paper])
    if max(game_map.width, game_map.height) > long_side or min(game_map.width, game_map.height) > short_side:
        yield Issue(game_map.location.child("paper"), "map-paper",
                    f"the map is {game_map.width:g}×{game_map.height:g} mm and does not fit {game_map.paper.upper()} "
                    f"({long_side:g}×{short_side:g} mm)")


def _role_metrics(game: Game, game_map: GameMap) -> dict[str, FontMetrics] | Issue:
    roles = merged(game_map, "fonts", DEFAULT_FONTS)
    found = {}
    for role, key in roles.items():
        if key not in game.fonts:
            where = game_map.source.child("fonts").child(role) if role in game_map.drawing.get("fonts", {}) \
                else game_map.location
            return Issue(where, "unknown-font", f"map {role} font {key!r} is not a font of game.json "
                                                f"({', '.join(game.fonts)})")
        found[role] = load_metrics(game.fonts[key].path)
    return found


def check_glyphs(plan: MapPlan) -> Iterator[Issue]:
    for text, role, where in plan.printed_texts():
        if has_markup(text):  # a map label is one line at a fixed place: no room is made for readings
            try:
                plain = parse_ruby(text).text
            except RubyError as exc:
                yield Issue(where, "ruby-markup", f"{text!r}: {exc}")
                continue
            if plain != text:
                yield Issue(where, "ruby-markup", f"{text!r}: the map sets no ruby (an area's reading goes in its "
                                                  "\"reading\", printed under its name); write 《 》 ｜ as they are")
                continue
        missing = plan.metrics[role].missing_glyphs(text)
        if missing:
            chars = " ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
            font = plan.metrics[role].path.name
            yield Issue(where, "missing-glyph", f"{text!r}: font {font} has no glyph for {chars}")


def check_drawing(plan: MapPlan) -> Iterator[Issue]:
    drawn = Drawn.of(plan)
    for finding in (_crossings, _routes_through, _overlaps):
        yield from at_most(finding(plan, drawn), MAX_FINDINGS_PER_KIND, plan.game_map.source.child("areas"))


def at_most(found: Iterator[Issue], limit: int, where: Location) -> Iterator[Issue]:
    """The first `limit` findings, then one line saying more were left unlisted; the rest is never made.

    Findings of one kind can be quadratic in the map (2,000 seats at one point overlap pairwise: 18.6
    million lines); a designer needs the first hundred to see what is wrong, and the check stays bounded.
    """
    for count, issue in enumerate(found):
        if count == limit:
            yield Issue(where, issue.code, f"more findings like the {limit} above were not listed "
                                           f"(the map has too many to check one by one: fix these first)")
            return
        yield issue


@dataclass(frozen=True)
class Drawn:
    """Every route's segment and the cells each part lies in, found once for all the drawing checks.

    Each check asks about the parts sharing a cell with the part at hand, in index order, so its
    findings and their order are those of comparing every pair, at near-linear cost (issue 23).
    Routes are indexed as in GameMap.routes, seats (markers) and labels as in MapPlan.areas.
    """

    segments: Sequence[tuple[Point, Point]]
    route_cells: Sequence[list[int]]
    marker_cells: Sequence[list[int]]
    label_cells: Sequence[list[int]]
    routes: Mapping[int, list[int]]   # cell -> routes through it
    markers: Mapping[int, list[int]]  # cell -> areas whose seat (with its start tab) lies in it
    labels: Mapping[int, list[int]]   # cell -> areas whose label lies in it
    incident: Mapping[str, set[int]]  # area name -> its routes

    @classmethod
    def of(cls, plan: MapPlan) -> Drawn:
        areas = list(plan.areas.values())
        grid = CellGrid.over([a.marker for a in areas] + [a.label for a in areas])
        routes = plan.game_map.routes
        segments = [plan.segment(route) for route in routes]
        route_cells = [grid.segment_cells(p, q) for p, q in segments]
        marker_cells = [grid.rect_cells(a.marker) for a in areas]
        label_cells = [grid.rect_cells(a.label) for a in areas]
        incident: dict[str, set[int]] = {name: set() for name in plan.areas}
        for index, route in enumerate(routes):
            incident[route.a].add(index)
            incident[route.b].add(index)
        return cls(segments, route_cells, marker_cells, label_cells, bucketed(route_cells), bucketed(marker_cells),
                   bucketed(label_cells), incident)


def _crossings(plan: MapPlan, drawn: Drawn) -> Iterator[Issue]:
    routes = plan.game_map.routes
    for i, route in enumerate(routes):
        p, q = drawn.segments[i]
        near = sharing(drawn.routes, drawn.route_cells[i]) - drawn.incident[route.a] - drawn.incident[route.b]
        for j in sorted(j for j in near if j < i):  # routes sharing an area meet at its seat: not a crossing
            other = routes[j]
            if _cross(p, q, *drawn.segments[j]):
                yield Issue(route.location, "map-routes-cross",
                            f"route {route.a}–{route.b} crosses route {other.a}–{other.b} as drawn: move an area")


def _routes_through(plan: MapPlan, drawn: Drawn) -> Iterator[Issue]:
    panels = list(plan.boxes())
    areas = list(plan.areas.items())
    for i, route in enumerate(plan.game_map.routes):
        p, q = drawn.segments[i]
        for k in sorted(sharing(drawn.markers, drawn.route_cells[i])):
            name, area = areas[k]
            if name not in (route.a, route.b) and area.marker.hits_segment(p, q):
                yield Issue(route.location, "map-route-through",
                            f"route {route.a}–{route.b} runs through {name}'s seat as drawn: move an area")
        for panel, box, _ in panels:
            if box.hits_segment(p, q):
                yield Issue(route.location, "map-route-through",
                            f"route {route.a}–{route.b} runs under the {panel} as drawn")


def _overlaps(plan: MapPlan, drawn: Drawn) -> Iterator[Issue]:
    """One line per label that overlaps another label, a seat or a panel, or leaves the frame."""
    frame = plan.frame
    panels = list(plan.boxes())
    routes = plan.game_map.routes
    names = list(plan.areas)
    for i, name in enumerate(names):
        area = plan.areas[name]
        where = area.area.location.child("label") if area.area.label else area.area.location
        if not area.marker.inside(frame):
            yield Issue(area.area.location, "map-outside", f"{name}'s seat reaches outside the frame")
        if not area.label.inside(frame):
            yield Issue(where, "map-outside", f"{name}'s label reaches outside the frame")
        earlier = sharing(drawn.labels, drawn.label_cells[i]) | sharing(drawn.markers, drawn.marker_cells[i])
        near = sharing(drawn.markers, drawn.label_cells[i]) | {k for k in earlier if k < i}
        for k in sorted(near):  # each pair of areas is said once, at the later area, except a label over a seat
            other = names[k]
            them = plan.areas[other]
            if k != i and area.label.overlaps(them.marker):
                yield Issue(where, "map-label-overlap", f"{name}'s label overlaps {other}'s seat")
            if k < i and area.label.overlaps(them.label):
                yield Issue(where, "map-label-overlap", f"{name}'s label overlaps {other}'s label")
            if k < i and area.marker.overlaps(them.marker):
                yield Issue(area.area.location, "map-seat-overlap", f"{name}'s seat overlaps {other}'s seat")
        for panel, box, _ in panels:
            if area.label.overlaps(box) or area.marker.overlaps(box):
                yield Issue(where, "map-label-overlap", f"{name} overlaps the {panel}")
        for r in sorted(sharing(drawn.routes, drawn.label_cells[i])):
            route = routes[r]
            if area.label.hits_segment(*drawn.segments[r]):
                yield Issue(where, "map-label-route", f"{name}'s label lies on route {route.a}–{route.b}",
                            severity="warning")


def _cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Do two segments cross or touch (any shared point)? Callers skip routes that share an area."""
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def on(a: Point, b: Point, c: Point) -> bool:
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return any(d == 0 and on(a, b, c) for d, a, b, c in
               ((d1, q1, q2, p1), (d2, q1, q2, p2), (d3, p1, p2, q1), (d4, p1, p2, q2)))
