"""三国志演義 (sangokushi): a whole game state built from one seat's observation, for a search that may
not peek (validator.engine.search).

Kept as seen: the seat's own hand, used cards, chosen cards, battle side and the used cards its
recovery may bring back, each in its order; every public place (the face-up pool, the removed cards,
captured cards waiting for a decision, a revealed battle and its face-up cards); the map, points,
counts, whose turn and which decision is pending (a battle resumes at its pending damage, capture or
selection step), the dead lords and the turn and pass counters. A card the table knows another seat
holds (knowledge.py: seen taken from the pool or placed after a battle) stays with that seat, in a
place the table thinks it may be.

Dealt anew: the order of the draw pile, and which of the cards the seat has not seen lie in the other
seats' hands, used piles, face-down choices and, mid-recovery, among the used cards that may still
come back — in the same numbers. The dice come from a new generator seeded from `rng`.

Not exactly uniform: a known card that may be in several of its seat's places (a hand card that may
have been chosen face down, a used card a recovery may have brought back) goes to one of them at
random, weighted by the free room of each, skipping a place that would leave a later such card no
room; when several such cards compete for little room this leans slightly from the uniform deal,
which is rare and only shifts which of a seat's places a card is in. What past dice tell (a recovery's
count hints at the politics of the cards spent) is not used: the observation keeps no dice.
Event counters start at zero (they are report statistics, not rules), bar the dead lords the end roll
reads; the last battle's winner is kept only where a decision reads it (the capture choice).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .knowledge import ELIGIBLE, HAND, PLACES, SIDE, SPENT, USED
from .phases import CAPTURE_P, DAMAGE_P, OVER, RESTORE_P
from .rules import SangokushiObservation
from .state import SangokushiState

Places = dict[int, list[int]]  # place bit -> cards


def determinize(observation: SangokushiObservation, rng: random.Random) -> SangokushiState:
    """A state the observing seat cannot tell from the real one, what it has not seen dealt at random."""
    if observation.phase == OVER:
        raise ValueError("sangokushi: a finished game has nothing to deal")
    me, seats = observation.seat, len(observation.hand_counts)
    holdings = [_own(observation) if seat == me else _dealt_known(observation, seat, rng) for seat in range(seats)]
    seen = {card for places in holdings for cards in places.values() for card in cards} | set(_public(observation))
    unseen = [card for card in range(len(observation.game.generals)) if card not in seen]
    rng.shuffle(unseen)
    for seat, places in enumerate(holdings):
        if seat != me:
            _fill(places, _room(observation, seat), unseen, rng)
    if len(unseen) != observation.deck_size:
        raise ValueError(f"sangokushi: {len(unseen)} unseen cards left for a draw pile of {observation.deck_size}")
    return _build(observation, holdings, unseen, random.Random(rng.getrandbits(64)))


def _own(observation: SangokushiObservation) -> Places:
    """The observing seat's own cards, exactly where and in the order they are."""
    battle, me = observation.battle, observation.seat
    eligible = set(observation.eligible)
    side = battle.attack_cards if battle is not None and battle.attacker == me and not battle.revealed else ()
    return {HAND: list(observation.hand), USED: [c for c in observation.used if c not in eligible],
            ELIGIBLE: list(observation.eligible), SPENT: list(observation.spent), SIDE: list(side)}


def _public(observation: SangokushiObservation) -> list[int]:
    """The cards in places everyone sees."""
    battle = observation.battle
    shown = [*battle.attack_cards, *battle.defend_cards] if battle is not None and battle.revealed else []
    return [*observation.pool, *observation.removed, *observation.table.captured, *shown]


def _room(observation: SangokushiObservation, seat: int) -> dict[int, int]:
    """How many cards each of `seat`'s places holds (public counts)."""
    battle, table = observation.battle, observation.table
    eligible = table.eligible_count if observation.phase == RESTORE_P and table.player == seat else 0
    side = battle.attack_count if battle is not None and not battle.revealed and battle.attacker == seat else 0
    return {HAND: observation.hand_counts[seat], USED: observation.used_counts[seat] - eligible, ELIGIBLE: eligible,
            SPENT: table.spent_count if table.spent_owner == seat else 0, SIDE: side}


def _dealt_known(observation: SangokushiObservation, seat: int, rng: random.Random) -> Places:
    """The cards the table knows `seat` holds, each put in one of the places it may be in."""
    free = _room(observation, seat)
    placed: Places = {place: [] for place in PLACES}
    several: list[tuple[int, int]] = []
    for card, places in sorted(observation.table.known[seat]):
        if places & (places - 1):
            several.append((card, places))
        else:
            placed[places].append(card)
            free[places] -= 1
    if any(count < 0 for count in free.values()):
        raise ValueError(f"sangokushi: seat {seat} is known to hold more cards in a place than it has")
    rng.shuffle(several)
    for i, (card, places) in enumerate(several):
        placed[_pick(places, free, several[i + 1:], rng)].append(card)
    return placed


def _pick(places: int, free: dict[int, int], later: Sequence[tuple[int, int]], rng: random.Random) -> int:
    """One of `places` with room, weighted by its room, that leaves room for the `later` cards; taken from `free`."""
    options = [place for place in PLACES if places & place and free[place] > 0]
    while options:
        total = sum(free[place] for place in options)
        r = rng.random() * total
        pick = options[-1]
        for place in options:
            r -= free[place]
            if r < 0:
                pick = place
                break
        free[pick] -= 1
        if _fits(later, free):
            return pick
        free[pick] += 1
        options.remove(pick)
    raise ValueError("sangokushi: the known cards of a seat do not fit its places")


def _fits(cards: Sequence[tuple[int, int]], free: dict[int, int]) -> bool:
    """Hall's condition: for every set of places, the cards that must lie among them fit their room."""
    if not cards:
        return True
    kinds = Counter(places for _, places in cards)
    for union in range(1, 1 << len(PLACES)):
        need = sum(count for places, count in kinds.items() if not places & ~union)
        if need and need > sum(free[place] for place in PLACES if place & union):
            return False
    return True


def _fill(placed: Places, room: dict[int, int], unseen: list[int], rng: random.Random) -> None:
    """Top each place up to its count from the (shuffled) unseen cards; mix in the known ones."""
    for place in PLACES:
        cards = placed[place]
        known = len(cards)
        while len(cards) < room[place]:
            cards.append(unseen.pop())
        if known and len(cards) > 1:
            rng.shuffle(cards)


def _build(observation: SangokushiObservation, holdings: Sequence[Places], deck: list[int],
           chance: random.Random) -> SangokushiState:
    """The state with every field from the observation and the cards as dealt."""
    game, n, battle, table = observation.game, len(observation.hand_counts), observation.battle, observation.table
    first = (observation.turn_player - (table.turns - 1)) % n  # each turn passes to the next seat
    state = SangokushiState(game, chance, n, list(range(len(game.generals))), table.starts, first)
    state.deck, state.pool, state.removed = deck, list(observation.pool), list(observation.removed)
    state.hands = [places[HAND] for places in holdings]
    state.used = [list(observation.used) if seat == observation.seat else places[USED] + places[ELIGIBLE]
                  for seat, places in enumerate(holdings)]
    state.owner, state.points = list(observation.owners), list(observation.points)
    state.turn_player, state.player, state.phase = observation.turn_player, table.player, observation.phase
    state.turns, state.passes_in_row, state.pending = table.turns, table.passes_in_row, observation.pending
    state.spent_owner = table.spent_owner
    state.spent = holdings[table.spent_owner][SPENT] if table.spent_owner >= 0 else []
    state.eligible = holdings[table.player][ELIGIBLE] if observation.phase == RESTORE_P else []
    state.area, state.captured, state.shed_seat = table.area, list(table.captured), table.shed_seat
    state.winner = table.player if observation.phase == CAPTURE_P else -1
    if battle is not None:
        state.seats = [battle.attacker, battle.defender]
        state.revealed, state.method = battle.revealed, battle.method
        if battle.revealed:
            state.sides = [list(battle.attack_cards), list(battle.defend_cards)]
            state.up = [[c for c in battle.face_up if c in side] for side in state.sides]
        else:  # only the attacker's cards are down before the reveal (the defender's are still `spent`)
            state.sides = [holdings[battle.attacker][SIDE], []]
        if observation.phase == DAMAGE_P:
            state.damage, state.damaged = battle.damage, state.seats.index(table.player)
    state.dead_lords = state.counts["lord_deaths"] = observation.dead_lords
    state.known = [dict(known) for known in table.known]
    state.known_view = table.known
    return state
