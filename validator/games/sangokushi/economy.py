"""sangokushi's non-battle turns (rules 7-9 and 10.6): recovery, recruiting with the extra recruit,
and the draws; functions over a SangokushiState, as battle.py is for the fight.

Spent cards go to the used pile at the roll, so they still count as held (clarification
"recruit-limit") and a recovery cannot bring them back (7.7).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from . import knowledge
from .battle import affiliation_bonus
from .phases import DRAW_P, RESTORE_P
from .rules import ROLL, SPEND, encode

if TYPE_CHECKING:
    from .state import SangokushiState

_ROLL = encode(ROLL)


def spend_bonus(state: SangokushiState, cards: Sequence[int]) -> int:
    """7.6/8.8: two or more spent cards of one affiliation add 1, or 2 with a lord among them."""
    return affiliation_bonus(state.rules, state.gen, cards)


def recruit_legal(state: SangokushiState, hand: Sequence[int]) -> list[Action]:
    """8.9: the spent cards need one of politics >= 1, so a card without politics may be added only while
    such a card is spent already or still in hand (the player can always reach a legal roll)."""
    politics, need = state.gen.politics, state.rules.extra_recruit_min_politics
    spent_ok = any(politics[c] >= need for c in state.spent)
    reachable = spent_ok or any(politics[c] >= need for c in hand)
    legal = [encode(SPEND, c) for c in hand if reachable or politics[c] >= need]
    if spent_ok or not state.spent:
        legal.append(_ROLL)
    return legal


def recovery_count(state: SangokushiState, spent: Sequence[int], die: int) -> int:
    """7.2-7.6: die + politics of the spent cards + their bonus."""
    return die + sum(state.gen.politics[c] for c in spent) + spend_bonus(state, spent)


def extra_draws(state: SangokushiState, spent: Sequence[int], die: int) -> int:
    """8.5/8.8: one more card for every full `extra_recruit_divisor` of politics + die + bonus."""
    total = die + sum(state.gen.politics[c] for c in spent) + spend_bonus(state, spent)
    return total // state.rules.extra_recruit_divisor


def recover_roll(state: SangokushiState, seat: Seat) -> None:
    """7.2-7.7: that many used cards come back, never the cards just spent."""
    spent = state.spent
    state.eligible = state.used[seat][:]
    state.used[seat].extend(spent)
    count = recovery_count(state, spent, state.d6())
    state.spent, state.spent_owner = [], -1
    if count >= len(state.eligible):
        state.hands[seat].extend(state.eligible)
        for card in state.eligible:
            state.used[seat].remove(card)
        knowledge.move(state, seat, knowledge.USED, knowledge.HAND)  # all came back, which the counts show
        knowledge.move(state, seat, knowledge.SPENT, knowledge.USED)
        state.counts["restored"] += len(state.eligible)
        state.eligible = []
        state.end_turn()
    else:
        knowledge.move(state, seat, knowledge.USED, knowledge.ELIGIBLE)
        knowledge.move(state, seat, knowledge.SPENT, knowledge.USED)
        state.pending = count
        state.phase = RESTORE_P


def recruit_roll(state: SangokushiState, seat: Seat) -> None:
    """8.1-8.10 and 10.6: one card, plus the extra recruit when cards were spent, up to the limit."""
    spent = state.spent
    draws = 1
    if spent:
        state.counts["extra_recruits"] += 1
        draws += extra_draws(state, spent, state.d6())
    state.used[seat].extend(spent)
    knowledge.move(state, seat, knowledge.SPENT, knowledge.USED)
    state.spent, state.spent_owner = [], -1
    state.pending = min(draws, state.limit(seat) - state.held(seat))
    state.phase = DRAW_P
    draw(state, seat, None)


def draw(state: SangokushiState, seat: Seat, card: int | None) -> None:
    """One draw (card -1: the pile's top, else that pool card; None: none chosen yet), then every draw
    with nothing to choose (the pool empty), until the count is reached or nothing is left (8.10)."""
    hand, deck, pool = state.hands[seat], state.deck, state.pool
    if card is not None:
        if card < 0:
            hand.append(deck.pop())
        else:
            pool.remove(card)
            hand.append(card)
            knowledge.learn(state, seat, card, knowledge.HAND)  # the pool is face up (8.3)
        state.pending -= 1
        state.counts["drawn"] += 1
    while state.pending > 0 and deck and not pool:
        hand.append(deck.pop())
        state.pending -= 1
        state.counts["drawn"] += 1
    if state.pending <= 0 or not (deck or pool):
        state.pending = 0
        state.end_turn()
