"""The strength ladder: policies from weak to strong (random < greedy < mcts:100 < mcts:1000), each
adjacent pair played head to head, and the balance metrics measured at every strength.

Weak play hides imbalance: a first-seat edge or a dominant line shows only when players play well
(Ludii measures its games with UCT agents for this reason). So a designer wants two things from
the ladder: proof that each rung really is stronger than the one below (else "measured at strength
X" means nothing), and the seats' win rates at each strength, to see whether an imbalance grows
with skill. Both are claimed only where 95 % intervals separate. A pair is played as a sequential
test (PairTest): looked at every tenth of its cap and stopped as soon as it is shown or cannot be
(a look before the cap asks for much more than the look at the cap), so a clear pair costs a fraction
of its cap and a close one is judged at its cap nearly as one plain test would judge it.

Head to head, the stronger policy takes seat 0 and the weaker every other seat; the first player is
dealt at random by every engine, so seat 0 starts as often as any. Its fair share is 1/n in a game of
rivals; in a team game (sanguosha) it is what seat 0 wins when the weaker policy holds it too.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from .engine.api import RulesGame, TeamVictory
from .intervals import wilson
from .model import Game
from .sim_plan import SimulationPlan, default_workers, stop_rule, summarize_plan
from .sim_result import Ladder, LadderPair, SeatsMoved, SimulationReport, StrengthRow
from .simulate import MatchRecord, StopRule, simulate
from .stats import overlap, seat_wins
from .wording import counted

MAX_RUNGS = 6


@dataclass(frozen=True)
class LadderPlan:
    """game.json "simulation.ladder" (or the command line): the rungs, weakest first, how many matches
    each pair plays head to head, and how many each rung plays against itself (one number per rung:
    every seat searching at mcts:1000 can cost more than the rest of the ladder together, so a
    designer may leave a strong rung's self-play out with 0)."""

    rungs: tuple[str, ...]
    matches: int
    self_play: tuple[int, ...]
    players: int

    @classmethod
    def from_game(cls, game: Game) -> LadderPlan | None:
        spec = (game.simulation or {}).get("ladder")
        if not spec:
            return None
        rungs = tuple(spec["rungs"])
        return cls(rungs, spec["matches"], per_rung(spec.get("self_play", spec["matches"]), len(rungs)),
                   spec.get("players", game.simulation["players"]))

    def check(self) -> None:
        """ValueError with a one-line reason when the ladder cannot be climbed as given."""
        if not 2 <= len(self.rungs) <= MAX_RUNGS:
            raise ValueError(f"a ladder needs 2 to {MAX_RUNGS} rungs, not {len(self.rungs)}")
        repeated = sorted({rung for rung in self.rungs if self.rungs.count(rung) > 1})
        if repeated:
            raise ValueError(f"ladder rung {repeated[0]!r} is given twice")
        if self.matches < 1:
            raise ValueError(f"a ladder needs at least 1 match a pair, not {self.matches}")
        if len(self.self_play) != len(self.rungs):
            raise ValueError(f"{counted(len(self.self_play), 'self-play count')} for "
                             f"{counted(len(self.rungs), 'rung')} (give one, or one per rung)")
        if any(count < 0 for count in self.self_play):
            raise ValueError(f"self-play matches cannot be negative ({min(self.self_play)})")


def per_rung(self_play: int | Sequence[int], rungs: int) -> tuple[int, ...]:
    """game.json's "self_play": one count for every rung, or a list with one per rung."""
    return (self_play,) * rungs if isinstance(self_play, int) else tuple(self_play)


def _plan(base: SimulationPlan, ladder: LadderPlan, policies: Sequence[str], matches: int) -> SimulationPlan:
    return dataclasses.replace(base, players=ladder.players, policies=tuple(policies), matches=matches,
                               other_counts=())


ALPHA = 0.05  # the chance, over all its looks together, that a pair is shown stronger when it is not
PAIR_LOOKS = 10  # a pair's records are looked at up to ten times before its cap
MIN_LOOK = 10  # and never more often than every ten matches
# Haybittle-Peto: a look before the cap shows a pair only at the strict one-sided 0.05 % (z 3.29), and what
# the early looks may spend is taken off the last one, which keeps the rest of the one-sided 2.5 % (ten looks:
# z 2.04 at the cap, where equal shares would widen every look to z 2.81). A clear pair still stops at an
# early look; a close one, which needs its cap anyway, is judged at its cap nearly as one plain test would.
EARLY_ALPHA = 0.0005
# A pair also stops, not shown, once its stronger seat is likely no better than the bar: the upper end of
# a one-sided 90 % interval at or below it. Stopping for futility never makes a pair look stronger, so it
# costs no error, only a little power (sengoku's mcts:100 at 16 % played 160 matches without it, 40 with).
FUTILITY_Z = 1.2815515655446004


@dataclass(frozen=True)
class PairTest:
    """The sequential test of one head-to-head: look at the records every `every` matches, stop once the
    stronger seat is shown stronger (its interval's low end clears `bar`, the fair share's high end) or
    can no longer be shown so by `cap`. A look before the cap uses the interval at `z_early`, the look
    at the cap the one at `z_final`; their one-sided levels add up to ALPHA/2 over all `looks` looks (a
    union bound, so it holds however the looks depend on each other), so looking often cannot make a pair
    look stronger than it is: the chance of a false "stronger" stays at 2.5 % at most, as with one plain
    test at the cap, whose 95 % interval is then clear of the bar too."""

    bar: float
    cap: int
    every: int
    looks: int
    z_early: float
    z_final: float

    @classmethod
    def for_pair(cls, bar: float, cap: int) -> PairTest:
        every = max(MIN_LOOK, -(-cap // PAIR_LOOKS))
        looks = -(-cap // every)
        final = ALPHA / 2 - (looks - 1) * EARLY_ALPHA
        return cls(bar, cap, every, looks, NormalDist().inv_cdf(1 - EARLY_ALPHA), NormalDist().inv_cdf(1 - final))

    def verdict(self, wins: float, finished: int, played: int) -> bool | None:
        """True: shown stronger; False: not shown (likely no better than the bar, FUTILITY_Z, or not even
        winning every match left to the cap would lift it clear); None: play on. Never None at the cap."""
        z = self.z_final if played >= self.cap else self.z_early
        if wilson(wins, finished, z)[0] > self.bar:
            return True
        left = self.cap - played
        unlikely = wilson(wins, finished, FUTILITY_Z)[1] <= self.bar
        if unlikely or wilson(wins + left, finished + left, self.z_final)[0] <= self.bar:
            return False
        return None

    def rule(self, whole: bool) -> StopRule:
        def enough(records: Sequence[MatchRecord]) -> bool:
            finished = sum(not m.timed_out for m in records)
            return self.verdict(seat_wins(records, 0, whole), finished, len(records)) is not None
        return StopRule(enough, every=self.every)


def _strength_row(policy: str, summary: SimulationReport) -> StrengthRow:
    """What one rung's self-play says about the game: balance, the seats' rates, length."""
    ludii = summary.ludii
    return StrengthRow(policy, summary.matches, summary.finished.matches, ludii.balance, ludii.advantage_p1,
                       ludii.completion, ludii.decision_moves, summary.seats, summary.policy_seats[0],
                       summary.turns.per_game.mean, summary.play_time.minutes_per_match.mean, summary.labels)


def climb(engine: RulesGame, base: SimulationPlan, ladder: LadderPlan, *, workers: int | None = None,
          cluster: str | None = None) -> Ladder:
    """Play the ladder (results depend on the seed alone, never on `workers` or `cluster`)."""
    ladder.check()
    workers = workers or default_workers()
    whole = isinstance(engine, TeamVictory) and engine.team_victory
    strengths = []
    for rung, count in zip(ladder.rungs, ladder.self_play):
        if count:
            plan = _plan(base, ladder, [rung], count)
            config = plan.config(engine, workers, cluster=cluster)
            records = simulate(engine, config, stop_rule(engine, plan))
            strengths.append(_strength_row(rung, summarize_plan(records, engine, plan, config)))
    by_rung = {row.policy: row for row in strengths}
    pairs = []
    for weaker, stronger in zip(ladder.rungs, ladder.rungs[1:]):
        reference, reference_ci95 = _reference(weaker, by_rung, ladder.players, whole)
        test = PairTest.for_pair(reference_ci95[1], ladder.matches)
        plan = _plan(base, ladder, [stronger] + [weaker] * (ladder.players - 1), ladder.matches)
        config = plan.config(engine, workers, cluster=cluster)
        records = simulate(engine, config, test.rule(whole))
        finished = sum(not m.timed_out for m in records)
        wins = seat_wins(records, 0, whole)
        shown = test.verdict(wins, finished, len(records)) is True
        pairs.append(LadderPair(stronger, weaker, len(records), finished, wins / finished if finished else 0.0,
                                wilson(wins, finished), reference, reference_ci95, shown, test.looks))
    order_shown, order, order_ja = _order_verdict(pairs, whole)
    return Ladder(ladder.players, base.seed, ladder.rungs, ladder.matches, ladder.self_play, whole, tuple(pairs),
                  tuple(strengths), order_shown, order, order_ja, _seats_verdict(strengths))


def _reference(weaker: str, by_rung: dict[str, StrengthRow], players: int, whole: bool,
               ) -> tuple[float, tuple[float, float]]:
    """What seat 0 would win were the stronger policy no better: exactly 1/n among rivals (seats are
    symmetric and the first player random), the weaker rung's own seat-0 rate in a team game."""
    if not whole:
        return 1 / players, (1 / players, 1 / players)
    if weaker not in by_rung:
        raise ValueError(f"a team game's ladder needs {weaker}'s self_play matches: they give the pair above it "
                         "its fair share")
    seat = by_rung[weaker].seat_zero
    return seat.rate, seat.ci95


def _order_verdict(pairs: Sequence[LadderPair], whole: bool) -> tuple[bool, str, str]:
    """Is every rung stronger than the last (its interval clear of the bar)? In English and Japanese. The bar
    is the fair share among rivals, in a team game the high end of the weaker rung's own rate in that seat."""
    bar, bar_ja = (("the weaker rung's own rate", "基準の勝率（弱い側だけの卓での同じ席の勝率、その95%区間の上端）")
                   if whole else ("the fair share", "公平な取り分"))
    shown = [p for p in pairs if p.separated]
    unshown = [p for p in pairs if not p.separated]
    if not unshown:
        return (True, f"every rung beats the one below it (intervals clear of {bar})",
                f"どの段も一つ下の段に勝ち越す（95%区間が{bar_ja}を上回る）")
    names = ", ".join(f"{p.stronger} over {p.weaker}" for p in unshown)
    order = f"not shown at these match counts: {names}" + (
        f"; shown: {', '.join(p.stronger + ' over ' + p.weaker for p in shown)}" if shown else "")
    order_ja = ("この試合数では示せない段がある：" + "、".join(f"{p.weaker}→{p.stronger}" for p in unshown)
                + f"（上の逐次検定で{bar_ja}を上回ると示せない）")
    return False, order, order_ja


def _seats_verdict(strengths: Sequence[StrengthRow]) -> SeatsMoved | None:
    """Do the seats' win rates move between the weakest and the strongest rung measured (intervals
    separating)? None with fewer than two rungs measured."""
    if len(strengths) < 2:
        return None
    low, high = strengths[0], strengths[-1]
    moved = [(a, b) for a, b in zip(low.seats, high.seats) if not overlap(a.ci95, b.ci95)]
    if moved:
        text = "; ".join(f"seat {a.seat} {a.rate:.1%} → {b.rate:.1%}" for a, b in moved)
        return SeatsMoved(f"from {low.policy} to {high.policy} the seats' win rates move: {text}",
                          f"{low.policy}から{high.policy}へ強くすると、手番順の勝率が変わる："
                          + "、".join(f"手番順{a.seat} {a.rate * 100:.1f}%→{b.rate * 100:.1f}%" for a, b in moved)
                          + "（95%区間が重ならない）", True)
    played = counted(min(low.finished, high.finished), "match")
    return SeatsMoved(f"no seat's win rate is shown to move from {low.policy} to {high.policy} "
                      f"(every seat's intervals overlap at {played})",
                      f"{low.policy}と{high.policy}の間で手番順の勝率が変わるとは、この試合数では"
                      "言えない（どの手番順も95%区間が重なる）", False)
