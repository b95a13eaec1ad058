"""人材登用 (jinzai): a whole match built from one seat's observation, for a search that may not peek.

What the seat has seen stays where it is: its own hand and hidden setup picks, every seat's columns,
the pool, this round's bids, the VP and the games of the match so far, and the round's public
bookkeeping (the observation's PublicRecord: stage, start player, places, pending tricksters and
effects...). What it has not seen is dealt anew from the tiles it has not seen, in the same places and
the same numbers: the other seats' hands, their hidden setup picks (before the reveal) and the tiles set
aside at the deal, which nobody ever sees. The state is a whole match, so it deals the later games
itself: it gets a chance generator of its own, seeded from `rng`, never the real one (which would let
the search foresee the next deal).

What the table knows of a hidden hand is kept too: a seat forced to put out a duplicate has shown that
its hand held only kinds already put out, and a hand only shrinks until the next deal (the record's
`may_hold`). The deal is uniform over the arrangements that respect that: up to TRIES shuffles are
drawn until one does. Past that (tight constraints, rare), the constrained hands take their tiles
first, each a uniform pick among the tiles it may hold: every consistent deal can still come, but not
all equally often. What a seat might read from the way the others play is not modelled.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ...engine.api import Seat
from .rules import JinzaiObservation, counted_kinds
from .scoring import STAR as STAR_KIND
from .state import BIDDING, OVER, SETUP, JinzaiState

TRIES = 64  # uniform shuffles tried before the constrained deal
RETRIES = 10_000  # constrained deals tried before the observation is judged inconsistent


class Slot(NamedTuple):
    """A hidden place to fill: a seat's hand or its setup picks, how many tiles, the kinds it may take."""

    seat: Seat
    picks: bool
    size: int
    mask: int


def determinize(observation: JinzaiObservation, rng: random.Random) -> JinzaiState:
    """A match the observing seat cannot tell from the real one, what it has not seen dealt at random."""
    public = observation.public
    if public.stage == OVER:
        raise ValueError("jinzai: the match is over, nothing is left to deal")
    state = JinzaiState(observation.game, random.Random(rng.getrandbits(64)), len(observation.codes), public.start)
    slots = hidden_slots(observation)
    unseen = list(counted_kinds(unseen_counts(observation, state.deck)))
    if len(unseen) < sum(slot.size for slot in slots):  # the rest is set aside (one deal's leftovers)
        raise ValueError(f"jinzai: {len(unseen)} unseen tiles cannot fill hidden places of {[s.size for s in slots]}")
    dealt, rest = deal(unseen, slots, rng)
    restore(state, observation, slots, dealt, rest)  # replaces the deal the state made for itself
    return state


def unseen_counts(observation: JinzaiObservation, deck: Sequence[int]) -> list[int]:
    """Per kind, the tiles of the deck in play (`deck`: their kinds) the seat has not seen anywhere."""
    numbered = observation.game.codes.numbered
    left = [deck.count(kind) for kind in range(len(observation.pool_counts))]
    for counts in (observation.hand_counts, observation.picked_counts, observation.pool_counts):
        for kind, count in enumerate(counts):
            left[kind] -= count
    for cols in observation.codes:
        for c, code in enumerate(cols):
            left[c + 1] -= numbered[code]
            left[STAR_KIND] -= code.bit_length() - 1 - numbered[code]
    for kind in observation.bids:
        if kind >= 0:
            left[kind] -= 1
    left[STAR_KIND] -= len(observation.public.pending)
    if min(left) < 0:
        raise ValueError(f"jinzai: the observation shows more tiles than the deck has: {left}")
    return left


def hidden_slots(observation: JinzaiObservation) -> list[Slot]:
    """The other seats' hands (and setup picks before the reveal), in seat order, with their public sizes:
    hand_size less the picks made, or less the public tiles and the bids made so far."""
    public, rules = observation.public, observation.game.rules
    players, per_seat = len(observation.codes), rules.public_at_setup
    slots = []
    for seat in range(players):
        if seat == observation.seat:
            continue
        if public.stage == SETUP:  # the seats pick in turn from the start player, per_seat tiles each
            order = (seat - public.start) % players
            picks = min(per_seat, max(0, public.step - order * per_seat))
            slots.append(Slot(seat, False, rules.hand_size - picks, public.may_hold[seat]))
            slots.append(Slot(seat, True, picks, -1))
        else:
            size = rules.hand_size - per_seat - observation.round
            size += public.stage == BIDDING and observation.bids[seat] < 0
            slots.append(Slot(seat, False, size, public.may_hold[seat]))
    return slots


def fits(tiles: Sequence[int], mask: int) -> bool:
    return all(mask >> kind & 1 for kind in tiles)


def deal(unseen: list[int], slots: Sequence[Slot], rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """The tiles of each slot and the rest (set aside): a uniform shuffle (of `unseen`, in place) that
    respects every slot's kinds, else the constrained deal."""
    for _ in range(TRIES):
        rng.shuffle(unseen)
        dealt, at = [], 0
        for slot in slots:
            dealt.append(unseen[at:at + slot.size])
            at += slot.size
        if all(fits(tiles, slot.mask) for tiles, slot in zip(dealt, slots)):
            return dealt, unseen[at:]
    return constrained_deal(unseen, slots, rng)


def constrained_deal(unseen: Sequence[int], slots: Sequence[Slot], rng: random.Random
                     ) -> tuple[list[list[int]], list[int]]:
    """Constrained slots first, each a uniform pick among the remaining tiles it may hold, then the others:
    any consistent deal can come (so one that fits is found), though not uniformly."""
    order = sorted(range(len(slots)), key=lambda i: fits(unseen, slots[i].mask))  # constrained first
    for _ in range(RETRIES):
        left = list(unseen)
        rng.shuffle(left)
        dealt: list[list[int]] = [[] for _ in slots]
        for i in order:
            size, mask = slots[i].size, slots[i].mask
            rest: list[int] = []
            for kind in left:
                (dealt[i] if len(dealt[i]) < size and mask >> kind & 1 else rest).append(kind)
            if len(dealt[i]) < size:
                break
            left = rest
        else:
            return dealt, left
    raise ValueError("jinzai: no deal of the unseen tiles fits what the forced duplicates showed")


def restore(state: JinzaiState, observation: JinzaiObservation, slots: Sequence[Slot],
            dealt: Sequence[Sequence[int]], aside: Sequence[int]) -> None:
    """Put the seen table and the dealt tiles into a freshly made state, then work out its pending decision."""
    public, me, width = observation.public, observation.seat, len(observation.pool_counts)
    players = len(observation.codes)
    hands = [[0] * width for _ in range(players)]
    picked = [[0] * width for _ in range(players)]
    hands[me], picked[me] = list(observation.hand_counts), list(observation.picked_counts)
    for slot, tiles in zip(slots, dealt):
        counts = (picked if slot.picks else hands)[slot.seat]
        for kind in tiles:
            counts[kind] += 1
    state.hands, state.picked = hands, picked
    state.held = [sum(1 << kind for kind, count in enumerate(hand) if count) for hand in hands]
    state.aside = [0] * width
    for kind in aside:
        state.aside[kind] += 1
    state.pool = list(observation.pool_counts)
    state._pool_changed()
    state.cols = [list(cols) for cols in observation.codes]
    for seat in range(players):
        state._columns_changed(seat)
    state.bids, state.places, state.vp = list(observation.bids), list(observation.places), list(observation.vp)
    state.round, state.pool_side = observation.round, observation.pool_side
    state.stage, state.step, state.due = public.stage, public.step, public.due
    state.start, state.next_start, state.star_seat = public.start, public.next_start, public.star_seat
    state.dup, state.out, state.pending = list(public.dup), public.out, list(public.pending)
    state.effect, state.effect_seat, state.rotatable = public.effect, public.effect_seat, public.rotatable
    state.may_hold = public.may_hold
    state.games_played, state.turns, state.game_totals = public.games_played, public.turns, list(public.game_totals)
    (state.forced_duplicates, state.pool_taken, state.rotations, state.gifts,
     state.second_place_by_2) = public.events
    state._decide()
