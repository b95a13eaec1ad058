"""The pimc policy (validator/engine/pimc.py): paired heuristic playouts from dealt states, spread by
sequential halving; its reward; its names (every game plays it: test_search.py)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from validator.engine.api import Action, Outcome
from validator.engine.pimc import PairedMonteCarlo, reward
from validator.engine.policies import find_policy


@dataclass
class Race:
    """A one-decision toy: seat 0 picks a lane 0..4, then the draw dealt with the state decides: seat 0
    wins in lane k when the draw is under k/5, else seat 1 wins. On one deal a higher lane never does
    worse, so paired playouts tell the lanes apart where separate deals would need hundreds."""

    draw: float = 0.5
    lane: int = -1
    winner: int = -1

    def current_player(self) -> int:
        return 0 if self.lane < 0 else 1

    def legal_actions(self) -> Sequence[Action]:
        return list(range(5)) if self.lane < 0 else [0]

    def apply_action(self, action: Action) -> None:
        if self.lane < 0:
            self.lane = action
        else:
            self.winner = 0 if self.draw < self.lane / 5 else 1

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def outcome(self) -> Outcome:
        return Outcome((1, 0) if self.winner == 0 else (0, 1), (self.winner,), "end", 1)

    def returns(self) -> tuple[int, ...]:
        return (0, 0)

    def observation(self, player: int) -> Race:
        return self

    def clone(self) -> Race:
        return Race(self.draw, self.lane, self.winner)

    @property
    def seat(self) -> int:
        return 0


def _worst_lane(observation: object, legal: Sequence[Action], rng: random.Random) -> Action:
    """A heuristic that always picks the worst lane: the search must overrule it."""
    return min(legal)


def test_pimc_finds_the_best_lane_the_heuristic_misses() -> None:
    def deal(observation: Race, rng: random.Random) -> Race:
        return Race(draw=rng.random())  # what the seat has not seen, dealt anew

    policy = PairedMonteCarlo(deal, _worst_lane, playouts=200)
    picks = [policy.choose(Race(), [0, 1, 2, 3, 4], random.Random(seed)) for seed in range(20)]
    assert picks == [4] * 20  # the best lane every time, whatever the heuristic says
    hopeless = PairedMonteCarlo(lambda observation, rng: Race(draw=0.95), _worst_lane, playouts=200)
    assert hopeless.choose(Race(), [4, 3, 2, 1, 0], random.Random(1)) == 0  # every lane loses: ties keep the pick


def test_a_single_legal_action_is_played_without_a_search() -> None:
    def never(observation: object, rng: random.Random) -> Race:
        raise AssertionError("no deal is needed for a forced move")

    assert PairedMonteCarlo(never, _worst_lane, 50).choose(Race(), [3], random.Random(1)) == 3


@dataclass
class Finished:
    """A game over with these scores and winners (what reward reads)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    previous_scores: tuple[tuple[int, ...], ...] = ()

    def is_terminal(self) -> bool:
        return True

    def outcome(self) -> Outcome:
        return Outcome(self.scores, self.winners, "end", 1)

    def returns(self) -> tuple[int, ...]:
        return self.scores


def test_the_reward_is_half_the_win_and_half_the_rivals_beaten() -> None:
    state = Finished((3, 5, 5, 1), (1, 2))
    assert reward(state, 1) == pytest.approx((0.5 + 2.5 / 3) / 2)  # a shared win, ahead of two, level with one
    assert reward(state, 0) == pytest.approx((0 + 1 / 3) / 2)  # no win, ahead of seat 3 only
    assert reward(state, 3) == 0.0
    assert reward(Finished((9, 0), (0,)), 0) == 1.0


def test_pimc_names() -> None:
    assert find_policy("pimc:30", "gogyo").name == "pimc:30"
    assert find_policy("pimc", "gogyo").name == "pimc:200"
    with pytest.raises(ValueError, match="pimc:N with N a whole number of playouts"):
        find_policy("pimc:lots", "gogyo")
    with pytest.raises(ValueError, match="1 to 100,000 playouts, not 0"):
        find_policy("pimc:0", "gogyo")
    with pytest.raises(ValueError, match="no policy 'pimcs'"):
        find_policy("pimcs", "gogyo")

