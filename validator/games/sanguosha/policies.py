"""三国殺 (sanguosha) heuristic (placeholder until the role-aware one lands)."""
from __future__ import annotations

import random
from collections.abc import Sequence

from ...engine.api import Action
from .rules import SanguoshaObservation


def choose(obs: SanguoshaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    return legal[int(rng.random() * len(legal))]
