"""The simulation report's parts as frozen, typed data (sim_result.py puts them together): distributions,
seat and label rates with their intervals, how games ended, play time, Ludii's metrics, the precision
note, table sizes and the Japanese names. Each has to_json (report.json's keys, in its order) and
from_json (refusing anything else with a one-line ReportFormatError).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .jsonread import Fields, JsonObject, json_map, read_integer, read_number, read_text


@dataclass(frozen=True)
class HistogramBin:
    low: int   # "from"
    high: int  # "to", inclusive
    count: int

    def to_json(self) -> JsonObject:
        return {"from": self.low, "to": self.high, "count": self.count}

    @classmethod
    def from_json(cls, f: Fields) -> HistogramBin:
        made = cls(f.integer("from"), f.integer("to"), f.integer("count"))
        f.done()
        return made


@dataclass(frozen=True)
class Distribution:
    """Mean, sd, percentiles and histogram of some values; with n == 0 there are none (the figures are 0)."""

    n: int
    mean: float = 0.0
    sd: float = 0.0
    minimum: float = 0.0
    p5: float = 0.0
    p25: float = 0.0
    median: float = 0.0
    p75: float = 0.0
    p95: float = 0.0
    maximum: float = 0.0
    histogram: tuple[HistogramBin, ...] = ()

    def to_json(self) -> JsonObject:
        if not self.n:
            return {"n": 0}
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.minimum, "p5": self.p5,
                "p25": self.p25, "median": self.median, "p75": self.p75, "p95": self.p95, "max": self.maximum,
                "histogram": [b.to_json() for b in self.histogram]}

    @classmethod
    def from_json(cls, f: Fields) -> Distribution:
        n = f.integer("n")
        if not n:
            f.done()
            return cls(0)
        made = cls(n, f.number("mean"), f.number("sd"), f.number("min"), f.number("p5"), f.number("p25"),
                   f.number("median"), f.number("p75"), f.number("p95"), f.number("max"),
                   f.objects("histogram", HistogramBin.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class SeatRate:
    """One seat's win credit and rate with its Wilson 95 % interval; `policy` on a table seat only."""

    seat: int
    wins: float
    rate: float
    ci95: tuple[float, float]
    policy: str | None = None
    fair_share: float | None = None  # in a game of sides: what the seat would win were the sides balanced

    def to_json(self) -> JsonObject:
        out: JsonObject = {"seat": self.seat, "wins": self.wins, "rate": self.rate, "ci95": list(self.ci95)}
        if self.policy is not None:
            out["policy"] = self.policy
        if self.fair_share is not None:
            out["fair_share"] = self.fair_share
        return out

    @classmethod
    def from_json(cls, f: Fields) -> SeatRate:
        made = cls(f.integer("seat"), f.number("wins"), f.number("rate"), f.pair("ci95"),
                   f.text("policy") if f.has("policy") else None,
                   f.number("fair_share") if f.has("fair_share") else None)
        f.done()
        return made


@dataclass(frozen=True)
class LabelRate:
    """The win rate of the seats dealt one label (a start area, an identity) over finished games."""

    label: str
    games: int
    wins: float
    rate: float
    ci95: tuple[float, float]
    fair_share: float | None = None  # in a game of sides: what the seats dealt it would win were the sides balanced

    def to_json(self) -> JsonObject:
        out: JsonObject = {"label": self.label, "games": self.games, "wins": self.wins, "rate": self.rate,
                           "ci95": list(self.ci95)}
        if self.fair_share is not None:
            out["fair_share"] = self.fair_share
        return out

    @classmethod
    def from_json(cls, f: Fields) -> LabelRate:
        made = cls(f.text("label"), f.integer("games"), f.number("wins"), f.number("rate"), f.pair("ci95"),
                   f.number("fair_share") if f.has("fair_share") else None)
        f.done()
        return made


@dataclass(frozen=True)
class LabelGroup:
    kind: str
    rows: tuple[LabelRate, ...]  # best first

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "rows": [row.to_json() for row in self.rows]}

    @classmethod
    def from_json(cls, f: Fields) -> LabelGroup:
        made = cls(f.text("kind"), f.objects("rows", LabelRate.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class SideRate:
    """One side of a team game (validator.teams): the roles on it, its seats in a game on average, the
    games it played (one per seat for a side played alone), how often it won and its fair share."""

    side: str
    roles: tuple[str, ...]
    alone: bool
    seats: float
    games: int
    wins: int
    rate: float
    ci95: tuple[float, float]
    fair_share: float

    def to_json(self) -> JsonObject:
        return {"side": self.side, "roles": list(self.roles), "alone": self.alone, "seats": self.seats,
                "games": self.games, "wins": self.wins, "rate": self.rate, "ci95": list(self.ci95),
                "fair_share": self.fair_share}

    @classmethod
    def from_json(cls, f: Fields) -> SideRate:
        made = cls(f.text("side"), f.array("roles", read_text), f.flag("alone"), f.number("seats"),
                   f.integer("games"), f.integer("wins"), f.number("rate"), f.pair("ci95"), f.number("fair_share"))
        f.done()
        return made


@dataclass(frozen=True)
class Teams:
    """The sides of a team game and their win rates. `kind` is the seat label kind naming the roles
    (its LabelGroup gives each role's rate and fair share); `basis` says what a fair share is."""

    kind: str
    basis: str
    sides: tuple[SideRate, ...]

    def to_json(self) -> JsonObject:
        return {"kind": self.kind, "basis": self.basis, "sides": [side.to_json() for side in self.sides]}

    @classmethod
    def from_json(cls, f: Fields) -> Teams:
        made = cls(f.text("kind"), f.text("basis"), f.objects("sides", SideRate.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class Finished:
    matches: int
    games: int
    timeouts: int
    all_finished: bool

    def to_json(self) -> JsonObject:
        return {"matches": self.matches, "games": self.games, "timeouts": self.timeouts,
                "all_finished": self.all_finished}

    @classmethod
    def from_json(cls, f: Fields) -> Finished:
        made = cls(f.integer("matches"), f.integer("games"), f.integer("timeouts"), f.flag("all_finished"))
        f.done()
        return made


@dataclass(frozen=True)
class Turns:
    per_game: Distribution
    per_match: Distribution

    def to_json(self) -> JsonObject:
        return {"per_game": self.per_game.to_json(), "per_match": self.per_match.to_json()}

    @classmethod
    def from_json(cls, f: Fields) -> Turns:
        made = cls(f.read("per_game", Distribution.from_json), f.read("per_match", Distribution.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class Scores:
    per_game: Distribution
    winning_per_game: Distribution
    match_total: Distribution
    winning_match_total: Distribution

    def to_json(self) -> JsonObject:
        return {"per_game": self.per_game.to_json(), "winning_per_game": self.winning_per_game.to_json(),
                "match_total": self.match_total.to_json(), "winning_match_total": self.winning_match_total.to_json()}

    @classmethod
    def from_json(cls, f: Fields) -> Scores:
        made = cls(*(f.read(key, Distribution.from_json)
                     for key in ("per_game", "winning_per_game", "match_total", "winning_match_total")))
        f.done()
        return made


@dataclass(frozen=True)
class PlayTime:
    """Estimated minutes per match at an assumed time per turn, against the box's play time."""

    seconds_per_turn: float
    assumption: str
    box_minutes: tuple[float, float]
    turn_band: tuple[float, float]
    minutes_per_match: Distribution
    share_below_box: float
    share_within_box: float
    share_above_box: float

    def to_json(self) -> JsonObject:
        return {"seconds_per_turn": self.seconds_per_turn, "assumption": self.assumption,
                "box_minutes": list(self.box_minutes), "turn_band": list(self.turn_band),
                "minutes_per_match": self.minutes_per_match.to_json(), "share_below_box": self.share_below_box,
                "share_within_box": self.share_within_box, "share_above_box": self.share_above_box}

    @classmethod
    def from_json(cls, f: Fields) -> PlayTime:
        made = cls(f.number("seconds_per_turn"), f.text("assumption"), f.pair("box_minutes"), f.pair("turn_band"),
                   f.read("minutes_per_match", Distribution.from_json), f.number("share_below_box"),
                   f.number("share_within_box"), f.number("share_above_box"))
        f.done()
        return made


LUDII_NAMES = ("Completion", "Timeouts", "Drawishness", "AdvantageP1", "Balance", "DurationTurns",
               "DurationTurnsStdDev", "DecisionMoves", "IdealDuration")


@dataclass(frozen=True)
class LudiiMetrics:
    """Ludii's metrics, defined in validator.stats; `items()` gives them under Ludii's names, in its order."""

    completion: float
    timeouts: float
    drawishness: float
    advantage_p1: float
    balance: float
    duration_turns: float
    duration_turns_sd: float
    decision_moves: float
    ideal_duration: float

    def items(self) -> tuple[tuple[str, float], ...]:
        return tuple(zip(LUDII_NAMES, (self.completion, self.timeouts, self.drawishness, self.advantage_p1,
                                       self.balance, self.duration_turns, self.duration_turns_sd,
                                       self.decision_moves, self.ideal_duration)))

    def to_json(self) -> JsonObject:
        return {name: value for name, value in self.items()}

    @classmethod
    def from_json(cls, f: Fields) -> LudiiMetrics:
        made = cls(*(f.number(name) for name in LUDII_NAMES))
        f.done()
        return made


@dataclass(frozen=True)
class PrecisionNote:
    """How precise the seats' win rates came out, against the plan's target and match cap."""

    target: float
    reached: float
    cap: int
    stopped_early: bool

    def to_json(self) -> JsonObject:
        return {"target": self.target, "reached": self.reached, "cap": self.cap, "stopped_early": self.stopped_early}

    @classmethod
    def from_json(cls, f: Fields) -> PrecisionNote:
        made = cls(f.number("target"), f.number("reached"), f.integer("cap"), f.flag("stopped_early"))
        f.done()
        return made


@dataclass(frozen=True)
class TableSize:
    """One table size compared in the report: length, how games end, completion and label rates."""

    players: int
    matches: int
    turns_mean: float
    minutes_mean: float
    completion: float
    ended_by: Mapping[str, int]
    counters_per_game: Mapping[str, float]  # mean per game
    labels: tuple[LabelGroup, ...]

    def to_json(self) -> JsonObject:
        return {"players": self.players, "matches": self.matches, "turns_mean": self.turns_mean,
                "minutes_mean": self.minutes_mean, "completion": self.completion,
                "ended_by": json_map(self.ended_by), "counters_per_game": json_map(self.counters_per_game),
                "labels": [group.to_json() for group in self.labels]}

    @classmethod
    def from_json(cls, f: Fields) -> TableSize:
        made = cls(f.integer("players"), f.integer("matches"), f.number("turns_mean"), f.number("minutes_mean"),
                   f.number("completion"), f.mapping("ended_by", read_integer),
                   f.mapping("counters_per_game", read_number), f.objects("labels", LabelGroup.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class NamesJa:
    """Japanese names of the engine's endings and counted events (ids it does not name show as they are)."""

    endings: Mapping[str, str]
    events: Mapping[str, str]

    def to_json(self) -> JsonObject:
        return {"endings": json_map(self.endings), "events": json_map(self.events)}

    @classmethod
    def from_json(cls, f: Fields) -> NamesJa:
        made = cls(f.mapping("endings", read_text), f.mapping("events", read_text))
        f.done()
        return made
