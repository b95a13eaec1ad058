"""Which seats an engine's fast playout can play: the policies it reproduces decision for decision.

A fast playout re-implements the random policy and one game's greedy heuristic inline; it may only
stand in when every seat uses exactly those, or its records would differ from the API engine's.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .policies import GreedyPolicy, Heuristic, RandomPolicy

RANDOM, GREEDY = 0, 1


def seat_kinds(policies: Sequence[Any], heuristic: Heuristic) -> tuple[int, ...] | None:
    """RANDOM or GREEDY per seat when every policy is one the fast playout reproduces exactly; else None."""
    kinds = []
    for policy in policies:
        if type(policy) is RandomPolicy:
            kinds.append(RANDOM)
        elif type(policy) is GreedyPolicy and policy.heuristic is heuristic:
            kinds.append(GREEDY)
        else:
            return None
    return tuple(kinds)
