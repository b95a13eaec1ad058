"""人材登用 (jinzai) greedy heuristic: one-ply value of the own public tiles, judged from the observation only.

Picks, trickster placements, acquisitions and effects take the action that raises the own total most
(a gift also counts what it costs the receiver). Bids weigh what the pool would add against what the
bid tile's column loses, and bid to win the pool when it is worth having.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...engine.api import Action
from .rules import (BID_HAND, BID_PUBLIC, GIVE, PICK, ROTATE, STAR, STAR_TAKE, TAKE_BID, TAKE_POOL,
                                  decode)
from .scoring import STAR as STAR_KIND

Columns = list[list[int]]


def _cols(obs: Any, seat: int) -> Columns:
    return [list(col) for col in obs.columns[seat]]


def _value(obs: Any, cols: Columns) -> float:
    scoring = obs.game.scoring
    return scoring.total(cols) + 3 * scoring.set_vp(cols)


def _add(cols: Columns, kinds: Sequence[int]) -> Columns:
    """Columns after adding tiles, each trickster on the column where it helps most."""
    out = [list(col) for col in cols]
    for kind in sorted(kinds, key=lambda k: k == STAR_KIND):
        if kind != STAR_KIND:
            out[kind - 1].append(kind)
    return out


def _best_star(obs: Any, cols: Columns) -> float:
    filled = [c for c, col in enumerate(cols) if col] or list(range(len(cols)))
    return max(_value(obs, [col + [STAR_KIND] if i == c else col for i, col in enumerate(cols)])
               for c in filled)


def _gain(obs: Any, cols: Columns, kinds: Sequence[int]) -> float:
    after = _add(cols, kinds)
    stars = sum(1 for k in kinds if k == STAR_KIND)
    value = _best_star(obs, after) if stars else _value(obs, after)
    return value - _value(obs, cols)


def _bid_value(obs: Any, action: Action, pool_gain: float) -> float:
    kind, x, y = decode(action)
    cols = _cols(obs, obs.seat)
    if kind == BID_PUBLIC:
        before = _value(obs, cols)
        put = cols[x].pop()
        loss = _gain(obs, cols, [y]) + _value(obs, cols) - before  # the top tile leaves, the hand tile joins
    else:
        loss, put = 0.0, x
    value = loss
    out = [b for b in obs.bids if b >= 0]
    side_bun = obs.pool_side == 0
    if put == STAR_KIND:
        value += max((_gain(obs, cols, [k]) for k in set(obs.pool)), default=0.0)
    elif put == 2:
        value += 0.6 * pool_gain
    else:
        numbered = [b for b in out if b not in (STAR_KIND, 2)]
        beats = all(put > b if side_bun else put < b for b in numbered)
        strength = put / 7 if side_bun else (8 - put) / 7
        odds = 1.0 if beats and obs.bidders_left <= 1 else (strength if beats else 0.1)
        value += odds * pool_gain
    if put == 3:
        value += 1.0
    return value


def _effect_value(obs: Any, action: Action) -> float:
    kind, x, y = decode(action)
    seat = obs.seat
    mine = _cols(obs, seat)
    if kind == STAR_TAKE:
        return _gain(obs, mine, [x])
    if kind == GIVE:
        tile = mine[x].pop()
        theirs = _cols(obs, y)
        return _value(obs, mine) - _value(obs, _cols(obs, seat)) - _gain(obs, theirs, [tile])
    # ROTATE: compute the own column after the rotation
    number, direction = x, (1 if y == 0 else -1)
    n = len(obs.columns)
    holders = [s for s in range(n) if number in obs.columns[s][number - 1]]
    ordered = sorted(holders, reverse=direction < 0)
    after = [list(col) for col in mine]
    keep = [k for k in mine[number - 1] if k != number]
    incoming: list[int] = []
    for i, s in enumerate(ordered):
        if ordered[(i + 1) % len(ordered)] == seat:
            incoming = [k for k in obs.columns[s][number - 1] if k == number]
    after[number - 1] = keep + incoming if seat in holders else mine[number - 1]
    return _value(obs, after) - _value(obs, mine)


def choose(obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """The legal action with the best one-ply value (ties broken at random)."""
    kind = decode(legal[0])[0]
    cols = _cols(obs, obs.seat)
    if kind == PICK:
        cols = _add(cols, list(obs.picked))
        values = [_gain(obs, cols, [decode(a)[1]]) for a in legal]
    elif kind == STAR:
        sign = 1 if obs.star_owner == obs.seat else -1  # a given trickster: place it where it hurts
        cols = _cols(obs, obs.star_owner)
        values = [sign * _value(obs, [col + [STAR_KIND] if i == decode(a)[1] else col for i, col in enumerate(cols)])
                  for a in legal]
    elif kind in (BID_HAND, BID_PUBLIC):
        pool_gain = _gain(obs, cols, list(obs.pool)) if obs.pool else 0.0
        values = [_bid_value(obs, a, max(pool_gain, 0.0)) for a in legal]
    elif kind in (TAKE_POOL, TAKE_BID):
        values = [_gain(obs, cols, list(obs.pool) if decode(a)[0] == TAKE_POOL else [obs.bids[decode(a)[1]]])
                  for a in legal]
    elif kind in (STAR_TAKE, GIVE, ROTATE):
        values = [_effect_value(obs, a) for a in legal]
    else:
        return rng.choice(list(legal))
    best = max(values)
    return rng.choice([a for a, v in zip(legal, values) if v >= best - 1e-9])
