"""人材登用 (jinzai): the tile table from the deck data and the scoring of public columns and victory points.

A tile's *kind* is its number 1..7, or 0 for a trickster (*). Public tiles lie in per-number columns,
each a stack listed bottom to top. A column whose top is a trickster counts as absent; a trickster
under a numbered tile counts as one tile of that column.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.api import rule
from ...issues import DeckError, Issue
from ...model import CardCopy

STAR = 0          # the kind of a trickster tile
BUN, BU = "文", "武"
Column = Sequence[int]  # tile kinds, bottom to top


@dataclass(frozen=True)
class TileTable:
    """Physical tiles (ids 0..n-1) and their kinds; the 文/武 type of every number."""

    kinds: tuple[int, ...]              # tile id -> kind (0 = trickster)
    type_of: tuple[str, ...]            # kind -> "文", "武" or "*" (index 0)
    columns: int


def build_tile_table(copies: Sequence[CardCopy], rules: Mapping[str, Any]) -> TileTable:
    """The 32 block tiles of tiles.json (use "block", one copy each), checked against rules.type_of_number."""
    columns = rule(rules, "columns", int, "jinzai")
    assignment = rule(rules, "type_of_number", dict, "jinzai")
    type_of = ["*"] + [str(assignment.get(str(n), "")) for n in range(1, columns + 1)]
    if any(t not in (BUN, BU) for t in type_of[1:]):
        raise ValueError(f"jinzai: rules type_of_number must give 文 or 武 for every number 1-{columns}")
    kinds: list[int] = []
    for card in (copy.card for copy in copies):
        fields = card.fields
        if fields.get("use") != "block":
            continue
        kind = int(fields["number"])
        where = card.location.child("fields")
        if not 0 <= kind <= columns:
            raise DeckError([Issue(where.child("number"), "rules",
                                   f"tile {card.id!r} has number {kind}; tiles are 1-{columns}, or 0 for a trickster")])
        if str(fields["type"]) != type_of[kind]:
            raise DeckError([Issue(where.child("type"), "rules",
                                   f"tile {card.id!r} is {fields['type']} but game.json rules.type_of_number "
                                   f"makes {kind or 'a trickster'} {type_of[kind]}")])
        kinds.append(kind)
    return TileTable(tuple(sorted(kinds)), tuple(type_of), columns)


@dataclass(frozen=True)
class ScoringRules:
    """Points of a column by tile count and type, the kinds bonus and the victory-point awards."""

    type_of: tuple[str, ...]
    column_points: Mapping[str, tuple[int, int]]   # type -> (multiplier for 1 tile, for 2 tiles)
    three_tiles_points: int
    four_plus_points: int
    kinds_for_bonus: int
    kinds_bonus_points: int
    rank_vp: Mapping[int, tuple[int, ...]]
    four_of_a_kind_vp: int
    five_kinds_vp: int
    one_type_only_vp: int

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any], table: TileTable) -> ScoringRules:
        def r(key: str, kind: type) -> Any:
            return rule(rules, key, kind, "jinzai")
        points = {t: (int(v[0]), int(v[1])) for t, v in r("column_points", dict).items()}
        rank_vp = {int(k): tuple(int(x) for x in v) for k, v in r("rank_vp", dict).items()}
        return cls(table.type_of, points, r("three_tiles_points", int), r("four_plus_points", int),
                   r("kinds_for_bonus", int), r("kinds_bonus_points", int), rank_vp,
                   r("four_of_a_kind_vp", int), r("five_kinds_vp", int), r("one_type_only_vp", int))

    def column_count(self, column: Column) -> int:
        """Tiles the column counts: 0 when empty or topped by a trickster."""
        if not column or column[-1] == STAR:
            return 0
        return len(column)

    def column_value(self, number: int, column: Column) -> int:
        count = self.column_count(column)
        if count == 0:
            return 0
        if count >= 4:
            return self.four_plus_points
        if count == 3:
            return self.three_tiles_points
        return self.column_points[self.type_of[number]][count - 1] * number

    def total(self, columns: Sequence[Column]) -> int:
        """Value of one player's public tiles: column values plus the bonus for enough kinds."""
        value = kinds = 0
        for index, column in enumerate(columns):
            if self.column_count(column):
                kinds += 1
                value += self.column_value(index + 1, column)
        return value + (self.kinds_bonus_points if kinds >= self.kinds_for_bonus else 0)

    def set_vp(self, columns: Sequence[Column]) -> int:
        """Victory points of a set: four of one kind, five kinds, and the penalty for one type only."""
        counts = [(index + 1, self.column_count(column)) for index, column in enumerate(columns)]
        present = [n for n, c in counts if c]
        vp = self.four_of_a_kind_vp if any(c >= 4 for _, c in counts) else 0
        vp += self.five_kinds_vp if len(present) >= 5 else 0
        types = {self.type_of[n] for n in present}
        if not (BUN in types and BU in types):  # clarification "vp-ranking"
            vp += self.one_type_only_vp
        return vp

    def game_vp(self, totals: Sequence[int], sets: Sequence[Sequence[Column]]) -> tuple[int, ...]:
        """Victory points every seat earns in one game (competition ranking: 1,1,3,4 on a tie)."""
        return self.ranked_vp(totals, [self.set_vp(columns) for columns in sets])

    def ranked_vp(self, totals: Sequence[int], set_vps: Sequence[int]) -> tuple[int, ...]:
        """game_vp from the totals and each seat's set VP (the engine memoises both per set of columns)."""
        awards = self.rank_vp[len(totals)]
        return tuple(awards[sum(1 for other in totals if other > total)] + set_vp
                     for total, set_vp in zip(totals, set_vps))
