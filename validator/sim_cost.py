"""What a simulation will cost, estimated before any match is played, so that a deck cannot ask for days.

A deck is untrusted input (docs/security.md). Its "simulation" may keep every value inside its schema
bound and still ask for days of play, because the bounds multiply: matches × table sizes × variant
options × mcts iterations × ladder rungs. So everything game.json asks for is costed first (the
report's plan, its table sizes and variant options, and the studies `build --studies` plays) and
refused over a budget (validator/limits.py), before a match is played.

The estimate is in one-core seconds, and meant to err high:

- matches played: the cap; with a precision p > 0, no more than the stop rule can need, since a
  seat's 95 % Wilson half-width after n matches is at most 1.96·√(0.25/n): n = 0.25·(1.96/p)²
  matches settle any seat (rounded up to the rule's next checkpoint);
- one match at a table size: the engine's measured figures (GameSpec.match_cost, from
  bench/bench_sim_cost.py): an all-random match, else a greedy one, plus, for every mcts:N or pimc:N seat,
  N times what one search iteration adds to a match.

What the figures cannot see: rules (a deck's or a variant option's) that make games longer than the
shipped ones are bounded by the step cap alone.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .engine.pimc import parse_playouts
from .engine.registry import engine_name, find_spec
from .engine.search import parse_iterations
from .engine.spec import TableCost
from .ladder import LadderPlan
from .limits import SIM_BUDGET_CORES
from .model import Game
from .sim_plan import SimulationPlan, checkpoint_every
from .variants import VariantStudy
from .wording import counted

Z95 = 1.96
# An engine without figures (a new game): dearer than every shipped table (the dearest, sanguosha
# at 10 players: 10 ms random, 36 ms greedy, 1,250 ms an mcts iteration).
DEFAULT_TABLE_COST = TableCost(random_ms=20.0, greedy_ms=80.0, search_ms=2500.0)


@dataclass(frozen=True)
class CostPart:
    """One run of matches a simulation asks for: what it is, the JSON pointer in game.json of what
    sets its size (what to lower), and its estimated cost in one-core seconds."""

    what: str
    pointer: str
    seconds: float


def table_cost(costs: Mapping[int, TableCost], players: int) -> TableCost:
    """The figures for `players` seats; a size not measured gets the dearest measured, figure by figure."""
    if players in costs:
        return costs[players]
    if not costs:
        return DEFAULT_TABLE_COST
    tables = costs.values()
    return TableCost(max(t.random_ms for t in tables), max(t.greedy_ms for t in tables),
                     max(t.search_ms for t in tables))


def match_seconds(costs: Mapping[int, TableCost], seats: Sequence[str]) -> float:
    """One match with these policies, one per seat."""
    table = table_cost(costs, len(seats))
    base = table.random_ms if all(name == "random" for name in seats) else max(table.random_ms, table.greedy_ms)
    # a pimc playout costs what an mcts iteration does: one dealt state played to the end by the heuristic
    iterations = sum(parse_iterations(name) or parse_playouts(name) or 0 for name in seats)
    return (base + iterations * table.search_ms) / 1000


def matches_played(cap: int, precision: float) -> int:
    """The most matches a run can play: the cap, or what the stop rule can need to reach `precision`."""
    if not precision > 0:  # 0 plays every match (NaN is refused by the plan's check)
        return cap
    needed = math.ceil(0.25 * (Z95 / precision) ** 2)
    every = checkpoint_every(cap)
    return min(cap, -(-needed // every) * every)


def plan_parts(plan: SimulationPlan, costs: Mapping[int, TableCost]) -> list[CostPart]:
    """The report's plan: its matches at its table size, and at each further one (player_counts)."""
    played = matches_played(plan.matches, plan.precision)
    parts = [CostPart("the main simulation", "/simulation/matches", played * match_seconds(costs, plan.seats()))]
    for count in plan.other_counts:
        seats = replace(plan, players=count).seats()
        parts.append(CostPart(f"the {count}-player table", "/simulation/player_counts",
                              played * match_seconds(costs, seats)))
    return parts


def study_parts(study: VariantStudy, plan: SimulationPlan, costs: Mapping[int, TableCost]) -> list[CostPart]:
    """A variant study: every option under the plan's policies (the default reuses the plan's own
    matches when the caps agree), and under the stronger ones of "strong_play"."""
    replayed = len(study.options) - (study.matches == plan.matches)
    per_option = matches_played(study.matches, plan.precision) * match_seconds(costs, plan.seats())
    parts = [CostPart(f"the variant study's {counted(replayed, 'option')}", "/simulation/variants/options",
                      replayed * per_option)]
    if study.strong_policies:
        strong = replace(plan, policies=study.strong_policies)
        per_option = matches_played(study.strong_matches, plan.precision) * match_seconds(costs, strong.seats())
        parts.append(CostPart(f"strong play ({', '.join(dict.fromkeys(study.strong_policies))})",
                              "/simulation/variants/strong_play", len(study.options) * per_option))
    return parts


def ladder_parts(ladder: LadderPlan, base: SimulationPlan, costs: Mapping[int, TableCost],
                 pointer: str = "/simulation/ladder") -> list[CostPart]:
    """The strength ladder: every rung against itself, then every adjacent pair head to head."""
    parts = []
    for rung, count in zip(ladder.rungs, ladder.self_play):
        if count:
            parts.append(CostPart(f"the ladder's {rung} self-play", f"{pointer}/self_play",
                                  matches_played(count, base.precision)
                                  * match_seconds(costs, (rung,) * ladder.players)))
    for weaker, stronger in zip(ladder.rungs, ladder.rungs[1:]):
        seats = (stronger,) + (weaker,) * (ladder.players - 1)
        # a pair's sequential test (ladder.PairTest) stops at its cap at the latest, whatever the precision
        parts.append(CostPart(f"the ladder's {stronger} against {weaker}", f"{pointer}/matches",
                              ladder.matches * match_seconds(costs, seats)))
    return parts


def game_parts(game: Game, *, studies: bool = True) -> list[CostPart]:
    """Every run of matches game.json asks for, costed; none when it asks for no simulation. Without
    `studies`, what a plain check or build plays: the report's plan, its table sizes and the variant
    options (strong play and the ladder are studies, played only by `build --studies`).
    Call it on a plan the simulation check accepts (a bad policy name raises ValueError)."""
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return []
    costs = match_costs(game)
    parts = plan_parts(plan, costs)
    study = VariantStudy.from_game(game)
    if study is not None:
        parts += study_parts(study if studies else replace(study, strong_policies=()), plan, costs)
    ladder = LadderPlan.from_game(game)
    if ladder is not None and studies:
        parts += ladder_parts(ladder, plan, costs)
    return parts


def match_costs(game: Game) -> Mapping[int, TableCost]:
    """The measured figures of the game's rules engine (none: the default is assumed)."""
    return find_spec(engine_name(game)).match_cost


def wall_seconds(parts: Sequence[CostPart]) -> float:
    """The estimate as a run on the reference machine's cores takes it (the workers split the matches)."""
    return sum(part.seconds for part in parts) / SIM_BUDGET_CORES


def over_budget(parts: Sequence[CostPart], budget: float, advice: str,
                what: str = "the simulation") -> tuple[CostPart, str] | None:
    """The biggest part and one sentence saying so, when the parts together cost more than `budget`
    seconds on the reference cores; None within it."""
    total = wall_seconds(parts)
    if not parts or total <= budget:
        return None
    biggest = max(parts, key=lambda part: part.seconds)
    return biggest, (f"{what} would cost about {about(total)} on {SIM_BUDGET_CORES} cores (estimated), "
                     f"over the budget of {about(budget)}; most of it is {biggest.what} "
                     f"({about(biggest.seconds / SIM_BUDGET_CORES)}): {advice}")


def about(seconds: float) -> str:
    """A duration for people: "40 seconds", "12 minutes", "2 hours", "3.2 days"."""
    if seconds < 1:
        return "under a second"
    for unit, size, up_to in (("second", 1, 120), ("minute", 60, 120 * 60), ("hour", 3600, 48 * 3600)):
        if seconds < up_to:
            return _amount(seconds / size, unit)
    return _amount(seconds / 86400, "day")


def _amount(value: float, unit: str) -> str:
    text = f"{value:.1f}".removesuffix(".0") if value < 10 else f"{value:,.0f}"
    return f"{text} {unit}" if text == "1" else f"{text} {unit}s"


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)?",
                       re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MAX_DURATION = 366 * 86400


def parse_duration(text: str) -> float:
    """Seconds from "7200", "90s", "45m", "6h" or "1.5d"; ValueError with the reason otherwise."""
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a duration (seconds, or a number with s, m, h or d, e.g. 6h)")
    unit = (match.group(2) or "s")[0].lower()
    seconds = float(match.group(1)) * _UNIT_SECONDS[unit]
    if not 0 < seconds <= MAX_DURATION:
        raise ValueError(f"{text!r}: a budget must be above 0 and at most a year")
    return seconds
