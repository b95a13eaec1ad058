"""Whole sengoku games in one loop, for simulate() without invariant checks (the RulesGame.fast_playout hook).

It writes no rule: it deals through SengokuGame.new_initial_state and plays every decision through
SengokuState.apply_action, so the game is the API engine's own. What it saves is the harness's work
per step: a random seat picks by index (`legal_count`/`legal_at`, exactly as RandomPolicy picks from
the list, one `choice.random()` per decision), so the discard choices are never listed; a greedy
seat calls the greedy heuristic with its observation and the legal actions, as GreedyPolicy does.
The record it returns is the one validator.simulate.play_game builds for the same seats, generators
and arguments (tests/validator/games/test_sengoku.py compares the two).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.api import Seat
from ...engine.playout import RANDOM, ending, seat_kinds
from .policies import choose
from .rules import KIND_SHIFT, OVER

if TYPE_CHECKING:
    from .state import SengokuGame

# A game's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


def playout_for(game: SengokuGame, policies: Sequence[Any]) -> SengokuPlayout | None:
    """The whole-game player for these seats' policies, or None when some seat's policy is not one it plays."""
    kinds = seat_kinds(policies, choose)
    return None if kinds is None else SengokuPlayout(game, tuple(kind == RANDOM for kind in kinds))


class SengokuPlayout:
    """Plays whole games for fixed seats (random or greedy) and returns their record fields."""

    def __init__(self, game: SengokuGame, randoms: tuple[bool, ...]) -> None:
        self.game, self.randoms = game, randoms

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        game, randoms = self.game, self.randoms
        state = game.new_initial_state(chance, len(randoms), first_player=first_player,
                                       previous_scores=previous_scores)
        first = state.current_player()
        counts = [0] * len(game.action_kinds)
        steps = choices = 0
        draw = choice.random
        apply, legal_count, legal_at = state.apply_action, state.legal_count, state.legal_at
        while state.phase != OVER and steps < step_cap:
            player = state.player
            if randoms[player]:
                n = legal_count()
                if n > 1:
                    choices += 1
                action = legal_at(int(draw() * n))
            else:
                legal = state.legal_actions()
                if len(legal) > 1:
                    choices += 1
                action = choose(state.observation(player), legal, choice)
            counts[action >> KIND_SHIFT] += 1
            apply(action)
            steps += 1
        end, scores, winners = ending(state)
        return (state.turns, steps, end, scores, winners, first, tuple(counts), steps, choices,
                tuple(sorted(state.counts_.items())))
