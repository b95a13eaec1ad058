"""The studies of a simulation report as frozen, typed data: a variant study's options and their strong
play, and the strength ladder (its pairs, the self-play rows, the seats a stronger policy moved). Each has
to_json and from_json like the report's parts (sim_parts.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from .jsonread import Fields, JsonObject, ReportFormatError, json_list, read_integer, read_text
from .sim_parts import LabelGroup, SeatRate


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
            "policies": json_list(self.policies), "seed": self.seed, "options": [o.to_json() for o in self.options],
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
                "changed_options": json_list(self.changed_options), "conclusion": self.conclusion,
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
    separated: bool  # the sequential test showed the stronger stronger (ladder.PairTest)
    looks: int = 1  # how often the test could look at the records (ladder.PairTest: a strict level before the cap)

    def to_json(self) -> JsonObject:
        return {"stronger": self.stronger, "weaker": self.weaker, "matches": self.matches, "finished": self.finished,
                "rate": self.rate, "ci95": list(self.ci95), "reference": self.reference,
                "reference_ci95": list(self.reference_ci95), "separated": self.separated, "looks": self.looks}

    @classmethod
    def from_json(cls, f: Fields) -> LadderPair:
        made = cls(f.text("stronger"), f.text("weaker"), f.integer("matches"), f.integer("finished"),
                   f.number("rate"), f.pair("ci95"), f.number("reference"), f.pair("reference_ci95"),
                   f.flag("separated"), f.integer("looks"))
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

    def strongest_shown(self) -> LadderPair | None:
        """The pair that shows the strongest rung reached from the bottom through pairs all shown (the
        rung is its `stronger`, its `matches` what showing it took); None when the first pair is not shown."""
        top = None
        for pair in self.pairs:
            if not pair.separated:
                break
            top = pair
        return top

    def strongest(self) -> str:
        """strongest_ja's sentence in English, for the console."""
        return self._strongest_words()[0]

    def strongest_ja(self) -> str:
        """The report's sentence on the strongest rung shown and how many matches showing it took."""
        return self._strongest_words()[1]

    def _strongest_words(self) -> tuple[str, str]:
        top = self.strongest_shown()
        if top is None:
            first = self.pairs[0]
            return (f"no rung is shown stronger ({first.stronger} over {first.weaker} not shown in "
                    f"{first.matches} matches)",
                    f"強いと示せた段はない（{first.stronger} 対 {first.weaker} の {first.matches} 試合で、"
                    f"{first.stronger}の勝率が基準を上回ると言えない）。")
        return (f"strongest rung shown: {top.stronger} (over {top.weaker} in {top.matches} matches, "
                "every rung below it shown too)",
                f"強さが示された最も強い段は {top.stronger}（{top.weaker} との {top.matches} 試合で示せた。"
                "下の段もすべて示せている）。")

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "players": self.players, "seed": self.seed, "rungs": json_list(self.rungs),
            "matches_per_pair": self.matches_per_pair, "self_play": json_list(self.self_play),
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
