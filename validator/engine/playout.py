"""What every whole-game playout ends with: the step-cap marker and how a played game stands.

The harness (validator.simulate) and each engine's optional fast_playout hook both finish a game
the same way; this is that one way. Nothing here imports a game or the harness.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .api import Outcome, Seat
from .policies import GreedyPolicy, Heuristic, RandomPolicy

END_CAP = "cap"  # a game stopped by the step cap, not by its rules


class _Finished(Protocol):
    def is_terminal(self) -> bool: ...
    def outcome(self) -> Outcome: ...
    def returns(self) -> tuple[int, ...]: ...


def ending(state: _Finished) -> tuple[str, tuple[int, ...], tuple[Seat, ...]]:
    """(why it ended, scores, winners) of a game played to its end, or END_CAP, the scores now and no winner."""
    if state.is_terminal():
        outcome = state.outcome()
        return outcome.reason, tuple(outcome.scores), tuple(outcome.winners)
    return END_CAP, tuple(state.returns()), ()


RANDOM, GREEDY = 0, 1


def seat_kinds(policies: Sequence[Any], heuristic: Heuristic) -> tuple[int, ...] | None:
    """RANDOM or GREEDY per seat when every seat plays the random policy or exactly this greedy heuristic
    (what a playout may special-case without changing a record); None when any seat plays something else."""
    kinds = []
    for policy in policies:
        if type(policy) is RandomPolicy:
            kinds.append(RANDOM)
        elif type(policy) is GreedyPolicy and policy.heuristic is heuristic:
            kinds.append(GREEDY)
        else:
            return None
    return tuple(kinds)
