"""gogyo's per-game lookups, derived once from the card table and rules, that GogyoState's hot paths read.

Card weights for the kept hand and field keys (a repeated card type is one bit test), duel values,
the shuffle's draw widths, and the legal actions' layouts: a decision's legal actions are moves (kind, a, b)
into a pool of cards and seats, and the moves depend only on the shapes of the hands and field
involved, so each list is built once per game and shared by every state.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.chance import shuffle_bits
from .cards import CardTable
from .rules import DECLARE, DESTROY, DRAW, DUEL, FIELD, GIVE, MAIN, NONE, PASS, PLUNDER, WIN_CHOICE, GogyoRules
from .scoring import CardScorer, Scorer

_PAIRS = [[(i, j) for i in range(n) for j in range(i + 1, n)] for n in range(16)]


def multiset_weights(copies: Sequence[int], size: int) -> tuple[tuple[int, ...], int]:
    """Per card type, its bit field in the key of up to `size` cards (wide enough to count its copies
    there), and the mask of the bits set only when some type appears twice or more."""
    weights, repeats, offset = [], 0, 0
    for qty in copies:
        width = min(qty, size).bit_length()
        weights.append(1 << offset)
        repeats |= ((1 << width) - 2) << offset
        offset += width
    return tuple(weights), repeats


class Tables:
    """Per-card lookups the state's hot paths read, derived once per game from its card table and rules."""

    __slots__ = ("weight", "repeats", "field_weight", "field_repeats", "duel_value", "cards", "shuffle_bits",
                 "plain", "plain_floor", "tails", "moves")

    def __init__(self, rules: GogyoRules, table: CardTable, scorer: Scorer, max_players: int) -> None:
        self.cards = CardScorer(table, scorer)
        hand_weights, self.repeats = multiset_weights(table.copies, rules.hand_size)
        if hand_weights != table.weight:
            raise ValueError("gogyo: the card table's hand keys do not match the hand size")
        self.weight = self.cards.weight
        field_weights, self.field_repeats = multiset_weights(table.copies, rules.field_size)
        self.field_weight = tuple(field_weights[t] for t in table.type_of)
        self.duel_value = tuple(table.duel_value[t] for t in table.type_of)
        self.shuffle_bits = shuffle_bits(table.deck_size)
        # The main phase's moves (see GogyoState.choices) for a full hand and field without repeated
        # card types while the deck allows every kind (more than plain_floor cards), per player count.
        two = rules.draw_max >= 2
        self.plain_floor = max(rules.duel_forbidden_deck_max, 1 if two else 0)
        self.plain = tuple(main_moves(rules.hand_size, rules.field_size, two, n - 1) for n in range(max_players + 1))
        # per player count and seat: what a main-phase pool holds after the hand and field (NONE, then
        # the other seats in order)
        self.tails = tuple(tuple([NONE] + [s for s in range(n) if s != seat] for seat in range(n))
                           for n in range(max_players + 1))
        self.moves: dict[tuple[Any, ...], tuple[Move, ...]] = {}  # GogyoState.choices' key -> moves

    @staticmethod
    def build_moves(key: tuple[Any, ...]) -> tuple[Move, ...]:
        """The moves of a GogyoState.choices key: (phase, the shapes and flags the moves depend on)."""
        if key[0] == MAIN:
            return main_moves(*key[1:])
        if key[0] == WIN_CHOICE:
            return win_moves(*key[1:])
        return give_moves(*key[1:])


Move = tuple[int, int, int]  # (kind, a, b): an action whose operands are positions a and b in a pool (see choices)
# The one-per-type choices of a list of cards depend only on its shape: its length when no card type
# repeats in it, else its type pattern (per position, the position of the first card of its type).
Shape = int | tuple[int, ...]


def shape(cards: Sequence[int], type_of: Sequence[int], repeated: int) -> Shape:
    """The shape of `cards`; `repeated` says whether some card type appears twice or more."""
    if not repeated:
        return len(cards)
    first: dict[int, int] = {}
    return tuple([first.setdefault(type_of[card], i) for i, card in enumerate(cards)])


def firsts(form: Shape, offset: int) -> Sequence[int]:
    """Positions (plus `offset`) of one card per type, the first of each (copies of 天 or 閥 are one choice)."""
    if isinstance(form, int):
        return range(offset, offset + form)
    return [offset + i for i, first in enumerate(form) if first == i]


def distinct_pairs(form: Shape) -> Sequence[tuple[int, int]]:
    """Positions of two cards per distinct pair of card types, in _PAIRS order: the two-card draws worth offering."""
    if isinstance(form, int):
        return _PAIRS[form]
    seen: set[tuple[int, int]] = set()
    out = []
    for i, j in _PAIRS[len(form)]:
        a, b = form[i], form[j]
        key = (a, b) if a <= b else (b, a)
        if key not in seen:
            seen.add(key)
            out.append((i, j))
    return out


def _size(form: Shape) -> int:
    return form if isinstance(form, int) else len(form)


def main_moves(hand: Shape, field: Shape, pairs: bool, seats: int) -> tuple[Move, ...]:
    """The main phase's legal actions in their order: every hand card (one per type) for every field
    card (one per type), every hand card drawn alone, then every pair if `pairs`, then a duel with
    each of `seats` seats. Pool: the hand, the field, NONE, the other seats in order."""
    none_at = _size(hand) + _size(field)
    hand_at = firsts(hand, 0)
    return tuple([(FIELD, i, j) for i in hand_at for j in firsts(field, _size(hand))]
                 + [(DRAW, i, none_at) for i in hand_at]
                 + [(DRAW, i, j) for i, j in (distinct_pairs(hand) if pairs else ())]
                 + [(DUEL, s, none_at) for s in range(none_at + 1, none_at + 1 + seats)])


def win_moves(own: Shape, theirs: Shape) -> tuple[Move, ...]:
    """A duel winner's legal actions: plunder (one of its cards for one of the loser's), then destroy
    (one of the loser's). Pool: the winner's hand, the loser's, NONE."""
    none_at = _size(own) + _size(theirs)
    theirs_at = firsts(theirs, _size(own))
    return tuple([(PLUNDER, i, j) for i in firsts(own, 0) for j in theirs_at]
                 + [(DESTROY, none_at, j) for j in theirs_at])


def give_moves(field: Shape) -> tuple[Move, ...]:
    """The duel winner's gift to the loser: a field card. Pool: the field, NONE."""
    return tuple([(GIVE, j, _size(field)) for j in firsts(field, 0)])


DECLARE_OR_PASS_MOVES: tuple[Move, ...] = ((PASS, 0, 0), (DECLARE, 0, 0))  # PASS first
NONE_POOL = (NONE,)
