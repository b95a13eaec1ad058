"""jinzai fast playouts: the same match records as the API engine + policies, seed for seed, for every seat mix."""
from __future__ import annotations

import dataclasses
import hashlib

import pytest

from validator.games.jinzai.state import JinzaiGame
from validator.games.jinzai.fast import FastJinzai, fast_playout
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.engine.policies import find_policy
from validator.simulate import SimConfig, play_match, simulate
from validator.variants import VariantStudy, apply_option


@pytest.fixture(scope="module")
def model():
    return load_game(DEFAULT_DECKS_DIR, "jinzai")


@pytest.fixture(scope="module")
def game(model) -> JinzaiGame:
    return JinzaiGame.from_model(model)


def both_paths(game: JinzaiGame, names: tuple[str, ...], matches: int, seed: int, step_cap: int = 1000):
    """Every match played by the API engine (JinzaiState + policies) and by the fast player."""
    policies = [find_policy(name, "jinzai") for name in names]
    fast = fast_playout(game, policies)
    assert fast is not None
    api = [play_match(game, policies, seed, i, step_cap=step_cap) for i in range(matches)]
    quick = [play_match(game, policies, seed, i, step_cap=step_cap, fast=fast) for i in range(matches)]
    return api, quick


@pytest.mark.parametrize("players", [3, 4])
def test_random_matches_equal_the_api_engine(game, players):
    api, quick = both_paths(game, ("random",) * players, 300, seed=31)
    assert quick == api


@pytest.mark.parametrize("players", [3, 4])
def test_greedy_matches_equal_the_api_engine(game, players):
    api, quick = both_paths(game, ("greedy",) * players, 100, seed=32)
    assert quick == api


@pytest.mark.parametrize("names", [("greedy", "random", "random"), ("random", "greedy", "greedy"),
                                   ("greedy", "random", "greedy", "random"), ("random", "random", "random", "greedy")])
def test_mixed_seats_equal_the_api_engine(game, names):
    api, quick = both_paths(game, names, 60, seed=33)
    assert quick == api


def test_the_records_cover_what_the_fast_path_special_cases(game):
    records = []
    for names in (("random",) * 4, ("random",) * 3, ("greedy",) * 4):
        records += both_paths(game, names, 100, seed=34)[1]
    matches = [m.games[0] for m in records]
    assert all(sum(g.actions[i] for g in matches) for i in range(1, len(game.action_kinds)))  # every kind played
    counters = {name: sum(dict(g.counters)[name] for g in matches) for name, _ in matches[0].counters}
    assert all(counters.values())  # forced duplicates, gifts, rotations, pool takes, 2s, repeated games
    assert any(g.decisions > g.choices for g in matches)  # decisions with a single legal action


def test_matches_that_run_out_of_games_end_alike(game):
    endless = dataclasses.replace(game, rules=dataclasses.replace(game.rules, vp_to_win=99, max_games=3))
    for names in (("random",) * 4, ("greedy", "random", "greedy")):
        api, quick = both_paths(endless, names, 30, seed=35)
        assert quick == api
        assert {m.games[0].end for m in quick} == {"max-games"}


@pytest.mark.parametrize("step_cap", [1, 2, 12, 13, 14, 30, 57, 90, 150])
def test_the_step_cap_stops_both_paths_alike(game, step_cap):
    for names in (("random",) * 4, ("greedy",) * 3, ("random", "greedy", "random", "greedy")):
        api, quick = both_paths(game, names, 15, seed=36, step_cap=step_cap)
        assert quick == api
        assert all(m.timed_out for m in quick) or step_cap > 30  # no game ends within 30 decisions
        assert any(m.timed_out for m in quick) or step_cap > 100  # some of these 15 matches outlast 90 steps


def test_every_variant_of_the_deck_equals_the_api_engine(model):
    study = VariantStudy.from_game(model)
    assert study is not None and len(study.options) >= 2
    for option in study.options:
        variant = JinzaiGame.from_model(apply_option(model, option))
        for names in (("random",) * 4, ("greedy", "random", "greedy")):
            api, quick = both_paths(variant, names, 25, seed=37)
            assert quick == api, option.id


def test_simulate_without_invariant_checks_equals_the_checked_api_run(game):
    config = SimConfig(4, ("greedy", "random", "random", "greedy"), 40, seed=38)
    assert simulate(game, config) == simulate(game, dataclasses.replace(config, check_invariants=True))


def test_records_are_those_of_the_reference_engine(game):
    """sha256 of repr(records) as the API engine and policies produce them (rules as of commit 3d7c33b, the
    pool space judged by sums, clarification "pool-side"; since then the deal shuffles with the harness's
    chance generator instead of a private Random seeded from it): a change here means the rules, the
    records or the policies' decisions changed."""
    expected = {
        (("random",) * 3, 150): "c057ae3f6309a797b53efdab647fd821f35826a4d503361c95126fa6ae25e6f4",
        (("random",) * 4, 150): "61ef2e1f67f162ca855c815282af83782e363782e49bf2531127e60ca6d9b186",
        (("greedy",) * 4, 60): "9278ae62e679108ab5b53340e0f1782ca4c290f82a1b07487edc6f366e4a5d6a",
        (("greedy",) * 3, 60): "8be91496f304e65ce4c02413a8bd29ab8cad06b97991ef6fae1d8ab209db8ee3",
        (("greedy", "random", "random", "greedy"), 60): "4e9f9aede28dfacd70bca9a8b8f8744479a87e9bc3da453927dd6ec20a623313",
        (("random", "greedy", "random"), 60): "14c987665c115dcbdebf980a8eabe78177192b8fce5e91ca01efe9ddd8c97e39",
    }
    for (names, matches), digest in expected.items():
        config = SimConfig(len(names), names, matches, seed=1)
        for checked in (False, True):  # the fast playout, then the API engine
            records = simulate(game, dataclasses.replace(config, check_invariants=checked))
            assert hashlib.sha256(repr(records).encode()).hexdigest() == digest, (names, checked)


def test_fast_player_only_for_policies_it_reproduces(game):
    class Custom:
        name, needs_observation = "custom", False

        def choose(self, observation, legal_actions, rng):
            return legal_actions[0]
    policies = [find_policy("random", "jinzai"), find_policy("greedy", "jinzai"), Custom()]
    assert game.fast_playout(policies) is None
    assert isinstance(game.fast_playout([find_policy("greedy", "jinzai")] * 4), FastJinzai)
    # without a fast player the harness plays the API engine: still the records of those policies
    assert play_match(game, policies, 5, 0) == play_match(game, policies, 5, 0, fast=None)


def test_fast_player_steps_aside_for_tables_it_does_not_cover(game):
    crowded = dataclasses.replace(game, table=dataclasses.replace(game.table, kinds=game.table.kinds + (0,) * 12))
    assert fast_playout(crowded, [find_policy("random", "jinzai")] * 4) is None  # a column could outgrow its packed field
