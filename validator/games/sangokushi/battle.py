"""sangokushi battles (rules 4.5-6.6): selection, refusal, rounds, damage and the aftermath.

Functions over a SangokushiState rather than methods, so state.py keeps the turn and this module keeps
the fight. A battle runs without asking anyone until a side must choose which card turns face down
(clarification "damage-flip"); generals for a round are the best face-up ones ("best-generals"),
which is why the round itself needs no decision.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import knowledge
from .phases import ATTACK_P, DAMAGE_P, DEFEND_P, END_LORD, OVER
from .rules import CAPTURE, KILL, METHODS, SangokushiRules
from .tables import Generals

if TYPE_CHECKING:
    from .state import SangokushiState


def affiliation_bonus(rules: SangokushiRules, gen: Generals, cards: Sequence[int]) -> int:
    """5.10/5.11 (and 7.6/8.8 for spent cards): enough cards, all of one affiliation -> +1, or +2 with a lord."""
    if len(cards) < rules.bonus_min_cards:
        return 0
    affiliation = gen.affiliation
    first = affiliation[cards[0]]
    for card in cards:
        if affiliation[card] != first:
            return 0
    lord = gen.lord
    return rules.lord_bonus if any(lord[c] for c in cards) else rules.affiliation_bonus


def side_strength(gen: Generals, up: Sequence[int], stat: Sequence[int], generals: int) -> int:
    """The stat the side brings to a round: its best `generals` face-up cards, added ("two-generals-sum",
    "short-handed")."""
    if generals == 1 or len(up) == 1:
        return max(stat[c] for c in up)
    values = sorted((stat[c] for c in up), reverse=True)
    return values[0] + values[1]


def selection_done(state: SangokushiState) -> None:
    """The attacker's cards are down (5.1), or the defender's (5.2): ask the defender, or reveal and fight."""
    if state.phase == ATTACK_P:
        state.sides[0] = state.spent
        state.spent, state.spent_owner = [], -1
        knowledge.move(state, state.seats[0], knowledge.SPENT, knowledge.SIDE)
        defender = state.seats[1]
        if not state.hands[defender]:
            refuse(state)  # clarification "refusal": an empty hand cannot fight
            return
        state.phase, state.player, state.spent_owner = DEFEND_P, defender, defender
        return
    state.sides[1] = state.spent
    state.spent, state.spent_owner = [], -1
    state.up = [state.sides[0][:], state.sides[1][:]]
    state.revealed = True
    knowledge.reveal(state)
    state.counts["battles"] += 1
    continue_battle(state)


def refuse(state: SangokushiState) -> None:
    """4.6: no battle; the attacker's chosen cards become used and the area changes hands."""
    attacker = state.seats[0]
    state.counts["refusals"] += 1
    state.used[attacker].extend(state.sides[0])
    knowledge.move(state, attacker, knowledge.SIDE, knowledge.USED)
    state.spent, state.spent_owner = [], -1
    area = state.area
    clear(state)
    state.change_owner(area, attacker)
    state.finish()


def flip(state: SangokushiState, side: int, card: int) -> None:
    """5.13/5.14: the card turns face down and absorbs up to 1 + its politics of the damage."""
    state.up[side].remove(card)
    state.damage = max(0, state.damage - state.gen.capacity[card])


def _absorb(state: SangokushiState) -> bool:
    """Turn cards face down while nothing is to choose; False when the damaged side must pick a card."""
    side = state.damaged
    up, capacity = state.up[side], state.gen.capacity
    while state.damage > 0 and up:
        if len(up) > 1 and sum(capacity[c] for c in up) > state.damage:
            return False
        flip(state, side, up[0])
    state.damage = 0  # damage beyond the last card is lost
    return True


def continue_battle(state: SangokushiState) -> None:
    """Rounds (5.5-5.15) until a side has every card face down, stopping for a damage choice."""
    rules, gen = state.rules, state.gen
    while True:
        if state.damage > 0 and not _absorb(state):
            state.phase, state.player = DAMAGE_P, state.seats[state.damaged]
            return
        if not state.up[0] or not state.up[1]:
            aftermath(state)
            return
        face = state.d6()
        state.method = face
        method, generals = rules.method_die[face - 1]
        stat = gen.stat[METHODS[method]]
        totals = []
        for side in (0, 1):
            up = state.up[side]
            totals.append(side_strength(gen, up, stat, generals) + state.d6() + affiliation_bonus(rules, gen, up))
        state.counts["rounds"] += 1
        if totals[0] == totals[1]:
            state.counts["ties"] += 1
            continue
        state.damaged = 0 if totals[0] < totals[1] else 1
        state.damage = abs(totals[0] - totals[1])


def aftermath(state: SangokushiState) -> None:
    """6.1-6.6 and 11.2: capture checks, cards placed, the area, then one end roll per lord killed."""
    win = 0 if state.up[0] else 1
    lose = 1 - win
    winner, loser = state.seats[win], state.seats[lose]
    counts, lord, table = state.counts, state.gen.lord, state.rules.capture_die
    counts["attacker_wins" if win == 0 else "defender_wins"] += 1
    killed_lords = 0
    for card in state.sides[lose]:
        result = table[state.d6() - 1]
        if result == CAPTURE:
            state.captured.append(card)
            counts["captures"] += 1
        elif result == KILL:
            state.removed.append(card)
            counts["kills"] += 1
            if lord[card]:
                killed_lords += 1
        else:
            state.used[loser].append(card)
            knowledge.learn(state, loser, card, knowledge.USED)
            counts["returns"] += 1
    state.used[winner].extend(state.sides[win])
    for card in state.sides[win]:
        knowledge.learn(state, winner, card, knowledge.USED)
    state.sides, state.up = [[], []], [[], []]
    state.winner = winner
    if win == 0:
        state.change_owner(state.area, winner)
    for _ in range(killed_lords):
        state.dead_lords += 1
        counts["lord_deaths"] += 1
        if state.phase == OVER:  # the game has ended: later deaths roll nothing
            continue
        counts["end_rolls"] += 1
        if state.d6() <= state.dead_lords:
            state.end(END_LORD)
    state.captured.reverse()  # decided in the order the checks were rolled (finish pops from the end)
    state.finish()


def place_captured(state: SangokushiState, card: int, *, keep: bool) -> None:
    """6.2/6.5/10.4: a captured card joins the winner's used cards, or goes to the pool."""
    if keep:
        state.used[state.winner].append(card)
        knowledge.learn(state, state.winner, card, knowledge.USED)
    else:
        state.pool.append(card)
        state.counts["released"] += 1


def clear(state: SangokushiState) -> None:
    """No battle in progress."""
    state.seats = [-1, -1]
    state.sides, state.up = [[], []], [[], []]
    state.revealed, state.method, state.damage, state.damaged = False, 0, 0, -1
    state.winner = -1
    state.captured = []


__all__ = ["affiliation_bonus", "aftermath", "clear", "continue_battle", "flip", "place_captured",
           "refuse", "selection_done", "side_strength"]
