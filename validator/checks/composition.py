"""Declared counts hold: unique ids, `count` and `grid` rules, the deck total."""
from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator

from ..binding import matches
from ..issues import Issue
from ..limits import MAX_PRINTED_PIECES
from ..model import CompositionRule, Deck, Game
from ..wording import counted


def check(game: Game) -> Iterator[Issue]:
    for deck in game.decks:
        yield from _unique_ids(deck)
        for rule in deck.composition:
            yield from _check_rule(deck, rule)
        physical = sum(card.qty for card in deck.cards)
        if deck.total is not None and physical != deck.total:
            yield Issue(deck.total_location, "composition",
                        f"deck {deck.id!r} declares {counted(deck.total, 'card')} but defines {physical}")


def _unique_ids(deck: Deck) -> Iterator[Issue]:
    seen: set[str] = set()
    for card in deck.cards:
        if card.id in seen:
            yield Issue(card.location.child("id"), "duplicate-id", f"card id {card.id!r} is used more than once")
        seen.add(card.id)


def _check_rule(deck: Deck, rule: CompositionRule) -> Iterator[Issue]:
    matching = [card for card in deck.cards if matches(rule.where, card.fields)]
    if rule.count is not None:
        found = sum(card.qty for card in matching)
        if found != rule.count:
            yield Issue(rule.location, "composition",
                        f"{rule.name}: declared {counted(rule.count, 'card')} matching {dict(rule.where)}, "
                        f"found {found}")
        return
    assert rule.grid is not None
    keys = list(rule.grid)
    combinations = math.prod(len(values) for values in rule.grid.values())
    if combinations > MAX_PRINTED_PIECES:  # counted before it is listed: 5 keys of 100 values took 13 GB
        yield Issue(rule.location.child("grid"), "composition",
                    f"{rule.name}: the grid declares {combinations:,} combinations, more than the "
                    f"{MAX_PRINTED_PIECES:,} cards a game may print")
        return
    counts: Counter[tuple[object, ...]] = Counter()
    for card in matching:
        counts[tuple(card.fields.get(k) for k in keys)] += card.qty
    expected = set(itertools.product(*(rule.grid[k] for k in keys)))
    for combo in sorted(expected, key=str):
        if counts[combo] != rule.copies:
            yield Issue(rule.location, "composition",
                        f"{rule.name}: {_combo(keys, combo)} appears {counted(counts[combo], 'time')}, expected "
                        f"{rule.copies}")
    for combo in sorted(set(counts) - expected, key=str):
        yield Issue(rule.location, "composition",
                    f"{rule.name}: {_combo(keys, combo)} is not in the declared grid")


def _combo(keys: list[str], combo: tuple[object, ...]) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(keys, combo))
