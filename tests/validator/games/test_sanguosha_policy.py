"""sanguosha heuristic strength, measured head to head under the report's harness (play_game, seeded):
each identity's seat plays better than a random player would there, the heuristic beats the one it
replaced (choose_v1, frozen in tests/support), and the general is picked uniformly among those offered.

Win rates are compared through 95 % Wilson intervals that must not overlap (a one-sided test at about
the 97.5 % level each, much stronger jointly); the game counts are chosen so the measured gaps clear that
bar several times over, and every run is seeded, so the outcome is fixed.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from sanguosha_policy_v1 import choose_v1
from validator.engine.api import Action
from validator.engine.policies import GreedyPolicy, Heuristic, Policy, RandomPolicy
from validator.games.sanguosha.policies import choose
from validator.games.sanguosha.positions import game_from_files
from validator.games.sanguosha.rules import LORD, LOYALIST, P_GENERAL, REBEL, RENEGADE, first
from validator.intervals import wilson
from validator.simulate import derive_seed, play_game

GAME = game_from_files()
CAP = 3000  # game.json simulation.step_cap, as the report plays
NAMES = {LORD: "lord", LOYALIST: "loyalist", REBEL: "rebel", RENEGADE: "renegade"}


class ByRole:
    """Test harness only: plays `heuristics[role]` for the seat's own identity (read from its observation)."""

    name = "by-role"
    needs_observation = True

    def __init__(self, heuristics: dict[int, Heuristic]) -> None:
        self.heuristics = heuristics

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.heuristics[observation.role](observation, legal_actions, rng)


def _seeds(base: int, index: int) -> tuple[int, int]:
    return derive_seed(base, index, "chance"), derive_seed(base, index, "policy")


def _winners(policies: Sequence[Policy], chance: int, choice: int) -> tuple[int, ...]:
    record = play_game(GAME, policies, random.Random(chance), random.Random(choice), first_player=None,
                       step_cap=CAP)
    return record.winners  # none for a game stopped at the cap, as the report counts it


def _roles(players: int, chance: int) -> list[int]:
    """The identities this chance seed deals (the experimenter's knowledge, never a policy's)."""
    return list(GAME.new_initial_state(random.Random(chance), players).role)


def _separated(better: int, worse: int, games: int) -> tuple[tuple[float, float], tuple[float, float]]:
    high, low = wilson(better, games), wilson(worse, games)
    assert low[1] < high[0], f"{better}/{games} {high} does not clear {worse}/{games} {low}"
    return high, low


# (players, identity) -> games per arm; the smaller samples already separate by a wide margin. Issue 28 cut a
# count only where the seeded run's gap between the intervals is at least what the earlier count gave
# (5-lord 0.300 at 100 against 0.275 at 200, 5-loyalist 0.207/0.181, 5-rebel 0.076 at 150/0.056,
# 8-rebel 0.138 at 200 as at 300).
_VERSUS_RANDOM = {(5, LORD): 100, (5, LOYALIST): 100, (5, REBEL): 150, (5, RENEGADE): 300,
                  (8, LORD): 200, (8, LOYALIST): 300, (8, REBEL): 200, (8, RENEGADE): 400}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "identity"), list(_VERSUS_RANDOM), ids=lambda v: str(v))
def test_each_identity_plays_better_than_random_in_its_seat(players: int, identity: int) -> None:
    """The first seat of `identity`: heuristic vs random there, the other seats heuristic, same deals."""
    games = _VERSUS_RANDOM[players, identity]
    greedy, rand = GreedyPolicy(choose), RandomPolicy()
    wins = {"heuristic": 0, "random": 0}
    for index in range(games):
        chance, choice = _seeds(100 + players, index)
        seat = _roles(players, chance).index(identity)
        for arm, policy in (("heuristic", greedy), ("random", rand)):
            table: list[Policy] = [greedy] * players
            table[seat] = policy
            wins[arm] += seat in _winners(table, chance, choice)
    _separated(wins["heuristic"], wins["random"], games)


def _side_wins(players: int, games: int, heuristics: dict[int, Heuristic], side: frozenset[int]) -> int:
    """Games won by `side` (identities) with each identity played by `heuristics`."""
    policy = ByRole(heuristics)
    wins = 0
    for index in range(games):
        chance, choice = _seeds(200 + players, index)
        roles = _roles(players, chance)
        winners = _winners([policy] * players, chance, choice)
        wins += any(roles[s] in side for s in winners)
    return wins


LORD_SIDE, REBELS = frozenset({LORD, LOYALIST}), frozenset({REBEL})
OLD: dict[int, Heuristic] = dict.fromkeys(NAMES, choose_v1)


# Games per arm. Issue 28 cut two counts where the seeded run separates at least as widely as at 1000 games
# (8p-rebels: gap 0.022 at 400 against 0.021; 5p-lord-side: 0.054 at 300 against 0.037); the other two
# separate only near 1000 and keep it.
@pytest.mark.slow
@pytest.mark.parametrize(("players", "side", "games"), [(8, LORD_SIDE, 1000), (8, REBELS, 400),
                                                        (5, LORD_SIDE, 300), (5, REBELS, 1000)],
                         ids=["8p-lord-side", "8p-rebels", "5p-lord-side", "5p-rebels"])
def test_the_new_heuristic_beats_the_old_one(players: int, side: frozenset[int], games: int) -> None:
    """One side played by the new heuristic against the old one elsewhere wins more than old against old."""
    mixed = {role: (choose if role in side else choose_v1) for role in NAMES}
    new = _side_wins(players, games, mixed, side)
    old = _side_wins(players, games, OLD, side)
    _separated(new, old, games)


def test_the_general_is_picked_uniformly_among_those_offered() -> None:
    """Over 1200 8-player deals each general is chosen about as often as 1 / (options) of its offers."""
    offered: Counter[int] = Counter()
    chosen: Counter[int] = Counter()
    rng = random.Random(5)
    for deal in range(1200):
        st = GAME.new_initial_state(random.Random(deal), 8)
        while st.prompt[0] == P_GENERAL and not st.is_terminal():
            seat = st.current_player()
            obs = st.observation(seat)
            legal = st.legal_actions()
            action = choose(obs, legal, rng)
            if seat != st.lord:  # the lord's list has a different length; it is drawn the same way
                offered.update(obs.general_options)
                chosen[first(action)] += 1
            st.apply_action(action)
    assert len(offered) >= 20
    for general, times in offered.items():
        share = chosen[general] / times
        assert 1 / 3 - 0.07 < share < 1 / 3 + 0.07, (general, chosen[general], times)
