"""Every registered rules engine honours the common API (OpenSpiel RandomSimTest style)."""
from __future__ import annotations

import random

import pytest

from validator.engine.api import TERMINAL
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for, find_spec, known_games
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture(scope="module", params=known_games())
def engine(request):
    return engine_for(load_game(DEFAULT_DECKS_DIR, request.param))


def test_find_spec_names_the_unknown_one_and_lists_the_known():
    assert {"gogyo", "jinzai", "sengoku"} <= set(known_games())
    assert find_spec("gogyo").name == "gogyo"
    for bad in ("chess", "gogyo.state", "../gogyo", "Gogyo", ""):
        with pytest.raises(ValueError, match=r"no rules engine .* \(known: .*gogyo"):
            find_spec(bad)


def test_find_policy_names_the_unknown_one():
    assert find_policy("random", "gogyo").name == "random"
    assert find_policy("greedy", "gogyo").name == "greedy"
    known = r"random, greedy, mcts\[:ITERATIONS\], pimc\[:PLAYOUTS\]"
    with pytest.raises(ValueError, match=rf"no policy 'smart' \(known: {known}\)"):
        find_policy("smart", "gogyo")


def test_every_engine_names_its_own_package(engine):
    assert find_spec(engine.engine).engine == type(engine).from_model


def test_random_playouts_respect_the_api(engine):
    rng = random.Random(2024)
    for players in range(engine.min_players, engine.max_players + 1):
        for _ in range(25):
            state = engine.new_initial_state(rng, players)
            state.check_invariants()
            steps = 0
            while not state.is_terminal():
                player = state.current_player()
                assert 0 <= player < players
                legal = list(state.legal_actions())
                assert legal and len(legal) == len(set(legal))
                assert all(state.action_to_string(a) for a in legal)
                obs = state.observation(player)
                assert obs.seat == player and obs.game_name == engine.name
                action = rng.choice(legal)
                assert 0 <= engine.action_kind(action) < len(engine.action_kinds)
                state.apply_action(action)
                state.check_invariants()
                steps += 1
                assert steps < 2000
            assert state.current_player() == TERMINAL and not state.legal_actions()
            outcome = state.outcome()
            assert len(outcome.scores) == players and outcome.winners
            assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
            assert tuple(state.returns()) == outcome.scores and outcome.turns == state.turn_number()


def test_same_seed_same_game(engine):
    def play(seed: int) -> list[str]:
        rng, state, log = random.Random(seed), None, []
        state = engine.new_initial_state(rng, engine.max_players)
        while not state.is_terminal():
            action = rng.choice(list(state.legal_actions()))
            log.append(state.action_to_string(action))
            state.apply_action(action)
        return log + [repr(state.outcome())]
    assert play(5) == play(5)
    assert play(5) != play(6)


def test_player_count_is_checked(engine):
    with pytest.raises(ValueError, match="players"):
        engine.new_initial_state(random.Random(1), engine.max_players + 1)


def test_card_conservation_names_the_duplicate_and_the_lost() -> None:
    from validator.engine.api import InvariantError, check_conserved

    check_conserved([("deck", [0, 2]), ("hand0", [1])], 3)
    with pytest.raises(InvariantError, match="card 1 both in deck and hand0"):
        check_conserved([("deck", [0, 1]), ("hand0", [1, 2])], 3)
    with pytest.raises(InvariantError, match=r"cards lost: \[2\]"):
        check_conserved([("deck", [0]), ("hand0", [1])], 3)
