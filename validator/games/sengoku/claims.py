"""漢字と家紋の戦国武将 (sengoku) rulebook oracle: scores a hand's cards at the end, lists the engine's clarifications.

An adapter over the rules engine (state.SengokuGame and its name table, names.NameTable); it adds
no rules of its own.

Token syntax — a "hand" in a sengoku example is the cards one player holds, one token per card,
written as the card prints it: a surname card (名字カード) by its family name (武田, 織田 …), a
kanji card (漢字1文字カード) by its kanji (信, 玄 …). Cards of the same family or the same kanji are
the same card in play (clarification "identical-cards"), so token order does not matter.

Parts scored: cards (cards in the hand), names (the most names the hand completes at once), left
(cards left once those names are set aside), kanji (kanji cards among them) and total (the crests
printed on those kanji cards: the crest total of the tie-break). Of several ways to set names
aside, the engine keeps the one best for the holder (clarification "riichi-draw").
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Game as GameModel
from ...wording import counted
from .names import NameTable
from .rules import CLARIFICATIONS
from .state import SengokuGame

if TYPE_CHECKING:
    from ...engine.claims import ClarificationRef, HandScoreClaim

NAME_KINDS = ("surname", "given")  # cards.json kinds of the play cards (the rest are reference sheets)


@dataclass(frozen=True)
class SengokuOracle:
    """Cards left, names, kanji cards and crest total of a hand, from the engine's name table."""

    game: SengokuGame
    card_of_type: Mapping[int, str]  # card type -> cards.json id of a card of that type
    parts: tuple[str, ...] = ("cards", "names", "left", "kanji", "total")

    @classmethod
    def from_model(cls, model: GameModel) -> SengokuOracle:
        game = SengokuGame.from_model(model)
        cards = [copy.card.id for deck in model.decks for copy in deck.copies()
                 if copy.card.fields.get("kind") in NAME_KINDS]
        first: dict[int, str] = {}
        for card_id, card_type in zip(cards, game.table.type_of):
            first.setdefault(card_type, card_id)
        return cls(game, first)

    @property
    def table(self) -> NameTable:
        return self.game.table

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        from ...engine.claims import ClarificationRef

        return tuple(ClarificationRef(c.id, c.ja) for c in CLARIFICATIONS)

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        """The cards of a hand have no order, so `ordered` changes nothing."""
        from ...engine.claims import HandScoreClaim

        table = self.table
        hand = tuple(sorted(self.parse_hand(tokens)))
        names, left = table.best_split(hand)
        given = [t for t in left if table.is_given[t]]
        points = {"cards": len(hand), "names": len(names), "left": len(left), "kanji": len(given),
                  "total": sum(table.crests[t] for t in given)}
        return HandScoreClaim(points, tuple(tokens))

    def completed_names(self, tokens: Sequence[str]) -> tuple[str, ...]:
        """The warlords a hand completes when it sets aside as many names as it can (best for its holder)."""
        names, _ = self.table.best_split(tuple(sorted(self.parse_hand(tokens))))
        return tuple(self.table.name_label[w] for w in names)

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """One card per token: a card of that family or kanji (all such cards look alike)."""
        return tuple((self.card_of_type[t],) for t in self.parse_hand(tokens))

    # -- parsing --------------------------------------------------------------------------------
    def parse_card(self, token: str) -> int:
        """The card type a token names; ValueError explaining what is wrong with it."""
        labels = {label: t for t, label in enumerate(self.table.type_label)}
        if token in labels:
            return labels[token]
        surnames = "・".join(label for t, label in enumerate(self.table.type_label) if not self.table.is_given[t])
        if len(token) > 1 and all(ch in labels for ch in token):
            raise ValueError(f"{token!r} is several cards: write one card per token ({' '.join(token)})")
        raise ValueError(f"{token!r} is not a card: write a surname card by its family name ({surnames}) "
                         f"and a kanji card by its kanji (信, 玄 …)")

    def parse_hand(self, tokens: Sequence[str]) -> list[int]:
        """The card types of a hand; ValueError naming a bad token or more cards than the deck holds."""
        hand = [self.parse_card(token) for token in tokens]
        for card_type, count in sorted(Counter(hand).items()):
            if count > self.table.copies[card_type]:
                raise ValueError(f"{counted(count, 'card')} {self.table.type_label[card_type]}, but the deck has only "
                                 f"{self.table.copies[card_type]}")
        return hand
