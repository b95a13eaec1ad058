"""五行 (gogyo) rulebook oracle: scores the hands a rulebook writes and lists the engine's clarifications.

An adapter over the rules engine (game.GogyoGame and scoring.py); it adds no rules of its own.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Game as GameModel
from .game import GogyoGame
from .rules import CLARIFICATIONS
from .scoring import order_points

if TYPE_CHECKING:
    from ...engine.claims import ClarificationRef, HandScoreClaim


@dataclass(frozen=True)
class GogyoOracle:
    """Hand scores by part (王朝役 dynasty, 五行役 element, total) from the real scorer."""

    game: GogyoGame
    parts: tuple[str, ...] = ("dynasty", "element", "total")

    @classmethod
    def from_model(cls, model: GameModel) -> GogyoOracle:
        return cls(GogyoGame.from_model(model))

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        from ...engine.claims import ClarificationRef

        return tuple(ClarificationRef(c.id, c.ja) for c in CLARIFICATIONS)

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        from ...engine.claims import HandScoreClaim

        game = self.game
        types = game.parse_hand(tokens)
        if ordered:
            dynasty, element = order_points(types, game.table, game.scorer.rules)
            order = types
        else:
            best = game.best_order(types)
            dynasty, element, order = best.dynasty, best.element, best.order
        return HandScoreClaim({"dynasty": dynasty, "element": element, "total": dynasty + element},
                              tuple(game.labels(order)))

    def card_ids(self, tokens: Sequence[str]) -> tuple[str, ...]:
        table = self.game.table
        by_label = {label: table.card_ids[t] for t, label in enumerate(table.labels)}
        missing = [token for token in tokens if token not in by_label]
        if missing:
            self.game.parse_hand(missing)  # raises ValueError explaining the first bad token
        return tuple(by_label[token] for token in tokens)

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """Every token is one card: a stack of one."""
        return tuple((card_id,) for card_id in self.card_ids(tokens))
