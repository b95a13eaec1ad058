"""sangokushi: what the whole table knows of the cards each seat holds, the public memory a state dealt
from one seat's observation (determinize.py) must respect, since the rules hide most holdings.

A card is known to be with a seat once it was seen going there: taken from the face-up pool, or shown
in a battle and then placed (the winner's cards, a loser's card that came back, a kept capture). It
never leaves that seat unseen — every way out (the pool, the box, a capture) is public — but the seat
may move it between places no one sees into: a hand card chosen face down for a battle, a neutral area,
a recovery or a recruit; a used card brought back by a recovery. So each known card carries the set of
the seat's places it may be in (bits below), widened by such an unseen move and narrowed by a reveal
or by a move of a whole place. The table's view is the same for every seat, so the observation may
carry it; check_invariants holds every known card to a place its set allows.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import Seat

if TYPE_CHECKING:
    from .state import SangokushiState

HAND, USED, SPENT, SIDE, ELIGIBLE = 1, 2, 4, 8, 16  # ELIGIBLE: used cards a recovery may still bring back
PLACES = (HAND, USED, SPENT, SIDE, ELIGIBLE)

Known = tuple[tuple[tuple[int, int], ...], ...]  # per seat, (card, places) of the cards known to be there


def learn(state: SangokushiState, seat: Seat, card: int, places: int) -> None:
    """A card was seen going to `seat`'s `places`."""
    state.known[seat][card] = places
    state.known_view = None


def forget(state: SangokushiState, seat: Seat, card: int) -> None:
    """A card left `seat` where everyone saw it (the pool, the box, a battle revealed)."""
    known = state.known[seat]
    if card in known:
        del known[card]
        state.known_view = None


def widen(state: SangokushiState, seat: Seat, source: int, target: int) -> None:
    """Some cards of `seat` went unseen from `source` to `target`: any of them may now be in either."""
    known = state.known[seat]
    for card, places in known.items():
        if places & source:
            known[card] = places | target
    if known:
        state.known_view = None


def move(state: SangokushiState, seat: Seat, source: int, target: int) -> None:
    """Every card of `seat` in `source` went to `target` (a whole place moved, which everyone sees)."""
    known = state.known[seat]
    for card, places in known.items():
        if places & source:
            known[card] = places & ~source | target
    if known:
        state.known_view = None


def reveal(state: SangokushiState) -> None:
    """5.3: both battle sides turn face up, so their cards are public and the rest stayed in the hands."""
    attacker, defender = state.seats
    for card in state.sides[0]:
        forget(state, attacker, card)
    for card in state.sides[1]:
        forget(state, defender, card)
    move(state, attacker, SIDE, 0)
    move(state, defender, SPENT, 0)


def view(state: SangokushiState) -> Known:
    """The table's knowledge as an immutable value for the observation, built once per change."""
    if state.known_view is None:
        state.known_view = tuple(tuple(known.items()) for known in state.known)
    return state.known_view


def place_of(state: SangokushiState, seat: Seat, card: int) -> int:
    """Where `card` really is among `seat`'s places (0: not with that seat), for the invariants."""
    if card in state.hands[seat]:
        return HAND
    if card in state.used[seat]:
        return ELIGIBLE if card in state.eligible and state.player == seat else USED
    if state.spent_owner == seat and card in state.spent:
        return SPENT
    if state.seats[0] == seat and not state.revealed and card in state.sides[0]:
        return SIDE
    return 0


__all__ = ["ELIGIBLE", "HAND", "PLACES", "SIDE", "SPENT", "USED", "Known", "forget", "learn", "move", "place_of",
           "reveal", "view", "widen"]
