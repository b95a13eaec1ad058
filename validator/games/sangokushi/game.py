"""三国志演義 war game (sangokushi): the game — immutable rules, generals and board; deals new games.

`SangokushiGame` is built once from the loaded deck and deals `SangokushiState`s (state.py, where the
turn is written). It is kept apart from the state so that state.py and the modules it drives can be
compiled by mypyc (`make fast`) while this dataclass, which mixes in an interpreted base, stays plain
Python.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ...engine.api import Action, Seat
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from ...wording import counted
from .rules import ACTION_KINDS, KIND_SHIFT, SangokushiRules
from .state import SangokushiState
from .tables import Board, Generals, general_copies

__all__ = ["SangokushiGame"]


@dataclass(frozen=True)
class SangokushiGame(FixedGamesMatch):
    """Immutable rules, generals and board; deals new games."""

    engine: ClassVar[str] = "sangokushi"
    name: str
    rules: SangokushiRules
    generals: Generals
    board: Board
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS

    @classmethod
    def from_model(cls, model: GameModel) -> SangokushiGame:
        rules = SangokushiRules.from_mapping(model.rules)
        if not model.maps:
            raise ValueError(f"{model.id}: the sangokushi engine needs a map component")
        return cls.build(model.id, rules, Generals.from_copies(general_copies(model), rules),
                         Board.from_map(model.maps[0]), model.players, model.play_minutes)

    @classmethod
    def build(cls, name: str, rules: SangokushiRules, generals: Generals, board: Board, players: tuple[int, int],
              play_minutes: tuple[int, int]) -> SangokushiGame:
        """The game for the player counts the data can serve: a deal size, start areas, a target and a pile left."""
        served = [n for n in range(players[0], players[1] + 1)
                  if n in rules.deal_size and n in board.start_areas and n in board.victory_points
                  and n * rules.deal_size[n] < len(generals)]
        if not served or served[0] != players[0]:
            raise ValueError(f"{name}: {counted(len(generals), 'general')} cannot serve "
                             f"{counted(players[0], 'player')}")
        top = served[0]
        while top + 1 in served:
            top += 1
        return cls(name, rules, generals, board, players[0], top, play_minutes)

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> SangokushiState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        deck = list(range(len(self.generals)))
        rng.shuffle(deck)
        starts = list(self.board.start_areas[num_players])
        rng.shuffle(starts)
        start = rng.randrange(num_players) if first_player is None else first_player
        return SangokushiState(self, rng, num_players, deck, starts, start)

    def action_kind(self, action: Action) -> int:
        return action >> KIND_SHIFT
