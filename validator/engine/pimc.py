"""Determinized Monte Carlo with paired deals (`pimc:N`): a policy that judges each of its legal actions by
heuristic playouts from states dealt from its seat's observation, all actions on the same deals.

Perfect-information Monte Carlo (PIMC) is the usual baseline for card games with hidden hands: deal
the unseen cards, play each candidate to the end, keep the one that wins most. Two things make it
pay at a small budget. Every candidate still in the race is played on the same deal with the same
playout seed (common random numbers): a deal that decides the game decides it for all of them, so
what the averages differ by is mostly the action. And the budget is spent by sequential halving
(Karnin, Koren and Somekh 2013): rounds of equal spend, the worse half of the candidates dropped
after each, so the close calls get the most deals. Ties keep the heuristic's own pick.

A playout is scored by what its seat plays for, made less noisy: half its share of the win (of the
match as it stands, as the tree search scores it) and half the share of the other seats it finishes
ahead of. A win alone says 1 or 0 for most playouts of a four-player game; the rank says more per
playout, and it rises with the chance to win.

N counts playouts, never seconds, and every draw comes from the generator the harness hands the
policy, so a seed gives the same choices on any machine and with any number of workers. The search
knows no rule: it reads only State's generic methods.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .api import Action, GameOfMatch, Seat, State
from .playout import ending
from .policies import Heuristic
from .search import ROLLOUT_CAP, Determinize, match_winners, parse_budget

DEFAULT_PLAYOUTS = 200
MAX_PLAYOUTS = 100_000


class PairedMonteCarlo:
    """`pimc:N`: N heuristic playouts from dealt states, spread over the legal actions by sequential halving."""

    needs_observation = True

    def __init__(self, determinize: Determinize, heuristic: Heuristic, playouts: int = DEFAULT_PLAYOUTS) -> None:
        if not 1 <= playouts <= MAX_PLAYOUTS:
            raise ValueError(f"pimc needs 1 to {MAX_PLAYOUTS:,} playouts, not {playouts}")
        self.determinize, self.heuristic, self.playouts = determinize, heuristic, playouts
        self.name = f"pimc:{playouts}"

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        pick = self.heuristic(observation, legal_actions, rng)
        seat: Seat = observation.seat
        racing = list(legal_actions)
        totals = dict.fromkeys(racing, 0.0)
        played = dict.fromkeys(racing, 0)
        rounds = math.ceil(math.log2(len(racing)))
        for _ in range(rounds):
            deals = max(1, self.playouts // (rounds * len(racing)))
            for _ in range(deals):
                dealt = self.determinize(observation, rng)
                seed = rng.getrandbits(64)
                for action in racing:
                    state = dealt.clone()
                    state.apply_action(action)
                    totals[action] += self._playout(state, random.Random(seed), seat)
                    played[action] += 1
            racing.sort(key=lambda action: (-totals[action] / played[action], action != pick))
            racing = racing[:max(1, len(racing) // 2)]
            if len(racing) == 1:
                break
        return racing[0]

    def _playout(self, state: State, rng: random.Random, seat: Seat) -> float:
        """Every seat plays the heuristic to the end; the seat's reward (see the module's docstring)."""
        heuristic = self.heuristic
        for _ in range(ROLLOUT_CAP):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[0] if len(legal) == 1 else
                               heuristic(state.observation(state.current_player()), legal, rng))
        return reward(state, seat)


def reward(state: State, seat: Seat) -> float:
    """Half the seat's share of the win, half the share of the other seats it finishes ahead of (a tie
    counts half), both on the match as it stands after this game in a later game of a match."""
    winners = match_winners(state)
    win = 1 / len(winners) if seat in winners else 0.0
    _, scores, _ = ending(state)
    if isinstance(state, GameOfMatch) and state.previous_scores:
        scores = tuple(sum(column) for column in zip(*state.previous_scores, scores))
    mine = scores[seat]
    ahead = sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                for rival, other in enumerate(scores) if rival != seat)
    return (win + ahead / (len(scores) - 1)) / 2


def parse_playouts(name: str) -> int | None:
    """The N of "pimc" or "pimc:N" (None when `name` is not a pimc policy); ValueError when N is bad."""
    return parse_budget(name, "pimc", DEFAULT_PLAYOUTS, "playouts")
