"""五行中国史カードゲーム (gogyo): the game — immutable rules, card table and scorer, and the match around the games.

`GogyoGame` is built once from the loaded deck and deals new `GogyoState`s (state.py, where every
rule of play is written). It is kept apart from the state so that state.py and the scorer can be
compiled by mypyc (`make fast`) while this dataclass, which mixes in an interpreted base, stays
plain Python.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...engine.api import Action, Seat, best_seats
from ...engine.chance import shuffle
from ...engine.frozen import reduce_frozen
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from .cards import CardTable, build_card_table, link_table, parse_hand
from .playout import GogyoPlayout
from .rules import ACTION_KINDS, KIND_SHIFT, NONE, GogyoRules
from .scoring import HandScore, Scorer, build_scoring_rules
from .state import GogyoState
from .tables import Tables


@dataclass(frozen=True)
class GogyoGame(FixedGamesMatch):
    """Immutable rules, card table and scorer; deals new states."""

    engine: ClassVar[str] = "gogyo"
    name: str
    rules: GogyoRules
    table: CardTable
    scorer: Scorer
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    links: tuple[tuple[int, ...], ...]  # card type x card type -> kinds of run they can neighbour in (0-2)
    action_kinds: tuple[str, ...] = ACTION_KINDS
    tables: Tables = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", Tables(self.rules, self.table, self.scorer, self.max_players))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # `tables` shares dicts with `scorer`: rebuilt, never copied apart

    @classmethod
    def from_model(cls, model: GameModel) -> GogyoGame:
        gogyo_rules = GogyoRules.from_mapping(model.rules)
        copies = [copy for deck in model.decks if deck.kind == "deck" for copy in deck.copies()]
        table = build_card_table(copies, model.rules, gogyo_rules.hand_size)
        if table.deck_size >= NONE:
            raise ValueError(f"gogyo: {table.deck_size} cards do not fit the action encoding (at most {NONE - 1})")
        scoring = build_scoring_rules(model.rules, table, gogyo_rules.hand_size)
        low, high = model.players
        links = link_table(table, dynasty_wraps=scoring.dynasty_wraps, element_wraps=scoring.element_wraps)
        return cls(model.id, gogyo_rules, table, Scorer(table, scoring), low, high, model.play_minutes, links)

    @property
    def games_per_match(self) -> int:
        return self.rules.games_per_match

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> GogyoState:
        """Shuffle, deal face-up hands and the field; `first_player` None means a random start."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        deck = list(range(self.table.deck_size))
        tables = self.tables
        shuffle(rng, deck, tables.shuffle_bits)
        start = rng.randrange(num_players) if first_player is None else first_player
        state = GogyoState(self, num_players, start, tuple([tuple(s) for s in previous_scores]))
        state.deal(deck)
        return state

    def action_kind(self, action: Action) -> int:
        return action >> KIND_SHIFT

    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]:
        """Highest total; ties broken by the last game's score; still tied, a shared win."""
        totals = [sum(column) for column in zip(*deal_scores)]
        leaders = best_seats(totals)
        last = deal_scores[-1]
        top = max(last[seat] for seat in leaders)
        return tuple(seat for seat in leaders if last[seat] == top)

    def fast_playout(self, policies: Sequence[Any]) -> Any:
        """The harness hook: a whole-game player that drives GogyoState with these policies."""
        return GogyoPlayout(self, policies)

    def parse_hand(self, tokens: Sequence[str]) -> tuple[int, ...]:
        """Card types of a written hand (唐火 漢土 閥 天 隋金); ValueError naming the problem."""
        return parse_hand(self.table, tokens, self.rules.hand_size)

    def best_order(self, types: Sequence[int]) -> HandScore:
        """Best total of a hand of card types, an order reaching it and its dynasty/element parts."""
        return self.scorer.best(types)

    def labels(self, types: Sequence[int]) -> list[str]:
        return [self.table.labels[t] for t in types]

    def hand_score(self, cards: Sequence[int]) -> int:
        """Best total of physical cards."""
        scores = self.tables.cards
        return scores.score(scores.key(cards), cards)
