"""三国殺 (sanguosha): the harness's whole-game player (RulesGame.fast_playout), the State driven by its own
methods, for simulate() runs without invariant checks.

It knows no rule. What it saves over validator.simulate.play_game's loop: the method lookups of the
State protocol per step, the legality check of an action taken from the legal list itself, and a
random seat's choice is made inline (what RandomPolicy.choose picks, from the same generator). Every
other seat is asked exactly as play_game asks it, so the records are play_game's, seed for seed (the
golden tests compare both paths with one file).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.api import Seat
from ...engine.playout import ending
from ...engine.policies import RandomPolicy
from .rules import K_SHIFT

if TYPE_CHECKING:
    from .game import SanguoshaGame


class SanguoshaPlayout:
    """Plays whole games for fixed seats' policies and returns their record fields."""

    def __init__(self, game: SanguoshaGame, policies: Sequence[Any]) -> None:
        self.game = game
        self.policies = tuple(policies)
        self.randoms = tuple(type(policy) is RandomPolicy for policy in policies)

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> tuple[Any, ...]:
        """One game from the deal to its end (or the step cap), as validator.simulate.play_game plays it."""
        policies, randoms = self.policies, self.randoms
        state = self.game.new_initial_state(chance, len(policies), first_player=first_player,
                                            previous_scores=previous_scores)
        first = state.current_player()
        counts = [0] * len(self.game.action_kinds)
        wants = [policy.needs_observation for policy in policies]
        choosers = [policy.choose for policy in policies]
        rand, play, observe = choice.random, state.play, state.observation
        steps = choices = 0
        while not state.over and steps < step_cap:
            player, legal = state.seat, state.legal
            if len(legal) > 1:
                choices += 1
            if randoms[player]:
                action = legal[int(rand() * len(legal))]
            else:
                action = choosers[player](observe(player) if wants[player] else None, legal, choice)
            counts[action >> K_SHIFT] += 1
            play(action)
            steps += 1
        end, scores, winners = ending(state)
        return (state.turn_number(), steps, end, scores, winners, first, tuple(counts), steps, choices,
                tuple(sorted(state.counters().items())), tuple(state.seat_labels().items()))
