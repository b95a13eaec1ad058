"""Component ids name output files: two components must never write the same file (issue 12 item 10).

Duplicate ids overwrote one deck's cards.pdf with another's (exit 0), and a component named
`report` was overwritten by the simulation report. Each component's files are listed here the
way the generator names them; any file claimed twice, or a reserved name, is one located line.
"""
from __future__ import annotations

from collections.abc import Iterator

from ..issues import Issue, Location
from ..model import Game
from ..shopfiles import deck_has_shop_file

RESERVED_FILES = {"build.json": "the build manifest", "report.json": "the simulation report",
                  "report.pdf": "the simulation report"}
RESERVED_IDS = {"report": "--only report selects the simulation report"}


def component_files(game: Game) -> Iterator[tuple[str, str, Location]]:
    """(file name, component id, component location) for every file a build can write."""
    for deck in game.decks:
        names = [f"{deck.gang}.pdf" if deck.gang else f"{deck.id}.pdf"]
        if deck_has_shop_file(deck):
            names.append(f"{deck.id}-printshop.pdf")
        if deck.fillable:
            names.append(f"{deck.id}-fillable.pdf")
        for name in names:
            yield name, deck.id, deck.location
    for book in game.rulebooks:
        for name in (f"{book.id}.pdf", f"{book.id}-printshop.pdf", f"{book.id}-booklet.pdf"):
            yield name, book.id, book.location
    for game_map in game.maps:
        papers = [game_map.paper]
        if game_map.tiles is not None and game_map.tiles != game_map.paper:
            papers.append(game_map.tiles)
        for paper in papers:
            for name in (f"{game_map.id}-{paper}.pdf", f"{game_map.id}-{paper}-printshop.pdf"):
                yield name, game_map.id, game_map.location


def _same_gang(game: Game, name: str, component: str, claimed: dict[str, str]) -> bool:
    """Components of one gang write its sheets together: that file is theirs to share."""
    gangs = {deck.id: deck.gang for deck in game.decks}
    return gangs.get(component) is not None and gangs.get(component) == gangs.get(claimed[name]) \
        and name == f"{gangs[component]}.pdf"


def check(game: Game) -> Iterator[Issue]:
    claimed: dict[str, str] = {}
    reported: set[str] = set()
    for name, component, where in component_files(game):
        here = where.child("id")
        if name in claimed and claimed[name] != component and _same_gang(game, name, component, claimed):
            continue
        if component in RESERVED_IDS and component not in reported:
            reported.add(component)
            yield Issue(here, "reserved-id", f"component id {component!r} is reserved ({RESERVED_IDS[component]})")
        elif name in RESERVED_FILES:
            yield Issue(here, "output-collision", f"component {component!r} would write {name}, "
                                                  f"which is {RESERVED_FILES[name]}")
        elif name in claimed and claimed[name] != component:
            yield Issue(here, "output-collision", f"component {component!r} would write {name}, "
                                                  f"which component {claimed[name]!r} writes too")
        elif name in claimed and component not in reported:
            reported.add(component)
            yield Issue(here, "duplicate-id", f"component id {component!r} is used twice; each writes {name}")
        claimed.setdefault(name, component)
