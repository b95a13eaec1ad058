"""Test support: mid-game positions of seeded random games, for tests that deal a state from a seat's
observation (the determinizers searched by mcts) and compare it with the real one."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any


def positions(game: Any, seed: int, players: int, rate: float = 0.1) -> Iterator[Any]:
    """Copies of the state at about `rate` of the decisions of one random game (a whole match where the
    engine's state is one), each with the seat to move; the same seed gives the same positions."""
    rng = random.Random(seed)
    state = game.new_initial_state(rng, players)
    while not state.is_terminal():
        if rng.random() < rate:
            yield state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
