"""gogyo fast playouts: the same records as the API engine + policies, seed for seed; the scorer's shortcuts are exact."""
from __future__ import annotations

import dataclasses
import hashlib
import random

import pytest

from validator.games.gogyo.state import GogyoGame
from validator.games.gogyo.fast import FastGogyo, _shuffle, _shuffle_matches, fast_playout
from validator.games.gogyo.scoring import Scorer
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.engine.policies import find_policy
from validator.simulate import SimConfig, play_match, simulate


@pytest.fixture(scope="module")
def model():
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


@pytest.fixture(scope="module")
def game(model) -> GogyoGame:
    return GogyoGame.from_model(model)


def both_paths(game: GogyoGame, names: tuple[str, ...], matches: int, seed: int, step_cap: int = 1000):
    """Every match played by the API engine (GogyoState + policies) and by the fast player."""
    policies = [find_policy(name, "gogyo") for name in names]
    fast = fast_playout(game, policies)
    assert fast is not None
    api = [play_match(game, policies, seed, i, step_cap=step_cap) for i in range(matches)]
    quick = [play_match(game, policies, seed, i, step_cap=step_cap, fast=fast) for i in range(matches)]
    return api, quick


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_equal_the_api_engine(game, players):
    api, quick = both_paths(game, ("random",) * players, 250, seed=21)  # 500 games
    assert quick == api


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_equal_the_api_engine(game, players):
    api, quick = both_paths(game, ("greedy",) * players, 100, seed=22)  # 200 games
    assert quick == api


@pytest.mark.parametrize("names", [("greedy", "random"), ("random", "greedy", "random"),
                                   ("greedy", "random", "greedy", "random")])
def test_mixed_seats_equal_the_api_engine(game, names):
    api, quick = both_paths(game, names, 60, seed=23)
    assert quick == api


def test_the_records_cover_what_the_fast_path_special_cases(game):
    _, quick = both_paths(game, ("random",) * 4, 250, seed=21)
    games = [g for m in quick for g in m.games]
    totals = [sum(g.actions[i] for g in games) for i in range(len(game.action_kinds))]
    assert all(totals[1:])  # every action kind was played
    assert {g.end for g in games} == {"declaration", "empty-deck"}
    assert any(dict(g.counters)["wrong_declarations"] for g in games)


@pytest.mark.parametrize("step_cap", [1, 2, 3, 7, 20, 45])
def test_the_step_cap_stops_both_paths_alike(game, step_cap):
    for names in (("random",) * 3, ("greedy",) * 2):
        api, quick = both_paths(game, names, 20, seed=24, step_cap=step_cap)
        assert quick == api


def test_simulate_without_invariant_checks_equals_the_checked_api_run(game):
    config = SimConfig(4, ("greedy", "random", "random", "greedy"), 40, seed=25)
    assert simulate(game, config) == simulate(game, dataclasses.replace(config, check_invariants=True))


def test_records_are_those_of_the_reference_engine(game):
    """sha256 of repr(records) as the engine and policies of commit a2aeea9 (before the fast path)
    produced them: a change here means the rules or the policies' decisions changed."""
    expected = {
        (("greedy",) * 4, 60): "ef7c890577abf2a95d5afe628c638d7ee36f7b68167409d0019b539eaa5a0e2a",
        (("random",) * 3, 150): "a51a520fb44719c5d7ba3bebffe3d0dea698a8a3121e2867ba1829c65d1a8340",
        (("greedy", "random"), 60): "d6f3c2ddf578cbe0f48910e7051e3bb663e1d5e4b43154652434d9277d41c2b3",
    }
    for (names, matches), digest in expected.items():
        records = simulate(game, SimConfig(len(names), names, matches, seed=1))
        assert hashlib.sha256(repr(records).encode()).hexdigest() == digest, names


def test_fast_player_only_for_policies_it_reproduces(game):
    class Custom:
        name, needs_observation = "custom", False

        def choose(self, observation, legal_actions, rng):
            return legal_actions[0]
    assert fast_playout(game, [find_policy("random", "gogyo"), Custom()]) is None
    assert fast_playout(game, [find_policy("greedy", "gogyo")] * 4) is not None


def test_fast_player_steps_aside_for_rules_it_does_not_cover(model):
    wide = GogyoGame.from_model(dataclasses.replace(model, rules={**model.rules, "field_size": 6}))
    assert fast_playout(wide, [find_policy("random", "gogyo")] * 2) is None


def test_inline_shuffle_equals_random_shuffle_and_the_fallback_is_used_otherwise(game):
    assert _shuffle_matches(66)
    bits = [(i + 1).bit_length() for i in range(66)]
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(66)), list(range(66))
        _shuffle(ours, mine, bits)
        theirs.shuffle(reference)
        assert mine == reference and ours.getstate() == theirs.getstate()
    policies = [find_policy("random", "gogyo")] * 3
    fast = FastGogyo(game, (0, 0, 0))
    fast.inline_shuffle = False  # as on an interpreter whose shuffle draws differently
    assert [play_match(game, policies, 3, i, fast=fast) for i in range(20)] == \
        [play_match(game, policies, 3, i) for i in range(20)]


def test_scorer_shortcuts_are_exact(game):
    """The order-free bound is the exact total when one kind scores 0; every path to a total agrees."""
    scorer, table = game.scorer, game.table
    reference = Scorer(table, scorer.rules)  # a fresh memo; best() tries every order and memoises nothing
    assert scorer.bounds_exact
    dyn_weight, elem_weight = scorer.count_weights
    specials = [c for c, t in enumerate(table.type_of) if table.copies[t] > 1]
    rng = random.Random(8)
    for i in range(1500):
        pool = specials + rng.sample(range(66), 12) if i % 2 else range(66)
        cards = rng.sample(list(pool), rng.choice((3, 4, 5)))
        types = [table.type_of[c] for c in cards]
        best = reference.best(types).total
        key = table.hand_key(types)
        assert scorer.total(key, types) == best
        dyn_key, elem_key = sum(dyn_weight[t] for t in types), sum(elem_weight[t] for t in types)
        assert reference.total_counted(key, types, dyn_key, elem_key) == best  # its own memo: a second path
        assert scorer.ceiling(dyn_key, elem_key) >= best
        dynasty, element = scorer.ceiling_tables()[0][dyn_key], scorer.ceiling_tables()[1][elem_key]
        assert (dynasty and element) or dynasty + element == best
