"""gogyo's one engine: the cheap views of the legal actions agree with the list, clones are independent,
the harness's playout drives GogyoState to the same records as play_game, the inline shuffle is Random's."""
from __future__ import annotations

import dataclasses
import random

import pytest

from validator.engine.chance import inline_shuffle_matches, shuffle
from validator.engine.policies import find_policy
from validator.games.gogyo.game import GogyoGame
from validator.games.gogyo.rules import KIND_SHIFT, MASK, OVER, SHIFT
from validator.games.gogyo.state import GogyoState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, play_match, simulate


@pytest.fixture(scope="module")
def model():
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


@pytest.fixture(scope="module")
def game(model) -> GogyoGame:
    return GogyoGame.from_model(model)


def seeded_states(game: GogyoGame, games: int, seed: int):
    """Every decision state of `games` random games (2-4 players), each yielded before its move is made."""
    rng = random.Random(seed)
    for index in range(games):
        state = game.new_initial_state(rng, 2 + index % 3)
        while not state.is_terminal():
            yield state
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_legal_count_and_legal_at_equal_the_list_in_every_phase(game):
    phases, states = set(), 0
    for state in seeded_states(game, 300, seed=31):
        legal = list(state.legal_actions())
        assert state.legal_count() == len(legal)
        assert [state.legal_at(i) for i in range(len(legal))] == legal
        for i, action in enumerate(legal):
            assert state.move_at(i) == (action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK)
            fraction = (i + 0.5) / len(legal)
            assert state.sample(fraction) == (len(legal), *state.move_at(int(fraction * len(legal))))
        phases.add(state.phase)
        states += 1
    assert states > 10_000 and phases == {0, 1, 2, 3}  # main, win, give and declare choices all seen


def test_views_of_states_with_repeated_card_types(game):
    """Hands and fields holding two 天 or two 閥 list one choice per type, and the cheap views agree."""
    seen = 0
    for state in seeded_states(game, 400, seed=32):
        repeats = state.game.tables.repeats
        if not any(key & repeats for key in state.keys):
            continue
        legal = list(state.legal_actions())
        assert len(legal) == len(set(legal)) == state.legal_count()
        assert [state.legal_at(i) for i in range(len(legal))] == legal
        seen += 1
    assert seen > 500


def test_clone_is_independent(game):
    state = game.new_initial_state(random.Random(4), 4)
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    before = (repr(state.hands), repr(state.field), len(state.deck), state.phase, state.player, state.turns)
    copy = state.clone()
    assert copy.game is state.game
    rng = random.Random(5)
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[rng.randrange(copy.legal_count())])
    assert (repr(state.hands), repr(state.field), len(state.deck), state.phase, state.player, state.turns) == before
    state.check_invariants()


def test_clone_then_the_same_moves_gives_the_same_game(game):
    rng = random.Random(6)
    for _ in range(30):
        state = game.new_initial_state(rng, 3)
        for _ in range(rng.randrange(40)):
            if state.is_terminal():
                break
            state.apply_action(state.legal_at(rng.randrange(state.legal_count())))
        if state.is_terminal():
            continue
        copy = state.clone()
        assert copy.legal_actions() == state.legal_actions()
        picks = random.Random(7)
        while not state.is_terminal():
            action = state.legal_at(picks.randrange(state.legal_count()))
            assert copy.legal_at(state.legal_actions().index(action)) == action
            state.apply_action(action)
            copy.apply_action(action)
            assert (copy.hands, copy.field, copy.deck, copy.discard, copy.down, copy.keys, copy.phase, copy.player) == \
                (state.hands, state.field, state.deck, state.discard, state.down, state.keys, state.phase, state.player)
            copy.check_invariants()
        assert copy.outcome() == state.outcome()


def test_apply_action_after_the_end_is_refused(game):
    state = game.new_initial_state(random.Random(8), 2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert state.phase == OVER and state.legal_count() == 0
    with pytest.raises(ValueError, match="over"):
        state.apply_action(state.legal_actions()[0] if state.legal_actions() else 0)


def both_paths(game: GogyoGame, names: tuple[str, ...], matches: int, seed: int, step_cap: int = 1000):
    """Every match played by the generic play_game loop and by the engine's playout hook."""
    policies = [find_policy(name, "gogyo") for name in names]
    fast = game.fast_playout(policies)
    api = [play_match(game, policies, seed, i, step_cap=step_cap) for i in range(matches)]
    quick = [play_match(game, policies, seed, i, step_cap=step_cap, fast=fast) for i in range(matches)]
    return api, quick


@pytest.mark.parametrize("names", [("random",) * 2, ("random",) * 4, ("greedy",) * 3, ("greedy", "random"),
                                   ("random", "greedy", "random", "greedy")])
def test_the_playout_equals_play_game(game, names):
    api, quick = both_paths(game, names, 40, seed=23)
    assert quick == api


@pytest.mark.parametrize("step_cap", [1, 2, 3, 7, 20, 45])
def test_the_step_cap_stops_both_paths_alike(game, step_cap):
    for names in (("random",) * 3, ("greedy",) * 2, ("random", "greedy")):
        api, quick = both_paths(game, names, 10, seed=24, step_cap=step_cap)
        assert quick == api


def test_the_playout_plays_any_policy_as_play_game_asks_it(game):
    class First:
        name, needs_observation = "first", False

        def choose(self, observation, legal_actions, rng):
            return legal_actions[0]
    policies = [First(), find_policy("random", "gogyo")]
    fast = game.fast_playout(policies)
    assert [play_match(game, policies, 3, i, fast=fast) for i in range(10)] == \
        [play_match(game, policies, 3, i) for i in range(10)]


def test_simulate_without_invariant_checks_equals_the_checked_run(game):
    config = SimConfig(4, ("greedy", "random", "random", "greedy"), 30, seed=25)
    assert simulate(game, config) == simulate(game, dataclasses.replace(config, check_invariants=True))


def test_other_field_sizes_play_through_both_paths(model):
    wide = GogyoGame.from_model(dataclasses.replace(model, rules={**model.rules, "field_size": 6}))
    api, quick = both_paths(wide, ("random", "greedy"), 15, seed=26)
    assert quick == api


def test_inline_shuffle_equals_random_shuffle_and_the_fallback_is_used_otherwise(game):
    assert inline_shuffle_matches(66)
    bits = [(i + 1).bit_length() for i in range(66)]
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(66)), list(range(66))
        shuffle(ours, mine, bits)
        theirs.shuffle(reference)
        assert mine == reference and ours.getstate() == theirs.getstate()

    class Counting(random.Random):  # not random.Random itself: its own shuffle is used
        shuffles = 0

        def shuffle(self, x):  # type: ignore[override]
            Counting.shuffles += 1
            super().shuffle(x)
    state = game.new_initial_state(Counting(9), 2)
    reference = game.new_initial_state(random.Random(9), 2)
    assert Counting.shuffles == 1 and state.hands == reference.hands and state.deck == reference.deck


def test_scripted_cards_recount_the_kept_keys(game):
    state = game.new_initial_state(random.Random(10), 2)
    cards = list(range(66))
    state.set_cards([cards[:5], cards[5:10]], cards[10:14], cards[14:40], cards[40:], face_down=[3, 7])
    state.check_invariants()
    assert not state.is_face_up(3) and not state.is_face_up(7) and state.is_face_up(4)
    assert isinstance(state, GogyoState) and state.observation(1).hidden == (1, 1)
