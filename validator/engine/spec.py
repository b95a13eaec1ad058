"""GameSpec: everything one game package offers the generic machinery, in one value.

A package `validator/games/<name>/` exports `SPEC`; the registry imports it by name when asked,
so no central file lists the games. Only the engine factory is required: a game may have no
heuristic, no rulebook oracle, no data checks, no rules schema or no scorer, and the checks and
commands that need one say so.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..issues import Issue
    from ..model import Game
    from .api import RulesGame, State
    from .claims import RulebookOracle
    from .policies import Heuristic
    from .scoring import HandScorer


@dataclass(frozen=True)
class TableCost:
    """What one match costs at one table size, in one-core milliseconds (bench/bench_sim_cost.py):
    every seat random, every seat greedy, and what one mcts seat adds per iteration of its budget.
    The simulation budget (validator/sim_cost.py) is costed from these before any match is played."""

    random_ms: float
    greedy_ms: float
    search_ms: float


@dataclass(frozen=True)
class GameSpec:
    """One game's rules engine and what comes with it, each built from the loaded deck model.

    `rules_schema` is the JSON Schema (a path relative to schema/, e.g. "rules/gogyo.schema.json")
    of the game.json "rules" the engine reads: the loader checks it, so a missing or mistyped rule
    is a located error in game.json before any engine is built. `scorer` scores a hand written as
    tokens for `fudaya score`. `endings` and `events` name in Japanese, for the report, the ids the
    engine reports: how a game ended (Outcome.reason) and what it counts (State.counters).
    `determinize` lets the mcts policy search the game (validator/engine/search.py). `match_cost`
    (table size -> TableCost) lets a simulation be costed against its budget; without it a
    conservative default is assumed.
    """

    name: str
    engine: Callable[[Game], RulesGame]
    greedy: Heuristic | None = None
    oracle: Callable[[Game], RulebookOracle] | None = None
    data_checks: Callable[[Game], Iterator[Issue]] | None = None
    rules_schema: str | None = None
    scorer: Callable[[Game], HandScorer] | None = None
    endings: Mapping[str, str] = field(default_factory=dict)
    events: Mapping[str, str] = field(default_factory=dict)
    # A state dealt from one seat's observation, what it has not seen dealt anew (engine.search's mcts).
    determinize: Callable[[Any, random.Random], State] | None = None
    match_cost: Mapping[int, TableCost] = field(default_factory=dict)
