"""漢字と家紋の戦国武将 (sengoku): a whole game state built from one seat's observation, for a search that may not peek.

What the seat has seen stays as it is: its own hand, every name laid out, the discard pile in order (the
live card on top), the hand sizes, the pile's size, riichi flags, who has gone out, whose turn it is, who
discarded the live card, the steals and names counted. What it has not seen — the other hands and the
order of the draw pile — is dealt anew at random from the cards not in sight, in the same numbers. The
state keeps no generator: the pile's order is its only chance, so a new order is a new future.

Cards of one type are the same card in play (clarification "identical-cards"), and the observation gives
types, so a seen card gets the lowest free id of its type, in a fixed order: the ids follow from the
observation alone, and two positions that differ only in which copy lies where deal alike.

The deal is uniform over the hands the public rules allow, by rejection: in the base rule a seat that has
drawn or stolen laid out every name it held and holds none since (`clean`); in the riichi variant a seat
at rest without riichi is not one card from complete (the check after each of its discards and on the
deal). Only those seats' hands are drawn and tested, whole deals rejected until all pass, then the rest
is shuffled into the other hands and the pile; a draw stays uniform whatever order the pool is in, so
no reset is needed between tries. What the rules leave open is not inferred: no weighting by what the
seats chose to discard or pass (their policies are unknown), nor what a riichi seat's hand was when it
declared. Rejection is cheap here (nine greedy seats: 15 hands drawn per deal on average, 55 at most).
Should whole deals fail MAX_TRIES times (never seen), each tested seat is drawn on its own in turn —
near-uniform — and a seat that still cannot be dealt a hand the rules allow keeps its last draw, marked
unchecked (base: not `clean`), so the engine lays its names out on its next draw.

The observing seat must be the one to decide (as in the mcts search): its hand is the only one a
decision is built from, so the pending choices are its own, exactly as the real state lists them.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ...engine.chance import shuffle
from .names import NameTable
from .rules import DISCARD, PASS_ACTION, REVEAL, STEAL, SengokuObservation, encode
from .state import SengokuGame, SengokuState

MAX_TRIES = 2_000  # whole deals tried before the seats that are tested are drawn one by one

Test = Callable[[Sequence[int]], bool]  # the cards (ids) of a hand -> whether the rules allow it there


def determinize(observation: SengokuObservation, rng: random.Random) -> SengokuState:
    """A state the observing seat cannot tell from the real one, its unseen cards dealt at random."""
    obs, game = observation, observation.game
    table, me, num_players = game.table, observation.seat, len(observation.hand_sizes)
    if obs.phase not in (DISCARD, REVEAL, STEAL):
        raise ValueError(f"sengoku: no decision to deal for (phase {obs.phase})")
    free = [ids[::-1] for ids in _ids_by_type(table)]  # popped from the end: lowest id first
    hand = _take(free, obs.hand)
    shown_cards = [_take(free, [t for w in names for t in table.names[w]]) for names in obs.shown]
    discards = _take(free, obs.discards)
    unseen = [card for ids in free for card in reversed(ids)]
    sizes = [0 if seat == me else size for seat, size in enumerate(obs.hand_sizes)]
    if len(unseen) != obs.pile + sum(sizes):
        raise ValueError(f"sengoku: {len(unseen)} cards unseen for {sum(sizes)} in hands and a pile of {obs.pile}")
    tests = _tests(obs, table)
    hands, pile, unchecked = _deal(unseen, sizes, tests, rng)
    hands[me] = hand
    state = SengokuState(game, list(range(len(table.type_of))), num_players, obs.first_player)
    state.set_cards(hands, pile, discards, shown_cards)
    state.shown = [list(names) for names in obs.shown]
    state.clean = [clean and seat not in unchecked for seat, clean in enumerate(obs.clean)]
    state.riichi, state.zero_order = list(obs.riichi), list(obs.zero_order)
    state.first_player, state.turn_player = obs.first_player, obs.turn_player
    state.turns = len(table.type_of) - num_players * game.rules.hand_size - obs.pile
    state.counts_ = _counters(game, obs)
    state.end_reason = ""
    _pend(state, obs, discards)
    return state


def _ids_by_type(table: NameTable) -> list[list[int]]:
    """type -> its card ids, lowest first."""
    ids: list[list[int]] = [[] for _ in range(table.num_types)]
    for card, t in enumerate(table.type_of):
        ids[t].append(card)
    return ids


def _take(free: list[list[int]], types: Sequence[int]) -> list[int]:
    """A free id of each type, in order; ValueError when the observation shows more copies than exist."""
    try:
        return [free[t].pop() for t in types]
    except IndexError:
        raise ValueError("sengoku: the observation shows more cards of a type than the deck holds") from None


def _tests(obs: SengokuObservation, table: NameTable) -> dict[int, Test]:
    """seat -> what its hidden hand must pass, for the seats public play tells something about."""
    type_of = table.type_of
    if obs.game.rules.variant == "riichi":
        def not_ready(cards: Sequence[int]) -> bool:
            return not table.is_ready(tuple(sorted([type_of[c] for c in cards])))
        return {seat: not_ready for seat, size in enumerate(obs.hand_sizes)
                if seat != obs.seat and size and not obs.riichi[seat]}

    def no_name(cards: Sequence[int]) -> bool:
        return not _holds_name(table, [type_of[c] for c in cards])
    return {seat: no_name for seat, size in enumerate(obs.hand_sizes)
            if seat != obs.seat and size and obs.clean[seat]}


def _holds_name(table: NameTable, types: Sequence[int]) -> bool:
    """Some name's three cards are among `types` (every name has one surname card: start from those)."""
    held = [0] * table.num_types
    for t in types:
        held[t] += 1
    surnames, completers = table.surname_types, table.completers
    return any(held[a] and held[b] > (a == b) for t in set(types) if t in surnames for _, a, b in completers[t])


def _deal(unseen: list[int], sizes: Sequence[int], tests: dict[int, Test],
          rng: random.Random) -> tuple[list[list[int]], list[int], set[int]]:
    """(hands, pile, seats left unchecked): the tested seats' hands first (whole deals, else seat by seat),
    then the other hands and the pile from the rest, shuffled."""
    pool, unchecked = unseen[:], set()  # type: list[int], set[int]
    blocks = _joint(pool, sizes, tests, rng)
    if blocks is None:
        blocks, unchecked = _one_by_one(pool, sizes, tests, rng)
    hands: list[list[int]] = [[] for _ in sizes]
    end = len(pool)
    for seat, (start, stop) in blocks.items():
        hands[seat], end = pool[start:stop], min(end, start)
    rest = pool[:end]
    shuffle(rng, rest)
    for seat, size in enumerate(sizes):
        if seat not in blocks:
            hands[seat], rest = rest[:size], rest[size:]
    return hands, rest, unchecked


def _draw(pool: list[int], count: int, end: int, rng: random.Random) -> int:
    """Move `count` cards drawn uniformly from pool[:end] to pool[end - count:end]; returns end - count."""
    for _ in range(count):
        j = int(rng.random() * end)
        end -= 1
        pool[j], pool[end] = pool[end], pool[j]
    return end


def _joint(pool: list[int], sizes: Sequence[int], tests: dict[int, Test],
           rng: random.Random) -> dict[int, tuple[int, int]] | None:
    """seat -> the slice of `pool` holding its hand, every tested hand passing; None after MAX_TRIES deals."""
    for _ in range(MAX_TRIES):
        blocks: dict[int, tuple[int, int]] = {}
        end = len(pool)
        for seat, test in tests.items():
            start = _draw(pool, sizes[seat], end, rng)
            if not test(pool[start:end]):
                break
            blocks[seat], end = (start, end), start
        else:
            return blocks
    return None


def _one_by_one(pool: list[int], sizes: Sequence[int], tests: dict[int, Test],
                rng: random.Random) -> tuple[dict[int, tuple[int, int]], set[int]]:
    """The fallback: each tested seat drawn until it passes, in turn; the seats that never did."""
    blocks: dict[int, tuple[int, int]] = {}
    unchecked: set[int] = set()
    end = len(pool)
    for seat, test in tests.items():
        for _ in range(MAX_TRIES):
            start = _draw(pool, sizes[seat], end, rng)
            if test(pool[start:end]):
                break
        else:
            unchecked.add(seat)
        blocks[seat], end = (start, end), start
    return blocks, unchecked


def _counters(game: SengokuGame, obs: SengokuObservation) -> dict[str, int]:
    """The game's counters so far, all public: names laid out (per seat), steals, riichi, seats gone out."""
    seating = game.seating(len(obs.hand_sizes))
    counts = dict(seating.counters)
    for seat, names in enumerate(obs.shown):
        counts[seating.names_key[seat]] = len(names)
    counts["names"] = sum(len(names) for names in obs.shown)
    counts["steals"], counts["riichi"], counts["emptied"] = obs.steals, sum(obs.riichi), int(bool(obs.zero_order))
    return counts


def _pend(state: SengokuState, obs: SengokuObservation, discards: list[int]) -> None:
    """Put the seat's own decision pending, its choices listed as the engine lists them."""
    me, game = obs.seat, obs.game
    held = state.counts[me]
    state.live, state.discarder, state.candidates = -1, obs.discarder, []
    if obs.phase != STEAL and obs.hand_sizes[me] % 3 != 1:
        raise ValueError(f"sengoku: seat {me} holds {obs.hand_sizes[me]} cards: the turn is another seat's")
    if obs.phase == DISCARD:
        state.phase, state.player, state._legal = DISCARD, me, None
        return
    if obs.phase == REVEAL:  # every name the hand completes, one per card set, as the engine lists them
        names = sorted(encode(REVEAL, w) for t in state.distinct[me] if game.is_surname[t]
                       for w, a, b in game.table.completers[t] if held[a] and held[b] and (a != b or held[a] > 1))
        if not names:
            raise ValueError(f"sengoku: seat {me} completes no name to lay out")
        state.phase, state.player, state._legal = REVEAL, me, names
        return
    if obs.live < 0 or obs.discarder < 0 or not discards:
        raise ValueError("sengoku: a steal window without a live discard")
    state.live = discards[-1]
    completions = game.steal_names[obs.live]
    asked: list[tuple[int, list[int]]] = []  # the seats after the discarder able to steal, in the engine's order
    for seat in game.seating(len(obs.hand_sizes)).after[obs.discarder]:
        counts = state.counts[seat]
        steals = [encode(STEAL, w) for w, a, b, d in completions if counts[a] and counts[b] > d]
        if steals:
            asked.append((seat, steals))
    seats = [seat for seat, _ in asked]
    if me not in seats:
        raise ValueError(f"sengoku: seat {me} cannot steal the live discard")
    at = seats.index(me)
    state.candidates = asked[at + 1:]  # the seats before it have passed
    state.phase, state.player, state._legal = STEAL, me, [*asked[at][1], PASS_ACTION]
