"""The typed game model the loader builds and everything else reads. No I/O here."""
from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
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
    gutter: float | None = None  # mm between cards on n-up sheets; None lets the imposition choose
    small_text_black: bool = True  # dark mixed text under 12 pt prints K100 (binding.SMALL_TEXT_PT)


@dataclass(frozen=True)
class Card:
    """One card definition; `qty` copies of it are printed."""

    id: str
    face: str
    back: str
    qty: int
    fields: Mapping[str, Any]
    location: Location
    context: Mapping[str, Any] = field(default_factory=dict)  # game-wide values templates may bind, e.g. `rules`

    @cached_property
    def bindings(self) -> Mapping[str, Any]:
        """What {name} in a template may read: the card's own fields first, then the game-wide context."""
        return ChainMap(dict(self.fields), dict(self.context)) if self.context else self.fields


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
    gang: str | None = None  # components naming one gang share sheets (<gang>.pdf) instead of n-up sheets each

    @property
    def has_backs(self) -> bool:
        return self.kind == "deck"

    def copies(self) -> list[CardCopy]:
        """Each card once per copy (`qty`), in the deck's order: the one expansion that sheets, checks and
        every rules engine read, so the physical card order (and the seeded games built on it) agrees."""
        return [CardCopy(card, n) for card in self.cards for n in range(1, card.qty + 1)]


# --- rulebooks ----------------------------------------------------------------------------------
# Texts may mark **strong emphasis**; every block keeps its location so checks can point into it.


@dataclass(frozen=True)
class Heading:
    """A heading; level 1 starts a chapter (its text becomes the running header)."""

    level: int
    text: str
    location: Location


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of body text, or a smaller `note`."""

    text: str
    location: Location
    style: str = "body"


@dataclass(frozen=True)
class ListBlock:
    """A bulleted (`ordered` false) or numbered list of short texts, numbered from `start`."""

    items: tuple[str, ...]
    ordered: bool
    location: Location
    start: int = 1


@dataclass(frozen=True)
class TableBlock:
    """A header row and body rows; `widths` are relative column widths (None: equal)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...] | None
    caption: str | None
    location: Location


@dataclass(frozen=True)
class CardTable:
    """A table of one row per card of deck `deck` (None: the first deck); each column's cell is the
    card's fields written into its parts, a part left out where the card lacks a field it names."""

    deck: str | None
    header: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]  # per column, its parts
    widths: tuple[float, ...] | None
    caption: str | None
    location: Location


@dataclass(frozen=True)
class Callout:
    """A label beside a card figure with a leader line to the part of card `card` (an id of the figure's
    first or last card) that its template's text element `at` ("{valor}", "君主") draws."""

    card: str
    at: str
    text: str
    location: Location


@dataclass(frozen=True)
class CardFigure:
    """A row of real cards of deck `deck` (None: the game's first deck), drawn as printed, with callouts."""

    cards: tuple[str, ...]
    deck: str | None
    side: str
    card_width: float | None
    caption: str | None
    location: Location
    callouts: tuple[Callout, ...] = ()


@dataclass(frozen=True)
class HandExample:
    """A worked scoring example: a hand, how it is ordered, and the points claimed for it.

    `order` is "as-written" (the cards score in the order given) or "best" (the best order of
    these cards; `arrangement`, when given, is an order claimed to reach it). The game's rules
    engine checks every claimed part of `points` (a part may be negative) and says which cards of
    `deck` each token shows (a stack, bottom to top). The answer line prints claimed parts only.
    """

    title: str
    hand: tuple[str, ...]
    order: str
    arrangement: tuple[str, ...] | None
    points: Mapping[str, int]
    text: str | None
    show_cards: bool
    location: Location
    deck: str | None = None  # the deck component the shown cards come from (None: the first deck)
    answer: str | None = None  # its own answer line ({part} placeholders); None: the rulebook's points line

    @property
    def shown(self) -> tuple[str, ...]:
        """The cards in the order the example shows them."""
        return self.arrangement or self.hand


@dataclass(frozen=True)
class ClarificationItem:
    """One decision the source rules leave open; `id` names the rules engine's clarification (None:
    a designers' note that is no engine decision, e.g. how the simulation plays a house rule)."""

    id: str | None
    text: str
    location: Location


@dataclass(frozen=True)
class Clarifications:
    """The clarifications section: for players, or (audience "designers") an appendix of notes on the
    sources, such as a typo in the original text, that players need not read."""

    title: str | None
    intro: str | None
    items: tuple[ClarificationItem, ...]
    location: Location
    audience: str = "players"


@dataclass(frozen=True)
class PageBreak:
    """Start a new page."""

    location: Location


RulebookBlock = (Heading | Paragraph | ListBlock | TableBlock | CardTable | CardFigure | HandExample | Clarifications
                 | PageBreak)


@dataclass(frozen=True)
class RulebookFonts:
    """Font keys (game.json fonts) for each role in the rulebook."""

    body: str
    heading: str
    strong: str
    label: str


@dataclass(frozen=True)
class Rulebook:
    """A rulebook component: page setup, fonts, cover and example wording, and its blocks in order."""

    id: str
    title: str
    page_size: str
    margin: float  # mm
    text_size: float  # pt
    fonts: RulebookFonts
    colors: Mapping[str, str]  # role (ink, accent, tint, on_accent) -> colour or palette name
    cover: Mapping[str, str]  # subtitle, meta, lead (each optional)
    example_labels: Mapping[str, str]
    blocks: tuple[RulebookBlock, ...]
    location: Location  # the component in game.json
    source: Location  # the rulebook file


@dataclass(frozen=True)
class MapArea:
    """One area of an area map: its name (the key routes and rules use), reading, points and where it is drawn."""

    name: str
    reading: str
    points: int
    x: float  # mm from the map sheet's left edge to the area's centre
    y: float  # mm from the sheet's top edge (y downwards, as in card templates)
    location: Location
    label: Mapping[str, Any] = field(default_factory=dict)  # drawing hints: where the name sits, etc.


@dataclass(frozen=True)
class MapRoute:
    """A route between two areas (both directions): its kind decides how it is drawn (land, river, pass, sea)."""

    a: str
    b: str
    kind: str
    location: Location


@dataclass(frozen=True)
class GameMap:
    """An area map component: areas, routes, start areas and victory targets by player count, sheet size."""

    id: str
    title: str
    width: float   # mm, the drawn map (A3 landscape: 420 x 297)
    height: float
    areas: tuple[MapArea, ...]
    routes: tuple[MapRoute, ...]
    start_areas: Mapping[int, tuple[str, ...]]  # player count -> area names
    victory_points: Mapping[int, int]           # player count -> points that win at once
    location: Location  # the component in game.json
    source: Location    # the map file
    route_kinds: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # kind -> legend label, style
    # Each route as written on its area (a: the area listing it, b: its "to"), so checks can point at a
    # route listed one way only; `routes` holds every pair once, located at its first listing.
    listings: tuple[MapRoute, ...] = ()
    drawing: Mapping[str, Any] = field(default_factory=dict)  # map.json's colours, fonts, style, labels, terrain…
    palette: Mapping[str, str] = field(default_factory=dict)  # game.json's palette with map.json's over it
    paper: str = "a3"          # the one-sheet print
    tiles: str | None = "a4"   # the tiled print (None: none)
    overlap: float = 10.0      # mm two neighbouring tiles share

    @cached_property
    def area(self) -> Mapping[str, MapArea]:
        return {a.name: a for a in self.areas}

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str, ...]]:
        """Area name -> adjacent area names, in route order."""
        found: dict[str, list[str]] = {a.name: [] for a in self.areas}
        for route in self.routes:
            found.setdefault(route.a, []).append(route.b)
            found.setdefault(route.b, []).append(route.a)
        return {name: tuple(names) for name, names in found.items()}

    @property
    def total_points(self) -> int:
        return sum(a.points for a in self.areas)


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
    rulebooks: tuple[Rulebook, ...] = ()
    title_en: str | None = None
    min_age: int | None = None
    recommended: tuple[str, ...] = ()  # cover facts that are our recommendation, not the source's
    credits: Mapping[str, str] = field(default_factory=dict)
    palette: Mapping[str, str] = field(default_factory=dict)  # game.json's shared palette
    simulation: Mapping[str, Any] = field(default_factory=dict)  # game.json's report simulation
    maps: tuple[GameMap, ...] = ()

    def find_deck(self, deck_id: str | None) -> Deck | None:
        """The deck component `deck_id`, or the first card deck (one with backs) when None."""
        if deck_id is None:
            return next((d for d in self.decks if d.has_backs), self.decks[0] if self.decks else None)
        return next((d for d in self.decks if d.id == deck_id), None)
