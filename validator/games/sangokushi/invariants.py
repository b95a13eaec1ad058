"""sangokushi invariants: what must hold after every step, checked by tests and `--check-invariants` runs.

Kept apart from state.py because it reads everything and changes nothing: card conservation (every card
in exactly one place), holdings within limits once the limit rules have been applied, area ownership
and points in step, the battle's cards consistent, counters never negative, and every card the table
knows a seat holds (knowledge.py) in one of the places the table thinks it may be.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import InvariantError, check_conserved
from .knowledge import place_of
from .phases import CAPTURE_P, DAMAGE_P, DEFEND_P, OVER, SHED_P

if TYPE_CHECKING:
    from .state import SangokushiState


def check(state: SangokushiState) -> None:
    places: list[tuple[str, list[int]]] = [("deck", state.deck), ("pool", state.pool), ("removed", state.removed),
                                           ("spent", state.spent), ("captured", state.captured),
                                           ("attack", state.sides[0]), ("defence", state.sides[1])]
    for seat in range(state.n):
        places += [(f"hand{seat}", state.hands[seat]), (f"used{seat}", state.used[seat])]
    check_conserved(places, len(state.gen))
    for side in (0, 1):
        if not set(state.up[side]) <= set(state.sides[side]):
            raise InvariantError(f"face-up cards {state.up[side]} not among the side's {state.sides[side]}")
    if state.captured and state.phase not in (CAPTURE_P, OVER):
        raise InvariantError("captured cards left unplaced")
    if state.spent and state.spent_owner < 0:
        raise InvariantError("chosen cards without a holder")
    if state.phase == DEFEND_P and not state.sides[0]:
        raise InvariantError("a defence without an attack")
    if state.phase == DAMAGE_P and state.damage <= 0:
        raise InvariantError("a damage decision without damage")
    points = [0] * state.n
    for area, owner in enumerate(state.owner):
        if not -1 <= owner < state.n:
            raise InvariantError(f"area {area} held by seat {owner}")
        if owner >= 0:
            points[owner] += state.board.points[area]
    if points != state.points:
        raise InvariantError(f"points {state.points} but the areas held give {points}")
    shedding = state.shed_seat if state.phase in (CAPTURE_P, SHED_P, OVER) else -1  # 10.5 still to be applied
    for seat in range(state.n):
        if state.held(seat) > state.limit(seat) and seat != shedding:
            raise InvariantError(f"seat {seat} holds {state.held(seat)} cards over its limit {state.limit(seat)}")
    if state.phase != OVER and any(p >= state.target for p in state.points):
        raise InvariantError(f"a seat reached {state.target} points but the game goes on")
    if state.phase == OVER and not state.end_reason:
        raise InvariantError("the game ended without a reason")
    if state.dead_lords != state.counts["lord_deaths"] or state.dead_lords != sum(
            state.gen.lord[c] for c in state.removed):
        raise InvariantError("dead lords out of step with the cards removed")
    if any(v < 0 for v in state.counts.values()):
        raise InvariantError(f"a negative counter: {state.counts}")
    for seat, known in enumerate(state.known):
        for card, may_be in known.items():
            if not may_be & place_of(state, seat, card):
                raise InvariantError(f"card {card} is known to be in seat {seat}'s places {may_be} but is not")
