"""sanguosha's data checks: what the JSON schemas of its card files cannot state, each finding located.

The deck follows decks/sanguosha/CONTRACT.md: a `cards` deck of playing cards (EX cards carry
`replaces`, the ids of the base cards of their suit and rank), `generals` with one or two skills,
`identities` counting the identity cards in the box, and game.json `rules.identity_table` plus
`rules.identity_variants` giving the identities dealt per player count. Checked here: an EX card's
`replaces` names existing base cards of its own suit and rank; weapons (and only weapons) have a
range; every copy of one card slug prints the same name, type and text; card ids follow
`{card}-{suit}-{rank}`; every identity-table row adds up to its player count, has one lord and fits
the identity cards in the box; skill ids are unique; the `lord` flag matches a 主公技; and every
skill the rules engine implements belongs to a general (when the engine lists them).
"""
from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from ...issues import Issue, Location
from ...model import Card, Deck, Game

CARDS, GENERALS, IDENTITIES = "cards", "generals", "identities"
ROLES = ("lord", "loyalist", "rebel", "renegade")
SAME_PER_SLUG = ("name", "category", "subtype", "type_line", "range", "text")
RANK_LABELS = {1: "A", 11: "J", 12: "Q", 13: "K"}
LORD_TAG = "主公技"
SKILL_SLOTS = (1, 2)


def check(game: Game) -> Iterator[Issue]:
    decks = {deck.id: deck for deck in game.decks}
    if CARDS in decks:
        yield from _check_cards(decks[CARDS])
    box = _identity_cards(decks.get(IDENTITIES))
    yield from _check_identity_tables(game, box)
    if GENERALS in decks:
        yield from _check_generals(decks[GENERALS])


# ---------------------------------------------------------------- playing cards

def _field(card: Card, name: str) -> Location:
    return card.location.child("fields").child(name)


def _check_cards(deck: Deck) -> Iterator[Issue]:
    by_id = {card.id: card for card in deck.cards}
    first: dict[str, Card] = {}
    for card in deck.cards:
        f = card.fields
        expected_id = f"{f.get('card')}-{f.get('suit')}-{f.get('rank')}"
        if card.id != expected_id:
            yield Issue(card.location.child("id"), "sanguosha-card-id",
                        f"card id {card.id!r} should be {expected_id!r} ({{card}}-{{suit}}-{{rank}})")
        rank = f.get("rank")
        label = RANK_LABELS.get(rank, str(rank)) if isinstance(rank, int) else str(rank)
        if f.get("rank_label") != label:
            yield Issue(_field(card, "rank_label"), "sanguosha-card-fields",
                        f"rank {f.get('rank')} prints as {label!r}, not {f.get('rank_label')!r}")
        yield from _weapon_range(card)
        if f.get("ex"):
            yield from _ex_replaces(card, by_id)
        slug = str(f.get("card"))
        if slug not in first:
            first[slug] = card
            continue
        model = first[slug]
        for name in SAME_PER_SLUG:
            if f.get(name) != model.fields.get(name):
                yield Issue(_field(card, name), "sanguosha-card-fields",
                            f"{card.id}: {name} {f.get(name)!r} differs from {model.id}'s {model.fields.get(name)!r}")


def _weapon_range(card: Card) -> Iterator[Issue]:
    is_weapon = card.fields.get("subtype") == "weapon"
    has_range = "range" in card.fields
    if is_weapon and not has_range:
        yield Issue(card.location.child("fields"), "sanguosha-weapon-range", f"weapon {card.id} has no range")
    elif has_range and not is_weapon:
        yield Issue(_field(card, "range"), "sanguosha-weapon-range",
                    f"{card.id} is a {card.fields.get('subtype')} card: only weapons have a range")


def _ex_replaces(card: Card, by_id: Mapping[str, Card]) -> Iterator[Issue]:
    where = _field(card, "replaces")
    ids = str(card.fields.get("replaces", "")).split()
    if not ids:
        yield Issue(card.location.child("fields"), "sanguosha-ex-replaces", f"EX card {card.id} replaces no card")
    suit, rank = card.fields.get("suit"), card.fields.get("rank")
    for target_id in ids:
        target = by_id.get(target_id)
        if target is None:
            yield Issue(where, "sanguosha-ex-replaces", f"EX card {card.id} replaces {target_id!r}, which is no card")
        elif target.fields.get("ex"):
            yield Issue(where, "sanguosha-ex-replaces", f"EX card {card.id} replaces {target_id}, another EX card")
        elif (target.fields.get("suit"), target.fields.get("rank")) != (suit, rank):
            yield Issue(where, "sanguosha-ex-replaces",
                        f"EX card {card.id} ({suit} {rank}) replaces {target_id}, which is "
                        f"{target.fields.get('suit')} {target.fields.get('rank')}: it must have the same suit and rank")


# ---------------------------------------------------------------- identities

def _identity_cards(deck: Deck | None) -> Counter[str] | None:
    if deck is None:
        return None
    box: Counter[str] = Counter()
    for card in deck.cards:
        box[str(card.fields.get("role"))] += card.qty
    return box


def _check_identity_tables(game: Game, box: Counter[str] | None) -> Iterator[Issue]:
    rules_at = game.location.child("rules")
    table = game.rules.get("identity_table")
    if not isinstance(table, Mapping):
        yield Issue(rules_at, "sanguosha-identity-table", "rules has no identity_table")
        return
    at = rules_at.child("identity_table")
    low, high = game.players
    for players in range(low, high + 1):
        if str(players) not in table:
            yield Issue(at, "sanguosha-identity-table", f"no identities for {players} players")
    yield from _table_rows(table, at, box)
    variants = game.rules.get("identity_variants", {})
    for name, variant in variants.items() if isinstance(variants, Mapping) else ():
        rows = variant.get("table", {}) if isinstance(variant, Mapping) else {}
        yield from _table_rows(rows, rules_at.child("identity_variants").child(name).child("table"), box)


def _table_rows(table: Mapping[str, Any], at: Location, box: Counter[str] | None) -> Iterator[Issue]:
    for count, row in table.items():
        where = at.child(count)
        roles = {role: int(row.get(role, 0)) for role in ROLES} if isinstance(row, Mapping) else {}
        shown = " ".join(f"{role} {n}" for role, n in roles.items())
        if not count.isdigit() or sum(roles.values()) != int(count):
            yield Issue(where, "sanguosha-identity-table",
                        f"{count} players: the identities add up to {sum(roles.values())} ({shown})")
        if roles.get("lord") != 1:
            yield Issue(where, "sanguosha-identity-table", f"{count} players: {roles.get('lord')} lords, must be 1")
        if box is None:
            continue
        over = [f"{role} ({n} > {box[role]})" for role, n in roles.items() if n > box[role]]
        if over:
            yield Issue(where, "sanguosha-identity-table",
                        f"{count} players: needs more identity cards than the box holds: {', '.join(over)}")


# ---------------------------------------------------------------- generals and skills

def _skills(card: Card) -> Iterator[tuple[int, str, str]]:
    for slot in SKILL_SLOTS:
        if f"skill{slot}_id" in card.fields:
            yield slot, str(card.fields[f"skill{slot}_id"]), str(card.fields.get(f"skill{slot}_tag", ""))


def _check_generals(deck: Deck) -> Iterator[Issue]:
    owner: dict[str, Card] = {}
    for card in deck.cards:
        has_lord_skill = False
        for slot, skill, tag in _skills(card):
            has_lord_skill = has_lord_skill or LORD_TAG in tag
            if skill in owner:
                yield Issue(_field(card, f"skill{slot}_id"), "sanguosha-skill-id",
                            f"skill id {skill!r} of {card.id} is already {owner[skill].id}'s")
            else:
                owner[skill] = card
        if bool(card.fields.get("lord")) != has_lord_skill:
            yield Issue(_field(card, "lord"), "sanguosha-lord",
                        f"{card.id}: lord is {card.fields.get('lord')} but it has "
                        f"{'a' if has_lord_skill else 'no'} {LORD_TAG}")
    implemented = _implemented_skills()
    if implemented is None:
        return
    for skill in sorted(implemented - set(owner)):
        yield Issue(deck.location, "sanguosha-skill-unknown",
                    f"the rules engine implements skill {skill!r}, which no general in this deck has")
    for skill in sorted(set(owner) - implemented):
        yield Issue(owner[skill].location, "sanguosha-skill-unimplemented",
                    f"{owner[skill].id}'s skill {skill!r} is not implemented by the rules engine", severity="warning")


def _implemented_skills() -> set[str] | None:
    """The engine's IMPLEMENTED_SKILLS, when its skills module exists (imported here, not at load)."""
    try:
        module = importlib.import_module(f"{__package__}.skills")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__package__}.skills":
            raise
        return None
    found = getattr(module, "IMPLEMENTED_SKILLS", None)
    return {str(s) for s in found} if found is not None else None
