"""人材登用 (jinzai): the game — immutable rules, tile table, scorer and lookup tables; deals new matches.

`JinzaiGame` is built once from the loaded deck and deals `JinzaiState`s (state.py, where every rule of
play is written). It is kept apart from the state so that state.py and the heuristic can be compiled by
mypyc (`make fast`) while this dataclass, which mixes in an interpreted base, stays plain Python.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...engine.api import Action, Seat
from ...engine.frozen import reduce_frozen
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from .columns import ColumnCodes
from .playout import JinzaiPlayout
from .rules import ACTION_KINDS, JinzaiRules, counted_kinds
from .scoring import BUN, ScoringRules, TileTable, build_tile_table
from .scoring import STAR as STAR_KIND
from .state import KIND_SHIFT, LAST, SIDE_BU, SIDE_BUN, JinzaiState, Menus

__all__ = ["JinzaiGame"]


@dataclass(frozen=True)
class JinzaiGame(FixedGamesMatch):
    """Immutable rules, tile table, scorer and lookup tables; deals new matches."""

    engine: ClassVar[str] = "jinzai"
    name: str
    rules: JinzaiRules
    table: TileTable
    scoring: ScoringRules
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS
    match_note: str = ("a match is one record: games repeat inside it until someone has the winning VP (the "
                       "'games' counter says how many); turns, scores (VP) and ending are per match")
    codes: ColumnCodes = field(init=False, repr=False, compare=False)
    menus: Menus = field(init=False, repr=False, compare=False)
    _sides: dict[tuple[int, ...], int] = field(init=False, repr=False, compare=False)
    rank_keys: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Judging order per pool side and kind: 文 space high first, 武 space low first, a trickster below
        # every number (clarification "trickster-rank").
        kinds = range(self.table.columns + 1)
        object.__setattr__(self, "rank_keys", tuple(
            tuple(LAST if k == STAR_KIND else sign * k for k in kinds) for sign in (-1, 1)))  # SIDE_BUN, SIDE_BU
        object.__setattr__(self, "codes", ColumnCodes(self.table, self.scoring))
        object.__setattr__(self, "menus", Menus(self.table.columns, self.max_players))
        object.__setattr__(self, "_sides", {})

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # the lookup tables may be compiled (`make fast`): rebuilt, never pickled

    @classmethod
    def from_model(cls, model: GameModel) -> JinzaiGame:
        rules = JinzaiRules.from_mapping(model.rules)
        table = build_tile_table([copy for deck in model.decks for copy in deck.copies()], model.rules)
        low, high = model.players
        return cls(model.id, rules, table, ScoringRules.from_mapping(model.rules, table), low, high,
                   model.play_minutes)

    def tiles_for(self, num_players: int) -> list[int]:
        """Tile ids in play: all of them, or without the removed numbers for 3 players."""
        removed = self.rules.three_player_removed_numbers if num_players == 3 else ()
        return [t for t, kind in enumerate(self.table.kinds) if kind not in removed]

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> JinzaiState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        start = rng.randrange(num_players) if first_player is None else first_player
        return JinzaiState(self, rng, num_players, start)  # the harness's chance generator, not a private one

    def action_kind(self, action: Action) -> int:
        return action >> KIND_SHIFT

    def fast_playout(self, policies: Sequence[Any]) -> Any:
        """The harness's whole-match player: this game's State driven through its own methods (playout.py)."""
        return JinzaiPlayout(self, policies)

    def side_for(self, kinds: Sequence[int]) -> int:
        """The pool space: the type whose numbers add up to more (the seed's 文7・武3・武5 -> 武官, 7 < 8).

        One type only: its space. Equal sums: the type of the highest single number (clarification
        "pool-side"). Tricksters add nothing; tricksters only -> 文官.
        """
        bun = sum(k for k in kinds if k != STAR_KIND and self.table.type_of[k] == BUN)
        bu = sum(k for k in kinds if k != STAR_KIND and self.table.type_of[k] != BUN)
        if bun != bu:
            return SIDE_BUN if bun > bu else SIDE_BU
        numbers = [k for k in kinds if k != STAR_KIND]
        if not numbers:
            return SIDE_BUN
        return SIDE_BUN if self.table.type_of[max(numbers)] == BUN else SIDE_BU

    def side_of_counts(self, counts: Sequence[int]) -> int:
        """side_for of a pool given as counts per kind (memoised: a few dozen pools occur)."""
        key = tuple(counts)
        side = self._sides.get(key)
        if side is None:
            side = self._sides[key] = self.side_for(counted_kinds(key))
        return side
