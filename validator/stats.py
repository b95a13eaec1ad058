"""Aggregate simulation records into a SimulationReport: outcomes, seats, length, scores, play time, Ludii metrics.

Definitions (Ludii's, from Evaluation/src/metrics, computed with floats):
- Completion: share of matches ending with a winner (not stopped by the step cap).
- Timeouts: share of matches stopped by the step cap.
- Drawishness: share of finished matches won jointly by every seat.
- AdvantageP1: seat 1's win share; Balance: 1 - the largest gap between two seats' win shares.
- DurationTurns / DurationTurnsStdDev: turns per match (mean, sd).
- DecisionMoves: per game, the share of decision states with more than one legal action; averaged.
- IdealDuration: per match, 1 inside the turn band, a linear ramp from 0 turns up to its low end,
  a linear fall from its high end to 0 at twice the high end; averaged. The band is the box's
  play time divided by the assumed seconds per turn.
Seats are numbered by turn order in the match's first game (seat 1 started it). A win shared by
k seats credits 1/k to each. Win-rate intervals are Wilson 95 % intervals.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from .engine.api import RulesGame, TeamVictory
from .engine.playout import END_CAP
from .intervals import wilson
from .sim_result import (
    Distribution,
    Finished,
    HistogramBin,
    LabelGroup,
    LabelRate,
    LudiiMetrics,
    PlayTime,
    Scores,
    SeatRate,
    SimulationReport,
    TableSize,
    Turns,
)
from .simulate import GameRecord, MatchRecord, SimConfig
from .teams import teams_of
from .wording import counted

DEFAULT_SECONDS_PER_TURN = 30.0
HISTOGRAM_BINS = 20


def percentile(ordered: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (q in 0..100) of already sorted data."""
    if not ordered:
        return 0.0
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def distribution(values: Sequence[float]) -> Distribution:
    """Mean, sd, percentiles and a histogram of `values` in bins of one integer width, empty bins kept."""
    if not values:
        return Distribution(0)
    ordered = sorted(values)
    n = len(ordered)
    mean = sum(ordered) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in ordered) / (n - 1)) if n > 1 else 0.0
    exact = Counter(ordered)
    if all(float(v).is_integer() for v in exact) and ordered[-1] - ordered[0] < HISTOGRAM_BINS:
        # a narrow integer range: one bin per value, empty ones included, so the bars stand evenly
        histogram = [HistogramBin(v, v, exact.get(v, 0)) for v in range(int(ordered[0]), int(ordered[-1]) + 1)]
    else:
        low, high = math.floor(ordered[0]), math.floor(ordered[-1])
        width = max(1, math.ceil((high - low + 1) / HISTOGRAM_BINS))
        counts = Counter((math.floor(v) - low) // width for v in ordered)
        histogram = [HistogramBin(low + b * width, low + (b + 1) * width - 1, counts.get(b, 0))
                     for b in range((high - low) // width + 1)]
    return Distribution(n, mean, sd, ordered[0], percentile(ordered, 5), percentile(ordered, 25),
                        percentile(ordered, 50), percentile(ordered, 75), percentile(ordered, 95), ordered[-1],
                        tuple(histogram))


def ideal_duration(turns: float, low: float, high: float) -> float:
    """Ludii IdealDuration of one trial for the turn band [low, high]."""
    if turns < low:
        return turns / low if low > 0 else 1.0
    if turns <= high:
        return 1.0
    return max(0.0, 1 - (turns - high) / high) if high > 0 else 0.0


def overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    """Two (low, high) intervals share a point: nothing is claimed between the estimates they bound."""
    return a[0] <= b[1] and b[0] <= a[1]


def seat_wins(matches: Sequence[MatchRecord], seat: int, whole: bool) -> float:
    """Win credit of one physical seat over the finished matches (a tie's share, or a whole win for a side)."""
    return sum(_credit(m.winners, whole) for m in matches if not m.timed_out and seat in m.winners)


def _credit(winners: Sequence[int], whole: bool) -> float:
    """One winner's credit: a whole win when the winners are one side (TeamVictory), else a tie's share."""
    return 1.0 if whole else 1 / len(winners)


def _seat_wins(matches: Sequence[MatchRecord], players: int, whole: bool) -> tuple[list[float], list[float]]:
    """Win credit per turn-order seat and per physical seat."""
    by_order, by_seat = [0.0] * players, [0.0] * players
    for match in matches:
        for seat in match.winners:
            by_seat[seat] += _credit(match.winners, whole)
            by_order[(seat - match.first_player) % players] += _credit(match.winners, whole)
    return by_order, by_seat


def seat_precision(records: Sequence[MatchRecord], game: RulesGame, players: int) -> float:
    """The widest half-width of the seats' 95 % win-rate intervals (by turn order, as the report gives
    them): how precisely these matches tell the seats apart. 0.5 before any match has finished."""
    finished = [m for m in records if not m.timed_out]
    if not finished:
        return 0.5
    wins, _ = _seat_wins(finished, players, isinstance(game, TeamVictory) and game.team_victory)
    return max((high - low) / 2 for low, high in (wilson(w, len(finished)) for w in wins))


def _rates(wins: Sequence[float], trials: int, policies: Sequence[str | None] = ()) -> tuple[SeatRate, ...]:
    """Each seat's rate with its interval; `policies`, when given, names each seat's policy."""
    named = [*policies, *[None] * (len(wins) - len(policies))]
    return tuple(SeatRate(i + 1, w, w / trials if trials else 0.0, wilson(w, trials), policy)
                 for i, (w, policy) in enumerate(zip(wins, named)))


def _label_rates(games: Sequence[GameRecord], whole: bool) -> tuple[LabelGroup, ...]:
    """Per kind of seat label (start area, identity, general…): the win rate of each label over the seats
    dealt it in finished games, with Wilson 95 %, best first."""
    trials: dict[str, Counter[str]] = {}
    wins: dict[str, dict[str, float]] = {}
    for g in games:
        for kind, per_seat in g.labels:
            for seat, label in enumerate(per_seat):
                trials.setdefault(kind, Counter())[label] += 1
                kind_wins = wins.setdefault(kind, {})
                kind_wins[label] = kind_wins.get(label, 0.0) + (_credit(g.winners, whole) if seat in g.winners else 0.0)
    return tuple(LabelGroup(kind, tuple(LabelRate(label, n, wins[kind][label], wins[kind][label] / n,
                                                  wilson(wins[kind][label], n))
                                        for label, n in sorted(counts.items(),
                                                               key=lambda item: (-wins[kind][item[0]] / item[1],
                                                                                 item[0]))))
                 for kind, counts in trials.items())


def summarize(records: Sequence[MatchRecord], game: RulesGame, config: SimConfig, *,
              seconds_per_turn: float = DEFAULT_SECONDS_PER_TURN) -> SimulationReport:
    """Everything the simulate command reports about the matches played."""
    players = config.num_players
    games = [g for match in records for g in match.games]
    finished = [m for m in records if not m.timed_out]
    whole = isinstance(game, TeamVictory) and game.team_victory
    order_wins, seat_wins = _seat_wins(finished, players, whole)
    seats = _rates(order_wins, len(finished))
    labels = _label_rates([g for g in games if g.end != END_CAP and g.labels], whole)
    sides = teams_of(game, finished, players) if whole else None
    if sides is not None:  # a game of sides: every seat and label with its fair share (validator.teams)
        seats, labels = sides.seats(seats), sides.labels(labels)
    physical = _rates(seat_wins, len(finished), config.policies)
    rates = [row.rate for row in seats]
    match_turns = [sum(g.turns for g in m.games) for m in finished]
    low_minutes, high_minutes = game.play_minutes
    band = (low_minutes * 60 / seconds_per_turn, high_minutes * 60 / seconds_per_turn)
    minutes = [t * seconds_per_turn / 60 for t in match_turns]
    ideal = [ideal_duration(t, *band) for t in match_turns]
    decision_share = [g.choices / g.decisions for g in games if g.decisions]
    actions = {name: sum(g.actions[i] for g in games) for i, name in enumerate(game.action_kinds) if name}
    counters: Counter[str] = Counter()
    for g in games:
        counters.update(dict(g.counters))
    ended = Counter(g.end for g in games)
    n_matches = len(records) or 1
    timeouts = sum(m.timed_out for m in records)
    return SimulationReport(
        game=game.name,
        players=players,
        policies=tuple(config.policies),
        seed=config.seed,
        step_cap=config.step_cap,
        matches=len(records),
        games=len(games),
        games_per_match=game.games_per_match,
        # An engine whose one record is a whole match of repeated games (jinzai) says so in match_note.
        unit=getattr(game, "match_note", None) or
        f"a match is {counted(game.games_per_match, 'game')} (the box's play time and the victory rule cover "
        "the match); the per-game figures count each game on its own",
        finished=Finished(len(finished), len(games) - ended.get(END_CAP, 0), timeouts, timeouts == 0),
        ended_by=dict(sorted(ended.items())),
        turns=Turns(distribution([g.turns for g in games]), distribution(match_turns)),
        scores=Scores(
            per_game=distribution([s for g in games for s in g.scores]),
            winning_per_game=distribution([max(g.scores) for g in games]),
            match_total=distribution([s for m in finished for s in m.totals]),
            winning_match_total=distribution([max(m.totals) for m in finished]),
        ),
        seat_basis="seat 1 took the first turn of the match's first game; seats follow in turn order",
        seats=seats,
        policy_seats=physical,
        # Engines that label their seats (start areas, identities…): win rate per label, per finished game.
        labels=labels,
        # Team games (TeamVictory): every winner of a side counts a whole win, so rates need not sum to 1.
        team_victory=whole,
        teams=None if sides is None else sides.teams,
        shared_wins=sum(len(m.winners) > 1 for m in finished),
        actions=actions,
        actions_per_game={k: v / (len(games) or 1) for k, v in actions.items()},
        counters=dict(sorted(counters.items())),
        # Per game record: how often each counted event happens in one game (for an engine whose
        # record is a whole match, e.g. jinzai's "games" counter, the games it took to find a winner).
        counters_per_game={name: distribution([dict(g.counters).get(name, 0) for g in games])
                           for name in sorted(counters)},
        play_time=PlayTime(
            seconds_per_turn=seconds_per_turn,
            assumption=f"{seconds_per_turn:g} s per turn (a player's whole turn with everything it triggers); "
                       "shuffling, dealing and scoring time not counted",
            box_minutes=(low_minutes, high_minutes),
            turn_band=band,
            minutes_per_match=distribution(minutes),
            share_below_box=sum(m < low_minutes for m in minutes) / (len(minutes) or 1),
            share_within_box=sum(low_minutes <= m <= high_minutes for m in minutes) / (len(minutes) or 1),
            share_above_box=sum(m > high_minutes for m in minutes) / (len(minutes) or 1),
        ),
        ludii=LudiiMetrics(
            completion=len(finished) / n_matches,
            timeouts=timeouts / n_matches,
            drawishness=sum(len(m.winners) == players for m in finished) / (len(finished) or 1),
            advantage_p1=rates[0] if rates else 0.0,
            balance=1 - (max(rates) - min(rates)) if rates else 1.0,
            duration_turns=sum(match_turns) / (len(match_turns) or 1),
            duration_turns_sd=distribution(match_turns).sd,
            decision_moves=sum(decision_share) / (len(decision_share) or 1),
            ideal_duration=sum(ideal) / (len(ideal) or 1),
        ),
    )


def table_size_digest(summary: SimulationReport) -> TableSize:
    """What the report compares across table sizes: length, how games end, completion and label rates."""
    return TableSize(summary.players, summary.matches, summary.turns.per_game.mean,
                     summary.play_time.minutes_per_match.mean, summary.ludii.completion, summary.ended_by,
                     {name: d.mean for name, d in summary.counters_per_game.items()}, summary.labels)
