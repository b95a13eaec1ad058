"""sangokushi greedy heuristic: attack when the odds favour it, recover when many cards are used,
recruit below the limit; in battle, bring the best cards and lose the weakest.

It sees the observation only. An attack on a held area is judged by how many rounds each side is
expected to last: the defender's hidden cards are taken to be average generals, and the per-round
damage comes from odds.round_damage (the exact dice table), with the method die averaged out.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from ...engine.api import Action
from .odds import round_damage
from .phases import (
    ATTACK_P,
    CAPTURE_P,
    DAMAGE_P,
    DEFEND_P,
    DISMISS_P,
    DRAW_P,
    PAY_P,
    RECOVER_P,
    RECRUIT_P,
    RESTORE_P,
    SHED_P,
)
from .rules import (
    ATTACK,
    COMMIT,
    DAMAGE,
    DONE,
    DRAW,
    KEEP,
    KIND_SHIFT,
    MASK,
    PASS,
    RECOVER,
    RECRUIT,
    REFUSE,
    ROLL,
    SPEND,
    TAKE,
    SangokushiObservation,
    decode,
    encode,
)
from .tables import Generals

ATTACK_MARGIN = 1.3   # attack when the defender is expected to fall this much sooner than we do


def worth(gen: Generals, card: int) -> int:
    """A card's rough value: its three battle stats and twice the damage it absorbs."""
    return gen.stat["valor"][card] + gen.stat["command"][card] + gen.stat["strategy"][card] + 2 * gen.capacity[card]


@cache
def _expected(edge: int) -> tuple[float, float, float, float]:
    """(P(deal damage), mean damage dealt when so, P(take damage), mean damage taken when so) for an edge."""
    dist = round_damage(edge)
    win = sum(float(p) for d, p in dist.items() if d > 0)
    lose = sum(float(p) for d, p in dist.items() if d < 0)
    dealt = sum(float(p) * d for d, p in dist.items() if d > 0)
    taken = sum(float(p) * -d for d, p in dist.items() if d < 0)
    return win, dealt / win if win else 0.0, lose, taken / lose if lose else 0.0


def _mean_stat(gen: Generals) -> float:
    return sum(sum(values) for values in gen.stat.values()) / (3 * max(1, len(gen)))


def battle_ratio(gen: Generals, mine: Sequence[int], their_count: int) -> float:
    """How much longer our cards should last than `their_count` average generals (> 1 favours us)."""
    if not mine or not their_count:
        return 10.0
    mean = _mean_stat(gen)
    ours = sum((gen.stat["valor"][c] + gen.stat["command"][c] + gen.stat["strategy"][c]) / 3 for c in mine) / len(mine)
    edge = round(1.5 * (ours - mean))  # about 1.5 generals a round, on average
    win, dealt, lose, taken = _expected(edge)
    our_capacity = sum(gen.capacity[c] for c in mine)
    mean_capacity = sum(gen.capacity) / max(1, len(gen))
    their_capacity = their_count * mean_capacity
    rounds_to_beat_them = their_capacity / max(1e-9, win * dealt)
    rounds_to_beat_us = our_capacity / max(1e-9, lose * taken)
    return rounds_to_beat_us / rounds_to_beat_them


def choose(obs: SangokushiObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    if len(legal) == 1:
        return legal[0]
    gen = obs.game.generals
    phase = obs.phase
    by_kind: dict[int, list[int]] = {}
    for action in legal:  # decode(action), inline: this loop runs for every legal action of every decision
        by_kind.setdefault(action >> KIND_SHIFT, []).append(action & MASK)
    if ATTACK in by_kind or PASS in by_kind:
        return _turn(obs, by_kind, gen)
    if phase == PAY_P or phase == SHED_P:
        kind = decode(legal[0])[0]
        return encode(kind, min(by_kind[kind], key=lambda c: worth(gen, c)))
    if phase in (ATTACK_P, DEFEND_P):
        return _select(obs, by_kind, gen)
    if phase == DAMAGE_P:
        return encode(DAMAGE, _to_flip(obs, by_kind[DAMAGE], gen))
    if phase == CAPTURE_P:
        return encode(KEEP, by_kind[KEEP][0]) if KEEP in by_kind else legal[-1]
    if phase in (RECOVER_P, RECRUIT_P):
        return _spend(obs, by_kind, gen)
    if phase == RESTORE_P or phase == DISMISS_P:
        cards = by_kind.get(decode(legal[0])[0], [])
        if phase == DISMISS_P:
            return encode(DONE) if DONE in by_kind else legal[0] if not cards else encode(
                decode(legal[0])[0], min(cards, key=lambda c: worth(gen, c)))
        return encode(decode(legal[0])[0], max(cards, key=lambda c: worth(gen, c)))
    if phase == DRAW_P:
        pool = by_kind.get(TAKE, [])
        best = max(pool, key=lambda c: worth(gen, c), default=-1)
        if best >= 0 and (DRAW not in by_kind or worth(gen, best) >= 14):
            return encode(TAKE, best)
        return encode(DRAW)
    return legal[int(rng.random() * len(legal))]


def _turn(obs: SangokushiObservation, by_kind: dict[int, list[int]], gen: Generals) -> Action:
    """Attack with good odds or a cheap neutral area; otherwise recover, recruit, or pass."""
    hand = obs.hand
    best = sorted(hand, key=lambda c: worth(gen, c), reverse=True)[:obs.game.rules.max_battle_cards]
    points = obs.game.board.points
    choice, value = -1, 0.0
    for area in by_kind.get(ATTACK, []):
        defender = obs.owners[area]
        if defender < 0:
            score = points[area] * 1.0 if len(hand) >= 4 else 0.0
        else:
            their = min(obs.hand_counts[defender], obs.game.rules.max_battle_cards)
            ratio = battle_ratio(gen, best, their)
            score = points[area] * 1.5 if ratio >= ATTACK_MARGIN and len(best) >= min(3, len(hand)) else 0.0
        if score > value:
            choice, value = area, score
    if choice >= 0:
        return encode(ATTACK, choice)
    if RECOVER in by_kind and len(obs.used) >= max(3, len(hand)):
        return encode(RECOVER)
    if RECRUIT in by_kind:
        return encode(RECRUIT)
    if RECOVER in by_kind:
        return encode(RECOVER)
    return encode(PASS)


def _select(obs: SangokushiObservation, by_kind: dict[int, list[int]], gen: Generals) -> Action:
    """Commit the best cards up to the maximum; a defender refuses a fight over a 1-point area it cannot win."""
    if REFUSE in by_kind and obs.battle is not None:
        area_points = obs.game.board.points[obs.battle.area]
        if area_points <= 1 and battle_ratio(gen, sorted(obs.hand, key=lambda c: -worth(gen, c))[:4],
                                             obs.battle.attack_count) < 0.8:
            return encode(REFUSE)
    cards = by_kind.get(COMMIT, [])
    if cards and len(obs.spent) < obs.game.rules.max_battle_cards:
        return encode(COMMIT, max(cards, key=lambda c: worth(gen, c)))
    return encode(DONE)


def _to_flip(obs: SangokushiObservation, up: Sequence[int], gen: Generals) -> int:
    """The weakest card that covers the damage alone, else the one absorbing the most."""
    damage = obs.battle.damage if obs.battle is not None else 1
    covering = [c for c in up if gen.capacity[c] >= damage]
    if covering:
        return min(covering, key=lambda c: worth(gen, c))
    return max(up, key=lambda c: (gen.capacity[c], -worth(gen, c)))


def _spend(obs: SangokushiObservation, by_kind: dict[int, list[int]], gen: Generals) -> Action:
    """Spend hand cards of politics >= 2 while they still pay off; then roll."""
    spendable = [c for c in by_kind.get(SPEND, []) if gen.politics[c] >= 2]
    if obs.phase == RECOVER_P:
        need = len(obs.used) - 3.5 - sum(gen.politics[c] for c in obs.spent)
    else:
        held = len(obs.hand) + len(obs.used) + len(obs.spent)
        need = obs.limits[obs.seat] - held - 2 - sum(gen.politics[c] for c in obs.spent) / 3
    if spendable and need > 1 and len(obs.hand) > 2:
        return encode(SPEND, max(spendable, key=lambda c: gen.politics[c]))
    return encode(ROLL) if ROLL in by_kind else encode(SPEND, by_kind[SPEND][0])
