"""人材登用 (jinzai) greedy heuristic: one-ply value of the own public tiles, judged from the observation only.

Picks, trickster placements, acquisitions and effects take the action that raises the own value most
(a gift also counts what it costs the receiver). Bids weigh what the pool would add against what the
bid tile's column loses, and bid to win the pool when it is worth having.

A seat's value is its total plus 3 x its set VP. Both depend only on each column's counted length, so
values are read from the packed keys of columns.py and memoised per game (the greedy asks for a few
hundred distinct keys, millions of times); placing a trickster on top of a column clears that
column's share of the key, and adding n tiles of a number shifts its stack code by n.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...engine.api import Action
from .columns import ColumnCodes
from .rules import BID_HAND, BID_PUBLIC, CODEC, GIVE, PICK, ROTATE, STAR, STAR_TAKE, TAKE_BID, TAKE_POOL, decode
from .scoring import STAR as STAR_KIND

KIND_SHIFT, SHIFT, MASK = CODEC.kind_shift, CODEC.shift, CODEC.mask


class _Values(dict[int, int]):
    """Packed key -> value (total + 3 * set VP), filled on first use."""

    def __init__(self, codes: ColumnCodes) -> None:
        super().__init__()
        self.codes = codes

    def __missing__(self, key: int) -> int:
        total, set_vp = self.codes.score(key)
        value = self[key] = total + 3 * set_vp
        return value


class _Seat:
    """One seat's columns as the heuristic reads them: stack codes, packed key, mask of non-empty columns."""

    __slots__ = ("codes", "key", "filled")

    def __init__(self, codes: list[int], key: int, filled: int) -> None:
        self.codes, self.key, self.filled = codes, key, filled


class _Judge:
    """The one-ply values of one decision."""

    def __init__(self, obs: Any) -> None:
        self.obs = obs
        self.tables: ColumnCodes = obs.game.codes
        tables, values = self.tables, self.tables.heuristic_values
        if values is None:
            values = tables.heuristic_values = _Values(tables)
        self.values: dict[int, int] = values

    def seat(self, codes: Sequence[int]) -> _Seat:
        filled = 0
        for c, code in enumerate(codes):
            if code > 1:
                filled |= 1 << c
        return _Seat(list(codes), self.tables.key(codes), filled)

    def best_star(self, key: int, filled: int) -> int:
        """The best value with one more trickster on a non-empty column (on any column when none is)."""
        if not filled:
            return self.values[key]  # on an empty column it counts as absent: nothing changes
        values, clear = self.values, self.tables.clear
        return max(values[key & clear[c]] for c in range(filled.bit_length()) if filled >> c & 1)

    def gain(self, seat: _Seat, kind: int) -> int:
        """The value one more tile of `kind` adds (a trickster on its best column)."""
        if kind == STAR_KIND:
            return self.best_star(seat.key, seat.filled) - self.values[seat.key]
        c = kind - 1
        code = seat.codes[c]
        packed = self.tables.packed[c]
        return self.values[seat.key - packed[code] + packed[code << 1]] - self.values[seat.key]

    def gain_many(self, seat: _Seat, counts: Sequence[int]) -> int:
        """The value tiles given as counts per kind add (numbers first, then the tricksters)."""
        key, filled, packed = seat.key, seat.filled, self.tables.packed
        for k in range(1, len(counts)):
            if counts[k]:
                c = k - 1
                code = seat.codes[c]
                key += packed[c][code << counts[k]] - packed[c][code]
                filled |= 1 << c
        after = self.best_star(key, filled) if counts[STAR_KIND] else self.values[key]
        return after - self.values[seat.key]

    def popped(self, seat: _Seat, column: int) -> tuple[_Seat, int]:
        """The seat with its column's top tile taken away, and that tile's kind."""
        code = seat.codes[column]
        codes = list(seat.codes)
        codes[column] = code >> 1
        packed = self.tables.packed[column]
        filled = seat.filled if code >> 1 > 1 else seat.filled & ~(1 << column)
        kind = STAR_KIND if code & 1 else column + 1
        return _Seat(codes, seat.key - packed[code] + packed[code >> 1], filled), kind

    # -- decisions ------------------------------------------------------------------------------
    def bid(self, mine: _Seat, action: Action, pool_gain: float) -> float:
        obs, values = self.obs, self.values
        kind, x, y = action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK
        if kind == BID_PUBLIC:  # the top tile leaves, the hand tile joins
            now, put = self.popped(mine, x)
            loss = float(self.gain(now, y) + values[now.key] - values[mine.key])  # a float compiled too (mypyc)
        else:
            now, loss, put = mine, 0.0, x
        value = loss
        side_bun = obs.pool_side == 0
        if put == STAR_KIND:
            value += max((self.gain(now, k) for k, count in enumerate(obs.pool_counts) if count), default=0.0)
        elif put == 2:
            value += 0.6 * pool_gain
        else:
            numbered = [b for b in obs.bids if b >= 0 and b not in (STAR_KIND, 2)]
            beats = all(put > b if side_bun else put < b for b in numbered)
            strength = put / 7 if side_bun else (8 - put) / 7
            odds = 1.0 if beats and obs.bidders_left <= 1 else (strength if beats else 0.1)
            value += odds * pool_gain
        if put == 3:
            value += 1.0
        return value

    def give(self, mine: _Seat, column: int, target: int) -> int:
        kept, tile = self.popped(mine, column)
        theirs = self.seat(self.obs.codes[target])
        return self.values[kept.key] - self.values[mine.key] - self.gain(theirs, tile)

    def rotate(self, mine: _Seat, number: int, direction: int) -> int:
        """The own value after the rotation minus before (0 when the seat holds no such tile)."""
        obs, numbered, c = self.obs, self.tables.numbered, number - 1
        holders = [s for s, codes in enumerate(obs.codes) if numbered[codes[c]]]
        if obs.seat not in holders:
            return 0
        ordered = sorted(holders, reverse=direction < 0)
        source = ordered[ordered.index(obs.seat) - 1]
        code = mine.codes[c]
        keep = code.bit_length() - 1 - numbered[code]  # own tricksters stay, the source's tiles go on top
        after = ((1 << keep + 1) - 1) << numbered[obs.codes[source][c]]
        packed = self.tables.packed[c]
        return self.values[mine.key - packed[code] + packed[after]] - self.values[mine.key]


def choose(obs: Any, legal: Sequence[Action], rng: random.Random) -> Action:
    """The legal action with the best one-ply value (ties broken at random)."""
    kind = decode(legal[0])[0]
    judge = _Judge(obs)
    values: list[float]
    if kind == PICK:  # own columns are empty during setup: the picks so far, numbers only
        mine = judge.seat([1 << count for count in obs.picked_counts[1:]])
        values = [judge.gain(mine, a >> SHIFT & MASK) for a in legal]
    elif kind == STAR:
        sign = 1 if obs.star_owner == obs.seat else -1  # a given trickster: place it where it hurts
        owner = judge.seat(obs.codes[obs.star_owner])
        clear = judge.tables.clear
        values = [sign * judge.values[owner.key & clear[a >> SHIFT & MASK]] for a in legal]
    elif kind in (BID_HAND, BID_PUBLIC):
        mine = judge.seat(obs.codes[obs.seat])
        pool_gain = max(judge.gain_many(mine, obs.pool_counts) if any(obs.pool_counts) else 0.0, 0.0)
        values = [judge.bid(mine, a, pool_gain) for a in legal]
    elif kind in (TAKE_POOL, TAKE_BID):
        mine = judge.seat(obs.codes[obs.seat])
        values = [judge.gain_many(mine, obs.pool_counts) if a >> KIND_SHIFT == TAKE_POOL
                  else judge.gain(mine, obs.bids[a >> SHIFT & MASK]) for a in legal]
    elif kind == STAR_TAKE:
        mine = judge.seat(obs.codes[obs.seat])
        values = [judge.gain(mine, a >> SHIFT & MASK) for a in legal]
    elif kind == GIVE:
        mine = judge.seat(obs.codes[obs.seat])
        values = [judge.give(mine, a >> SHIFT & MASK, a & MASK) for a in legal]
    elif kind == ROTATE:
        mine = judge.seat(obs.codes[obs.seat])
        values = [judge.rotate(mine, a >> SHIFT & MASK, 1 if a & MASK == 0 else -1) for a in legal]
    else:
        return rng.choice(list(legal))
    best = max(values)
    return rng.choice([a for a, v in zip(legal, values) if v >= best - 1e-9])
