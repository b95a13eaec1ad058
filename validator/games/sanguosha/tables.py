"""三国殺 (sanguosha): the card and general tables the engine reads, built from the loaded deck model.

Playing cards are the deck cards with a `card` field (one id per physical copy), generals those with a
`kingdom` field. The EX cards join the deck per rules.ex_cards: left out, added, or each in place of
the first base card its `replaces` field names.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...model import Game as GameModel
from .rules import (
    BLACK,
    CARD_INDEX,
    EFFECT_INDEX,
    HEART,
    NO_COLOR,
    RED,
    SKILL_SLUGS,
    SLOT_OF_SUBTYPE,
    SUITS,
)


class DeckDataError(ValueError):
    """The deck data does not give the engine what it needs (an unknown slug, a missing field)."""


@dataclass(frozen=True)
class Cards:
    """Per physical card: its slug index, suit, rank, colour, equipment slot (-1) and weapon range (0)."""

    ids: tuple[str, ...]
    kind: tuple[int, ...]
    suit: tuple[int, ...]
    rank: tuple[int, ...]
    color: tuple[int, ...]
    slot: tuple[int, ...]
    range: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.kind)

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, Mapping[str, Any]]], ex_cards: str = "none") -> Cards:
        """`rows` are (id, fields) per physical copy; EX copies are handled per `ex_cards`."""
        base: list[tuple[str, Mapping[str, Any]]] = []
        extra: list[tuple[str, Mapping[str, Any]]] = []
        for card_id, fields in rows:
            (extra if fields.get("ex") else base).append((card_id, fields))
        if ex_cards == "add":
            base += extra
        elif ex_cards == "replace":
            for card_id, fields in extra:
                names = str(fields.get("replaces", "")).split()
                at = next((i for i, (bid, _) in enumerate(base) if names and bid == names[0]), -1)
                if at < 0:
                    raise DeckDataError(f"EX card {card_id} replaces {names[:1]}, which is not in the deck")
                base[at] = (card_id, fields)
        if len(base) > 126:
            raise DeckDataError(f"{len(base)} playing cards; the engine's action codec takes at most 126")
        ids, kind, suit, rank, color, slot, rng = [], [], [], [], [], [], []
        for card_id, fields in base:
            slug = fields.get("card")
            if slug not in CARD_INDEX:
                raise DeckDataError(f"card {card_id}: unknown card slug {slug!r}")
            if fields.get("suit") not in SUITS:
                raise DeckDataError(f"card {card_id}: suit {fields.get('suit')!r} is none of {SUITS}")
            s = SUITS.index(str(fields["suit"]))
            ids.append(card_id)
            kind.append(CARD_INDEX[str(slug)])
            suit.append(s)
            rank.append(int(fields.get("rank", 0)))
            color.append(RED if s in (HEART, HEART + 2) else BLACK)
            slot.append(SLOT_OF_SUBTYPE.get(str(fields.get("subtype", "")), -1))
            rng.append(int(fields.get("range", 0)))
        return cls(tuple(ids), tuple(kind), tuple(suit), tuple(rank), tuple(color), tuple(slot), tuple(rng))


@dataclass(frozen=True)
class Generals:
    """Per general: slug, name, kingdom, male, HP, lord flag and skill slugs."""

    ids: tuple[str, ...]
    names: tuple[str, ...]
    kingdom: tuple[str, ...]
    male: tuple[bool, ...]
    hp: tuple[int, ...]
    lord: tuple[bool, ...]
    skills: tuple[frozenset[str], ...]

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, Mapping[str, Any]]]) -> Generals:
        ids, names, kingdom, male, hp, lord, skills = [], [], [], [], [], [], []
        for general_id, fields in rows:
            own = frozenset(str(fields[k]) for k in ("skill1_id", "skill2_id", "skill3_id") if fields.get(k))
            unknown = own - set(SKILL_SLUGS)
            if unknown:
                raise DeckDataError(f"general {general_id}: unknown skill slugs {sorted(unknown)}")
            ids.append(general_id)
            names.append(str(fields.get("name", general_id)))
            kingdom.append(str(fields.get("kingdom", "")))
            male.append(fields.get("gender", "male") != "female")
            hp.append(int(fields.get("hp", 4)))
            lord.append(bool(fields.get("lord", False)))
            skills.append(own)
        return cls(tuple(ids), tuple(names), tuple(kingdom), tuple(male), tuple(hp), tuple(lord), tuple(skills))


def model_rows(model: GameModel, field: str) -> list[tuple[str, Mapping[str, Any]]]:
    """(id, fields) per physical copy of every deck card carrying `field`, in deck order."""
    return [(copy.card.id, copy.card.fields) for deck in model.decks for copy in deck.copies()
            if field in copy.card.fields]


def colour_of(suit: int) -> int:
    return NO_COLOR if suit < 0 else RED if suit in (1, 3) else BLACK


_ = EFFECT_INDEX
