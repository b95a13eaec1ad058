"""Every game's seeded records and one played-out match, against readable goldens (tests/goldens/).

The goldens of gogyo, jinzai and sengoku were written by the engines as they stood before the
game-package merge (jinzai's after its chance stream moved to the harness); the merged engines
reproduce them line for line, through simulate() and through the checked State API. sangokushi's
were written when its engine first played the real deck and map. sanguosha's were written by its
generator-coroutine engine before the rebuild on an explicit decision stack (issue 26), which
reproduces them line for line.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from goldens import check_golden, playthrough, records_summary
from validator.engine.api import RulesGame
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@cache
def engine(game: str) -> RulesGame:
    return engine_for(load_game(DEFAULT_DECKS_DIR, game))


def sengoku(**rules: str) -> Callable[[], RulesGame]:
    return lambda: engine("sengoku").with_rules(**rules)  # type: ignore[attr-defined]


R, G = "random", "greedy"
# golden name -> (engine, seats, matches, seed)
RECORDS: dict[str, tuple[Callable[[], RulesGame], tuple[str, ...], int, int]] = {
    "gogyo-random-2p": (lambda: engine("gogyo"), (R,) * 2, 300, 1),
    "gogyo-random-4p": (lambda: engine("gogyo"), (R,) * 4, 300, 1),
    "gogyo-greedy-4p": (lambda: engine("gogyo"), (G,) * 4, 100, 2),
    "gogyo-mixed-3p": (lambda: engine("gogyo"), (G, R, R), 100, 3),
    "jinzai-random-4p": (lambda: engine("jinzai"), (R,) * 4, 300, 1),
    "jinzai-random-3p": (lambda: engine("jinzai"), (R,) * 3, 300, 1),
    "jinzai-greedy-4p": (lambda: engine("jinzai"), (G,) * 4, 100, 2),
    "jinzai-mixed-4p": (lambda: engine("jinzai"), (R, G, R, G), 100, 3),
    "sengoku-random-4p": (sengoku(variant="base"), (R,) * 4, 300, 1),
    "sengoku-random-9p": (sengoku(variant="base"), (R,) * 9, 60, 1),
    "sengoku-riichi-random-3p": (sengoku(variant="riichi"), (R,) * 3, 200, 1),
    "sengoku-riichi-ranked-4p": (sengoku(variant="riichi", riichi_draw="ranked"), (R,) * 4, 200, 8),
    "sengoku-greedy-4p": (sengoku(variant="base"), (G,) * 4, 40, 2),
    "sengoku-riichi-mixed-4p": (sengoku(variant="riichi"), (R, G, G, R), 40, 3),
    "sangokushi-random-4p": (lambda: engine("sangokushi"), (R,) * 4, 150, 1),
    "sangokushi-greedy-4p": (lambda: engine("sangokushi"), (G,) * 4, 100, 2),
    "sangokushi-mixed-3p": (lambda: engine("sangokushi"), (G, R, G), 100, 3),
    "sanguosha-random-5p": (lambda: engine("sanguosha"), (R,) * 5, 300, 1),
    "sanguosha-random-2p": (lambda: engine("sanguosha"), (R,) * 2, 200, 1),
    "sanguosha-random-8p": (lambda: engine("sanguosha"), (R,) * 8, 100, 1),
    "sanguosha-greedy-5p": (lambda: engine("sanguosha"), (G,) * 5, 100, 2),
    "sanguosha-greedy-9p": (lambda: engine("sanguosha"), (G,) * 9, 30, 2),
    "sanguosha-mixed-6p": (lambda: engine("sanguosha"), (G, R, G, R, G, R), 60, 3),
}
PLAYTHROUGHS: dict[str, tuple[str, tuple[str, ...], int]] = {
    "gogyo-playthrough": ("gogyo", (G, R, G), 5),
    "jinzai-playthrough": ("jinzai", (G, R, G), 5),
    "sengoku-playthrough": ("sengoku", (G, R, G), 5),
    "sangokushi-playthrough": ("sangokushi", (G, G), 5),
    "sanguosha-playthrough": ("sanguosha", (G, R, G, G, R), 5),
    "sanguosha-playthrough-8p": ("sanguosha", (G,) * 8, 7),
}


@pytest.mark.parametrize("name", list(RECORDS))
def test_records_match_the_golden(name: str) -> None:
    make, seats, matches, seed = RECORDS[name]
    check_golden(name, records_summary(make(), seats, matches, seed))


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in RECORDS if "greedy" not in n])
def test_checked_records_match_the_golden(name: str) -> None:
    """The same records with every invariant checked after every step, through the State API alone."""
    make, seats, matches, seed = RECORDS[name]
    check_golden(name, records_summary(make(), seats, matches, seed, check_invariants=True))


@pytest.mark.parametrize("name", list(PLAYTHROUGHS))
def test_playthrough_matches_the_golden(name: str) -> None:
    game, seats, seed = PLAYTHROUGHS[name]
    check_golden(name, playthrough(engine(game), seats, seed))
