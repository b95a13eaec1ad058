"""sanguosha: seeded random games for every player count under the invariants after every step, no game
near the step cap, determinism, clones that play on alike, and the greedy heuristic's games."""
from __future__ import annotations

import random

import pytest

from validator.engine.policies import GreedyPolicy, RandomPolicy
from validator.games.sanguosha.policies import choose
from validator.games.sanguosha.positions import game_from_files
from validator.simulate import play_game

GAME = game_from_files()
CAP = 2000


def play(players: int, seed: int, check: bool = True) -> list[int]:
    rng = random.Random(seed)
    st = GAME.new_initial_state(rng, players)
    steps = []
    while not st.is_terminal():
        legal = st.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        st.apply_action(action)
        if check:
            st.check_invariants()
        steps.append(action)
        assert len(steps) < CAP
    assert st.outcome().winners and sum(st.returns()) == len(st.outcome().winners)
    return steps


@pytest.mark.parametrize("players", range(2, 11))
def test_random_games_keep_the_invariants(players):
    for seed in range(30):
        play(players, 1000 * players + seed)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 11))
def test_thousands_of_random_games(players):
    for seed in range(1000):
        play(players, 7_000_000 + 1000 * players + seed)


def test_same_seed_same_game_and_clones_play_on_alike():
    assert play(6, 42) == play(6, 42)
    rng = random.Random(8)
    st = GAME.new_initial_state(rng, 7)
    for _ in range(150):
        legal = st.legal_actions()
        st.apply_action(legal[int(rng.random() * len(legal))])
    copy = st.clone()
    assert copy.legal == st.legal and copy.hands == st.hands and copy.deck == st.deck
    logs = []
    for state in (st, copy):
        moves = random.Random(3)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(moves.random() * len(legal))])
        logs.append(state.outcome())
    assert logs[0] == logs[1]


@pytest.mark.parametrize("players", (4, 5, 8))
def test_greedy_and_mixed_games_finish_under_the_harness(players):
    greedy = GreedyPolicy(choose)
    for seed in range(20):
        policies = [greedy if (seed + s) % 2 else RandomPolicy() for s in range(players)]
        record = play_game(GAME, policies, random.Random(seed), random.Random(seed + 99), first_player=None,
                           step_cap=CAP, check_invariants=True)
        assert record.end != "cap" and record.winners
        labels = dict(record.labels)
        assert set(labels) == {"身分", "武将"} and "主公" in labels["身分"]
