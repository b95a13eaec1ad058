"""Design exploration: simulate a game under each alternative of an open design question and compare them.

game.json "simulation" may hold a "variants" study: a question (e.g. "are tiles 1 and 2 文官 or 武官?"),
its options — each a set of rule overrides, card-field edits and area-point edits of the map, applied to a
copy of the loaded game —
and which option the deck ships with and why. Every option plays the same seeded matches with the
same policies, so the differences are the rules' doing. The study reports, per option, seat balance
with confidence intervals and the spread of results, and ranks the options; the default option must
describe the deck exactly as it is (checked), so the report cannot praise a default the deck lacks.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import mean, pstdev
from typing import Any

from .engine.registry import engine_for
from .issues import DeckError, Issue, Location
from .model import Card, Game
from .sim_plan import SimulationPlan, play_plan, summarize_plan
from .sim_result import SeatRate, StrongPlay, VariantComparison, VariantRow
from .simulate import MatchRecord
from .stats import overlap


@dataclass(frozen=True)
class CardEdit:
    """Set `values` on the fields of every card whose fields match `where`."""

    where: Mapping[str, Any]
    values: Mapping[str, Any]

    def applies_to(self, card: Card) -> bool:
        return all(card.fields.get(key) == value for key, value in self.where.items())


@dataclass(frozen=True)
class VariantOption:
    id: str
    label: str
    rules: Mapping[str, Any]          # game.json "rules" keys replaced by these values
    card_edits: tuple[CardEdit, ...]
    location: Location
    area_points: Mapping[str, int] = dataclasses.field(default_factory=dict)  # map area name -> points


@dataclass(frozen=True)
class VariantStudy:
    question: str
    default: str
    why_default: str
    matches: int
    options: tuple[VariantOption, ...]
    location: Location
    strong_policies: tuple[str, ...] = ()  # "strong_play": the options played again by these…
    strong_matches: int = 0                # …at most this many matches each

    @classmethod
    def from_game(cls, game: Game) -> VariantStudy | None:
        spec = (game.simulation or {}).get("variants")
        if not spec:
            return None
        where = game.location.child("simulation").child("variants")
        options = tuple(
            VariantOption(raw["id"], raw["label"], dict(raw.get("rules", {})),
                          tuple(CardEdit(dict(e["where"]), dict(e["set"])) for e in raw.get("cards", [])),
                          where.child("options").child(index),
                          {str(a["name"]): int(a["points"]) for a in raw.get("areas", [])})
            for index, raw in enumerate(spec["options"]))
        strong = spec.get("strong_play", {})
        return cls(spec["question"], spec["default"], spec["why_default"],
                   spec.get("matches", game.simulation["matches"]), options, where,
                   tuple(strong.get("policies", ())), strong.get("matches", 0))


def apply_option(game: Game, option: VariantOption) -> Game:
    """A copy of `game` with the option's rule overrides and card edits (the deck files are not touched)."""
    rules = {**game.rules, **option.rules}

    def edited(card: Card) -> Card:
        fields = dict(card.fields)
        for edit in option.card_edits:
            if edit.applies_to(card):
                fields.update(edit.values)
        # templates bind {rules[...]} through the card's context: it follows the option too
        return dataclasses.replace(card, fields=fields, context={**card.context, "rules": rules})

    decks = tuple(dataclasses.replace(deck, cards=tuple(edited(c) for c in deck.cards)) for deck in game.decks)
    maps = tuple(dataclasses.replace(board, areas=tuple(
        dataclasses.replace(area, points=option.area_points.get(area.name, area.points)) for area in board.areas))
        for board in game.maps) if option.area_points else game.maps
    return dataclasses.replace(game, rules=rules, decks=decks, maps=maps)


def check_study(game: Game, study: VariantStudy) -> list[Issue]:
    """The study's options are distinct, its default exists and is the deck as shipped, and every option plays."""
    issues = []
    ids = [option.id for option in study.options]
    for option in study.options:
        if ids.count(option.id) > 1:
            issues.append(Issue(option.location.child("id"), "variants",
                                f"option id {option.id!r} is used more than once"))
        unknown = sorted(set(option.rules) - set(game.rules))
        if unknown:
            issues.append(Issue(option.location.child("rules"), "variants",
                                f"option {option.id!r} overrides {', '.join(unknown)}, not in game.json rules"))
        for index, edit in enumerate(option.card_edits):
            if not any(edit.applies_to(card) for deck in game.decks for card in deck.cards):
                issues.append(Issue(option.location.child("cards").child(index).child("where"), "variants",
                                    f"option {option.id!r}: no card has fields {dict(edit.where)}"))
        named = {area.name for board in game.maps for area in board.areas}
        for index, name in enumerate(option.area_points):
            if name not in named:
                issues.append(Issue(option.location.child("areas").child(index).child("name"), "variants",
                                    f"option {option.id!r}: no map area is named {name!r}"))
    if study.default not in ids:
        issues.append(Issue(study.location.child("default"), "variants",
                            f"default {study.default!r} is not one of the options ({', '.join(ids)})"))
    elif apply_option(game, study.options[ids.index(study.default)]) != game:
        issues.append(Issue(study.location.child("default"), "variants",
                            f"option {study.default!r} is named the default "
                            "but differs from the deck's rules, cards or map"))
    if issues:
        return issues
    for option in study.options:
        try:
            engine_for(apply_option(game, option))
        except DeckError as exc:
            issues.append(Issue(option.location, "variants",
                                f"option {option.id!r} cannot be played: {exc.issues[0].message}"))
        except ValueError as exc:
            issues.append(Issue(option.location, "variants", f"option {option.id!r} cannot be played: {exc}"))
    return issues


def _margins(records: Sequence[MatchRecord]) -> list[float]:
    """Winner's score minus the best other score, per finished match: how close the results were."""
    out: list[float] = []
    for match in records:
        if match.timed_out or len(match.totals) < 2:
            continue
        ordered = sorted(match.totals, reverse=True)
        out.append(ordered[0] - ordered[1])
    return out


def run_study(game: Game, study: VariantStudy, plan: SimulationPlan, *, workers: int, cluster: str | None = None,
              shipped: Sequence[MatchRecord] | None = None) -> VariantComparison:
    """Play every option with the plan's seats, policies, seed and precision; the comparison, default
    marked. `shipped`: the records of `plan` itself, when the caller has played them; the default
    option is the deck as shipped (check_study), so at the same cap they are its records."""
    reuse = shipped is not None and study.matches == plan.matches
    return _compare(game, study, dataclasses.replace(plan, matches=study.matches), workers, cluster,
                    shipped if reuse else None)


def replay_strong(game: Game, study: VariantStudy, plan: SimulationPlan, weak: VariantComparison, *,
                  workers: int, cluster: str | None = None) -> StrongPlay:
    """"strong_play": every option played again by the study's stronger policies, and whether the
    conclusion drawn from `weak` (run_study's result under the plan's policies) still holds."""
    if not study.strong_policies:
        raise ValueError("the study names no stronger policies (strong_play)")
    strong_plan = dataclasses.replace(plan, policies=study.strong_policies, matches=study.strong_matches)
    return _conclusion_change(weak, _compare(game, study, strong_plan, workers, cluster, None))


def _compare(game: Game, study: VariantStudy, plan: SimulationPlan, workers: int, cluster: str | None,
             shipped: Sequence[MatchRecord] | None) -> VariantComparison:
    """Every option played under `plan` by `workers` processes or on `cluster` (the default's records taken
    from `shipped` when given)."""
    rows = []
    for option in study.options:
        engine = engine_for(apply_option(game, option))
        if shipped is not None and option.id == study.default:
            records, config = list(shipped), plan.config(engine, workers, cluster=cluster)
        else:
            records, config = play_plan(engine, plan, workers=workers, cluster=cluster)
        summary = summarize_plan(records, engine, plan, config)
        assert summary.precision is not None  # summarize_plan notes it
        margins = _margins(records)
        totals = [score for match in records if not match.timed_out for score in match.totals]
        rows.append(VariantRow(
            id=option.id,
            label=option.label,
            default=option.id == study.default,
            matches=summary.finished.matches,
            precision=summary.precision.reached,
            balance=summary.ludii.balance,
            seats=summary.seats,
            labels=summary.labels,  # win rate per seat label (e.g. start area), when the engine labels seats
            score_mean=mean(totals) if totals else 0.0,
            score_sd=pstdev(totals) if totals else 0.0,
            winning_margin_mean=mean(margins) if margins else 0.0,
            close_finishes=sum(1 for m in margins if m <= 1) / len(margins) if margins else 0.0,
            shared_wins=summary.shared_wins / max(1, summary.finished.matches),
            turns_per_match=summary.turns.per_match.mean,
            minutes_per_match=summary.play_time.minutes_per_match.mean,
        ))
    by_balance = sorted(rows, key=lambda r: -r.balance)
    default = next(r for r in rows if r.default)
    ranking_supported, verdict, verdict_ja = _verdicts(rows, default, by_balance)
    return VariantComparison(study.question, study.default, study.why_default, plan.matches, plan.players,
                             plan.policies, plan.seed, tuple(rows), by_balance.index(default) + 1, by_balance[0].id,
                             ranking_supported, verdict, verdict_ja)


def _separated_from_default(result: VariantComparison) -> dict[str, bool]:
    """Per option: whether its seat win-rate intervals separate from the default's (the only order claimed)."""
    default = result.default_row
    return {row.id: not _intervals_overlap(row.seats, default.seats) for row in result.options if not row.default}


def _conclusion_change(weak: VariantComparison, strong: VariantComparison) -> StrongPlay:
    """Does stronger play change what the study concludes? The conclusion is which options are told
    apart from the default (intervals separating); an option told apart under both policies but on
    the other side of the default's Balance counts as a change too."""
    before, after = _separated_from_default(weak), _separated_from_default(strong)
    side = {row.id: row.balance for row in weak.options}
    side_strong = {row.id: row.balance for row in strong.options}
    flipped = [option for option in before if before[option] and after[option]
               and (side[option] > side[weak.default]) != (side_strong[option] > side_strong[weak.default])]
    changed = sorted(option for option in before if before[option] != after[option]) + flipped
    labels = {row.id: row.label for row in weak.options}
    policies = "・".join(strong.policies)
    if not changed:
        told = [labels[o] for o, apart in after.items() if apart]
        what = (f"どちらの方針でも「{'」「'.join(told)}」が既定と区別される" if told
                else "どちらの方針でも、どの案も既定と区別できない")
        text_ja = f"方針 {policies} で遊び直しても結論は変わらない（{what}。95%区間で判定）。"
        text = f"playing again with {', '.join(strong.policies)} does not change the conclusion"
    else:
        parts = []
        for option in changed:
            if option in flipped:
                parts.append(f"「{labels[option]}」は既定との釣り合いの上下が逆になる")
            elif after[option]:
                parts.append(f"「{labels[option]}」が既定と区別されるようになる")
            else:
                parts.append(f"「{labels[option]}」は既定と区別できなくなる")
        text_ja = f"方針 {policies} で遊び直すと結論が変わる：{'、'.join(parts)}（95%区間で判定）。"
        text = (f"playing again with {', '.join(strong.policies)} changes the conclusion for "
                f"{', '.join(changed)}")
    return StrongPlay(strong, bool(changed), tuple(changed), text, text_ja)


def _verdicts(rows: Sequence[VariantRow], default: VariantRow, by_balance: Sequence[VariantRow],
              ) -> tuple[bool, str, str]:
    """One sentence a designer can act on, in English and Japanese: where the default stands; and
    whether any ranking is claimed.

    Balance alone orders the options by noise as readily as by design (jinzai's default ranked
    1st at one seed and 4th at another), so an order is claimed only between options whose seat
    win-rate intervals separate; otherwise the sentence says that no ranking is claimed."""
    best = by_balance[0]
    rank = by_balance.index(default) + 1
    balance, sd, margin = default.balance, default.score_sd, default.winning_margin_mean
    apart = [row.id for row in rows if row is not default and not _intervals_overlap(row.seats, default.seats)]
    if default is best and apart:
        where = (f"the highest Balance measured, and more balanced than {', '.join(apart)} (seat win-rate "
                 f"intervals separate); the other options are not told apart")
        apart_ja = [f"「{row.label}」" for row in rows if row.id in apart]
        where_ja = (f"測定したBalanceは最高で、{'・'.join(apart_ja)}より釣り合っている"
                    f"（手番順勝率の95%信頼区間が重ならない）。他の案とは区別できない")
    elif best.id in apart:
        where = (f"balance rank {rank} of {len(rows)}, below {best.id} at {best.balance:.3f} "
                 f"(seat win-rate intervals separate)")
        where_ja = (f"釣り合いは{len(rows)}案中{rank}番目で、「{best.label}」（{best.balance:.3f}）に劣る"
                    f"（手番順勝率の95%信頼区間が重ならない）")
    else:
        top = "the highest measured" if default is best else f"best measured {best.id} at {best.balance:.3f}"
        where = f"{top}, but the seat win-rate intervals overlap, so no ranking is claimed at this sample size"
        top_ja = "測定上は最高" if default is best else f"測定上の最高は「{best.label}」の{best.balance:.3f}"
        where_ja = f"{top_ja}だが、手番順勝率の95%信頼区間が重なるため、この試合数では順位を主張しない"
    return (bool(apart),
            f"default {default.id}: Balance {balance:.3f}, {where}; score spread sd {sd:.2f}, "
            f"mean winning margin {margin:.2f}",
            f"既定の「{default.label}」はBalance {balance:.3f}。{where_ja}。"
            f"得点の標準偏差 {sd:.2f}、平均勝差 {margin:.2f}。")


def _intervals_overlap(seats_a: Sequence[SeatRate], seats_b: Sequence[SeatRate]) -> bool:
    """Each seat's Wilson interval under one option overlaps the same seat's under the other."""
    return all(overlap(a.ci95, b.ci95) for a, b in zip(seats_a, seats_b))
