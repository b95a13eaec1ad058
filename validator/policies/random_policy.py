"""Uniform random choice over the legal actions (fuzzing for crashes, loops and rule holes)."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine.api import Action


class RandomPolicy:
    """Every legal action equally likely; reads nothing but the legal actions."""

    name = "random"
    needs_observation = False

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[int(rng.random() * len(legal_actions))]
