"""The typed game model the loader builds and everything else reads. No I/O here."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .issues import Location


@dataclass(frozen=True)
class CardSize:
    """Trim size and print allowances of one card, in millimetres."""

    width: float
    height: float
    bleed: float
    safe: float
    corner_radius: float

    @property
    def bleed_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def bleed_height(self) -> float:
        return self.height + 2 * self.bleed


@dataclass(frozen=True)
class FontRef:
    """A TrueType font the deck may use, by key (`gothic`, `mincho`…)."""

    key: str
    path: Path
    location: Location


@dataclass(frozen=True)
class Element:
    """One drawing instruction of a template: its `type` and the schema-checked properties."""

    type: str
    props: Mapping[str, Any]
    location: Location

    def get(self, name: str, default: Any = None) -> Any:
        return self.props.get(name, default)


@dataclass(frozen=True)
class Template:
    """A named card face, its elements already merged with the ones it extends (parents first)."""

    name: str
    elements: tuple[Element, ...]
    location: Location


@dataclass(frozen=True)
class Layout:
    """How a deck's cards look: size, colours and face templates."""

    size: CardSize
    palette: Mapping[str, str]
    color_maps: Mapping[str, Mapping[str, str]]
    templates: Mapping[str, Template]
    default_back: str
    location: Location
    color_map_locations: Mapping[str, Location] = field(default_factory=dict)  # layout.json or game.json


@dataclass(frozen=True)
class Card:
    """One card definition; `qty` copies of it are printed."""

    id: str
    face: str
    back: str
    qty: int
    fields: Mapping[str, Any]
    location: Location


@dataclass(frozen=True)
class CardCopy:
    """One physical card: a definition and which of its copies (1-based) this is."""

    card: Card
    copy: int

    @property
    def label(self) -> str:
        return self.card.id if self.card.qty == 1 else f"{self.card.id}#{self.copy}"


@dataclass(frozen=True)
class CompositionRule:
    """A declared count the validator proves: `count` matching cards, or every `grid` combination."""

    name: str
    where: Mapping[str, Any]
    count: int | None
    grid: Mapping[str, tuple[Any, ...]] | None
    copies: int
    location: Location


@dataclass(frozen=True)
class Deck:
    """A printed deck component: its cards, layout and declared composition."""

    id: str
    title: str
    cards: tuple[Card, ...]
    layout: Layout
    composition: tuple[CompositionRule, ...]
    total: int | None
    total_location: Location
    location: Location
    kind: str = "deck"  # "deck": fronts and backs; "sheet": single-sided pages (score sheets)
    fillable: bool = False  # sheets only: also write a variant with PDF form fields

    @property
    def has_backs(self) -> bool:
        return self.kind == "deck"

    def copies(self) -> list[CardCopy]:
        return [CardCopy(card, n) for card in self.cards for n in range(1, card.qty + 1)]


@dataclass(frozen=True)
class Game:
    """A game found under decks/<id>/, with its components loaded and schema-checked."""

    id: str
    title: str
    players: tuple[int, int]
    play_minutes: tuple[int, int]
    directory: Path
    fonts: Mapping[str, FontRef]
    decks: tuple[Deck, ...]
    location: Location
    rules: Mapping[str, Any] = field(default_factory=dict)
