"""漢字と家紋の戦国武将 (sengoku) greedy heuristic: keep the cards of reachable names, always steal.

Judged from the observation only: its own hand, the names laid out, the discard pile. A hand is worth
its completed names (hidden ones in the riichi variant), then its partial names — two cards of a name
much more than one — counting only names whose missing cards are not all in sight. Fewer crests on
the given-name cards held break ties (the tie-break at the end prefers fewer crests).
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from ...engine.api import Action
from .names import NameTable
from .rules import DISCARD, REVEAL, STEAL, SengokuObservation, decode

NAME, PAIR, SINGLE, CREST = 1000.0, 10.0, 1.0, 0.01


def _unseen(obs: SengokuObservation) -> list[int]:
    """Cards of each type not in sight (in other hands or the draw pile)."""
    table = obs.game.table
    unseen = list(table.copies)
    for t in obs.hand:
        unseen[t] -= 1
    for t in obs.discards:
        unseen[t] -= 1
    for names in obs.shown:
        for w in names:
            for t in table.names[w]:
                unseen[t] -= 1
    return unseen


Shape = tuple[tuple[int, int], ...]  # a name's distinct types, each with its copies in the name
_SHAPES: dict[int, tuple[NameTable, tuple[tuple[Shape, ...], ...]]] = {}


def _shapes(table: NameTable) -> tuple[tuple[Shape, ...], ...]:
    """type -> the distinct card sets of the names using it, each as (type, copies in the name) pairs."""
    known = _SHAPES.get(id(table))
    if known is None or known[0] is not table:
        touching: list[list[Shape]] = [[] for _ in table.type_label]
        for name in sorted(set(table.names)):
            shape = tuple((u, name.count(u)) for u in sorted(set(name)))
            for u, _ in shape:
                touching[u].append(shape)
        known = _SHAPES[id(table)] = (table, tuple(tuple(t) for t in touching))
    return known[1]


def hand_value(table: NameTable, hand: tuple[int, ...], unseen: Sequence[int]) -> float:
    """Completed names, then reachable partial names, less a little per crest held."""
    counts: dict[int, int] = {}
    for t in hand:
        counts[t] = counts.get(t, 0) + 1
    touching = _shapes(table)
    seen: set[Shape] = set()
    pairs = singles = 0
    for t in counts:
        for shape in touching[t]:
            if shape in seen:
                continue
            seen.add(shape)
            have, reachable = 0, True
            for u, copies in shape:
                held = counts.get(u, 0)
                if held >= copies:
                    have += copies
                else:
                    have += held
                    if unseen[u] <= 0:  # a card still missing, and none left to come
                        reachable = False
            if reachable and have < 3:
                if have == 2:
                    pairs += 1
                else:
                    singles += 1
    value = NAME * table.packing(hand) + (PAIR * pairs + SINGLE * singles)  # whole numbers: exact in any order
    return value - CREST * sum(table.crests[t] for t in hand)


def _without(hand: tuple[int, ...], types: Sequence[int]) -> tuple[int, ...]:
    rest = list(hand)
    for t in types:
        rest.remove(t)
    return tuple(rest)


def choose(obs: SengokuObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """Steal whenever possible; lay out / discard to keep the most valuable hand (ties at random)."""
    table = obs.game.table
    unseen = _unseen(obs)
    kind = decode(legal[0])[0]
    options: list[Action] = list(legal)
    if kind == STEAL:
        options = [a for a in legal if decode(a)[0] == STEAL]  # always steal when legal
        after = [_without(obs.hand + (obs.live,), table.names[decode(a)[1]]) for a in options]
    elif kind == REVEAL:
        after = [_without(obs.hand, table.names[decode(a)[1]]) for a in options]
    elif kind == DISCARD:
        after = [_without(obs.hand, (decode(a)[1],)) for a in options]
    else:
        return rng.choice(options)
    values = [hand_value(table, tuple(sorted(h)), unseen) for h in after]
    best = max(values)
    return rng.choice([a for a, v in zip(options, values) if v >= best - 1e-9])
