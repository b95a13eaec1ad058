"""三国殺 (sanguosha) heuristic as it was before the stronger one (frozen at ba194d9 as `choose_v1`), kept
only so tests can show the new heuristic beats it. Do not improve it.

The original docstring: role-aware play from the observation alone.

Each seat is judged friend (+1), foe (−1) or unknown (0) from the seat's own identity, the revealed
ones and each player's public record (`hostility`: damage dealt to the lord's side minus damage dealt
to the others). Rebels attack the lord and whoever defends him; the lord and loyalists attack whoever
hurt the lord's side; the renegade keeps the balance — he helps the weaker side, saves a weak lord, and
turns on the lord only when they are the last two. Responses are played when they protect a friend or
oneself, 無懈可撃 when it flips a trick's outcome the seat's way, 桃 for oneself and friends.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from validator.engine.api import Action
from validator.games.sanguosha.rules import (
    CARD_INDEX,
    CONVERT,
    DISCARD,
    EFFECT_SLUGS,
    GUOHE,
    HAND,
    JIEDAO,
    JUEDOU,
    LEBU,
    LORD,
    LOYALIST,
    NANMAN,
    OPTION,
    P_COST,
    P_DISCARD,
    P_GENERAL,
    P_GIVE,
    P_GUANXING,
    P_OPTION,
    P_PICK,
    P_PLAY,
    P_SHA,
    P_SHAN,
    P_TAO,
    P_TARGET,
    P_TRIGGER,
    P_WUGU,
    P_WUXIE,
    PASS,
    PICK,
    REBEL,
    RESPOND,
    SHA,
    SHANDIAN,
    SHUNSHOU,
    SKILL,
    TAO,
    TAOYUAN,
    TARGET,
    TRIGGER,
    USE,
    WANJIAN,
    WUGU,
    WUZHONG,
    SanguoshaObservation,
    unpack,
)

# how much a card is worth keeping, by slug (equipment not listed: 3)
_VALUE = {"tao": 10, "wuxie": 8, "shan": 7, "wuzhong": 7, "sha": 6, "shunshou": 6, "guohe": 5, "lebu": 5,
          "juedou": 5, "nanman": 4, "wanjian": 4, "jiedao": 3, "wugu": 3, "taoyuan": 3, "shandian": 1}
VALUE = tuple(_VALUE.get(slug, 3) for slug in CARD_INDEX)
HARMFUL = frozenset({JUEDOU, GUOHE, SHUNSHOU, NANMAN, WANJIAN, LEBU, SHANDIAN, JIEDAO})
HELPFUL = frozenset({WUZHONG, TAOYUAN, WUGU})
_DECLINE_TRIGGERS = frozenset({"guicai"})


def attitudes(obs: SanguoshaObservation) -> list[float]:
    """+1 friend, −1 foe, between: unknown, per seat, from `obs.seat`'s point of view."""
    me, role, n = obs.seat, obs.role, len(obs.hp)
    lord = obs.roles.index(LORD) if LORD in obs.roles else -1
    hostile = obs.hostility
    out = [0.0] * n
    living = [s for s in range(n) if obs.alive[s]]
    for s in living:
        if s == me:
            out[s] = 1.0
            continue
        known = obs.roles[s]
        lean = 1.0 if hostile[s] > 0 else -1.0 if hostile[s] < 0 else 0.0  # +1: seems a rebel
        if known == LORD:
            lean = -1.0
        if role in (LORD, LOYALIST):
            out[s] = 1.0 if known == LORD else -lean if lean else (-0.4 if role == LORD else 0.0)
        elif role == REBEL:
            out[s] = -1.0 if known == LORD else lean
        else:  # renegade
            if s == lord:
                out[s] = -1.0 if len(living) == 2 else 0.6 if obs.hp[s] <= 2 else 0.0
                continue
            rebels = sum(1 for t in living if t not in (me, lord) and hostile[t] > 0)
            loyal = sum(1 for t in living if t not in (me, lord) and hostile[t] < 0) + 1
            out[s] = -lean if rebels >= loyal else lean
    return out


def choose_v1(obs: SanguoshaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    code = obs.prompt[0]
    if code == P_GENERAL:
        return _best(legal, lambda a: float(obs.general_hp[unpack(a)[1]]), rng)
    friend = attitudes(obs)
    if code == P_PLAY:
        return _best(legal, lambda a: _play_score(obs, friend, a), rng)
    if code in (P_SHAN, P_SHA):
        return _respond(obs, friend, legal, code)
    if code == P_TAO:
        dying = obs.prompt[1]
        return _first_not_pass(legal) if friend[dying] > 0.3 else _pass(legal)
    if code == P_WUXIE:
        return _wuxie(obs, friend, legal)
    if code == P_TRIGGER:
        return _trigger(obs, friend, legal)
    if code in (P_DISCARD, P_COST):
        return _discard(obs, legal, code)
    if code == P_PICK:
        return _pick(obs, friend, legal)
    if code == P_WUGU:
        return max(legal, key=lambda a: VALUE[obs.card_kinds[unpack(a)[1]]])
    if code == P_GUANXING:
        return max(legal, key=lambda a: (VALUE[obs.card_kinds[unpack(a)[1]]] >= 6) == (unpack(a)[2] == 0))
    if code == P_TARGET:
        return _best(legal, lambda a: -friend[unpack(a)[1]] if unpack(a)[0] == TARGET else 0.1, rng)
    if code == P_GIVE:
        return max(legal, key=lambda a: friend[unpack(a)[2]] + (0.5 if unpack(a)[2] == obs.seat else 0))
    if code == P_OPTION:
        return _option(obs, friend, legal, rng)
    return legal[int(rng.random() * len(legal))]


def _best(legal: Sequence[Action], score: Callable[[Action], float], rng: random.Random) -> Action:
    """The best-scoring action, ties broken at random."""
    best, top = legal[0], -1e9
    for action in legal:
        value = score(action) + rng.random() * 0.01
        if value > top:
            best, top = action, value
    return best


def _pass(legal: Sequence[Action]) -> Action:
    return next((a for a in legal if a >> 28 == PASS), legal[-1])


def _first_not_pass(legal: Sequence[Action]) -> Action:
    plain = [a for a in legal if a >> 28 == RESPOND]
    return plain[0] if plain else next((a for a in legal if a >> 28 != PASS), legal[0])


def _play_score(obs: SanguoshaObservation, friend: list[float], action: Action) -> float:
    kind, a, b, c, d = unpack(action)
    if kind == PASS:
        return 0.0
    if kind == SKILL:
        return _skill_score(obs, friend, EFFECT_SLUGS[a], b, c)
    card = a
    slug = obs.card_kinds[card] if kind == USE else b
    t1 = b if kind == USE else c
    t2 = c if kind == USE else d
    cost = VALUE[obs.card_kinds[card]] * 0.1 if kind == CONVERT else 0.0
    me = obs.seat
    if slug == SHA:
        foe = -friend[t1]
        return (5 + (3 - min(3, obs.hp[t1])) if foe > 0.3 else -10 * (friend[t1] > 0) - 1) * max(foe, 0.2) - cost
    if slug == TAO:
        return 8.0 if obs.hp[me] < obs.max_hp[me] else -5.0
    if slug in (WUZHONG,):
        return 7.0
    if slug == WUGU:
        return 2.5
    if slug == TAOYUAN:
        return sum(friend[s] for s in range(len(obs.hp)) if obs.alive[s] and obs.hp[s] < obs.max_hp[s])
    if slug in (NANMAN, WANJIAN):
        return 2.0 * sum(-friend[s] for s in range(len(obs.hp)) if obs.alive[s] and s != me) + 0.5
    if slug in (JUEDOU, GUOHE, SHUNSHOU, LEBU):
        target = t1
        if slug in (GUOHE, SHUNSHOU) and friend[target] > 0.3 and obs.judge_areas[target]:
            return 6.0
        return (4.0 + (slug == SHUNSHOU) + (slug == LEBU)) * -friend[target] - cost
    if slug == JIEDAO:
        return 3.0 * -friend[t1] * max(0.3, -friend[t2]) - cost
    if slug == SHANDIAN:
        return 0.2
    if kind == USE and obs.card_kinds[card] == slug:  # equipment
        slot_free = obs.equipment[me][_slot(obs, card)] < 0
        return 4.0 if slot_free else 0.5
    return -1.0


def _slot(obs: SanguoshaObservation, card: int) -> int:
    slug = obs.card_kinds[card]
    name = next(s for s, i in CARD_INDEX.items() if i == slug)
    if name in ("bagua", "renwang"):
        return 1
    if name in ("jueying", "dilu", "zhuahuang"):
        return 2
    if name in ("chitu", "dayuan", "zixing"):
        return 3
    return 0


def _skill_score(obs: SanguoshaObservation, friend: list[float], slug: str, b: int, c: int) -> float:
    me = obs.seat
    hand = len(obs.hand)
    if slug == "zhangba":
        return 3.0 * -friend[b] if -friend[b] > 0.3 else -5.0
    if slug == "rende":
        return (3.0 if hand > obs.hp[me] else 1.0) * friend[c] - 0.5
    if slug == "zhiheng":
        return 1.5 if any(VALUE[obs.card_kinds[x]] <= 4 for x in obs.hand) else -1.0
    if slug == "kurou":
        return 3.0 if obs.hp[me] >= 3 else -5.0
    if slug == "fanjian":
        return 3.0 * -friend[b]
    if slug in ("jieyin", "qingnang"):
        return 4.0 * friend[b]
    if slug == "lijian":
        return 2.0 * (-friend[b] - friend[c])
    return -1.0


def _respond(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action], code: int) -> Action:
    source, cause, helping = obs.prompt[1], obs.prompt[2], obs.prompt[3] - 1
    if helping >= 0 and friend[helping] <= 0.3:  # 護駕 / 激将: only for a friend
        return _pass(legal)
    if code == P_SHA and cause == JIEDAO and friend[source] > 0.3:
        return _pass(legal)
    for pref in (TRIGGER, RESPOND, CONVERT):  # 八卦陣 / 護駕 first, then own cards, then converted ones
        options = [a for a in legal if a >> 28 == pref]
        if pref == TRIGGER:
            options = [a for a in options if EFFECT_SLUGS[unpack(a)[1]] in ("bagua", "hujia", "jijiang")]
        if options:
            return min(options, key=lambda a: VALUE[obs.card_kinds[unpack(a)[1]]] if a >> 28 != TRIGGER else -1)
    return legal[0]


def _wuxie(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action]) -> Action:
    target, trick, packed = obs.prompt[1], obs.prompt[2], obs.prompt[3]
    cancelled = bool(packed >> 7)
    if trick in HARMFUL:
        want_effect = friend[target] < -0.3
    elif trick in HELPFUL:
        want_effect = friend[target] > -0.3
    else:
        return _pass(legal)
    return _first_not_pass(legal) if want_effect == cancelled else _pass(legal)


def _trigger(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action]) -> Action:
    slug, context = EFFECT_SLUGS[obs.prompt[1]], obs.prompt[2]
    if slug in _DECLINE_TRIGGERS:
        return _pass(legal)
    if slug == "luoyi" and not any(obs.card_kinds[c] in (SHA, JUEDOU) for c in obs.hand):
        return _pass(legal)
    if slug in ("fankui", "ganglie", "cixiong", "tieji", "qilin") and context < len(obs.hp) and friend[context] > 0.3:
        return _pass(legal)
    if slug == "hanbing":
        return _first_not_pass(legal) if context < len(obs.hp) and friend[context] > 0.3 else _pass(legal)
    return next((a for a in legal if a >> 28 != PASS), legal[0])


def _discard(obs: SanguoshaObservation, legal: Sequence[Action], code: int) -> Action:
    def worth(action: Action) -> float:
        kind, card = unpack(action)[:2]
        if kind == PASS:
            return 4.5 if code == P_COST else 100.0
        return float(VALUE[obs.card_kinds[card]]) if kind == DISCARD else 50.0
    return min(legal, key=worth)


def _pick(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action]) -> Action:
    target = obs.prompt[1]
    mine = target < len(obs.hp) and friend[target] > 0.3

    def score(action: Action) -> float:
        kind, card, _, _, _ = unpack(action)
        if kind == PASS:
            return 0.5 if mine else -1.0
        if kind != PICK:
            return 0.0
        if card == HAND:
            return -1.0 if mine else 2.0
        if target < len(obs.judge_areas) and card in obs.judge_areas[target]:
            return 5.0 if mine else -2.0
        return -2.0 if mine else 3.0
    return max(legal, key=score)


def _option(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action], rng: random.Random) -> Action:
    effect = EFFECT_SLUGS[obs.prompt[1]]
    if effect == "fanjian":
        return legal[int(rng.random() * len(legal))]
    if effect == "ganglie":  # option 0: discard two hand cards, 1: take the damage
        return legal[0] if obs.hp[obs.seat] <= 2 or len(obs.hand) >= 4 else legal[-1]
    if effect == "cixiong":  # a PICK discards that card; OPTION 0 lets the user draw
        user = obs.prompt[2]
        if friend[user] > 0.3 or not obs.hand:
            return next(a for a in legal if a >> 28 == OPTION)
        picks = [a for a in legal if a >> 28 == PICK]
        return min(picks, key=lambda a: VALUE[obs.card_kinds[unpack(a)[1]]]) if picks else legal[-1]
    return legal[0]

