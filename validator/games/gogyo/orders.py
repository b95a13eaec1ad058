"""五行 scoring helpers: pure functions over integer codes that lay out the orders the best-order search reads.

best_interval: the longest run values could make in some order; placements: the orders of a hand
that keep a dynasty run intact; dynasty_runs: the ways to lay cards down as one dynasty run. The
codes are those of gogyo_cards (1.. for a value, ANY for a wild card, SKIP/BREAK for the others).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, permutations, product
from operator import itemgetter

from .cards import ANY


def best_interval(present: list[int], wild: int, size: int, wraps: bool) -> int:
    """best_unordered_run of the distinct values `present` (ascending) and `wild` wild cards."""
    # The best interval spans some present values p[i]..p[j] (in value order, round the cycle when
    # runs wrap), its gaps filled and its ends extended by the wild cards: j - i + 1 + wild values.
    count = len(present)
    ring = present + [value + size for value in present] if wraps else present
    best = wild
    for i in range(count):
        missing = 0
        for j in range(i, i + count if wraps else count):
            if j > i:
                missing += ring[j] - ring[j - 1] - 1
                if missing > wild:
                    break
            if j - i + 1 + wild > best:
                best = j - i + 1 + wild
    return min(best, size)


def getter(indices: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """itemgetter(*indices) that always returns a tuple."""
    if len(indices) == 1:
        return lambda items: (items[indices[0]],)
    return itemgetter(*indices) if indices else lambda items: ()


def placements(n: int, size: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Orders of n roles keeping roles 0..size-1 (a run) in sequence, with a bit mask of the
    other roles (bit r - size) that sit inside the run's span."""
    out = []
    for pattern in permutations(range(n)):
        where = [pattern.index(r) for r in range(size)]
        if where != sorted(where):
            continue
        inside = 0
        if size:
            for position in range(where[0] + 1, where[-1]):
                if pattern[position] >= size:
                    inside |= 1 << (pattern[position] - size)
        out.append((pattern, inside))
    return tuple(out)


def dynasty_runs(dyn: Sequence[int], size: int, count: int) -> list[tuple[int, ...]]:
    """Every way (as card positions, left to right) to lay `size` of the cards as one dynasty run
    1..count without wrapping: distinct values ascending, wild cards filling gaps and the ends."""
    concrete = [i for i, v in enumerate(dyn) if v > 0]
    wild = [i for i, v in enumerate(dyn) if v == ANY]
    if not wild:  # one card of each value of a window of `size` consecutive values
        by_value: dict[int, list[int]] = {}
        for i in concrete:
            by_value.setdefault(dyn[i], []).append(i)
        return [run for low in sorted(by_value) if all(low + step in by_value for step in range(size))
                for run in product(*(by_value[low + step] for step in range(size)))] if size else [()]
    runs = []
    for k in range(max(0, size - len(wild)), min(size, len(concrete)) + 1):
        spare = wild[:size - k]
        for chosen in combinations(concrete, k):
            values = sorted((dyn[i], i) for i in chosen)
            if k == 0:
                if size <= count:
                    runs.append(tuple(spare))
                continue
            if any(b[0] == a[0] for a, b in zip(values, values[1:])):
                continue
            low, high = values[0][0], values[-1][0]
            extra = len(spare) - (high - low + 1 - k)
            if extra < 0:
                continue
            for left in range(extra + 1):
                if low - left < 1 or high + extra - left > count:
                    continue
                fill = iter(spare)
                order = [next(fill) for _ in range(left)]
                for (value, i), (after, _) in zip(values, values[1:] + [(high + 1, -1)]):
                    order.append(i)
                    order.extend(next(fill) for _ in range(after - value - 1))
                order.extend(fill)
                runs.append(tuple(order))
    return runs
