"""Render a simulation report (validator.sim_result.SimulationReport) as plain text for the terminal."""
from __future__ import annotations

from collections.abc import Sequence

from .sim_result import (
    Distribution,
    LabelGroup,
    LabelRate,
    Ladder,
    LadderPair,
    PrecisionNote,
    SeatRate,
    SimulationReport,
    StrongPlay,
    VariantComparison,
)
from .wording import counted

BAR_WIDTH = 40


def _pct(share: float) -> str:
    return f"{100 * share:.1f} %"


def _dist(d: Distribution, unit: str = "") -> str:
    if not d.n:
        return "none"
    return (f"mean {d.mean:.1f}{unit} sd {d.sd:.1f} | p5 {d.p5:g} median {d.median:g} "
            f"p95 {d.p95:g} | min {d.minimum:g} max {d.maximum:g}")


def _histogram(d: Distribution, indent: str = "    ") -> list[str]:
    peak = max((row.count for row in d.histogram), default=0) or 1
    lines = []
    for row in d.histogram:
        label = f"{row.low}" if row.low == row.high else f"{row.low}-{row.high}"
        bar = "#" * round(BAR_WIDTH * row.count / peak)
        lines.append(f"{indent}{label:>7} {bar} {row.count}")
    return lines


def render_text(s: SimulationReport) -> str:
    """The summary a designer reads: every number the JSON holds that matters, with its assumption."""
    policies = ", ".join(s.policies) if len(set(s.policies)) > 1 else f"{s.policies[0]} x{s.players}"
    done = s.finished
    games = f" of {s.games_per_match} games ({counted(s.games, 'game')})" if s.games_per_match > 1 else ""
    out = [
        f"{s.game}: {counted(s.matches, 'match')}{games}, "
        f"{counted(s.players, 'player')}, policy {policies}, seed {s.seed}",
        f"  ({s.unit})",
        f"finished: {done.matches}/{s.matches} matches, {done.games}/{s.games} games "
        f"({done.timeouts} stopped by the {s.step_cap}-step cap)",
        "games ended by: " + ", ".join(f"{k} {v} ({_pct(v / (s.games or 1))})" for k, v in s.ended_by.items()),
        f"turns per game:  {_dist(s.turns.per_game)}",
        f"turns per match: {_dist(s.turns.per_match)}",
        *_histogram(s.turns.per_match),
        f"score per game (every seat): {_dist(s.scores.per_game)}",
        *_histogram(s.scores.per_game),
        f"winning score per game:      {_dist(s.scores.winning_per_game)}",
        f"match total (every seat):    {_dist(s.scores.match_total)}",
        f"winning match total:         {_dist(s.scores.winning_match_total)}",
        f"seat win rates, 95 % Wilson intervals ({s.seat_basis}; a shared win is split):",
    ]
    for row in s.seats:
        low, high = row.ci95
        out.append(f"  seat {row.seat}: {_pct(row.rate)}  [{_pct(low)}, {_pct(high)}]")
    if s.precision is not None:
        out.append(f"  {_precision_text(s.precision, s.matches)}")
    if len(set(s.policies)) > 1:
        out.append("win rates by table seat and policy:")
        for row in s.policy_seats:
            low, high = row.ci95
            out.append(f"  table seat {row.seat} ({row.policy}): {_pct(row.rate)}  "
                       f"[{_pct(low)}, {_pct(high)}]")
    for group in s.labels:
        out.append(f"win rates by {group.kind} (per finished game; 95 % Wilson intervals):")
        for label in group.rows:
            low, high = label.ci95
            out.append(f"  {label.label}: {_pct(label.rate)}  [{_pct(low)}, {_pct(high)}]  "
                       f"({counted(label.games, 'seat')})")
    out.append(f"{'matches won by a side of several seats' if s.team_victory else 'shared wins'}: "
               f"{counted(s.shared_wins, 'match')}")
    out += _side_lines(s)
    for size in s.by_players or ():
        groups = "; ".join(f"{g.kind} " + _label_rates_text(g.rows, ", ") for g in size.labels if len(g.rows) <= 5)
        out.append(f"{counted(size.players, 'player')}: {counted(size.matches, 'match')}, "
                   f"{size.turns_mean:.1f} turns, "
                   f"{size.minutes_mean:.0f} min, completion {_pct(size.completion)}"
                   + (f"; {groups}" if groups else ""))
    per_game = s.actions_per_game
    out.append("actions: " + ", ".join(f"{k} {v} ({per_game[k]:.2f}/game)" for k, v in s.actions.items()))
    if s.counters:
        out.append("counted events, total and per game (mean, max):")
        for name, total in s.counters.items():
            per = s.counters_per_game[name]
            out.append(f"  {name.replace('_', ' ')}: {total} (mean {per.mean:.2f}, max {per.maximum:g})")
    t = s.play_time
    low, high = t.box_minutes
    out += [
        f"estimated play time per match, assuming {t.assumption}:",
        f"  minutes: {_dist(t.minutes_per_match)}; the box says {low}-{high} min",
        f"  below the box {_pct(t.share_below_box)}, within {_pct(t.share_within_box)}, "
        f"above {_pct(t.share_above_box)}",
    ]
    band = t.turn_band
    out += [
        "Ludii metrics: " + "  ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                                      for k, v in s.ludii.items()),
        f"  (IdealDuration band: {band[0]:g}-{band[1]:g} turns per match = {low}-{high} min at "
        f"{t.seconds_per_turn:g} s/turn)",
    ]
    return "\n".join(out)


def _side_lines(s: SimulationReport) -> list[str]:
    """Each side's win rate against its fair share (games of sides only; validator.teams defines it)."""
    if s.teams is None:
        return []
    out = [f"win rates by side ({s.teams.basis}):"]
    for side in s.teams.sides:
        low, high = side.ci95
        out.append(f"  {side.side} ({'/'.join(side.roles)}{', each seat alone' if side.alone else ''}): "
                   f"{_pct(side.rate)}  [{_pct(low)}, {_pct(high)}]  fair share {_pct(side.fair_share)}")
    return out


def _headline_sides(s: SimulationReport) -> list[str]:
    if s.teams is None:
        return []
    return ["win rate by side against its fair share: " + ", ".join(
        f"{side.side} {_pct(side.rate)} (fair {_pct(side.fair_share)})" for side in s.teams.sides)]


def render_headline(s: SimulationReport) -> list[str]:
    """A few lines for `fudaya check`: does every game end, how long, how it ends, is it fair."""
    done, time = s.finished, s.play_time
    seats = ", ".join(f"{row.seat}: {_interval(row)}" for row in s.seats)
    ended = ", ".join(f"{name} {_pct(count / (s.games or 1))}" for name, count in s.ended_by.items())
    box = time.box_minutes
    return [
        f"simulated {counted(s.matches, 'match')} ({counted(s.games, 'game')}), "
        f"{counted(s.players, 'player')}, "
        f"{'/'.join(sorted(set(s.policies)))}, seed {s.seed}: {done.matches} finished, "
        f"{done.timeouts} stopped by the step cap",
        f"turns per game: {_dist(s.turns.per_game)}; ended by {ended}",
        f"estimated play time per match: mean {time.minutes_per_match.mean:.1f} min at an assumed "
        f"{time.seconds_per_turn:g} s/turn "
        f"(box {box[0]}–{box[1]} min: {_pct(time.share_within_box)} within, "
        f"{_pct(time.share_below_box)} shorter, {_pct(time.share_above_box)} longer)",
        f"win rate by turn order (95% CI): {seats}; Balance {s.ludii.balance:.3f}",
    ] + _headline_sides(s) + _label_lines(s.labels) + _variant_lines(s.variants) + ladder_lines(s.ladder) + (
        [f"not played in this build (fudaya build --studies): {', '.join(s.studies_not_run)}"]
        if s.studies_not_run else [])


def box_time_warning(s: SimulationReport) -> str | None:
    """A warning when most simulated matches fall outside the box's play time on one side.

    The minutes rest on an assumed time per turn, so this says the box time and the assumption
    disagree, not which of them is wrong."""
    time = s.play_time
    low, high = time.box_minutes
    for share, side in ((time.share_below_box, "sooner"), (time.share_above_box, "later")):
        if share > 0.5:
            return (f"{_pct(share)} of simulated matches end {side} than the box's {low}–{high} min "
                    f"(an estimate at an assumed {time.seconds_per_turn:g} s a turn): "
                    f"the box time or the assumed turn time needs a look")
    return None


def _label_lines(groups: Sequence[LabelGroup]) -> list[str]:
    return [f"win rate by {group.kind} (95% CI): " + _label_rates_text(group.rows, ", ") for group in groups]


def _label_rates_text(rows: Sequence[LabelRate], sep: str) -> str:
    return sep.join(f"{row.label}: {_interval(row)}" for row in rows)


def _precision_text(note: PrecisionNote, matches: int) -> str:
    """How precise the seat win rates are and why play stopped where it did."""
    widest = f"widest interval ±{note.reached * 100:.2f} points"
    if not note.target:
        return f"{widest} (no precision target: all {counted(note.cap, 'match')} played)"
    target = f"±{note.target * 100:g} points"
    if note.stopped_early:
        return f"{widest}: target {target} reached after {matches} of at most {note.cap} matches"
    if note.reached <= note.target:
        return f"{widest}: target {target} reached at the cap of {counted(note.cap, 'match')}"
    return f"{widest}: target {target} not reached within the cap of {counted(note.cap, 'match')}"


def _variant_lines(v: VariantComparison | None) -> list[str]:
    """The design comparison: one line per option (* = the deck's default), then the verdict."""
    if v is None:
        return []
    lines = [f"design question: {v.question} (at most {counted(v.matches_per_option, 'match')} per "
             f"option, same deals)"]
    for row in v.options:
        seats = " ".join(_pct(seat.rate) for seat in row.seats)
        lines.append(f"  {'*' if row.default else ' '} {row.id:<10} Balance {row.balance:.3f}  "
                     f"seats {seats}  score sd {row.score_sd:.2f}  margin {row.winning_margin_mean:.2f}  "
                     f"{row.minutes_per_match:.0f} min")
        for group in row.labels:
            lines.append(f"      {'':<10} by {group.kind}: " + _label_rates_text(group.rows, "  "))
    lines.append(f"why the default: {v.why_default}")
    lines.append(f"measured: {v.verdict}")
    return lines + _strong_lines(v.strong_play)


def _strong_lines(strong: StrongPlay | None) -> list[str]:
    if strong is None:
        return []
    again = strong.comparison
    most = counted(again.matches_per_option, "match")
    balances = "  ".join(f"{row.id} Balance {row.balance:.3f}" for row in again.options)
    return [f"again with {', '.join(again.policies)} (at most {most} per option): {balances}",
            f"  {again.verdict}", f"  {strong.conclusion}"]


def _interval(row: SeatRate | LabelRate | LadderPair) -> str:
    return f"{_pct(row.rate)} [{_pct(row.ci95[0])}–{_pct(row.ci95[1])}]"


def ladder_lines(ladder: Ladder | None) -> list[str]:
    """The strength ladder: each pair head to head, then the balance at every strength, then the verdicts."""
    if ladder is None:
        return []
    lines = [f"strength ladder at {counted(ladder.players, 'player')}, seed {ladder.seed} "
             f"(the stronger in one seat against the weaker in the rest):"]
    for pair in ladder.pairs:
        played = counted(pair.finished, "match")
        cap = ladder.matches_per_pair
        early = f", decided before the cap of {cap}" if pair.matches < cap else ""
        lines.append(f"  {pair.stronger} vs {pair.weaker}: {_interval(pair)} of {played} against a fair "
                     f"{_pct(pair.reference)}{'' if pair.separated else ' (not separated)'}{early}")
    for row in ladder.strengths:
        seats = " ".join(_pct(seat.rate) for seat in row.seats)
        lines.append(f"  all {row.policy}: Balance {row.balance:.3f}, seats {seats}, "
                     f"{row.turns_mean:.1f} turns a game ({counted(row.finished, 'match')})")
    lines.append(f"  {ladder.order}")
    lines.append(f"  {ladder.strongest()}")
    if ladder.seats is not None:
        lines.append(f"  {ladder.seats.text}")
    return lines
