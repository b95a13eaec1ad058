"""五行 scoring: the best order of a hand, its 王朝役 (dynasty run) and 五行役 (element run).

Pure functions over the integer card codes of gogyo_cards. A hand scores, over all orders of its
cards, the best sum of the points of its longest dynasty run and its longest element run, both
read left to right in that same order. Runs never wrap from 清 to 夏 and always wrap from 水 to 木
(both set in game.json rules). `Scorer.total` is the hot path: order-free bounds from the card
counts settle hands where one kind cannot score; otherwise each dynasty run is laid down and the
best element run over every placement of the other cards around it is read (memoised by the
element codes of the run and of the other cards). Results are memoised by an integer hand key;
hands where the order matters also share results up to an element rotation or a dynasty shift,
and are searched as their shared representative. The search's pure helpers are in gogyo_orders.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from operator import itemgetter
from typing import Any

from ...engine.api import rule
from ...engine.frozen import reduce_frozen
from .cards import ANY, BREAK, SKIP, CardTable
from .orders import best_interval, dynasty_runs, getter, placements

_CACHE_LIMIT = 1_500_000  # hands memoised per process before the memo is dropped and refilled
_Codes = Callable[[tuple[int, ...]], tuple[int, ...]]  # a hand's codes -> some of them, in a given order


@dataclass(frozen=True, slots=True)
class ScoringRules:
    """The points tables and run rules of game.json."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # spawned workers get it pickled, also when compiled

    hand_size: int
    dynasty_points: tuple[int, ...]  # run length (0..hand_size) -> points
    element_points: tuple[int, ...]
    dynasty_count: int
    element_count: int
    dynasty_wraps: bool
    element_wraps: bool


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's best total, the order reaching it (type ids) and its two parts."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # spawned workers get it pickled, also when compiled

    total: int
    dynasty: int
    element: int
    order: tuple[int, ...]


def build_scoring_rules(rules: Mapping[str, Any], table: CardTable, hand_size: int) -> ScoringRules:
    """Points tables indexed by run length, from game.json rules."""
    def points(key: str) -> tuple[int, ...]:
        raw = rule(rules, key, dict, "gogyo")
        table = tuple(int(raw.get(str(length), 0)) for length in range(hand_size + 1))
        if list(table) != sorted(table):
            raise ValueError(f"gogyo: rules {key!r} must not give fewer points to a longer run: {raw}")
        return table
    return ScoringRules(
        hand_size=hand_size,
        dynasty_points=points("dynasty_points"), element_points=points("element_points"),
        dynasty_count=len(table.dynasty_names), element_count=len(table.element_names),
        dynasty_wraps=rule(rules, "dynasty_wraps", bool, "gogyo"),
        element_wraps=rule(rules, "element_wraps", bool, "gogyo"),
    )


def longest_run(codes: Iterable[int], size: int, wraps: bool) -> int:
    """Length of the longest left-to-right run of consecutive values in `codes`.

    Values are 1..size; ANY takes whatever value continues the run; SKIP is ignored; BREAK ends
    the run. Tracks the longest valid run ending at each card: its length, the value of its last
    card (0 while it holds only wild cards) and how many wild cards end it.
    """
    best = run = trail = last = 0
    for code in codes:
        if code == SKIP:
            continue
        if code == BREAK:
            run = trail = last = 0
            continue
        if code == ANY:
            if last == 0:
                run += 1
            elif last < size:
                last += 1
                run += 1
            elif wraps:
                last = 1
                run += 1
            else:  # a run at the last value cannot go on: keep only its trailing wild cards
                run, last = trail + 1, 0
            trail += 1
        else:
            if last == 0:
                run = (run if wraps else min(run, code - 1)) + 1
            elif code == last + 1 or (wraps and last == size and code == 1):
                run += 1
            else:
                run = (trail if wraps else min(trail, code - 1)) + 1
            last, trail = code, 0
        if run > best:
            best = run
    return best


def order_points(order: Sequence[int], table: CardTable, rules: ScoringRules) -> tuple[int, int]:
    """(dynasty points, element points) of the cards in exactly this order."""
    dynasty = longest_run((table.dynasty[t] for t in order), rules.dynasty_count, rules.dynasty_wraps)
    element = longest_run((table.element[t] for t in order), rules.element_count, rules.element_wraps)
    return rules.dynasty_points[min(dynasty, rules.hand_size)], rules.element_points[min(element, rules.hand_size)]


def best_unordered_run(values: Iterable[int], size: int, wraps: bool) -> int:
    """Longest run the cards could form in some order, ignoring the other kind of run.

    A run covers an interval of values (cyclic when `wraps`); each value missing from the cards
    costs one wild card. SKIP and BREAK cards take no part.
    """
    codes = list(values)
    return best_interval(sorted({c for c in codes if 0 < c <= size}), codes.count(ANY), size, wraps)


class Scorer:
    """Best-order scoring for one card table, memoised by hand key; picklable without its memo."""

    __slots__ = ("table", "rules", "_cache", "_perms", "_patterns", "_elem_runs", "_runs", "_longest_dyn",
                 "_longest_elem", "_dyn_ceiling", "_elem_ceiling", "_dyn_weight", "_elem_weight", "_packed", "_maps",
                 "_no_shift", "_low", "_lanes", "_lane_mask", "_counts", "_elem_bits", "_places", "_exhaustive")

    def __init__(self, table: CardTable, rules: ScoringRules) -> None:
        if rules.hand_size > 7:
            raise ValueError("hands of more than 7 cards do not fit the 3-bit count fields")
        self.table = table
        self.rules = rules
        self._cache: dict[int, int] = {}
        self._runs: dict[tuple[tuple[int, ...], int], list[tuple[_Codes, int]]] = {}
        self._places: dict[tuple[int, tuple[int, ...]], int] = {}
        self._longest_dyn: dict[int, int] = {}
        self._longest_elem: dict[int, int] = {}
        self._dyn_ceiling: dict[int, int] = {}
        self._elem_ceiling: dict[int, int] = {}
        self._perms = [tuple(permutations(range(n))) for n in range(rules.hand_size + 1)]
        self._patterns = [[tuple((getter(pattern), inside) for pattern, inside in placements(n, size))
                           for size in range(n + 1)] for n in range(rules.hand_size + 1)]
        self._elem_runs: dict[tuple[int, ...], int] = {}  # element codes in order -> longest element run
        self._dyn_weight = tuple(1 << 3 * (code - SKIP) for code in table.dynasty)
        self._elem_weight = tuple(1 << 3 * (code - BREAK) for code in table.element)
        self._elem_bits = max(self._elem_weight).bit_length() + 2  # an element-count key fits below this bit
        self._counts = tuple(d << self._elem_bits | e  # both count keys in one integer
                             for d, e in zip(self._dyn_weight, self._elem_weight))
        self._exhaustive = rules.dynasty_wraps or (rules.element_wraps and rules.element_count < rules.hand_size)
        rotations, shifts = _symmetries(table, rules)
        lane = max(table.weight).bit_length() + 8  # room for the sum of a hand's weights
        self._lanes = tuple(lane * k for k in range(len(rotations)))
        self._lane_mask = (1 << lane) - 1
        self._no_shift = len(shifts) + 1 if shifts else 1  # a lowest dynasty this high means: do not shift
        # per type: 0 for a wild dynasty (no shift), its dynasty if it could set the shift, else no_shift
        self._low = tuple(0 if code == ANY else code if 0 < code < self._no_shift else self._no_shift
                          for code in table.dynasty)
        shifts = shifts or [tuple(range(len(table.labels)))]
        self._packed = tuple(  # [shift][type] -> the shifted type's weight under every rotation, side by side
            tuple(sum(table.weight[r[shift[t]]] << lane * k for k, r in enumerate(rotations))
                  for t in range(len(table.labels)))
            for shift in shifts)
        self._maps = tuple(tuple(tuple(r[shift[t]] for t in range(len(table.labels))) for r in rotations)
                           for shift in shifts)  # [shift][rotation] -> type map

    def __reduce__(self) -> tuple[Any, tuple[CardTable, ScoringRules]]:
        return Scorer, (self.table, self.rules)  # pickled as its inputs; the memo starts empty

    def best(self, types: Sequence[int]) -> HandScore:
        """Best total, the first order (in permutation order of `types`) reaching it, and its parts."""
        table, rules = self.table, self.rules
        best = HandScore(-1, 0, 0, tuple(types))
        for perm in self._perms[len(types)]:
            order = tuple(types[i] for i in perm)
            dynasty, element = order_points(order, table, rules)
            if dynasty + element > best.total:
                best = HandScore(dynasty + element, dynasty, element, order)
        return best

    def total(self, key: int, types: Sequence[int]) -> int:
        """Best total of the hand `types` whose key is `key` (see CardTable.hand_key)."""
        cache = self._cache
        found = cache.get(key)
        if found is None:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            found = cache[key] = self._compute(types, self._bounds(types))
        return found

    def total_counted(self, key: int, types: Sequence[int], dyn_key: int, elem_key: int) -> int:
        """total(key, types) when the caller has the hand's count keys (sums of `count_weights`)."""
        cache = self._cache
        found = cache.get(key)
        if found is None:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            found = cache[key] = self._compute(types, self._points(dyn_key, elem_key))
        return found

    def _symmetric_key(self, types: Sequence[int]) -> tuple[int, int, int]:
        """Key of a representative hand scoring the same: dynasties shifted down to start at 1 (when
        no wild dynasty card could reach past an end) and elements rotated to the smallest key. Each
        type's rotated weights sit side by side in one integer (one row per shift), so one sum gives
        the keys of every rotation; returns the key, the shift and that sum (for `_representative`)."""
        lows, no_shift = self._low, self._no_shift
        low = no_shift
        for t in types:
            if lows[t] < low:
                low = lows[t]
        shift = low - 1 if 0 < low < no_shift else 0
        row = self._packed[shift]
        total = 0
        for t in types:
            total += row[t]
        mask = self._lane_mask
        best = total & mask
        for lane in self._lanes:
            rotated = total >> lane & mask
            if rotated < best:
                best = rotated
        return best, shift, total

    def cached(self, key: int) -> int | None:
        """The memoised total of hand `key`, or None if not scored yet."""
        return self._cache.get(key)

    def total_of(self, types: Sequence[int]) -> int:
        """Best total of a hand given only its types."""
        return self.total(self.table.hand_key(types), types)

    @property
    def bounds_exact(self) -> bool:
        """Whether a hand whose order-free points are 0 for one kind scores exactly its `ceiling`
        (as `total` itself returns then); false when these run rules need the search of every order."""
        return not self._exhaustive

    @property
    def count_weights(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per card type, its field in a dynasty-count key and in an element-count key (see `ceiling`)."""
        return self._dyn_weight, self._elem_weight

    def ceiling(self, dyn_key: int, elem_key: int) -> int:
        """An upper bound on a hand's total from its card counts alone (keys: sums of `count_weights`):
        each kind of run as long as the cards could make it if the other kind did not matter."""
        dynasty = self._dyn_ceiling.get(dyn_key)
        if dynasty is None:
            dynasty = self._dyn_ceiling[dyn_key] = self.rules.dynasty_points[self._longest_unordered(False, dyn_key)]
        element = self._elem_ceiling.get(elem_key)
        if element is None:
            element = self._elem_ceiling[elem_key] = self.rules.element_points[self._longest_unordered(True, elem_key)]
        return dynasty + element

    def ceiling_tables(self) -> tuple[Mapping[int, int], Mapping[int, int]]:
        """The memo behind `ceiling` (count key -> points), for callers' inner loops: a key missing
        from them is filled by calling `ceiling`."""
        return self._dyn_ceiling, self._elem_ceiling

    def _longest_unordered(self, element: bool, key: int) -> int:
        memo = self._longest_elem if element else self._longest_dyn
        found = memo.get(key)
        if found is None:
            low = BREAK if element else SKIP  # field f of the key counts the cards of code f + low
            rules = self.rules
            size, wraps = ((rules.element_count, rules.element_wraps) if element
                           else (rules.dynasty_count, rules.dynasty_wraps))
            cards = wild = 0
            values = []
            for field in range(key.bit_length() // 3 + 1):
                count = key >> 3 * field & 7
                if count:
                    cards += count
                    if 0 < field + low <= size:
                        values.append(field + low)
                    elif field + low == ANY:
                        wild = count
            found = memo[key] = min(best_interval(values, wild, size, wraps), cards, rules.hand_size)
        return found

    def _bounds(self, types: Sequence[int]) -> tuple[int, int, int]:
        """Order-free points of each kind (each run as long as the cards allow, ignoring the other
        kind) and the longest dynasty run, from the hand's card counts."""
        counts = self._counts
        both = 0
        for t in types:
            both += counts[t]
        bits = self._elem_bits
        return self._points(both >> bits, both & ((1 << bits) - 1))

    def _points(self, dyn_key: int, elem_key: int) -> tuple[int, int, int]:
        """_bounds from the count keys."""
        longest = self._longest_dyn.get(dyn_key)
        if longest is None:
            longest = self._longest_unordered(False, dyn_key)
        element = self._longest_elem.get(elem_key)
        if element is None:
            element = self._longest_unordered(True, elem_key)
        return self.rules.dynasty_points[longest], self.rules.element_points[element], longest

    def _compute(self, types: Sequence[int], bounds: tuple[int, int, int]) -> int:
        dynasty, element, longest_dynasty = bounds
        if not self._exhaustive and (dynasty == 0 or element == 0):
            return dynasty + element  # one kind scores nothing: the other's best order is the best
        cache = self._cache
        same, shift, lanes = self._symmetric_key(types)  # the same hand up to element rotation and dynasty shift
        found = cache.get(same)
        if found is None:  # search the representative: symmetric hands share the run and placement memos
            table, rules = self.table, self.rules
            turn = next(k for k, lane in enumerate(self._lanes) if lanes >> lane & self._lane_mask == same)
            remap = self._maps[shift][turn]
            ordered = sorted([remap[t] for t in types])
            dyn = tuple([table.dynasty[t] for t in ordered])
            elem = tuple([table.element[t] for t in ordered])
            if self._exhaustive:  # bounds not proven for these rules: try every order
                found = self._search(dyn, elem, rules.dynasty_points[-1], rules.element_points[-1])
            else:
                found = self._joint(dyn, elem, longest_dynasty, element)
            cache[same] = found
        return found

    def _joint(self, dyn: tuple[int, ...], elem: tuple[int, ...], longest: int, element_cap: int) -> int:
        """Both kinds can score: for each dynasty run (longest first) take the best element run over
        every placement of the other cards that keeps the run intact (see `_placed`)."""
        dpts = self.rules.dynasty_points
        places, runs_memo = self._places, self._runs
        best = max(dpts[longest], element_cap)  # either run alone is always reachable
        for size in range(longest, 0, -1):
            ceiling = dpts[size] + element_cap
            if dpts[size] == 0 or best >= ceiling:
                break
            runs = runs_memo.get((dyn, size))
            if runs is None:
                runs = runs_memo[(dyn, size)] = self._run_roles(dyn, size)
            for roles, shape in runs:
                key = (shape, roles(elem))  # element codes of the run left to right, then of the other cards
                points = places.get(key)
                if points is None:
                    points = places[key] = self._placed(shape, key[1])
                total = dpts[size] + points
                if total > best:
                    best = total
                    if best == ceiling:
                        return best
        return best

    def _run_roles(self, dyn: tuple[int, ...], size: int) -> list[tuple[_Codes, int]]:
        """Each dynasty run of `size` cards as (getter of the codes of its cards left to right, then
        of the other cards; shape: size + 8 * mask of the other cards that are dynasty cards)."""
        out: list[tuple[_Codes, int]] = []
        for run in dynasty_runs(dyn, size, self.rules.dynasty_count):
            rest = [i for i in range(len(dyn)) if i not in run]
            blocked = sum(1 << k for k, i in enumerate(rest) if dyn[i] != SKIP)
            out.append((itemgetter(*run, *rest), size | blocked << 3))
        return out

    def _placed(self, shape: int, codes: tuple[int, ...]) -> int:
        """Element points of the best order that keeps a dynasty run intact: `codes` are the element
        codes of its cards left to right, then of the other cards; those that are dynasty cards
        (bits of shape >> 3) stay out of the run's span, the others may sit anywhere."""
        rules = self.rules
        size, blocked = shape & 7, shape >> 3
        runs = self._elem_runs
        best = 0
        for pattern, inside in self._patterns[len(codes)][size]:
            if not inside & blocked:
                order = pattern(codes)
                length = runs.get(order)
                if length is None:
                    length = runs[order] = longest_run(order, rules.element_count, rules.element_wraps)
                if length > best:
                    best = length
        return rules.element_points[min(best, rules.hand_size)]

    def _search(self, dyn: tuple[int, ...], elem: tuple[int, ...], dmax: int, emax: int) -> int:
        """Try every order; stop early once the order-free ceiling dmax + emax is reached."""
        rules = self.rules
        dpts, epts, cap = rules.dynasty_points, rules.element_points, rules.hand_size
        dsize, dwrap, esize, ewrap = rules.dynasty_count, rules.dynasty_wraps, rules.element_count, rules.element_wraps
        ceiling = dmax + emax
        best = 0
        for perm in self._perms[len(dyn)]:
            dynasty = dpts[min(longest_run([dyn[i] for i in perm], dsize, dwrap), cap)]
            if dynasty + emax <= best:
                continue
            total = dynasty + epts[min(longest_run([elem[i] for i in perm], esize, ewrap), cap)]
            if total > best:
                best = total
                if total == ceiling:
                    break
        return best


class CardScorer:
    """Best totals of hands of physical cards, for callers that keep each hand's key as it changes.

    The engine (declarations, final scores) and the greedy heuristic ask for thousands of totals a
    second; most are settled by the order-free ceiling of the card counts (exact when one kind of run
    scores nothing, or enough to tell that a hand stays below a threshold), the rest by the Scorer's
    memo. Keys are CardTable.hand_key of the cards' types (`weight` per physical card).
    """

    __slots__ = ("scorer", "type_of", "weight", "counts", "elem_bits", "elem_mask", "dyn_ceiling", "elem_ceiling",
                 "exact")

    def __init__(self, table: CardTable, scorer: Scorer) -> None:
        dyn_weight, elem_weight = scorer.count_weights
        self.scorer = scorer
        self.type_of = table.type_of
        self.weight = tuple(table.weight[t] for t in table.type_of)  # per physical card
        self.elem_bits = max(elem_weight).bit_length() + 3  # a hand's element-count key fits below this bit
        self.elem_mask = (1 << self.elem_bits) - 1
        self.counts = tuple(dyn_weight[t] << self.elem_bits | elem_weight[t] for t in table.type_of)  # both keys
        self.dyn_ceiling, self.elem_ceiling = scorer.ceiling_tables()
        self.exact = scorer.bounds_exact

    def key(self, cards: Iterable[int]) -> int:
        """The hand key of physical cards."""
        weight = self.weight
        key = 0
        for card in cards:
            key += weight[card]
        return key

    def score(self, key: int, cards: Sequence[int], reach: int = 0) -> int:
        """Best-order total of `cards`, whose hand key is `key`. With `reach`, a hand whose order-free
        ceiling stays below it may answer with that ceiling (enough to compare with `reach`)."""
        counts = self.counts
        both = 0
        for card in cards:
            both += counts[card]
        dyn_key, elem_key = both >> self.elem_bits, both & self.elem_mask
        dynasty, element = self.dyn_ceiling.get(dyn_key), self.elem_ceiling.get(elem_key)
        if dynasty is None or element is None:
            self.scorer.ceiling(dyn_key, elem_key)
            dynasty, element = self.dyn_ceiling[dyn_key], self.elem_ceiling[elem_key]
        if dynasty + element < reach or self.exact and not (dynasty and element):
            return dynasty + element  # exact when one kind scores 0 (Scorer.bounds_exact)
        found = self.scorer.cached(key)
        if found is None:
            type_of = self.type_of
            found = self.scorer.total_counted(key, [type_of[c] for c in cards], dyn_key, elem_key)
        return found

    def reaches(self, key: int, cards: Sequence[int], threshold: int) -> bool:
        """Whether the cards score `threshold` or more."""
        return self.score(key, cards, threshold) >= threshold


def _symmetries(table: CardTable, rules: ScoringRules) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Type maps that never change a hand's score: element rotations (when elements wrap) and
    dynasty shifts down by s (index s; used only on hands without wild dynasty cards). Only when
    every dynasty x element card exists; otherwise just the identity."""
    identity = tuple(range(len(table.labels)))
    grid = {(d, e): t for t, (d, e) in enumerate(zip(table.dynasty, table.element)) if d > 0 and e > 0}
    if len(grid) != rules.dynasty_count * rules.element_count:
        return [identity], []

    def remap(move: Callable[[int, int], tuple[int, int]]) -> tuple[int, ...]:
        return tuple(grid.get(move(d, e), t) if (d, e) in grid else t
                     for t, (d, e) in enumerate(zip(table.dynasty, table.element)))
    def rotate(k: int) -> Callable[[int, int], tuple[int, int]]:
        return lambda d, e: (d, (e - 1 + k) % count + 1)

    def shift(s: int) -> Callable[[int, int], tuple[int, int]]:
        return lambda d, e: (d - s, e)
    count = rules.element_count
    rotations = [identity]
    if rules.element_wraps:
        rotations += [remap(rotate(k)) for k in range(1, count)]
    shifts = [] if rules.dynasty_wraps else [remap(shift(s)) for s in range(rules.dynasty_count)]
    return rotations, shifts
