"""The simulation report as frozen, typed data: every figure report.json holds, with to_json/from_json.

stats.summarize makes the main figures; validator.study adds the plan's precision, the table sizes, the
variant study, the ladder and the studies not run. to_json writes the keys in the order report.json has
always had them, so the file is the same byte for byte; from_json reads such a document back and refuses
anything else (a missing or unknown key, a wrong type, NaN) with a one-line ReportFormatError.
A value given as an integer stays an integer (a histogram bin, a box time), so a round trip is exact.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .jsonread import Fields, JsonObject, JsonValue, ReportFormatError, read_integer, read_number, read_text

__all__ = ["Distribution", "HistogramBin", "LabelGroup", "LabelRate", "Ladder", "LadderPair", "LudiiMetrics",
           "NamesJa", "Finished", "PlayTime", "PrecisionNote", "ReportFormatError", "Scores", "SeatRate",
           "SimulationReport", "StrengthRow", "Studies", "StrongPlay", "TableSize", "Turns", "VariantComparison",
           "VariantRow"]


def _json_list(values: Iterable[JsonValue]) -> list[JsonValue]:
    return list(values)


def _json_map(values: Mapping[str, JsonValue]) -> JsonObject:
    return dict(values)


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

    def to_json(self) -> JsonObject:
        out: JsonObject = {"seat": self.seat, "wins": self.wins, "rate": self.rate, "ci95": list(self.ci95)}
        if self.policy is not None:
            out["policy"] = self.policy
        return out

    @classmethod
    def from_json(cls, f: Fields) -> SeatRate:
        made = cls(f.integer("seat"), f.number("wins"), f.number("rate"), f.pair("ci95"),
                   f.text("policy") if f.has("policy") else None)
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

    def to_json(self) -> JsonObject:
        return {"label": self.label, "games": self.games, "wins": self.wins, "rate": self.rate,
                "ci95": list(self.ci95)}

    @classmethod
    def from_json(cls, f: Fields) -> LabelRate:
        made = cls(f.text("label"), f.integer("games"), f.number("wins"), f.number("rate"), f.pair("ci95"))
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
                "ended_by": _json_map(self.ended_by), "counters_per_game": _json_map(self.counters_per_game),
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
        return {"endings": _json_map(self.endings), "events": _json_map(self.events)}

    @classmethod
    def from_json(cls, f: Fields) -> NamesJa:
        made = cls(f.mapping("endings", read_text), f.mapping("events", read_text))
        f.done()
        return made


@dataclass(frozen=True)
class VariantRow:
    """One option of a design question, played under the study's plan."""

    id: str
    label: str
    default: bool
    matches: int  # finished
    precision: float
    balance: float
    seats: tuple[SeatRate, ...]
    labels: tuple[LabelGroup, ...]
    score_mean: float
    score_sd: float
    winning_margin_mean: float
    close_finishes: float
    shared_wins: float  # share of finished matches
    turns_per_match: float
    minutes_per_match: float

    def to_json(self) -> JsonObject:
        return {"id": self.id, "label": self.label, "default": self.default, "matches": self.matches,
                "precision": self.precision, "balance": self.balance, "seats": [s.to_json() for s in self.seats],
                "labels": [g.to_json() for g in self.labels], "score_mean": self.score_mean,
                "score_sd": self.score_sd, "winning_margin_mean": self.winning_margin_mean,
                "close_finishes": self.close_finishes, "shared_wins": self.shared_wins,
                "turns_per_match": self.turns_per_match, "minutes_per_match": self.minutes_per_match}

    @classmethod
    def from_json(cls, f: Fields) -> VariantRow:
        made = cls(f.text("id"), f.text("label"), f.flag("default"), f.integer("matches"), f.number("precision"),
                   f.number("balance"), f.objects("seats", SeatRate.from_json),
                   f.objects("labels", LabelGroup.from_json), f.number("score_mean"), f.number("score_sd"),
                   f.number("winning_margin_mean"), f.number("close_finishes"), f.number("shared_wins"),
                   f.number("turns_per_match"), f.number("minutes_per_match"))
        f.done()
        return made


@dataclass(frozen=True)
class VariantComparison:
    """A design question's options played with the same seats, policies and seeds, and the verdict."""

    question: str
    default: str
    why_default: str
    matches_per_option: int
    players: int
    policies: tuple[str, ...]
    seed: int
    options: tuple[VariantRow, ...]
    balance_rank_of_default: int
    most_balanced: str
    ranking_supported: bool
    verdict: str
    verdict_ja: str
    strong_play: StrongPlay | None = None  # the study played again by stronger policies (a study of its own)

    @property
    def default_row(self) -> VariantRow:
        return next(row for row in self.options if row.default)

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "question": self.question, "default": self.default, "why_default": self.why_default,
            "matches_per_option": self.matches_per_option, "players": self.players,
            "policies": _json_list(self.policies), "seed": self.seed, "options": [o.to_json() for o in self.options],
            "balance_rank_of_default": self.balance_rank_of_default, "most_balanced": self.most_balanced,
            "ranking_supported": self.ranking_supported, "verdict": self.verdict, "verdict_ja": self.verdict_ja}
        if self.strong_play is not None:
            out["strong_play"] = self.strong_play.to_json()
        return out

    @classmethod
    def from_json(cls, f: Fields) -> VariantComparison:
        made = cls(f.text("question"), f.text("default"), f.text("why_default"), f.integer("matches_per_option"),
                   f.integer("players"), f.array("policies", read_text), f.integer("seed"),
                   f.objects("options", VariantRow.from_json), f.integer("balance_rank_of_default"),
                   f.text("most_balanced"), f.flag("ranking_supported"), f.text("verdict"), f.text("verdict_ja"),
                   f.optional("strong_play", StrongPlay.from_json))
        f.done()
        if sum(row.default for row in made.options) != 1:
            raise ReportFormatError(f"{f.at('options')}: expected exactly one default option")
        return made


@dataclass(frozen=True)
class StrongPlay:
    """The variant study played again by stronger policies, and whether its conclusion still holds."""

    comparison: VariantComparison
    conclusion_changed: bool
    changed_options: tuple[str, ...]
    conclusion: str
    conclusion_ja: str

    def to_json(self) -> JsonObject:
        return {**self.comparison.to_json(), "conclusion_changed": self.conclusion_changed,
                "changed_options": _json_list(self.changed_options), "conclusion": self.conclusion,
                "conclusion_ja": self.conclusion_ja}

    @classmethod
    def from_json(cls, f: Fields) -> StrongPlay:
        changed, options = f.flag("conclusion_changed"), f.array("changed_options", read_text)
        conclusion, conclusion_ja = f.text("conclusion"), f.text("conclusion_ja")
        comparison = VariantComparison.from_json(f)  # the rest of the object: done() checks both halves
        if comparison.strong_play is not None:
            raise ReportFormatError(f"{f.at('strong_play')}: a strong-play study holds no strong play of its own")
        return cls(comparison, changed, options, conclusion, conclusion_ja)


@dataclass(frozen=True)
class LadderPair:
    """Two adjacent rungs head to head: the stronger in seat 0 against the weaker in every other seat."""

    stronger: str
    weaker: str
    matches: int
    finished: int
    rate: float
    ci95: tuple[float, float]
    reference: float  # what seat 0 wins were the stronger no better
    reference_ci95: tuple[float, float]
    separated: bool

    def to_json(self) -> JsonObject:
        return {"stronger": self.stronger, "weaker": self.weaker, "matches": self.matches, "finished": self.finished,
                "rate": self.rate, "ci95": list(self.ci95), "reference": self.reference,
                "reference_ci95": list(self.reference_ci95), "separated": self.separated}

    @classmethod
    def from_json(cls, f: Fields) -> LadderPair:
        made = cls(f.text("stronger"), f.text("weaker"), f.integer("matches"), f.integer("finished"),
                   f.number("rate"), f.pair("ci95"), f.number("reference"), f.pair("reference_ci95"),
                   f.flag("separated"))
        f.done()
        return made


@dataclass(frozen=True)
class StrengthRow:
    """What one rung's self-play says about the game: balance, the seats' rates, length."""

    policy: str
    matches: int
    finished: int
    balance: float
    advantage_p1: float
    completion: float
    decision_moves: float
    seats: tuple[SeatRate, ...]
    seat_zero: SeatRate
    turns_mean: float
    minutes_mean: float
    labels: tuple[LabelGroup, ...]

    def to_json(self) -> JsonObject:
        return {"policy": self.policy, "matches": self.matches, "finished": self.finished, "balance": self.balance,
                "advantage_p1": self.advantage_p1, "completion": self.completion,
                "decision_moves": self.decision_moves, "seats": [s.to_json() for s in self.seats],
                "seat_zero": self.seat_zero.to_json(), "turns_mean": self.turns_mean,
                "minutes_mean": self.minutes_mean, "labels": [g.to_json() for g in self.labels]}

    @classmethod
    def from_json(cls, f: Fields) -> StrengthRow:
        made = cls(f.text("policy"), f.integer("matches"), f.integer("finished"), f.number("balance"),
                   f.number("advantage_p1"), f.number("completion"), f.number("decision_moves"),
                   f.objects("seats", SeatRate.from_json), f.read("seat_zero", SeatRate.from_json),
                   f.number("turns_mean"), f.number("minutes_mean"), f.objects("labels", LabelGroup.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class SeatsMoved:
    """Whether the seats' win rates move from the weakest rung measured to the strongest, in words."""

    text: str
    text_ja: str
    moved: bool


@dataclass(frozen=True)
class Ladder:
    """The strength ladder: each adjacent pair head to head, the balance at every strength, the verdicts."""

    players: int
    seed: int
    rungs: tuple[str, ...]
    matches_per_pair: int
    self_play: tuple[int, ...]
    team_victory: bool
    pairs: tuple[LadderPair, ...]
    strengths: tuple[StrengthRow, ...]
    order_shown: bool
    order: str
    order_ja: str
    seats: SeatsMoved | None  # with two strengths measured or more

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "players": self.players, "seed": self.seed, "rungs": _json_list(self.rungs),
            "matches_per_pair": self.matches_per_pair, "self_play": _json_list(self.self_play),
            "team_victory": self.team_victory, "pairs": [p.to_json() for p in self.pairs],
            "strengths": [s.to_json() for s in self.strengths], "order_shown": self.order_shown,
            "order": self.order, "order_ja": self.order_ja}
        if self.seats is not None:
            out.update(seats=self.seats.text, seats_ja=self.seats.text_ja, seats_moved=self.seats.moved)
        return out

    @classmethod
    def from_json(cls, f: Fields) -> Ladder:
        head = (f.integer("players"), f.integer("seed"), f.array("rungs", read_text), f.integer("matches_per_pair"),
                f.array("self_play", read_integer), f.flag("team_victory"), f.objects("pairs", LadderPair.from_json),
                f.objects("strengths", StrengthRow.from_json), f.flag("order_shown"), f.text("order"),
                f.text("order_ja"))
        seats = SeatsMoved(f.text("seats"), f.text("seats_ja"), f.flag("seats_moved")) if f.has("seats") else None
        f.done()
        return cls(*head, seats)


@dataclass(frozen=True)
class Studies:
    """What `fudaya build --studies` plays (minutes to hours) and the report cache keeps apart."""

    ladder: Ladder | None = None
    strong_play: StrongPlay | None = None

    def to_json(self) -> JsonObject:
        out: JsonObject = {}
        if self.ladder is not None:
            out["ladder"] = self.ladder.to_json()
        if self.strong_play is not None:
            out["strong_play"] = self.strong_play.to_json()
        return out

    @classmethod
    def from_json(cls, f: Fields) -> Studies:
        made = cls(f.optional("ladder", Ladder.from_json), f.optional("strong_play", StrongPlay.from_json))
        f.done()
        return made


@dataclass(frozen=True)
class SimulationReport:
    """Everything a simulation report says: the main run, then what the plan and the studies add."""

    game: str
    players: int
    policies: tuple[str, ...]
    seed: int
    step_cap: int
    matches: int
    games: int
    games_per_match: int
    unit: str
    finished: Finished
    ended_by: Mapping[str, int]
    turns: Turns
    scores: Scores
    seat_basis: str
    seats: tuple[SeatRate, ...]         # by turn order
    policy_seats: tuple[SeatRate, ...]  # by table seat, with each seat's policy
    labels: tuple[LabelGroup, ...]
    team_victory: bool
    shared_wins: int
    actions: Mapping[str, int]
    actions_per_game: Mapping[str, float]
    counters: Mapping[str, int]
    counters_per_game: Mapping[str, Distribution]
    play_time: PlayTime
    ludii: LudiiMetrics
    precision: PrecisionNote | None = None
    by_players: tuple[TableSize, ...] | None = None
    variants: VariantComparison | None = None
    names_ja: NamesJa | None = None
    ladder: Ladder | None = None
    studies_not_run: tuple[str, ...] | None = None  # asked for by game.json, not played in this build

    def with_studies(self, found: Studies) -> SimulationReport:
        """The report with the studies played: the ladder, the variant study's strong play."""
        variants = self.variants
        if found.strong_play is not None and variants is not None:
            variants = replace(variants, strong_play=found.strong_play)
        return replace(self, ladder=found.ladder or self.ladder, variants=variants)

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "game": self.game, "players": self.players, "policies": _json_list(self.policies), "seed": self.seed,
            "step_cap": self.step_cap, "matches": self.matches, "games": self.games,
            "games_per_match": self.games_per_match, "unit": self.unit, "finished": self.finished.to_json(),
            "ended_by": _json_map(self.ended_by), "turns": self.turns.to_json(), "scores": self.scores.to_json(),
            "seat_basis": self.seat_basis, "seats": [s.to_json() for s in self.seats],
            "policy_seats": [s.to_json() for s in self.policy_seats],
            "labels": [g.to_json() for g in self.labels], "team_victory": self.team_victory,
            "shared_wins": self.shared_wins, "actions": _json_map(self.actions),
            "actions_per_game": _json_map(self.actions_per_game), "counters": _json_map(self.counters),
            "counters_per_game": {name: d.to_json() for name, d in self.counters_per_game.items()},
            "play_time": self.play_time.to_json(), "ludii": self.ludii.to_json()}
        if self.precision is not None:
            out["precision"] = self.precision.to_json()
        if self.by_players is not None:
            out["by_players"] = [size.to_json() for size in self.by_players]
        if self.variants is not None:
            out["variants"] = self.variants.to_json()
        if self.names_ja is not None:
            out["names_ja"] = self.names_ja.to_json()
        if self.ladder is not None:
            out["ladder"] = self.ladder.to_json()
        if self.studies_not_run is not None:
            out["studies_not_run"] = _json_list(self.studies_not_run)
        return out

    @classmethod
    def from_json(cls, f: Fields) -> SimulationReport:
        made = cls(
            f.text("game"), f.integer("players"), f.array("policies", read_text), f.integer("seed"),
            f.integer("step_cap"), f.integer("matches"), f.integer("games"), f.integer("games_per_match"),
            f.text("unit"), f.read("finished", Finished.from_json), f.mapping("ended_by", read_integer),
            f.read("turns", Turns.from_json), f.read("scores", Scores.from_json), f.text("seat_basis"),
            f.objects("seats", SeatRate.from_json), f.objects("policy_seats", SeatRate.from_json),
            f.objects("labels", LabelGroup.from_json), f.flag("team_victory"), f.integer("shared_wins"),
            f.mapping("actions", read_integer), f.mapping("actions_per_game", read_number),
            f.mapping("counters", read_integer),
            f.mapping("counters_per_game", lambda value, path: Distribution.from_json(Fields(value, path))),
            f.read("play_time", PlayTime.from_json), f.read("ludii", LudiiMetrics.from_json),
            f.optional("precision", PrecisionNote.from_json),
            f.array("by_players", lambda value, path: TableSize.from_json(Fields(value, path)))
            if f.has("by_players") else None,
            f.optional("variants", VariantComparison.from_json), f.optional("names_ja", NamesJa.from_json),
            f.optional("ladder", Ladder.from_json),
            f.array("studies_not_run", read_text) if f.has("studies_not_run") else None)
        f.done()
        _check_drawable(made, f)
        return made


def _check_drawable(report: SimulationReport, f: Fields) -> None:
    """What every writer relies on beyond the types: the seats are there, one per player, in order."""
    if not 1 <= report.players <= 64:
        raise ReportFormatError(f"{f.at('players')}: expected 1 to 64 players, found {report.players}")
    if report.matches < 1 or report.games_per_match < 1:
        raise ReportFormatError(f"{f.at('matches')}: expected at least one match of at least one game")
    if len(report.seats) != report.players:
        raise ReportFormatError(f"{f.at('seats')}: expected {report.players} seats, found {len(report.seats)}")
    if not report.policies:
        raise ReportFormatError(f"{f.at('policies')}: expected at least one policy")
