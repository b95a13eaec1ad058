"""三国殺 (sanguosha): the rules game — immutable rules, card and general tables built from the deck
model — which deals new games."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.api import Action, Seat, Side
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from .playout import SanguoshaPlayout
from .rules import ACTION_KINDS, IDENTITY_KIND, K_SHIFT, SIDES, SanguoshaRules
from .setup import Main
from .state import SanguoshaState
from .tables import Cards, Generals, model_rows


@dataclass(frozen=True)
class SanguoshaGame(FixedGamesMatch):
    """Immutable rules, card and general tables; deals new games."""

    engine: ClassVar[str] = "sanguosha"
    team_victory: ClassVar[bool] = True
    side_kind: ClassVar[str] = IDENTITY_KIND
    sides: ClassVar[tuple[Side, ...]] = SIDES
    name: str
    rules: SanguoshaRules
    cards: Cards
    generals: Generals
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS

    @classmethod
    def from_model(cls, model: GameModel) -> SanguoshaGame:
        rules = SanguoshaRules.from_mapping(model.rules)
        cards = Cards.from_rows(model_rows(model, "card"), rules.ex_cards)
        generals = Generals.from_rows(model_rows(model, "kingdom"))
        return cls.build(model.id, rules, cards, generals, model.players, model.play_minutes)

    @classmethod
    def build(cls, name: str, rules: SanguoshaRules, cards: Cards, generals: Generals, players: tuple[int, int],
              play_minutes: tuple[int, int]) -> SanguoshaGame:
        low, high = players
        missing = [n for n in range(low, high + 1) if n not in rules.identity_table]
        if missing:
            raise ValueError(f"{name}: identity_table has no row for {missing} players")
        if not any(generals.lord) or len(generals) < high + rules.lord_choices_random:
            raise ValueError(f"{name}: {len(generals)} generals cannot serve {high} players")
        return cls(name, rules, cards, generals, low, high, play_minutes)

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> SanguoshaState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        state = SanguoshaState(self, rng, num_players)
        state.start(Main())
        return state

    def action_kind(self, action: Action) -> int:
        return action >> K_SHIFT

    def fast_playout(self, policies: Sequence[Any]) -> SanguoshaPlayout:
        """The harness hook: a whole-game player that drives SanguoshaState with these policies."""
        return SanguoshaPlayout(self, policies)
