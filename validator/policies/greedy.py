"""One-ply greedy play through each game's heuristic hook (HEURISTICS: game name -> choose function)."""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.api import Action
from . import gogyo_greedy, jinzai_greedy, sengoku_greedy

Heuristic = Callable[[Any, Sequence[Action], random.Random], Action]

HEURISTICS: dict[str, Heuristic] = {
    "gogyo": gogyo_greedy.choose,
    "jinzai": jinzai_greedy.choose,
    "sengoku": sengoku_greedy.choose,
}


class GreedyPolicy:
    """Plays the game's heuristic: the best-looking action for this turn, judged from the observation."""

    name = "greedy"
    needs_observation = True

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        try:
            heuristic = HEURISTICS[observation.game_name]
        except KeyError:
            raise ValueError(f"no greedy heuristic for game {observation.game_name!r} "
                             f"(known: {', '.join(sorted(HEURISTICS))})") from None
        return heuristic(observation, legal_actions, rng)
