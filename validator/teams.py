"""The sides of a team game in a simulation report: each side's win rate and every seat's, role's and
label's fair share, read from the sides the rules engine declares (SidedSeats), never from its rules.

Definitions (the report states them in words):
- A side is the roles the engine groups as one (lord with loyalists); a role played `alone` (the
  renegade) makes each seat dealt it a side of its own. In one game a side is present when a seat of
  it was dealt, and it won when any of its seats is among the game's winners.
- Fair share: what a side would win were the sides balanced, i.e. every side at the table equally
  likely to win: 1 / (the sides in that game), averaged over the games. A seat, a role or any other
  label (a general) belongs to one side in each game, so its fair share is the same average over
  the games it was dealt in: at 8 seats of sanguosha (lord side, rebels, one renegade) every fair
  share is 1/3, at 10 seats with two renegades 1/4.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .engine.api import Side, SidedSeats
from .engine.playout import END_CAP
from .intervals import wilson
from .sim_parts import LabelGroup, SeatRate, SideRate, Teams
from .simulate import GameRecord, MatchRecord

BASIS = ("a side is the roles that win together (a role played alone is one side per seat); it wins a game "
         "when any of its seats wins, every seat of it credited a whole win. Fair share: what it would win "
         "were the sides balanced, every side at the table equally likely to win: 1 / the sides in the game, "
         "averaged over the games; a seat's, role's or other label's is that average over the games it was in")


@dataclass
class _Tally:
    """Running sums of one side, seat or label: games, wins, seats, and the sides at the table."""

    games: int = 0
    wins: int = 0
    sides: Counter[int] = field(default_factory=Counter)  # games by how many sides were at the table
    seats: int = 0
    roles: list[str] = field(default_factory=list)

    def fair_share(self) -> float:
        """The mean of 1 / sides over the games counted, summed exactly (equal shares stay equal)."""
        return float(sum((Fraction(n, sides) for sides, n in self.sides.items()), Fraction(0)) / self.games)


@dataclass(frozen=True)
class SideFigures:
    """What teams_of adds to a report: the sides, and fair shares per turn-order seat and per label."""

    teams: Teams
    seat_fair: tuple[float | None, ...]
    label_fair: dict[str, dict[str, float]]

    def seats(self, rows: Sequence[SeatRate]) -> tuple[SeatRate, ...]:
        return tuple(replace(row, fair_share=self.seat_fair[row.seat - 1]) for row in rows)

    def labels(self, groups: Sequence[LabelGroup]) -> tuple[LabelGroup, ...]:
        return tuple(replace(g, rows=tuple(replace(row, fair_share=self.label_fair.get(g.kind, {}).get(row.label))
                                           for row in g.rows)) for g in groups)


def _instances(roles: Sequence[str], sides: dict[str, Side]) -> dict[tuple[str, int], list[int]]:
    """The sides present in one game, each with its seats: (side, -1) for a side played together,
    (side, seat) for each seat of a side played alone. A role no side names is a side of its own."""
    present: dict[tuple[str, int], list[int]] = {}
    for seat, role in enumerate(roles):
        side = sides.get(role, Side(role, (role,)))
        present.setdefault((side.name, seat if side.alone else -1), []).append(seat)
    return present


def teams_of(game: object, matches: Sequence[MatchRecord], players: int) -> SideFigures | None:
    """The sides' figures over the finished games of these matches; None for a game without sides."""
    if not isinstance(game, SidedSeats):
        return None
    sides = {role: side for side in game.sides for role in side.roles}
    kind = game.side_kind
    by_side: dict[str, _Tally] = {side.name: _Tally(roles=list(side.roles)) for side in game.sides}
    by_seat = [_Tally() for _ in range(players)]
    by_label: dict[str, dict[str, _Tally]] = {}
    for match in matches:
        if match.timed_out:
            continue
        for record in match.games:
            _add_game(record, match.first_player, players, kind, sides, by_side, by_seat, by_label)
    rows = tuple(_side_rate(name, tally, sides) for name, tally in by_side.items() if tally.games)
    return SideFigures(
        Teams(kind, BASIS, rows),
        tuple(t.fair_share() if t.games else None for t in by_seat),
        {k: {label: t.fair_share() for label, t in labels.items()} for k, labels in by_label.items()})


def _add_game(record: GameRecord, first: int, players: int, kind: str, sides: dict[str, Side],
              by_side: dict[str, _Tally], by_seat: list[_Tally], by_label: dict[str, dict[str, _Tally]]) -> None:
    labels = dict(record.labels)
    roles = labels.get(kind)
    if record.end == END_CAP or roles is None:
        return
    present = _instances(roles, sides)
    count = len(present)
    for (name, _), seats in present.items():
        tally = by_side.setdefault(name, _Tally(roles=[name]))
        tally.games += 1
        tally.wins += any(seat in record.winners for seat in seats)
        tally.sides[count] += 1
        tally.seats += len(seats)
    for seat in range(len(roles)):
        order = by_seat[(seat - first) % players]
        order.games += 1
        order.sides[count] += 1
    for label_kind, per_seat in labels.items():
        for label in per_seat:
            tally = by_label.setdefault(label_kind, {}).setdefault(label, _Tally())
            tally.games += 1
            tally.sides[count] += 1


def _side_rate(name: str, tally: _Tally, sides: dict[str, Side]) -> SideRate:
    alone = any(side.alone for side in sides.values() if side.name == name)
    return SideRate(name, tuple(tally.roles), alone, tally.seats / tally.games, tally.games, tally.wins,
                    tally.wins / tally.games, wilson(tally.wins, tally.games), tally.fair_share())
