"""五行 cards as integers: the card table built from the deck model, hand tokens (唐火, 天, 閥), links.

Physical cards are ints 0..N-1; each has a card *type* (one per cards.json entry). Each type has a
dynasty code and an element code:

- dynasty code: 1..12 (the circled number), ANY for 天 (any dynasty), SKIP for 閥 (not a dynasty,
  skipped without breaking a run);
- element code: 1..5 (position in the cycle 木火土金水), ANY for 閥 (any element), BREAK for 天
  (no element: a run stops there).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.api import rule
from ...engine.frozen import reduce_frozen
from ...model import Card, CardCopy
from ...wording import counted

ANY = 0     # wild: 天 as a dynasty, 閥 as an element
SKIP = -1   # ignored by the run: 閥 in a dynasty run
BREAK = -2  # ends the run: 天 in an element run


@dataclass(frozen=True, slots=True)
class CardTable:
    """Everything the rules need about each card, indexed by physical card id and by card type."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # spawned workers get it pickled, also when compiled

    type_of: tuple[int, ...]       # physical card id -> type id
    labels: tuple[str, ...]        # type id -> token printed and parsed: 唐火, 天, 閥
    card_ids: tuple[str, ...]      # type id -> cards.json id
    dynasty: tuple[int, ...]       # type id -> dynasty code
    element: tuple[int, ...]       # type id -> element code
    duel_value: tuple[int, ...]    # type id -> the circled number compared in a duel (天/閥: 0)
    copies: tuple[int, ...]        # type id -> copies in the deck
    weight: tuple[int, ...]        # type id -> its bit field in a hand key
    dynasty_names: tuple[str, ...]  # dynasty code - 1 -> kanji, in order 夏…清
    element_names: tuple[str, ...]  # element code - 1 -> kanji, in order 木…水

    @property
    def deck_size(self) -> int:
        return len(self.type_of)

    def hand_key(self, types: Iterable[int]) -> int:
        """The memo key of a multiset of card types (independent of order)."""
        weight = self.weight
        return sum(weight[t] for t in types)


def build_card_table(copies: Sequence[CardCopy], rules: Mapping[str, Any], hand_size: int) -> CardTable:
    """Card table from the deck model's physical cards (Deck.copies()) and game.json rules."""
    cycle = tuple(rule(rules, "element_cycle", list, "gogyo"))
    any_dynasty = rule(rules, "any_dynasty_kind", str, "gogyo")
    any_element = rule(rules, "any_element_kind", str, "gogyo")
    columns: dict[str, list[Any]] = {k: [] for k in ("label", "id", "dyn", "elem", "duel", "copies")}
    names: dict[int, str] = {}
    type_of: list[int] = []  # physical card id -> type id
    for copy in copies:
        card = copy.card
        if copy.copy == 1:  # a card type begins at its first copy
            label, dyn, elem = _type_codes(card, cycle, (any_dynasty, any_element), names)
            for key, value in zip(columns, (label, card.id, dyn, elem, int(card.fields.get("number", 0)), card.qty)):
                columns[key].append(value)
        type_of.append(len(columns["id"]) - 1)
    if sorted(names) != list(range(1, len(names) + 1)):
        raise ValueError(f"dynasty numbers must run 1..N without gaps, got {sorted(names)}")
    weights, offset = [], 0
    for qty in columns["copies"]:
        weights.append(1 << offset)
        offset += min(qty, hand_size).bit_length()
    return CardTable(
        type_of=tuple(type_of),
        labels=tuple(columns["label"]), card_ids=tuple(columns["id"]),
        dynasty=tuple(columns["dyn"]), element=tuple(columns["elem"]),
        duel_value=tuple(columns["duel"]), copies=tuple(columns["copies"]), weight=tuple(weights),
        dynasty_names=tuple(names[n] for n in sorted(names)), element_names=cycle,
    )


def _type_codes(card: Card, cycle: tuple[str, ...], wild_kinds: tuple[str, str],
                names: dict[int, str]) -> tuple[str, int, int]:
    """A card type's token, dynasty code and element code; records its dynasty's name in `names`."""
    fields = card.fields
    any_dynasty, any_element = wild_kinds
    kind = fields.get("kind")
    if kind == any_dynasty:
        return fields["name"], ANY, BREAK
    if kind == any_element:
        return fields["name"], SKIP, ANY
    if fields.get("element") not in cycle:
        raise ValueError(f"card {card.id}: element {fields.get('element')!r} is not in rules.element_cycle")
    dyn = int(fields["number"])
    if names.setdefault(dyn, fields["dynasty"]) != fields["dynasty"]:
        raise ValueError(f"card {card.id}: number {dyn} is both {names[dyn]} and {fields['dynasty']}")
    return f"{fields['dynasty']}{fields['element']}", dyn, cycle.index(fields["element"]) + 1


def parse_hand(table: CardTable, tokens: Sequence[str], hand_size: int) -> tuple[int, ...]:
    """Card types of a written hand ("唐火 漢土 閥 天 隋金"); ValueError with one clear sentence."""
    by_label = {label: t for t, label in enumerate(table.labels)}
    types = []
    for token in tokens:
        if token in by_label:
            types.append(by_label[token])
            continue
        dynasty, element = token[:-1], token[-1:]
        specials = "、".join(label for label, code in zip(table.labels, table.dynasty) if code <= 0)
        if dynasty not in table.dynasty_names:
            raise ValueError(f"unknown card {token!r}: {dynasty or token!r} is not a dynasty "
                             f"({''.join(table.dynasty_names)}) and the card is not {specials}")
        raise ValueError(f"unknown card {token!r}: {element!r} is not an element ({''.join(table.element_names)})")
    if len(types) != hand_size:
        raise ValueError(f"a hand has {counted(hand_size, 'card')}, got {len(types)}")
    for kind, count in Counter(types).items():
        if count > table.copies[kind]:
            raise ValueError(f"{table.labels[kind]} appears {counted(count, 'time')}, but the deck has "
                             f"{table.copies[kind]}")
    return tuple(types)


def link_table(table: CardTable, *, dynasty_wraps: bool, element_wraps: bool) -> tuple[tuple[int, ...], ...]:
    """For each pair of card types, in how many kinds of run (0-2) they can sit side by side."""
    def linked(a: int, b: int, size: int, wraps: bool) -> bool:
        if a in (SKIP, BREAK) or b in (SKIP, BREAK):
            return False
        if a == ANY or b == ANY:
            return True
        return abs(a - b) == 1 or (wraps and {a, b} == {1, size})
    return tuple(
        tuple(int(a != b and linked(table.dynasty[a], table.dynasty[b], len(table.dynasty_names), dynasty_wraps))
              + int(a != b and linked(table.element[a], table.element[b], len(table.element_names), element_wraps))
              for b in range(len(table.labels)))
        for a in range(len(table.labels)))
