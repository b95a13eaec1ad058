"""The simulation report as frozen, typed data: every figure report.json holds, with to_json/from_json.

The parts are in sim_parts.py, the studies in study_result.py (both re-exported here).
stats.summarize makes the main figures; validator.study adds the plan's precision, the table sizes, the
variant study, the ladder and the studies not run. to_json writes the keys in one fixed order, "format"
(REPORT_FORMAT, the shape) first, so the same report gives the same file byte for byte; from_json reads
such a document back and refuses anything else (another format, a missing or unknown key, a wrong type,
NaN) with a one-line ReportFormatError.
A value given as an integer stays an integer (a histogram bin, a box time), so a round trip is exact.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .jsonread import Fields, JsonObject, ReportFormatError, json_list, json_map, read_integer, read_number, read_text
from .sim_parts import (
    Distribution,
    Finished,
    HistogramBin,
    LabelGroup,
    LabelRate,
    LudiiMetrics,
    NamesJa,
    PlayTime,
    PrecisionNote,
    Scores,
    SeatRate,
    SideRate,
    TableSize,
    Teams,
    Turns,
)
from .study_result import (
    Ladder,
    LadderPair,
    SeatsMoved,
    StrengthRow,
    StrongPlay,
    Studies,
    VariantComparison,
    VariantRow,
)

__all__ = ["Distribution", "HistogramBin", "LabelGroup", "LabelRate", "Ladder", "LadderPair", "LudiiMetrics",
           "NamesJa", "Finished", "PlayTime", "PrecisionNote", "ReportFormatError", "Scores", "SeatRate", "SeatsMoved",
           "SideRate", "SimulationReport", "StrengthRow", "Studies", "StrongPlay", "TableSize", "Teams", "Turns",
           "VariantComparison", "VariantRow"]

# report.json's shape: 2 added "format" itself and, for games of sides, "teams" and each seat's and
# label's "fair_share". from_json reads only this format; a report of another is simulated again.
REPORT_FORMAT = 2


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
    teams: Teams | None = None  # a game of sides (SidedSeats): each side's rate and fair share

    def with_studies(self, found: Studies) -> SimulationReport:
        """The report with the studies played: the ladder, the variant study's strong play."""
        variants = self.variants
        if found.strong_play is not None and variants is not None:
            variants = replace(variants, strong_play=found.strong_play)
        return replace(self, ladder=found.ladder or self.ladder, variants=variants)

    def to_json(self) -> JsonObject:
        out: JsonObject = {
            "format": REPORT_FORMAT, "game": self.game, "players": self.players,
            "policies": json_list(self.policies), "seed": self.seed,
            "step_cap": self.step_cap, "matches": self.matches, "games": self.games,
            "games_per_match": self.games_per_match, "unit": self.unit, "finished": self.finished.to_json(),
            "ended_by": json_map(self.ended_by), "turns": self.turns.to_json(), "scores": self.scores.to_json(),
            "seat_basis": self.seat_basis, "seats": [s.to_json() for s in self.seats],
            "policy_seats": [s.to_json() for s in self.policy_seats],
            "labels": [g.to_json() for g in self.labels], "team_victory": self.team_victory,
            **({"teams": self.teams.to_json()} if self.teams is not None else {}),
            "shared_wins": self.shared_wins, "actions": json_map(self.actions),
            "actions_per_game": json_map(self.actions_per_game), "counters": json_map(self.counters),
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
            out["studies_not_run"] = json_list(self.studies_not_run)
        return out

    @classmethod
    def from_json(cls, f: Fields) -> SimulationReport:
        found = f.integer("format")
        if found != REPORT_FORMAT:
            raise ReportFormatError(f"{f.at('format')}: expected report format {REPORT_FORMAT}, found {found}")
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
            f.array("studies_not_run", read_text) if f.has("studies_not_run") else None,
            f.optional("teams", Teams.from_json))
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
