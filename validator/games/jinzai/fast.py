"""Fast jinzai playouts: a whole match in one tight loop over small ints, for simulate() without invariant checks.

The same rules as jinzai.JinzaiState and the same decisions as the random and greedy policies. Only
a tile's kind matters to the rules and to the policies, so hands and the pool are counts per kind
(with a bit mask of the kinds held) and a column is one int, a stack code: 1 for empty, each tile
pushed as one bit (1 for a trickster) below the previous ones, so the top is bit 0. Precomputed
tables give a code's length, whether it counts and what remains after a pop; a seat's set of columns
for scoring is a packed key of counted lengths, 4 bits per column, whose value is memoised (the
greedy's one-ply values and the final scores both read it). Legal actions are counted and ordered
exactly as JinzaiState.legal_actions() lists them: a random seat indexes into that order without
building the list, a greedy seat gets the values jinzai_greedy would compute, in the same float
operations, and breaks ties with the same call on the same generator. The pool's space comes from
JinzaiGame.side_for itself (memoised per pool), so that rule is never restated here. Every chance draw comes from
the same generator in the same order, so a match's record equals the API engine's, seed for seed
(tests/validator/games/test_jinzai_fast.py). Runs with invariant checks keep using the API engine.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...engine.api import Seat
from ...engine.playout import GREEDY, RANDOM, seat_kinds
from . import policies as jinzai_greedy
from .state import END_MAX_GAMES, END_VP, SIDE_BU, SIDE_BUN, JinzaiGame
from .rules import BID_HAND, BID_PUBLIC, GIVE, PICK, ROTATE, STAR, STAR_TAKE, TAKE_BID, TAKE_POOL
from .scoring import BUN, STAR as STAR_KIND

END_CAP = "cap"  # as validator.simulate.END_CAP (not imported: the harness imports this module)
BITS = 4  # bits per column in a packed key of counted lengths

# A match's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


class _Memo(dict):  # type: ignore[type-arg]
    """A dict that fills a missing key from a function of it (plain subscription on hits)."""

    def __init__(self, fill: Any) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, key: int) -> int:
        value = self[key] = self.fill(key)
        return value


class _Capped(Exception):
    """The step cap was reached before a decision."""


def fast_playout(game: JinzaiGame, policies: Sequence[Any]) -> FastJinzai | None:
    """The fast player for these seats' policies, or None when some seat or the tile table needs the API engine."""
    kinds = seat_kinds(policies, jinzai_greedy.choose)
    if kinds is None or not game.min_players <= len(kinds) <= game.max_players:
        return None
    table = game.table
    stars = table.kinds.count(STAR_KIND)
    longest = max(table.kinds.count(k) for k in range(1, table.columns + 1)) + stars
    if table.columns > 7 or longest >= 1 << BITS:  # kind masks are bytes; counted lengths fit in BITS
        return None
    return FastJinzai(game, kinds)


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


class FastJinzai:
    """Plays whole jinzai matches for fixed seat kinds (RANDOM/GREEDY) and returns their record fields."""

    def __init__(self, game: JinzaiGame, kinds: tuple[int, ...]) -> None:
        table, rules, scoring = game.table, game.rules, game.scoring
        self.game, self.n = game, len(kinds)
        self.randoms = tuple(kind == RANDOM for kind in kinds)
        self.columns = columns = table.columns
        self.deck = tuple(table.kinds[t] for t in game.tiles_for(self.n))  # kinds in tile-id order
        self.kind_list = tuple(_bits(mask) for mask in range(256))  # mask -> kinds (or columns) it holds
        stars = table.kinds.count(STAR_KIND)
        longest = max(table.kinds.count(k) for k in range(1, columns + 1)) + stars + 1  # greedy adds one
        size = 1 << (longest + 1)
        # Stack codes: length, counted length (0 when empty or topped by a trickster), numbered tiles.
        length = [code.bit_length() - 1 for code in range(size)]
        self.counted = counted = tuple(0 if code <= 1 or code & 1 else length[code] for code in range(size))
        self.numbered = tuple(length[code] - bin(code).count("1") + 1 if code else 0 for code in range(size))
        self.packed = tuple(tuple(counted[code] << BITS * c for code in range(size)) for c in range(columns))
        self.clear = tuple(~((1 << BITS) - 1 << BITS * c) for c in range(columns))
        self.bun_columns = tuple(n - 1 for n in range(1, columns + 1) if table.type_of[n] == BUN)
        self.sides: dict[tuple[int, ...], int] = {}  # pool counts per kind -> JinzaiGame.side_for
        # Judging order keys per side and kind: 文 space high first, 武 space low first, * after numbers.
        self.rank_key = tuple(tuple(100 if k == STAR_KIND else (-k if side == SIDE_BUN else k)
                                    for k in range(columns + 1)) for side in (SIDE_BUN, SIDE_BU))
        self.awards = scoring.rank_vp[self.n]
        self.values = _Memo(self._value_of)           # packed key -> greedy value (total + 3 * set VP)
        self.scores: dict[int, tuple[int, int]] = {}  # packed key -> (total, set VP)
        self.best_stars: dict[int, int] = {}          # packed key and filled mask -> best trickster value
        self.hand_size, self.setup_picks, self.rounds = rules.hand_size, rules.public_at_setup, rules.rounds
        self.pool_size, self.vp_to_win, self.max_games = rules.pool_size, rules.vp_to_win, rules.max_games

    def side_for(self, pool: Sequence[int]) -> int:
        """The pool space of a pool given as counts per kind: the engine's own rule, memoised."""
        key = tuple(pool)
        side = self.sides.get(key)
        if side is None:
            side = self.sides[key] = self.game.side_for([k for k, count in enumerate(pool) for _ in range(count)])
        return side

    # -- packed keys ----------------------------------------------------------------------------
    def score(self, key: int) -> tuple[int, int]:
        """(total, set VP) of a seat whose counted column lengths are packed in `key` (memoised)."""
        found = self.scores.get(key)
        if found is None:
            scoring = self.game.scoring
            cols = [[c + 1] * (key >> BITS * c & (1 << BITS) - 1) for c in range(self.columns)]
            found = self.scores[key] = (scoring.total(cols), scoring.set_vp(cols))
        return found

    def value(self, key: int) -> int:
        """jinzai_greedy._value of those columns: total + 3 * set VP (memoised in self.values)."""
        return self.values[key]

    def _value_of(self, key: int) -> int:
        total, vp = self.score(key)
        return total + 3 * vp

    def key_of(self, codes: Sequence[int]) -> int:
        packed = self.packed
        key = 0
        for c, code in enumerate(codes):
            key += packed[c][code]
        return key

    def best_star(self, key: int, filled: int) -> int:
        """jinzai_greedy._best_star: the best value with one more trickster on a filled column (any if none)."""
        memo = (key << 8) | filled
        found = self.best_stars.get(memo)
        if found is None:
            value, clear = self.value, self.clear
            found = value(key) if not filled else max(value(key & clear[c]) for c in self.kind_list[filled])
            self.best_stars[memo] = found
        return found

    def gain(self, codes: Sequence[int], key: int, filled: int, kind: int) -> int:
        """jinzai_greedy._gain for one tile."""
        if kind == STAR_KIND:
            return self.best_star(key, filled) - self.value(key)
        c = kind - 1
        code = codes[c]
        packed = self.packed[c]
        values = self.values
        return values[key - packed[code] + packed[code << 1]] - values[key]

    def gain_many(self, codes: Sequence[int], key: int, filled: int, counts: Sequence[int]) -> int:
        """jinzai_greedy._gain for tiles given as counts per kind (the pool)."""
        before = key
        packed = self.packed
        for k in range(1, len(counts)):
            if counts[k]:
                c = k - 1
                code = codes[c]
                key += packed[c][code << counts[k]] - packed[c][code]
                filled |= 1 << c
        if counts[STAR_KIND]:
            return self.best_star(key, filled) - self.value(before)
        return self.value(key) - self.value(before)

    # -- greedy decisions (jinzai_greedy.choose, value for value) ---------------------------------
    def _pick(self, choice: random.Random, options: Sequence[int], picked: Sequence[int]) -> int:
        codes = [1 << picked[c + 1] for c in range(self.columns)]  # own columns are empty during setup
        key = self.key_of(codes)
        filled = 0
        for c in range(self.columns):
            if picked[c + 1]:
                filled |= 1 << c
        gain = self.gain
        return _best(choice, [gain(codes, key, filled, k) for k in options])

    def _star(self, choice: random.Random, options: Sequence[int], codes: Sequence[int], sign: int) -> int:
        key, value, clear = self.key_of(codes), self.value, self.clear
        return _best(choice, [sign * value(key & clear[c]) for c in options])

    def _take(self, choice: random.Random, codes: Sequence[int], filled: int, pool: Sequence[int] | None,
              bid_kinds: Sequence[int]) -> int:
        key = self.key_of(codes)
        values = [] if pool is None else [self.gain_many(codes, key, filled, pool)]
        gain = self.gain
        values += [gain(codes, key, filled, k) for k in bid_kinds]
        return _best(choice, values)

    def _bid(self, choice: random.Random, fresh: Sequence[int], hand: Sequence[int], columns: Sequence[int],
             codes: Sequence[int],
             filled: int, pool: Sequence[int], pool_kinds: Sequence[int], pool_size: int, bids: Sequence[int],
             side: int, bidders_left: int) -> int:
        """Values of BID_HAND over `fresh` then BID_PUBLIC over `columns` x `hand` (jinzai_greedy._bid_value)."""
        key = self.key_of(codes)
        value, gain, packed = self.value, self.gain, self.packed
        pool_gain: float = self.gain_many(codes, key, filled, pool) if pool_size else 0.0
        pool_gain = max(pool_gain, 0.0)
        numbered = [b for b in bids if b >= 0 and b not in (STAR_KIND, 2)]
        side_bun = side == SIDE_BUN
        values = []
        for c in (-1, *columns):
            if c >= 0:
                code = codes[c]
                before = value(key)
                put = STAR_KIND if code & 1 else c + 1
                popped = code >> 1
                popped_key = key - packed[c][code] + packed[c][popped]
                popped_filled = filled if popped > 1 else filled & ~(1 << c)
                popped_codes = list(codes)
                popped_codes[c] = popped
                base = value(popped_key)
            for x in (fresh if c < 0 else hand):
                if c < 0:
                    loss: float = 0.0
                    put, now_codes, now_key, now_filled = x, codes, key, filled
                else:
                    loss = gain(popped_codes, popped_key, popped_filled, x) + base - before
                    now_codes, now_key, now_filled = popped_codes, popped_key, popped_filled
                v = loss
                if put == STAR_KIND:
                    v += max((gain(now_codes, now_key, now_filled, k) for k in pool_kinds), default=0.0)
                elif put == 2:
                    v += 0.6 * pool_gain
                else:
                    beats = all(put > b if side_bun else put < b for b in numbered)
                    strength = put / 7 if side_bun else (8 - put) / 7
                    odds = 1.0 if beats and bidders_left <= 1 else (strength if beats else 0.1)
                    v += odds * pool_gain
                if put == 3:
                    v += 1.0
                values.append(v)
        return _best(choice, values)

    def _give(self, choice: random.Random, seat: Seat, cols: list[list[int]], filled: Sequence[int]) -> int:
        """GIVE over own non-empty columns x the other seats, in legal order."""
        mine = cols[seat]
        key = self.key_of(mine)
        value, packed, gain = self.value, self.packed, self.gain
        keys = [self.key_of(codes) for codes in cols]
        values = []
        for c in self.kind_list[filled[seat]]:
            code = mine[c]
            tile = STAR_KIND if code & 1 else c + 1
            kept = value(key - packed[c][code] + packed[c][code >> 1]) - value(key)
            for target in range(self.n):
                if target != seat:
                    values.append(kept - gain(cols[target], keys[target], filled[target], tile))
        return _best(choice, values)

    def _rotate(self, choice: random.Random, seat: Seat, cols: list[list[int]], numbers: Sequence[int]) -> int:
        """ROTATE over the rotatable numbers x both directions: own value after the rotation minus before."""
        numbered, key = self.numbered, self.key_of(cols[seat])
        values = []
        for number in numbers:
            c = number - 1
            holders = [s for s in range(self.n) if numbered[cols[s][c]]]
            for direction in (1, -1):
                if seat not in holders:
                    values.append(0)
                    continue
                ordered = sorted(holders, reverse=direction < 0)
                source = ordered[ordered.index(seat) - 1]
                code = cols[seat][c]
                keep = self.length_of(code) - numbered[code]
                after = (1 << keep + 1) - 1 << numbered[cols[source][c]]
                packed = self.packed[c]
                values.append(self.value(key - packed[code] + packed[after]) - self.value(key))
        return _best(choice, values)

    @staticmethod
    def length_of(code: int) -> int:
        return code.bit_length() - 1

    # -- a whole match ----------------------------------------------------------------------------
    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        """One match from the first deal to the winning VP (or the step cap), as validator.simulate.play_game
        plays JinzaiState: the same decisions in the same order, the same draws from both generators."""
        n, randoms, rand, kind_list = self.n, self.randoms, choice.random, self.kind_list
        columns, numbered, packed = self.columns, self.numbered, self.packed
        picks, hand_size, pool_size = self.setup_picks, self.hand_size, self.pool_size
        all_columns = tuple(range(columns))
        others = tuple(tuple(t for t in range(n) if t != s) for s in range(n))
        start = chance.randrange(n) if first_player is None else first_player  # JinzaiGame.new_initial_state
        deal_rng = chance  # JinzaiState shuffles with the harness's chance generator itself
        first = start
        counts = [0] * len(self.game.action_kinds)
        vp = [0] * n
        last_totals: list[int] = []
        steps = single = turns = games = 0
        forced = gifts = pool_taken = rotations = second = 0
        cols = [[1] * columns for _ in range(n)]  # stack codes per seat and column
        filled = [0] * n                          # per seat: mask of non-empty columns
        star_top = [0] * n                        # per seat: mask of columns topped by a trickster

        def place_star(chooser: Seat, owner: Seat) -> None:
            """A pending trickster: the chooser puts it on a non-empty column of the owner's (any if none)."""
            nonlocal steps, single
            options = kind_list[filled[owner]] or all_columns
            if steps == step_cap:
                raise _Capped
            steps += 1
            if len(options) < 2:
                single += 1
            if randoms[chooser]:
                c = options[int(rand() * len(options))]
            else:
                c = options[self._star(choice, options, cols[owner], 1 if chooser == owner else -1)]
            cols[owner][c] = cols[owner][c] << 1 | 1
            filled[owner] |= 1 << c
            star_top[owner] |= 1 << c
            counts[STAR] += 1

        end = ""
        try:
            while True:  # one game (JinzaiState._deal ... _score_game)
                tiles = list(self.deck)
                deal_rng.shuffle(tiles)
                hands = [[0] * (columns + 1) for _ in range(n)]  # counts per kind
                held = [0] * n                                   # masks of the kinds held
                for s in range(n):
                    hand = hands[s]
                    for _ in range(hand_size):
                        k = tiles.pop()
                        hand[k] += 1
                        held[s] |= 1 << k
                pool = [0] * (columns + 1)
                pool_mask = 0
                for _ in range(pool_size):
                    k = tiles.pop()
                    pool[k] += 1
                    pool_mask |= 1 << k
                pool_count = pool_size
                for s in range(n):
                    cols[s] = [1] * columns
                    filled[s] = star_top[s] = 0

                # Hidden setup picks, start player first, then revealed together.
                picked = [[0] * (columns + 1) for _ in range(n)]
                for i in range(n * picks):
                    seat = (start + i // picks) % n
                    options = kind_list[held[seat]]
                    if steps == step_cap:
                        raise _Capped
                    steps += 1
                    if len(options) < 2:
                        single += 1
                    if randoms[seat]:
                        k = options[int(rand() * len(options))]
                    else:
                        k = options[self._pick(choice, options, picked[seat])]
                    counts[PICK] += 1
                    hand = hands[seat]
                    hand[k] -= 1
                    if not hand[k]:
                        held[seat] &= ~(1 << k)
                    picked[seat][k] += 1
                for offset in range(n):
                    seat = (start + offset) % n
                    mine = picked[seat]
                    for k in range(1, columns + 1):
                        if mine[k]:
                            cols[seat][k - 1] <<= mine[k]
                            filled[seat] |= 1 << k - 1
                for offset in range(n):
                    seat = (start + offset) % n
                    for _ in range(picked[seat][STAR_KIND]):
                        place_star(seat, seat)

                for _ in range(self.rounds):
                    side = self.side_for(pool)
                    bids = [-1] * n  # kind put out per seat, -1 when none (or taken)
                    out = 0          # mask of the kinds put out this round
                    dup = [False] * n
                    star_seat = -1
                    for b in range(n):  # bidding, start player first
                        seat = (start + b) % n
                        hand, mine = hands[seat], cols[seat]
                        hand_kinds = kind_list[held[seat]]
                        fresh = kind_list[held[seat] & ~out]
                        numeric_tops = filled[seat] & ~star_top[seat] & ~(out >> 1)
                        fresh_columns = kind_list[numeric_tops | (0 if out & 1 else star_top[seat])]
                        if not fresh and not fresh_columns:  # forced: every option was put out already
                            fresh, fresh_columns = hand_kinds, kind_list[filled[seat]]
                        width = len(hand_kinds)
                        total = len(fresh) + len(fresh_columns) * width
                        if steps == step_cap:
                            raise _Capped
                        steps += 1
                        if total < 2:
                            single += 1
                        if randoms[seat]:
                            r = int(rand() * total)
                        else:
                            r = self._bid(choice, fresh, hand_kinds, fresh_columns, mine, filled[seat], pool,
                                          kind_list[pool_mask], pool_count, bids, side, n - b)
                        turns += 1
                        star_pending = False
                        if r < len(fresh):
                            put = added = fresh[r]  # the kind put out; the hand tile it uses
                            counts[BID_HAND] += 1
                        else:
                            r -= len(fresh)
                            c, added = fresh_columns[r // width], hand_kinds[r % width]
                            counts[BID_PUBLIC] += 1
                            code = mine[c]
                            put = STAR_KIND if code & 1 else c + 1
                            code >>= 1
                            mine[c] = code
                            if code == 1:
                                filled[seat] &= ~(1 << c)
                                star_top[seat] &= ~(1 << c)
                            elif code & 1:
                                star_top[seat] |= 1 << c
                            else:
                                star_top[seat] &= ~(1 << c)
                            if added == STAR_KIND:
                                star_pending = True
                            else:
                                mine[added - 1] <<= 1
                                filled[seat] |= 1 << added - 1
                                star_top[seat] &= ~(1 << added - 1)
                        hand[added] -= 1
                        if not hand[added]:
                            held[seat] &= ~(1 << added)
                        effect = 0
                        if out >> put & 1:
                            dup[seat] = True
                            forced += 1
                        elif put == STAR_KIND:
                            star_seat = seat
                            effect = STAR_TAKE if pool_count else 0
                        elif put == 2:
                            second += 1
                        elif put == 1:
                            effect = ROTATE if self.rotatable(cols) else 0
                        elif put == 3:
                            effect = GIVE if filled[seat] else 0
                        out |= 1 << put
                        bids[seat] = put
                        if star_pending:
                            place_star(seat, seat)
                        if effect == STAR_TAKE:
                            options = kind_list[pool_mask]
                            if steps == step_cap:
                                raise _Capped
                            steps += 1
                            if len(options) < 2:
                                single += 1
                            if randoms[seat]:
                                k = options[int(rand() * len(options))]
                            else:
                                k = options[self._take(choice, mine, filled[seat], None, options)]
                            counts[STAR_TAKE] += 1
                            pool[k] -= 1
                            pool_count -= 1
                            if not pool[k]:
                                pool_mask &= ~(1 << k)
                            if k == STAR_KIND:
                                place_star(seat, seat)
                            else:
                                mine[k - 1] <<= 1
                                filled[seat] |= 1 << k - 1
                                star_top[seat] &= ~(1 << k - 1)
                        elif effect == ROTATE:
                            numbers = self.rotatable(cols)
                            if steps == step_cap:
                                raise _Capped
                            steps += 1
                            if 2 * len(numbers) < 2:
                                single += 1
                            if randoms[seat]:
                                r = int(rand() * 2 * len(numbers))
                            else:
                                r = self._rotate(choice, seat, cols, numbers)
                            counts[ROTATE] += 1
                            self.rotate(cols, star_top, numbers[r >> 1], -1 if r & 1 else 1)
                            rotations += 1
                        elif effect == GIVE:
                            tops = kind_list[filled[seat]]
                            total = len(tops) * (n - 1)
                            if steps == step_cap:
                                raise _Capped
                            steps += 1
                            if total < 2:
                                single += 1
                            if randoms[seat]:
                                r = int(rand() * total)
                            else:
                                r = self._give(choice, seat, cols, filled)
                            counts[GIVE] += 1
                            gifts += 1
                            c, target = tops[r // (n - 1)], others[seat][r % (n - 1)]
                            code = mine[c]
                            tile = STAR_KIND if code & 1 else c + 1
                            code >>= 1
                            mine[c] = code
                            if code == 1:
                                filled[seat] &= ~(1 << c)
                                star_top[seat] &= ~(1 << c)
                            elif code & 1:
                                star_top[seat] |= 1 << c
                            else:
                                star_top[seat] &= ~(1 << c)
                            if tile == STAR_KIND:
                                place_star(seat, target)
                            else:
                                cols[target][tile - 1] <<= 1
                                filled[target] |= 1 << tile - 1
                                star_top[target] &= ~(1 << tile - 1)

                    # Judging (JinzaiState._judge): 2 takes 2nd, then by number, * after, duplicates last.
                    order = [(start + i) % n for i in range(n)]
                    fair = [s for s in order if not dup[s]]
                    two = [s for s in fair if bids[s] == 2]
                    keys = self.rank_key[side]
                    ranked_others = sorted([s for s in fair if bids[s] != 2], key=lambda s: keys[bids[s]])
                    slots = [-1] * n
                    if two:
                        slots[1] = two[0]
                    rest = iter(ranked_others)
                    for i in range(n):
                        if slots[i] < 0:
                            slots[i] = next(rest, -1)
                    ranked = [s for s in slots if s >= 0]
                    places = [s for s in slots[:n - 1] if s >= 0]
                    if star_seat >= 0:
                        next_start = star_seat
                    else:
                        dups = [s for s in order if dup[s]]
                        next_start = dups[0] if dups else ranked[n - 1]

                    for seat in places:  # acquiring, in place order
                        targets = [s for s in others[seat] if bids[s] >= 0]
                        total = len(targets) + (1 if pool_count else 0)
                        if steps == step_cap:
                            raise _Capped
                        steps += 1
                        if total < 2:
                            single += 1
                        if randoms[seat]:
                            r = int(rand() * total)
                        else:
                            r = self._take(choice, cols[seat], filled[seat], pool if pool_count else None,
                                           [bids[s] for s in targets])
                        mine = cols[seat]
                        if pool_count and r == 0:
                            counts[TAKE_POOL] += 1
                            pool_taken += 1
                            for k in range(1, columns + 1):
                                if pool[k]:
                                    mine[k - 1] <<= pool[k]
                                    filled[seat] |= 1 << k - 1
                                    star_top[seat] &= ~(1 << k - 1)
                            stars = pool[STAR_KIND]
                            pool = [0] * (columns + 1)
                            pool_mask = pool_count = 0
                            for _ in range(stars):
                                place_star(seat, seat)
                        else:
                            counts[TAKE_BID] += 1
                            source = targets[r - 1 if pool_count else r]
                            k, bids[source] = bids[source], -1
                            if k == STAR_KIND:
                                place_star(seat, seat)
                            else:
                                mine[k - 1] <<= 1
                                filled[seat] |= 1 << k - 1
                                star_top[seat] &= ~(1 << k - 1)
                    for s in range(n):  # JinzaiState._end_round: what was not taken is the next pool
                        k = bids[s]
                        if k >= 0:
                            pool[k] += 1
                            pool_mask |= 1 << k
                            pool_count += 1
                    start = next_start

                # Scoring (JinzaiState._score_game).
                games += 1
                sets = [self.score(self.key_of(cols[s])) for s in range(n)]
                last_totals = [total for total, _ in sets]
                for s in range(n):
                    total, set_vp = sets[s]
                    vp[s] += self.awards[sum(1 for other in last_totals if other > total)] + set_vp
                if max(vp) >= self.vp_to_win:
                    end = END_VP
                    break
                if games >= self.max_games:
                    end = END_MAX_GAMES
                    break
        except _Capped:
            end = END_CAP
        scores = tuple(vp)
        if end == END_CAP:
            winners: tuple[int, ...] = ()
        else:  # JinzaiState.outcome: most VP, then the last game's top total, else shared
            top_vp, top_total = max(vp), max(last_totals)
            leaders = [s for s in range(n) if vp[s] == top_vp]
            winners = tuple([s for s in leaders if last_totals[s] == top_total] or leaders)
        return (turns, steps, end, scores, winners, first, tuple(counts), steps, steps - single,
                (("forced_duplicates", forced), ("games", games), ("gifts", gifts), ("pool_taken", pool_taken),
                 ("rotations", rotations), ("second_place_by_2", second)))

    def rotatable(self, cols: list[list[int]]) -> list[int]:
        """文官 numbers held (physically, in their column) by two or more players (JinzaiState._rotatable)."""
        numbered, out = self.numbered, []
        for c in self.bun_columns:
            holders = 0
            for mine in cols:
                if numbered[mine[c]]:
                    holders += 1
            if holders >= 2:
                out.append(c + 1)
        return out

    def rotate(self, cols: list[list[int]], star_top: list[int], number: int, direction: int) -> None:
        """Every holder of `number` passes all those tiles to the next holder in `direction` (JinzaiState._rotate);
        each keeps its tricksters, the incoming tiles go on top of them."""
        numbered, c = self.numbered, number - 1
        holders = [s for s in range(self.n) if numbered[cols[s][c]]]
        ordered = sorted(holders, reverse=direction < 0)
        moving = [numbered[cols[s][c]] for s in ordered]
        for i, s in enumerate(ordered):
            receiver = ordered[(i + 1) % len(ordered)]
            code = cols[receiver][c]
            kept = code.bit_length() - 1 - numbered[code]
            cols[receiver][c] = ((1 << kept + 1) - 1) << moving[i]
            star_top[receiver] &= ~(1 << c)


def _best(choice: random.Random, values: Sequence[float]) -> int:
    """The index jinzai_greedy.choose takes: the best value, ties broken by the same rng.choice call."""
    best = max(values) - 1e-9
    return choice.choice([i for i, v in enumerate(values) if v >= best])
