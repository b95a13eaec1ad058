"""The fast shuffle is random.Random.shuffle: the same permutation and the same later draws, for every deck size."""
from __future__ import annotations

import random

import pytest

from validator.engine.chance import inline_shuffle_matches, shuffle, shuffle_bits


@pytest.mark.parametrize("size", [0, 1, 2, 9, 32, 66, 104, 120, 157])
def test_the_inline_shuffle_is_randoms_own(size: int) -> None:
    assert inline_shuffle_matches(size)
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(size)), list(range(size))
        shuffle(ours, mine, shuffle_bits(size) if seed % 2 else None)
        theirs.shuffle(reference)
        assert mine == reference and ours.getstate() == theirs.getstate()


def test_any_other_generator_class_shuffles_itself() -> None:
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):  # type: ignore[no-untyped-def, override]
            Counting.calls += 1
            super().shuffle(x)

    cards = list(range(30))
    shuffle(Counting(3), cards)
    reference = list(range(30))
    random.Random(3).shuffle(reference)
    assert Counting.calls == 1 and cards == reference
