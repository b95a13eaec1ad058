"""A simulation to run and summarise: seats, matches, policies, seed — from game.json or the command line."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace

from .engine.api import RulesGame
from .engine.policies import find_policy
from .model import Game
from .sim_result import PrecisionNote, SimulationReport
from .simulate import DEFAULT_STEP_CAP, MatchRecord, SimConfig, StopRule, simulate
from .stats import DEFAULT_SECONDS_PER_TURN, seat_precision, summarize
from .wording import counted

MAX_SECONDS_PER_TURN = 3600  # as game.json's schema allows
# Play until every seat's 95 % win-rate interval is at most ±2 points wide (game.json "precision";
# 0 plays every match), "matches" being the cap; asked every twentieth of the cap, 50 at least.
DEFAULT_PRECISION = 0.02
CHECKPOINTS = 20
MIN_CHECKPOINT = 50
# A positive precision is at least this (±0.5 points): the stop rule can then settle every seat within
# 0.25·(1.96/0.005)² ≈ 38,400 matches, a number a cap may reach; a finer target only makes every run play
# its whole cap while claiming to stop early (±0.01 points would need 96 million). 0 still plays every match.
MIN_PRECISION = 0.005
MAX_PRECISION = 0.5


@dataclass(frozen=True)
class SimulationPlan:
    players: int
    matches: int
    policies: tuple[str, ...]  # one for every seat, or one per seat
    seed: int = 1
    seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN
    step_cap: int = DEFAULT_STEP_CAP
    other_counts: tuple[int, ...] = ()  # further table sizes the report compares (game.json player_counts)
    precision: float = 0.0  # stop once every seat's win-rate half-width is this or less (0: play every match)

    @classmethod
    def from_game(cls, game: Game) -> SimulationPlan | None:
        """The plan in game.json "simulation", or None when the game asks for none."""
        spec = game.simulation
        if not spec:
            return None
        return cls(spec["players"], spec["matches"], tuple(spec["policies"]), spec.get("seed", 1),
                   spec.get("seconds_per_turn", DEFAULT_SECONDS_PER_TURN), spec.get("step_cap", DEFAULT_STEP_CAP),
                   tuple(count for count in spec.get("player_counts", ()) if count != spec["players"]),
                   spec.get("precision", DEFAULT_PRECISION))

    def config(self, engine: RulesGame, workers: int, *, cluster: str | None = None) -> SimConfig:
        """Checked settings for the harness (played by `workers` processes, or on `cluster`'s workers);
        ValueError with a one-line reason otherwise."""
        if not engine.min_players <= self.players <= engine.max_players:
            raise ValueError(f"{counted(self.players, 'player')} is outside {engine.name}'s "
                             f"{engine.min_players}–{engine.max_players}")
        if self.matches < 1:
            raise ValueError(f"{counted(self.matches, 'match')}: at least 1 is needed for any figure")
        if len(self.policies) not in (1, self.players):
            raise ValueError(f"{counted(len(self.policies), 'policy')} for {counted(self.players, 'seat')} "
                             f"(give one, or one per seat)")
        for name in self.policies:
            find_policy(name, engine.engine)
        problem = precision_problem(self.precision)
        if problem:
            raise ValueError(problem)
        if not 0 < self.seconds_per_turn <= MAX_SECONDS_PER_TURN:  # also refuses NaN and inf
            raise ValueError(f"seconds per turn must be above 0 and at most {MAX_SECONDS_PER_TURN}, "
                             f"not {self.seconds_per_turn:g}")
        return SimConfig(self.players, self.seats(), self.matches, seed=self.seed, step_cap=self.step_cap,
                         workers=workers, cluster=cluster)

    def seats(self) -> tuple[str, ...]:
        """The policy of every seat: the one policy repeated, or the policies as given."""
        return self.policies * self.players if len(self.policies) == 1 else self.policies


def precision_problem(precision: float) -> str | None:
    """Why a precision (a win-rate half-width) cannot be a stop rule's target, or None when it can."""
    if precision == 0 or MIN_PRECISION <= precision <= MAX_PRECISION:
        return None  # NaN fails both tests
    return (f"precision must be 0 (play every match) or between {MIN_PRECISION:g} and {MAX_PRECISION:g} "
            f"(a win-rate half-width), not {precision:g}")


def at_count(plan: SimulationPlan, players: int) -> SimulationPlan:
    """The same plan at another table size (per-seat policies cannot be carried over: one policy is needed)."""
    if len(plan.policies) not in (1, players):
        raise ValueError(f"{counted(len(plan.policies), 'policy')} cannot be spread over "
                         f"{counted(players, 'seat')} (give one policy)")
    return replace(plan, players=players, other_counts=())


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


def stop_rule(engine: RulesGame, plan: SimulationPlan) -> StopRule | None:
    """The plan's precision as a rule for simulate(), or None where every match is to be played."""
    if plan.precision <= 0:
        return None
    return StopRule(lambda records: seat_precision(records, engine, plan.players) <= plan.precision,
                    every=checkpoint_every(plan.matches))


def checkpoint_every(matches: int) -> int:
    """How often a stop rule is asked: every twentieth of the cap, every 50 matches at least."""
    return max(MIN_CHECKPOINT, -(-matches // CHECKPOINTS))


def play_plan(engine: RulesGame, plan: SimulationPlan, *, workers: int | None = None, cluster: str | None = None,
              ) -> tuple[list[MatchRecord], SimConfig]:
    """The plan's matches (results depend on neither `workers` nor `cluster`): every one, or as many as its
    precision needs."""
    if workers is not None and workers < 1:
        raise ValueError(f"{counted(workers, 'worker')}: at least 1 is needed")
    config = plan.config(engine, workers or default_workers(), cluster=cluster)
    return simulate(engine, config, stop_rule(engine, plan)), config


def precision_note(records: list[MatchRecord], engine: RulesGame, plan: SimulationPlan) -> PrecisionNote:
    """How precise the seats' win rates came out, against the plan's target and cap."""
    return PrecisionNote(plan.precision, seat_precision(records, engine, plan.players), plan.matches,
                         len(records) < plan.matches)


def summarize_plan(records: list[MatchRecord], engine: RulesGame, plan: SimulationPlan,
                   config: SimConfig) -> SimulationReport:
    """The report of the plan's matches, with how precise they came out."""
    summary = summarize(records, engine, config, seconds_per_turn=plan.seconds_per_turn)
    return replace(summary, precision=precision_note(records, engine, plan))


def run_plan(engine: RulesGame, plan: SimulationPlan, *, workers: int | None = None, cluster: str | None = None,
             ) -> SimulationReport:
    """Play the plan's matches (results depend on neither `workers` nor `cluster`) and return their report."""
    records, config = play_plan(engine, plan, workers=workers, cluster=cluster)
    return summarize_plan(records, engine, plan, config)
