"""sangokushi's immutable tables built from the loaded deck model: the generals (one int per card copy,
its stats in flat tuples so the hot loop indexes instead of looking up fields) and the board (areas as
ints, neighbours, start areas and victory points by player count, from the map component).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...model import Card, CardCopy, GameMap
from ...model import Game as GameModel
from ...wording import counted
from .rules import STATS, SangokushiRules

FIELDS = ("name", "affiliation", "lord", *STATS, "politics")


@dataclass(frozen=True)
class Generals:
    """Card id (0..n-1, one per physical card) -> what the rules read from it."""

    ids: tuple[str, ...]              # cards.json id of each card
    names: tuple[str, ...]
    affiliation: tuple[int, ...]      # index into rules.affiliations
    lord: tuple[bool, ...]
    stat: Mapping[str, tuple[int, ...]]  # "valor" | "command" | "strategy" -> per card
    politics: tuple[int, ...]
    capacity: tuple[int, ...]         # damage a card absorbs before it turns face down (5.14)

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def from_copies(cls, copies: Sequence[CardCopy], rules: SangokushiRules) -> Generals:
        """One general per physical card (general_copies); ValueError naming a card the engine cannot read."""
        index = {name: i for i, name in enumerate(rules.affiliations)}
        ids: list[str] = []
        names: list[str] = []
        affiliation: list[int] = []
        lord: list[bool] = []
        stats: dict[str, list[int]] = {stat: [] for stat in STATS}
        politics: list[int] = []
        for card in (copy.card for copy in copies):
            f = card.fields
            missing = [key for key in FIELDS if key not in f]
            if missing:
                raise ValueError(f"sangokushi: card {card.id} lacks {', '.join(missing)}")
            if f["affiliation"] not in index:
                raise ValueError(f"sangokushi: card {card.id} affiliation {f['affiliation']!r} is not in rules")
            ids.append(card.id)
            names.append(str(f["name"]))
            affiliation.append(index[f["affiliation"]])
            lord.append(bool(f["lord"]))
            for stat in STATS:
                stats[stat].append(int(f[stat]))
            politics.append(int(f["politics"]))
        if len(ids) > 255:
            raise ValueError(f"sangokushi: {len(ids)} cards; the action encoding holds 255")
        return cls(tuple(ids), tuple(names), tuple(affiliation), tuple(lord),
                   {stat: tuple(values) for stat, values in stats.items()}, tuple(politics),
                   tuple(rules.damage_base + p for p in politics))


@dataclass(frozen=True)
class Board:
    """Areas as ints 0..n-1 in map order, with points and neighbours; start areas and targets by players."""

    names: tuple[str, ...]
    points: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    start_areas: Mapping[int, tuple[int, ...]]
    victory_points: Mapping[int, int]

    @property
    def total_points(self) -> int:
        return sum(self.points)

    @classmethod
    def from_map(cls, game_map: GameMap) -> Board:
        names = tuple(a.name for a in game_map.areas)
        index = {name: i for i, name in enumerate(names)}
        if len(names) > 255:
            raise ValueError("sangokushi: more than 255 areas do not fit the action encoding")
        neighbours = tuple(tuple(index[b] for b in game_map.neighbours[a]) for a in names)
        starts = {int(n): tuple(index[a] for a in areas) for n, areas in game_map.start_areas.items()}
        for n, areas in starts.items():
            if len(areas) != n or len(set(areas)) != n:
                raise ValueError(f"sangokushi: {counted(n, 'player')} need {n} distinct start areas, got {len(areas)}")
        return cls(names, tuple(a.points for a in game_map.areas), neighbours, starts,
                   {int(n): int(v) for n, v in game_map.victory_points.items()})


def general_copies(model: GameModel) -> list[CardCopy]:
    """The play cards, once per copy in deck order: every card carrying an `affiliation` of the deck components."""
    return [copy for deck in model.decks if any("affiliation" in c.fields for c in deck.cards)
            for copy in deck.copies() if "affiliation" in copy.card.fields]


def general_cards(model: GameModel) -> list[Card]:
    """The play cards' definitions (each once, whatever its `qty`), for the data checks."""
    return [copy.card for copy in general_copies(model) if copy.copy == 1]
