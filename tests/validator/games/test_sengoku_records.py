"""sengoku records pinned: the speed-ups of the engine and its policies leave every seeded game as it was."""
from __future__ import annotations

import hashlib
import random

import pytest

from validator.games.sengoku.state import SengokuGame
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate

# sha256 of repr(simulate(...)) as the engine and policies of commit 49b30d4 (before the speed-ups)
# produced them: a change here means the rules or the policies' decisions changed.
EXPECTED = {
    ("base", ("random",) * 2, 300, 7): "70aed85118a16be087edee6cc0c8b9ca926ad0e548f8532a1190a70ea575d757",
    ("base", ("random",) * 4, 300, 7): "7ded7c152b6a5e29dcfbd90e319c552e9810efab04d3ff4fd46f3de89b963096",
    ("base", ("random",) * 6, 200, 7): "4a88350848d8c1e8e8e75c97363f92421c21f4932d7f205b2e2732032bdf9fc2",
    ("base", ("random",) * 9, 60, 7): "c04b503f9ff02916067f178cbc2500db7f82987520969d0e22111d6a21b6f12e",
    ("riichi", ("random",) * 4, 200, 7): "750c557a98caceb2c92f35cdf91e0bddd33ae998f027b15022f7722ced5814f1",
    ("riichi", ("random",) * 3, 150, 7): "7a9661958ed238a6b9a319aa5e23e0bc2a9021f2bb9029d78e5f9a7040cd4c8a",
    ("base", ("greedy",) * 4, 40, 7): "c623477a805bdeb10d5de3207226a4c4f3dbd64f1b8903f460ac4223ec58f38b",
    ("riichi", ("greedy",) * 4, 30, 7): "09fc63fa0143d1f637b176244bf809085f38af27c0a214353e8d2a8faba7dd10",
    ("base", ("greedy", "random", "random"), 60, 7): "35bab2655f20ba503234cfe31d881d97aff7099773c8575ec6c1be79ce19ee01",
    ("riichi", ("random", "greedy"), 60, 7): "08a5d6700b2ade3adb33c570589dbb3974ec4b13198ec714ee30e37454cfdfaa",
}
RANKED = "7410199554762a05bee3034630e9b066888b03d95b22fce0bfbf95a81fb5ca58"  # riichi, riichi_draw ranked


@pytest.fixture(scope="module")
def game() -> SengokuGame:
    return SengokuGame.from_model(load_game(DEFAULT_DECKS_DIR, "sengoku"))


def digest(game: SengokuGame, names: tuple[str, ...], matches: int, seed: int) -> str:
    records = simulate(game, SimConfig(len(names), names, matches, seed=seed))
    return hashlib.sha256(repr(records).encode()).hexdigest()


@pytest.mark.parametrize("config", list(EXPECTED), ids=lambda c: f"{c[0]}-{'-'.join(c[1])}")
def test_records_are_those_of_the_reference_engine(game, config):
    variant, names, matches, seed = config
    assert digest(game.with_rules(variant=variant), names, matches, seed) == EXPECTED[config]


def test_ranked_riichi_draws_are_those_of_the_reference_engine(game):
    assert digest(game.with_rules(variant="riichi", riichi_draw="ranked"), ("random",) * 4, 200, 8) == RANKED


def test_checked_and_unchecked_runs_agree(game):
    for variant, names in (("base", ("random",) * 4), ("riichi", ("greedy", "random", "random"))):
        config = SimConfig(len(names), names, 40, seed=9)
        g = game.with_rules(variant=variant)
        assert simulate(g, config) == simulate(g, SimConfig(len(names), names, 40, seed=9, check_invariants=True))


def reference_packing(table, hand: tuple[int, ...], wild: bool) -> int:
    """The packing of commit 49b30d4, card by card and with no shortcut: the oracle for the surname-driven one."""
    if len(hand) < (2 if wild else 3):
        return 0
    first, rest = hand[0], hand[1:]
    best = reference_packing(table, rest, wild)
    for w in table.names_with[first]:
        remaining = list(rest)
        name = list(table.names[w])
        name.remove(first)
        missing = 0
        for t in name:
            if t in remaining:
                remaining.remove(t)
            else:
                missing += 1
        if missing == 0:
            best = max(best, 1 + reference_packing(table, tuple(remaining), wild))
        elif missing == 1 and wild:
            best = max(best, 1 + reference_packing(table, tuple(remaining), False))
    return best


def test_packing_equals_the_reference_on_random_and_name_rich_hands(game):
    table = game.table
    rng = random.Random(5)
    deck = list(table.type_of)
    hands = [tuple(sorted(rng.sample(deck, rng.randrange(0, 16)))) for _ in range(1500)]
    for _ in range(1500):  # hands built from names, less a card, plus a card: the riichi cases
        cards = [t for w in rng.sample(range(len(table.names)), rng.randrange(1, 5)) for t in table.names[w]]
        cards.remove(rng.choice(cards))
        cards += rng.sample(deck, rng.randrange(0, 3))
        hands.append(tuple(sorted(cards)))
    for hand in hands:
        assert table.packing(hand) == reference_packing(table, hand, False), hand
        assert table.packing_wild(hand) == reference_packing(table, hand, True), hand
