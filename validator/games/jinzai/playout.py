"""人材登用 (jinzai): the harness's whole-match player (RulesGame.fast_playout), the State driven by its own methods.

validator.simulate.play_game asks every decision for the full list of legal actions and calls the
seat's policy. This loop does exactly that for every seat but one kind: a seat playing the random
policy draws the same number from the same generator and takes `legal_at(i)` instead of listing the
actions to index them (RandomPolicy.choose is `legal[int(rng.random() * len(legal))]`). No rule is
restated here: every transition, legal action and score is JinzaiState's.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...engine.api import Seat
from ...engine.playout import ending
from ...engine.policies import RandomPolicy
from .rules import CODEC

if TYPE_CHECKING:
    from .game import JinzaiGame

# A match's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


class JinzaiPlayout:
    """Plays whole matches for fixed seat policies; `play` returns validator.simulate.GameRecord's fields."""

    def __init__(self, game: JinzaiGame, policies: Sequence[Any]) -> None:
        self.game, self.policies = game, tuple(policies)
        self.randoms = tuple(type(policy) is RandomPolicy for policy in policies)

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        """One match, as validator.simulate.play_game plays it: the same decisions, the same draws."""
        state = self.game.new_initial_state(chance, len(self.policies), first_player=first_player,
                                            previous_scores=previous_scores)
        first = state.current_player()
        counts = [0] * len(self.game.action_kinds)
        shift, randoms, rand = CODEC.kind_shift, self.randoms, choice.random
        choosers = [policy.choose for policy in self.policies]
        wants = [policy.needs_observation for policy in self.policies]
        current, count, at, apply = state.current_player, state.legal_count, state.legal_at, state.apply_action
        legal_actions, observe = state.legal_actions, state.observation
        steps = choices = 0
        if all(randoms):  # the same loop without asking whose turn it is
            while steps < step_cap:
                width = count()
                if not width:  # terminal: only then are there no legal actions
                    break
                if width > 1:
                    choices += 1
                action = at(int(rand() * width))
                counts[action >> shift] += 1
                apply(action)
                steps += 1
        else:
            while True:
                player = current()
                if player < 0 or steps >= step_cap:  # terminal (TERMINAL is negative), or capped
                    break
                width = count()
                if width > 1:
                    choices += 1
                if randoms[player]:
                    action = at(int(rand() * width))
                else:
                    action = choosers[player](observe(player) if wants[player] else None, legal_actions(), choice)
                counts[action >> shift] += 1
                apply(action)
                steps += 1
        end, scores, winners = ending(state)
        return (state.turn_number(), steps, end, tuple(scores), tuple(winners), first, tuple(counts), steps,
                choices, tuple(sorted(state.counters().items())))
