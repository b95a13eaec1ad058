"""jinzai's one engine: injected chance, clone(), indexed legal actions, and the harness's whole-match player.

The playout (JinzaiGame.fast_playout) drives JinzaiState through its own methods; these tests hold it
to the records the harness's generic play_game produces with the same policies, seeds and caps.
"""
from __future__ import annotations

import dataclasses
import pickle
import random
import subprocess
import sys

import pytest

from validator.engine.policies import find_policy
from validator.games.jinzai.game import JinzaiGame
from validator.games.jinzai.state import FIELDS, JinzaiState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, play_match, simulate
from validator.variants import VariantStudy, apply_option


@pytest.fixture(scope="module")
def model():
    return load_game(DEFAULT_DECKS_DIR, "jinzai")


@pytest.fixture(scope="module")
def game(model) -> JinzaiGame:
    return JinzaiGame.from_model(model)


def random_walk(state: JinzaiState, rng: random.Random, steps: int = 10_000) -> list[int]:
    """Play random actions to the end (or `steps`); the actions taken."""
    taken = []
    while not state.is_terminal() and len(taken) < steps:
        action = state.legal_at(int(rng.random() * state.legal_count()))
        taken.append(action)
        state.apply_action(action)
    return taken


# -- chance ----------------------------------------------------------------------------------------
def test_the_state_shuffles_with_the_harness_generator(game):
    chance = random.Random(7)
    state = game.new_initial_state(chance, 4)
    assert state.chance is chance  # kept by reference, no private generator
    again = game.new_initial_state(random.Random(7), 4)
    assert state.hands == again.hands and state.pool == again.pool  # same chance seed, same deal
    other = game.new_initial_state(random.Random(8), 4)
    assert (state.hands, state.pool) != (other.hands, other.pool)


def test_the_state_creates_no_generator_of_its_own(game, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the jinzai state made a random.Random of its own")
    chance, choice = random.Random(3), random.Random(4)
    monkeypatch.setattr(random, "Random", forbidden)
    state = game.new_initial_state(chance, 4)
    random_walk(state, choice)
    assert state.is_terminal() and state.counters()["games"] >= 1  # later deals drew from `chance` too


def test_later_deals_draw_from_the_same_generator(game):
    """A match's games are dealt one after another from the one chance generator."""
    a, b = random.Random(11), random.Random(11)
    first, second = game.new_initial_state(a, 3), game.new_initial_state(b, 3)
    random_walk(first, random.Random(1))
    random_walk(second, random.Random(1))
    assert first.counters()["games"] > 1 and a.getstate() == b.getstate() and first.outcome() == second.outcome()


# -- clone -----------------------------------------------------------------------------------------
def test_playing_on_a_clone_leaves_the_original_untouched(game):
    state = game.new_initial_state(random.Random(5), 4)
    random_walk(state, random.Random(6), steps=40)
    before = {name: repr(getattr(state, name)) for name in FIELDS if name != "chance"}
    observation = state.observation(state.current_player())
    copy = state.clone(chance=random.Random(99))
    assert copy.legal_actions() == state.legal_actions() and copy.observation(copy.current_player()) == observation
    random_walk(copy, random.Random(7))
    copy.check_invariants()
    assert copy.is_terminal() and not state.is_terminal()
    assert {name: repr(getattr(state, name)) for name in FIELDS if name != "chance"} == before
    state.check_invariants()


def test_a_clone_and_a_pickle_have_every_field_and_share_nothing_that_changes(game):
    state = game.new_initial_state(random.Random(5), 4)
    random_walk(state, random.Random(6), steps=40)
    copies = state.clone(), pickle.loads(pickle.dumps(state))
    assert copies[1].chance.getstate() == state.chance.getstate()
    for copy in copies:
        assert copy.codes is copy.game.codes and copy.menus is copy.game.menus
        for name in FIELDS:
            value = getattr(state, name)
            assert name in ("game", "chance") or repr(getattr(copy, name)) == repr(value), name
            if isinstance(value, list) and name != "_singles":  # a decision's options are made anew, never changed
                assert getattr(copy, name) is not value, name
        rows, copied = state.hands + state.picked + state.cols, copy.hands + copy.picked + copy.cols
        assert all(a is not b for a, b in zip(rows, copied))
    if not hasattr(state, "__dict__"):
        pytest.skip("compiled by `make fast`: no __dict__ to compare (test_native plays both builds alike)")
    assert vars(state).keys() == {*FIELDS, "codes", "menus"}  # FIELDS: what a pickle carries


def test_a_clone_shares_chance_unless_given_one(game):
    chance = random.Random(5)
    state = game.new_initial_state(chance, 4)
    assert state.clone().chance is chance
    other = random.Random(1)
    assert state.clone(chance=other).chance is other and state.chance is chance


def test_a_clone_plays_on_exactly_as_the_original(game):
    state = game.new_initial_state(random.Random(21), 4)
    random_walk(state, random.Random(22), steps=60)
    copy = state.clone(chance=random.Random(0))
    copy.chance.setstate(state.chance.getstate())
    random_walk(state, random.Random(23))
    random_walk(copy, random.Random(23))
    assert copy.outcome() == state.outcome() and copy.game_totals == state.game_totals


# -- indexed legal actions -------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
def test_legal_count_and_legal_at_index_the_legal_actions(game, players):
    kinds = set()
    for seed in range(30):
        state = game.new_initial_state(random.Random(seed), players)
        rng = random.Random(seed + 100)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert state.legal_count() == len(legal) > 0 and len(set(legal)) == len(legal)
            assert [state.legal_at(i) for i in range(len(legal))] == legal
            kinds.add(game.action_kind(legal[0]))
            state.apply_action(legal[int(rng.random() * len(legal))])
            state.check_invariants()
        assert state.legal_count() == 0 and state.legal_actions() == []
    assert len(kinds) >= 7  # every decision kind (STAR_TAKE/ROTATE/GIVE/TAKE_BID share first kinds) seen


def test_actions_use_the_shared_codec(game):
    from validator.engine.actions import ActionCodec
    from validator.games.jinzai.rules import CODEC, GIVE, decode, encode

    assert CODEC == ActionCodec(2, 6)
    assert encode(GIVE, 5, 2) == GIVE << 12 | 5 << 6 | 2 and decode(encode(GIVE, 5, 2)) == (GIVE, 5, 2)
    assert game.action_kind(encode(GIVE, 5, 2)) == GIVE


# -- the harness's whole-match player --------------------------------------------------------------
def both_paths(game, names, matches, seed, step_cap=1000):
    """Every match played by the harness's generic loop (play_game) and by the game's playout."""
    policies = [find_policy(name, "jinzai") for name in names]
    fast = game.fast_playout(policies)
    generic = [play_match(game, policies, seed, i, step_cap=step_cap) for i in range(matches)]
    quick = [play_match(game, policies, seed, i, step_cap=step_cap, fast=fast) for i in range(matches)]
    return generic, quick


@pytest.mark.parametrize("names", [("random",) * 4, ("random",) * 3, ("greedy",) * 3,
                                   ("greedy", "random", "greedy", "random")])
def test_the_playout_equals_the_generic_loop(game, names):
    generic, quick = both_paths(game, names, 40, seed=31)
    assert quick == generic


def test_matches_that_run_out_of_games_end_alike(game):
    endless = dataclasses.replace(game, rules=dataclasses.replace(game.rules, vp_to_win=99, max_games=3))
    for names in (("random",) * 4, ("greedy", "random", "greedy")):
        generic, quick = both_paths(endless, names, 20, seed=35)
        assert quick == generic
        assert {m.games[0].end for m in quick} == {"max-games"}


@pytest.mark.parametrize("step_cap", [1, 2, 12, 13, 14, 30, 57, 90])
def test_the_step_cap_stops_both_paths_alike(game, step_cap):
    for names in (("random",) * 4, ("greedy",) * 3, ("random", "greedy", "random", "greedy")):
        generic, quick = both_paths(game, names, 15, seed=36, step_cap=step_cap)
        assert quick == generic
        assert any(m.timed_out for m in quick)
        assert all(m.timed_out for m in quick) or step_cap > 30  # no game ends within 30 decisions


def test_any_policy_is_played_through_the_state(game):
    class First:
        name, needs_observation = "first", False

        def choose(self, observation, legal_actions, rng):
            return legal_actions[0]
    policies = [find_policy("random", "jinzai"), find_policy("greedy", "jinzai"), First()]
    fast = game.fast_playout(policies)
    assert play_match(game, policies, 5, 0, fast=fast) == play_match(game, policies, 5, 0)


def test_every_variant_of_the_deck_plays_alike(model):
    study = VariantStudy.from_game(model)
    assert study is not None and len(study.options) >= 2
    for option in study.options:
        variant = JinzaiGame.from_model(apply_option(model, option))
        generic, quick = both_paths(variant, ("greedy", "random", "greedy"), 15, seed=37)
        assert quick == generic, option.id


def test_simulate_without_invariant_checks_equals_the_checked_run(game):
    config = SimConfig(4, ("greedy", "random", "random", "greedy"), 30, seed=38)
    assert simulate(game, config) == simulate(game, dataclasses.replace(config, check_invariants=True))


@pytest.mark.parametrize("module", ["rules", "columns", "scoring", "state", "policies", "playout", "claims"])
def test_every_module_imports_alone(module):
    subprocess.run([sys.executable, "-c", f"import validator.games.jinzai.{module}"], check=True)
