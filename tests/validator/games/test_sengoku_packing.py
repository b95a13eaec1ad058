"""sengoku's surname-driven packing against the plain card-by-card search it replaced (the reference)."""
from __future__ import annotations

import random

import pytest

from validator.games.sengoku.names import NameTable
from validator.games.sengoku.state import SengokuGame
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture(scope="module")
def game() -> SengokuGame:
    return SengokuGame.from_model(load_game(DEFAULT_DECKS_DIR, "sengoku"))


def reference_packing(table: NameTable, hand: tuple[int, ...], wild: bool) -> int:
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


def test_packing_equals_the_reference_on_random_and_name_rich_hands(game: SengokuGame) -> None:
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
