"""漢字と家紋の戦国武将 (sengoku) greedy heuristic: keep the cards of reachable names, always steal.

Judged from the observation only: its own hand, the names laid out, the discard pile. A hand is worth
its completed names (hidden ones in the riichi variant), then its partial names — two cards of a name
much more than one — counting only names whose missing cards are not all in sight. Fewer crests on
the given-name cards held break ties (the tie-break at the end prefers fewer crests).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine.api import Action
from ..games.sengoku_rules import DISCARD, REVEAL, STEAL, decode

NAME, PAIR, SINGLE, CREST = 1000.0, 10.0, 1.0, 0.01


def _unseen(obs: Any) -> list[int]:
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


def hand_value(table: Any, hand: tuple[int, ...], unseen: Sequence[int]) -> float:
    """Completed names, then reachable partial names, less a little per crest held."""
    value = NAME * table.packing(hand)
    counts: dict[int, int] = {}
    for t in hand:
        counts[t] = counts.get(t, 0) + 1
    seen: set[tuple[int, ...]] = set()
    for t in counts:
        for w in table.names_with[t]:
            name = table.names[w]
            if name in seen:
                continue
            seen.add(name)
            have, reachable, left = 0, True, dict(counts)
            for u in name:
                if left.get(u, 0) > 0:
                    left[u] -= 1
                    have += 1
                elif unseen[u] <= 0:
                    reachable = False
            if reachable and have < 3:
                value += PAIR if have == 2 else SINGLE
    return value - CREST * sum(table.crests[t] for t in hand)


def _without(hand: tuple[int, ...], types: Sequence[int]) -> tuple[int, ...]:
    rest = list(hand)
    for t in types:
        rest.remove(t)
    return tuple(rest)


def choose(obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
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
