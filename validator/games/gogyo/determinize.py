"""五行 (gogyo): a whole game state built from one seat's observation, for a search that may not peek.

What a seat has seen stays where it is: its own hand (face-down cards included), every face-up
card in the other hands, the field and the discard pile. What it has not seen — the draw pile and
the cards the others hold face down (drawn from the deck and not revealed since) — is dealt anew
at random into the same places, in the same numbers. The observation's public views are all
that is read, so no hidden card can leak into the state.
"""
from __future__ import annotations

import random

from .rules import GogyoObservation
from .state import GogyoState


def determinize(observation: GogyoObservation, rng: random.Random) -> GogyoState:
    """A state the observing seat cannot tell from the real one, its unseen cards dealt at random."""
    game, me = observation.game, observation.seat
    shown, hidden = observation.shown, observation.hidden
    seen = {*observation.hand, *observation.field, *observation.discard, *(c for cards in shown for c in cards)}
    unseen = [card for card in range(game.table.deck_size) if card not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    face_down: list[int] = []
    for seat, cards in enumerate(shown):
        if seat == me:
            hands.append(list(observation.hand))
            face_down += [card for card in observation.hand if card not in cards]
        else:
            dealt = [unseen.pop() for _ in range(hidden[seat])]
            hands.append([*cards, *dealt])
            face_down += dealt
    if len(unseen) != observation.deck_size:
        raise ValueError(f"gogyo: {len(unseen)} unseen cards left for a draw pile of {observation.deck_size}")
    own_turns = list(observation.own_turns)
    state = GogyoState(game, len(shown), observation.turn_player, observation.previous_scores)
    state.set_cards(hands, observation.field, unseen, observation.discard, face_down)
    state.phase, state.player, state.turn_player = observation.phase, me, observation.turn_player
    state.winner, state.loser = observation.duel_winner, observation.duel_loser
    state.own_turns, state.turns = own_turns, sum(own_turns) + 1
    return state
