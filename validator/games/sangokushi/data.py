"""sangokushi's data checks: what the generic checks cannot know about the generals deck.

Pure functions over the loaded model, each finding located: enough generals for every player count's
deal with a draw pile left (reported per count as info, an error when not), a lord card for every
affiliation the bonus rules name (5.10/5.11 — a missing one makes the +2 impossible for that
affiliation), stats within the ranges the rules assume, affiliations the rules know, and the odds a
printed reference card states (fields `wins36_dN`/`ties36_dN`/`losses36_dN` out of 36 and the rounded
percentages `odds_dN`/`tie_dN`/`lose_dN`) equal to the engine's exact enumeration (odds.py).
"""
from __future__ import annotations

from collections.abc import Iterator

from ...issues import Issue
from ...model import Game
from .odds import reference_rows
from .rules import STATS, SangokushiRules
from .tables import general_cards

RANGES = {**{stat: (1, 5) for stat in STATS}, "politics": (0, 3)}  # 武勇 采配 知略 1-5, 内政 0-3


def check(game: Game) -> Iterator[Issue]:
    try:
        rules = SangokushiRules.from_mapping(game.rules)
    except (ValueError, KeyError, TypeError) as exc:
        yield Issue(game.location.child("rules"), "sangokushi-rules", str(exc))
        return
    cards = general_cards(game)
    where = game.location.child("components")
    if not cards:
        yield Issue(where, "sangokushi-generals", "no deck component has cards with an `affiliation` field")
        return
    total = sum(card.qty for card in cards)
    low, high = game.players
    for players in range(low, high + 1):
        deal = rules.deal_size.get(players)
        at = game.location.child("rules").child("deal_size")
        if deal is None:
            yield Issue(at, "sangokushi-deal", f"no deal size for {players} players")
            continue
        left = total - players * deal
        if left <= 0:
            yield Issue(at.child(str(players)), "sangokushi-deal",
                        f"{total} generals cannot deal {players} players {deal} cards each and leave a draw pile")
        else:
            yield Issue(at.child(str(players)), "sangokushi-deal",
                        f"{players} players: {players} x {deal} cards dealt, {left} left in the draw pile",
                        severity="info")
    known = set(rules.affiliations)
    lords: dict[str, int] = {}
    for card in cards:
        affiliation = card.fields.get("affiliation")
        if affiliation not in known:
            yield Issue(card.location.child("fields").child("affiliation"), "sangokushi-affiliation",
                        f"card {card.id}: affiliation {affiliation!r} is none of {', '.join(rules.affiliations)}")
        elif card.fields.get("lord") is True:
            lords[str(affiliation)] = lords.get(str(affiliation), 0) + card.qty
        for field, (lo, hi) in RANGES.items():
            value = card.fields.get(field)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                yield Issue(card.location.child("fields").child(field), "sangokushi-stat",
                            f"card {card.id}: {field} {value!r} is not a whole number {lo}-{hi}")
    for affiliation in rules.affiliations:
        if not lords.get(affiliation):
            yield Issue(game.location.child("rules").child("affiliations"), "sangokushi-lord",
                        f"affiliation {affiliation} has no lord (君主) card, so its +2 bonus (5.11) cannot happen")
    yield from check_printed_odds(game)


# A printed odds field: its name's stem -> (win 0 / tie 1 / loss 2, stated out of 36 or in whole percent).
_PRINTED_ODDS = {"wins36": (0, 36), "ties36": (1, 36), "losses36": (2, 36), "odds": (0, 100), "tie": (1, 100),
                 "lose": (2, 100)}


def check_printed_odds(game: Game) -> Iterator[Issue]:
    """Every card that prints round odds by edge (`<stem>_d<edge>`) states the engine's exact numbers."""
    exact = {edge: (win, tie, loss) for edge, win, tie, loss in reference_rows(range(0, 13))}
    for deck in game.decks:
        for card in deck.cards:
            for name, value in card.fields.items():
                stem, _, edge_text = name.rpartition("_d")
                if stem not in _PRINTED_ODDS or not edge_text.isdigit() or int(edge_text) not in exact:
                    continue
                index, scale = _PRINTED_ODDS[stem]
                probability = exact[int(edge_text)][index]
                expected = round(probability * scale)
                if value != expected:
                    yield Issue(card.location.child("fields").child(name), "sangokushi-odds",
                                f"card {card.id}: {name} is {value!r}, but one round at edge {edge_text} gives "
                                f"{probability} = {expected} (out of {scale})")
