"""What drawing a game will cost, bounded before anything is drawn (docs/security.md).

Every element is bounded on its own (a repeat's count by 200), but repeats nest and multiply: four
nested repeats of 200 are 1.6 billion circles on one card, which `check` passed in a second and
`build` drew for minutes into gigabytes. So the shapes each printed side draws are counted here
(validator/faces.py `shape_count`) and bounded, per side and over the whole game: every printed
copy, and every card a rulebook draws again in its figures and examples (9,000 figures of 8 cards
are 72,000 cards drawn, each with all its shapes).
"""
from __future__ import annotations

from collections.abc import Iterator

from ..faces import drawn_elements, shape_count, sides
from ..issues import Issue, Location
from ..limits import MAX_SHAPES, MAX_SHAPES_PER_SIDE
from ..model import Card, CardFigure, Deck, Game, HandExample, RulebookBlock


def check(game: Game) -> Iterator[Issue]:
    """One line: at the first side over its limit, or where the game's drawing goes over its own."""
    total = 0
    most: dict[str, int] = {}  # deck id -> the most shapes one of its fronts draws (for rulebook examples)
    for deck in game.decks:
        for card in deck.cards:
            for side in sides(card, has_backs=deck.has_backs):
                drawn = _side_shapes(deck, card, side.template)
                if isinstance(drawn, Issue):
                    yield drawn
                    return
                total += drawn * card.qty
                if side.name == "front":
                    most[deck.id] = max(most.get(deck.id, 0), drawn)
            if total > MAX_SHAPES:
                yield _over(card.location, f"card {card.id!r}", total)
                return
    for book in game.rulebooks:
        for block in book.blocks:
            total += _block_shapes(game, block, most)
            if total > MAX_SHAPES:
                yield _over(block.location, "this rulebook block", total)
                return


def _side_shapes(deck: Deck, card: Card, template: str) -> int | Issue:
    elements = drawn_elements(card, template, deck.layout)
    counts = [shape_count(element, card.bindings) for element in elements]
    drawn = sum(counts)
    if drawn <= MAX_SHAPES_PER_SIDE:
        return drawn
    biggest = elements[counts.index(max(counts))]
    where = biggest.location.child("count") if biggest.type == "repeat" else biggest.location
    return Issue(where, "too-many-shapes",
                 f"card {card.id!r} would draw {drawn:,} shapes on one side, over the limit of "
                 f"{MAX_SHAPES_PER_SIDE:,} (repeats inside repeats multiply their counts)")


def _block_shapes(game: Game, block: RulebookBlock, most: dict[str, int]) -> int:
    """The shapes a rulebook block draws again: a figure's cards as printed; an example's shown cards, each
    counted as its deck's dearest front (which cards a token shows is the rules engine's to say)."""
    if isinstance(block, CardFigure):
        deck = game.find_deck(block.deck)
        if deck is None:
            return 0  # the rulebook check reports it
        by_id = {card.id: card for card in deck.cards}
        found = [by_id[i] for i in block.cards if i in by_id]
        drawn = [_side_shapes(deck, card, card.face if block.side == "front" else card.back) for card in found]
        return sum(n if isinstance(n, int) else MAX_SHAPES_PER_SIDE for n in drawn)
    if isinstance(block, HandExample) and block.show_cards:
        deck = game.find_deck(block.deck)
        return 0 if deck is None else len(block.shown) * most.get(deck.id, 0)
    return 0


def _over(where: Location, what: str, total: int) -> Issue:
    return Issue(where, "too-many-shapes",
                 f"with {what} the game would draw {total:,} shapes (each printed copy and each card the rulebook "
                 f"shows counted), over the limit of {MAX_SHAPES:,}")
