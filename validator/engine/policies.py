"""Policies: how a seat chooses among legal actions from what it may observe, never from the state.

The generic ones live here (random; greedy, which plays a game's own heuristic); a game package adds
its heuristic through its spec. `find_policy(name, engine)` builds a fresh policy for one engine.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .api import Action

Heuristic = Callable[[Any, Sequence[Action], random.Random], Action]


class Policy(Protocol):
    """A seat's decision rule. `needs_observation` False lets the harness skip building one (None is passed)."""

    name: str
    needs_observation: bool

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action: ...


class RandomPolicy:
    """Every legal action equally likely; reads nothing but the legal actions (fuzzing for crashes and loops)."""

    name = "random"
    needs_observation = False

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[int(rng.random() * len(legal_actions))]


class GreedyPolicy:
    """Plays a game's heuristic: the best-looking action for this turn, judged from the observation."""

    name = "greedy"
    needs_observation = True

    def __init__(self, heuristic: Heuristic) -> None:
        self.heuristic = heuristic

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.heuristic(observation, legal_actions, rng)


POLICY_NAMES = ("random", "greedy", "mcts[:ITERATIONS]", "pimc[:PLAYOUTS]")


def find_policy(name: str, engine: str) -> Policy:
    """A fresh policy `name` for the game registered as `engine`; ValueError naming what is unknown."""
    if name == "random":
        return RandomPolicy()
    if name == "greedy":
        from .registry import find_spec

        spec = find_spec(engine)
        if spec.greedy is None:
            raise ValueError(f"the {engine} rules engine has no greedy heuristic")
        return GreedyPolicy(spec.greedy)
    from .pimc import PairedMonteCarlo, parse_playouts
    from .search import SearchPolicy, parse_iterations

    iterations, playouts = parse_iterations(name), parse_playouts(name)
    if iterations is not None or playouts is not None:
        from .registry import find_spec

        spec = find_spec(engine)
        if spec.determinize is None:
            raise ValueError(f"the {engine} rules engine cannot be searched yet: it cannot deal a state from a "
                             "seat's observation (GameSpec.determinize)")
        if iterations is not None:
            return SearchPolicy(spec.determinize, iterations, rollout=spec.greedy)
        if spec.greedy is None:
            raise ValueError(f"the {engine} rules engine has no greedy heuristic for pimc's playouts")
        assert playouts is not None
        return PairedMonteCarlo(spec.determinize, spec.greedy, playouts)
    raise ValueError(f"no policy {name!r} (known: {', '.join(POLICY_NAMES)})")
