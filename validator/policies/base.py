"""The Policy protocol: choose(observation, legal_actions, rng) -> action, never seeing the state."""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..engine.api import Action


class Policy(Protocol):
    """A seat's decision rule. `needs_observation` False lets the harness skip building one (None is passed)."""

    name: str
    needs_observation: bool

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...
