"""人材登用 (jinzai) rulebook oracle: scores the public tiles a rulebook writes and lists the engine's clarifications.

An adapter over the rules engine (game.JinzaiGame, scoring.ScoringRules); it adds no rules
of its own.

Token syntax — a "hand" in a jinzai example is one player's public tiles (獲得牌), written as one
token per column, the column's tiles listed **bottom to top** and joined by "・":

    文7            a column of one 文7
    武3・武3        two 武3
    文4・＊         a 4 with a trickster on top (the column counts as absent)
    武6・＊・武6    a trickster under a 6 (it counts as one tile of the column: 3 tiles)
    ＊              a column holding only a trickster (counts as absent)

A tile is written as the engine labels it: 文 or 武 and the number (文1, 文2, 武3, 文4, 武5, 武6, 文7
with the deck's 文/武 assignment), or a trickster as * or ＊. A column holds tiles of one number
(tricksters aside); each number has at most one column, at most the sheet's number of columns are
used, and no more tiles of a kind than the deck holds. Token order does not matter for scoring.

Parts scored: columns (the sum of the column values), bonus (the bonus for enough kinds), total
(their sum: the value of the public tiles) and vp (the victory points the set earns by itself:
four of a kind, five kinds, one type only — the VP for the ranking depend on the other players).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Game as GameModel
from ...wording import counted
from .game import JinzaiGame
from .rules import CLARIFICATIONS, kind_label
from .scoring import STAR

if TYPE_CHECKING:
    from ...engine.claims import ClarificationRef, HandScoreClaim

SEPARATOR = "・"
TRICKSTER_ALIASES = ("*", "＊")
BLOCK_USE = "block"  # tiles.json "use" of the tiles in play (the rest are spare stickers)


@dataclass(frozen=True)
class JinzaiOracle:
    """Public-tile values by part (columns, bonus, total, vp) from the real scorer."""

    game: JinzaiGame
    card_of_kind: Mapping[int, str]  # kind -> tiles.json id of its sticker
    parts: tuple[str, ...] = ("columns", "bonus", "total", "vp")

    @classmethod
    def from_model(cls, model: GameModel) -> JinzaiOracle:
        game = JinzaiGame.from_model(model)
        cards = {int(card.fields["number"]): card.id for deck in model.decks for card in deck.cards
                 if card.fields.get("use") == BLOCK_USE}
        return cls(game, cards)

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        from ...engine.claims import ClarificationRef

        return tuple(ClarificationRef(c.id, c.ja) for c in CLARIFICATIONS)

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        """Columns in any order score the same, so `ordered` changes nothing."""
        from ...engine.claims import HandScoreClaim

        columns = self.parse_columns(tokens)
        scoring = self.game.scoring
        column_sum = sum(scoring.column_value(n + 1, column) for n, column in enumerate(columns))
        total = scoring.total(columns)
        points = {"columns": column_sum, "bonus": total - column_sum, "total": total, "vp": scoring.set_vp(columns)}
        return HandScoreClaim(points, tuple(tokens))

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """One stack per column token: the stickers of its tiles, bottom to top."""
        return tuple(tuple(self.card_of_kind[kind] for kind in self.parse_column(token)) for token in tokens)

    # -- parsing --------------------------------------------------------------------------------
    @property
    def _labels(self) -> dict[str, int]:
        type_of = self.game.table.type_of
        labels = {kind_label(type_of, kind): kind for kind in range(len(type_of))}
        return {**labels, **{alias: STAR for alias in TRICKSTER_ALIASES}}

    def parse_tile(self, text: str, token: str) -> int:
        """The kind of one tile label; ValueError explaining what is wrong with it."""
        labels = self._labels
        if text in labels:
            return labels[text]
        numbered = [label for label, kind in labels.items() if kind != STAR]
        if not text:
            raise ValueError(f"column {token!r} has an empty tile: join a column's tiles with one {SEPARATOR!r} "
                             f"(e.g. 武3{SEPARATOR}武3{SEPARATOR}＊) and write each column as its own token")
        where = f"{text!r} is not a tile" if text == token else f"column {token!r}: {text!r} is not a tile"
        number = text.lstrip("文武")
        right = next((label for label in numbered if label[1:] == number), None)
        if right is not None:
            raise ValueError(f"{where}: tile {number} is {right[0]}官, write {right!r}")
        raise ValueError(f"{where} (tiles: {' '.join(numbered)}, and * or ＊ for a trickster; a column's "
                         f"tiles are listed bottom to top and joined by {SEPARATOR!r})")

    def parse_column(self, token: str) -> tuple[int, ...]:
        """A column token as tile kinds, bottom to top; ValueError unless it holds one number."""
        kinds = tuple(self.parse_tile(text, token) for text in token.split(SEPARATOR))
        numbers = sorted({k for k in kinds if k != STAR})
        if len(numbers) > 1:
            shown = " and ".join(kind_label(self.game.table.type_of, n) for n in numbers)
            raise ValueError(f"column {token!r} mixes {shown}: a column holds tiles of one number "
                             f"(write each column as its own token)")
        return kinds

    def parse_columns(self, tokens: Sequence[str]) -> list[list[int]]:
        """The player's columns (index n holds number n + 1), bottom to top; ValueError naming a bad token."""
        table = self.game.table
        columns: list[list[int]] = [[] for _ in range(table.columns)]
        owner: dict[int, str] = {}
        loose: list[tuple[int, ...]] = []  # columns of tricksters only: any free column
        for token in tokens:
            kinds = self.parse_column(token)
            numbers = {k for k in kinds if k != STAR}
            if not numbers:
                loose.append(kinds)
                continue
            (number,) = numbers
            if number in owner:
                raise ValueError(f"columns {owner[number]!r} and {token!r} are both column {number}: "
                                 f"write each column once, all its tiles in one token")
            owner[number] = token
            columns[number - 1] = list(kinds)
        free = [n for n in range(table.columns) if n + 1 not in owner]
        if len(loose) > len(free):
            raise ValueError(f"{counted(len(tokens), 'column')}, but a personal sheet has {table.columns}")
        for n, kinds in zip(free, loose):
            columns[n] = list(kinds)
        self._check_supply(Counter(k for column in columns for k in column))
        return columns

    def _check_supply(self, used: Counter[int]) -> None:
        supply = Counter(self.game.table.kinds)
        for kind, count in sorted(used.items()):
            if count > supply[kind]:
                name = "＊" if kind == STAR else kind_label(self.game.table.type_of, kind)
                raise ValueError(f"{counted(count, 'tile')} {name}, but the game has only {supply[kind]}")
