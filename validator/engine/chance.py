"""The chance stream's hot path: a shuffle that draws exactly as random.Random.shuffle, minus its method calls.

Engines shuffle with the harness's generator. CPython's Random.shuffle calls _randbelow per card;
doing the same draws inline is ~2.5x faster and, checked once per size against the real method
(same order, same later draws), changes no seeded record. Any other generator class, or an
interpreter where the check fails, gets rng.shuffle itself.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache


def shuffle_bits(size: int) -> tuple[int, ...]:
    """bits[i] = (i + 1).bit_length(): the draw width for swapping position i."""
    return tuple((i + 1).bit_length() for i in range(size))


def _inline_shuffle(rng: random.Random, cards: list[int], bits: Sequence[int]) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


@cache
def inline_shuffle_matches(size: int) -> bool:
    """Whether the inline shuffle orders and draws exactly as random.Random.shuffle on this interpreter."""
    bits = shuffle_bits(size)
    for seed in (0, 1, 2**64 - 59):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(size)), list(range(size))
        _inline_shuffle(ours, mine, bits)
        theirs.shuffle(reference)
        if mine != reference or ours.random() != theirs.random():
            return False
    return True


def shuffle(rng: random.Random, cards: list[int], bits: Sequence[int] | None = None) -> None:
    """rng.shuffle(cards), the same permutation and draws, fast when rng is a plain random.Random.

    `bits` (from shuffle_bits(len(cards))) may be passed by callers that shuffle one size often."""
    if type(rng) is random.Random and inline_shuffle_matches(len(cards)):
        _inline_shuffle(rng, cards, bits if bits is not None else shuffle_bits(len(cards)))
    else:
        rng.shuffle(cards)
