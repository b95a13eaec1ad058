"""The harness's whole-game player for gogyo (RulesGame.fast_playout): validator.simulate.play_game's loop,
driving the same GogyoState through its own methods, for simulate() runs without invariant checks.

It knows no rule. What it saves over the generic loop: a random seat's action is picked by index
(GogyoState.sample: what RandomPolicy.choose picks from the full list, drawn from the same
generator), so no legal-action list is built for it, and GogyoState.run plays on through the
random seats that follow in one call. Every other seat is asked exactly as play_game asks it. So
its records equal play_game's, seed for seed, which the golden tests check through both paths.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.api import Seat
from ...engine.playout import ending
from ...engine.policies import RandomPolicy
from .rules import KIND_SHIFT, MASK, OVER, SHIFT

if TYPE_CHECKING:
    from .game import GogyoGame

# A game's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


class GogyoPlayout:
    """Plays whole games for fixed seats' policies and returns their record fields."""

    def __init__(self, game: GogyoGame, policies: Sequence[Any]) -> None:
        self.game = game
        self.policies = tuple(policies)
        self.randoms = tuple(type(policy) is RandomPolicy for policy in policies)

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        """One game from the shuffle to its end (or the step cap), as validator.simulate.play_game plays it."""
        policies, randoms = self.policies, self.randoms
        state = self.game.new_initial_state(chance, len(policies), first_player=first_player,
                                            previous_scores=previous_scores)
        first = state.player
        counts = [0] * len(self.game.action_kinds)
        wants = [policy.needs_observation for policy in policies]
        choosers = [policy.choose for policy in policies]
        sample, run, legal_actions, observe = state.sample, state.run, state.legal_actions, state.observation
        rand = choice.random
        steps = choices = 0
        while state.phase != OVER and steps < step_cap:
            player = state.player
            if randoms[player]:
                count, kind, x, y = sample(rand())  # what RandomPolicy.choose picks from the list
            else:
                legal = legal_actions()
                count = len(legal)
                action = choosers[player](observe(player) if wants[player] else None, legal, choice)
                kind, x, y = action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK
            if count > 1:
                choices += 1
            made, picked = run(kind, x, y, randoms, rand, step_cap - steps, counts)  # and the random seats after
            steps += made
            choices += picked
        end, scores, winners = ending(state)
        return (state.turns, steps, end, scores, winners, first, tuple(counts), steps, choices,
                tuple(sorted(state.counters().items())))
