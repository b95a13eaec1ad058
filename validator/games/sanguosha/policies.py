"""三国殺 (sanguosha) greedy heuristic: role-aware play from the observation alone.

Each seat is judged friend (+1), foe (−1) or in between from the seat's own identity, the revealed ones
and each player's public record (`hostility`: damage dealt to the lord's side minus damage dealt to those
who attacked it; two points make a seat's side plain, one makes it likely). Rebels attack the lord first
and whoever defends him; the lord and loyalists attack whoever hurt the lord's side and, with nobody
suspected, lean against the unknown (most of them are rebels), though the lord never risks killing a seat
that may be his loyalist; the renegade plays loyal while the rebels are a threat to the lord, thins the
loyalists once they are not, and turns on the lord only when they are the last two. Attacks go where
they land (low HP, few cards, no armour that stops them), 決闘 only when the seat holds 殺 enough,
楽不思蜀 and 過河拆橋 / 順手牽羊 at the most dangerous foe or to rescue a friend's judge area. Equipment is
put on before attacking and an occupied slot is not refilled for nothing; 桃 waits until the end of the
play phase, and a loyalist keeps it for a wounded lord. Responses protect oneself and friends, 無懈可撃
flips a trick's outcome the seat's way, 桃 saves oneself and friends.

Generals are chosen uniformly at random among those offered, from the policy's generator: the report
compares each general's win rate, and "is each general balanced?" needs every general played on
comparable seats, not only the ones a picking rule prefers (picking by HP left the 3-HP generals with
a handful of games and very wide intervals).
"""
from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ...engine.api import Action
from .rules import (
    ARMOR_SLOT,
    BAGUA,
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
    PLUS_SLOT,
    QINGGANG,
    REBEL,
    RENEGADE,
    RENWANG,
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
    WEAPON_SLOT,
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
_SLOT_BY_SLUG = {"bagua": 1, "renwang": 1, "jueying": 2, "dilu": 2, "zhuahuang": 2, "chitu": 3, "dayuan": 3,
                 "zixing": 3}
SLOT = tuple(_SLOT_BY_SLUG.get(slug, 0) for slug in CARD_INDEX)  # equipment slot by slug (weapons: 0)
FRIEND = 0.3     # above: treated as a friend
FOE = 0.25       # −friend above: worth attacking
_UNKNOWN_LEAN = -0.2  # the lord's side on a seat with no record: most hidden seats are rebels
_PRESSED_LEAN = -0.5  # the same when no seat is suspected at all


def suspicion(obs: SanguoshaObservation) -> list[float]:
    """Per seat, how rebel-like it looks to everyone: +1 rebel, −1 the lord's side, 0 nothing known."""
    out = []
    for s, known in enumerate(obs.roles):
        if known in (LORD, LOYALIST):
            out.append(-1.0)
        elif known == REBEL:
            out.append(1.0)
        elif known == RENEGADE:
            out.append(0.0)
        else:
            out.append(max(-1.0, min(1.0, obs.hostility[s] / 2)))
    return out


def attitudes(obs: SanguoshaObservation) -> list[float]:
    """+1 friend, −1 foe, between: unknown, per seat, from `obs.seat`'s point of view."""
    me, role, n = obs.seat, obs.role, len(obs.hp)
    sus = suspicion(obs)
    out = [0.0] * n
    living = [s for s in range(n) if obs.alive[s]]
    lord = obs.roles.index(LORD) if LORD in obs.roles else -1
    stance = role
    if role == RENEGADE:
        stance = _renegade_stance(obs, sus, living, lord)
    for s in living:
        if s == me:
            out[s] = 1.0
        elif s == lord:
            out[s] = _lord_attitude(obs, stance, living)
        elif stance in (LORD, LOYALIST):
            out[s] = -sus[s] if sus[s] else _UNKNOWN_LEAN
        elif stance == REBEL:
            out[s] = sus[s]
        else:  # a renegade thinning the lord's side: against the loyal-looking, indifferent to rebels
            out[s] = sus[s] if sus[s] < 0 else _UNKNOWN_LEAN if sus[s] == 0 else 0.0
    if stance != REBEL and not any(out[s] <= -FOE for s in living):
        # the game goes on, so a foe is alive: with nobody suspected, the unknown seats are pressed
        for s in living:
            if s not in (me, lord) and sus[s] == 0:
                out[s] = _PRESSED_LEAN
    return out


def _lord_attitude(obs: SanguoshaObservation, stance: int, living: list[int]) -> float:
    if obs.role == RENEGADE:
        return -1.0 if len(living) == 2 else 1.0 if stance == LOYALIST else 0.2
    return -1.0 if stance == REBEL else 1.0


def _renegade_stance(obs: SanguoshaObservation, sus: list[float], living: list[int], lord: int) -> int:
    """LOYALIST while the rebels threaten the lord, RENEGADE (against the loyalists) once they do not."""
    me = obs.seat
    others = [s for s in living if s not in (me, lord)]
    rebel_hp = sum(obs.hp[s] * (1.0 if sus[s] > 0 else 0.5) for s in others if sus[s] >= 0)
    loyal_hp = sum(obs.hp[s] for s in others if sus[s] < 0) + (obs.hp[lord] if lord >= 0 else 0)
    nobody_to_thin = not any(sus[s] <= 0 for s in others)
    return LOYALIST if rebel_hp >= 0.6 * loyal_hp or nobody_to_thin else RENEGADE


def choose(obs: SanguoshaObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    code = obs.prompt[0]
    if code == P_GENERAL:
        return legal[int(rng.random() * len(legal))]
    friend = attitudes(obs)
    if code == P_PLAY:
        return _best(legal, lambda a: _play_score(obs, friend, a), rng)
    if code in (P_SHAN, P_SHA):
        return _respond(obs, friend, legal, code)
    if code == P_TAO:
        dying = obs.prompt[1]
        return _first_not_pass(legal) if friend[dying] > FRIEND or _must_save(obs, dying) else _pass(legal)
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


def _must_save(obs: SanguoshaObservation, dying: int) -> bool:
    """The renegade loses with the lord unless they are the last two: he saves him whatever his stance."""
    return obs.role == RENEGADE and obs.roles[dying] == LORD and sum(obs.alive) > 2


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


def _threat(obs: SanguoshaObservation, seat: int) -> float:
    """How much harm a seat can do next turn: its cards, its weapon, the lord's seat."""
    equip = obs.equipment[seat]
    return obs.hand_counts[seat] + 1.5 * (equip[WEAPON_SLOT] >= 0) + 2.0 * (obs.roles[seat] == LORD)


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
    if slug == SHA:
        return _sha_score(obs, friend, t1, card) - cost
    if slug in (JUEDOU, GUOHE, SHUNSHOU, LEBU):
        return _single_trick_score(obs, friend, slug, t1) - cost
    if slug == JIEDAO:  # the holder attacks the victim or hands over his weapon
        if friend[t1] > FRIEND or -friend[t2] < FOE:
            return -1.0
        return 2.0 + 2.0 * -friend[t2] + 1.5 * max(0.0, -friend[t1]) - cost
    if slug == TAO:
        return _tao_score(obs, friend)
    if slug == WUZHONG:  # with the deck empty it only draws back the cards just used: a loop, not a gain
        return 9.0 if obs.deck_size >= 2 else -1.0
    if slug == WUGU:
        return 2.5
    if slug == TAOYUAN:
        return sum(friend[s] for s in range(len(obs.hp)) if obs.alive[s] and obs.hp[s] < obs.max_hp[s])
    if slug in (NANMAN, WANJIAN):
        return _mass_score(obs, friend)
    if slug == SHANDIAN:
        return 0.2
    if kind == USE and obs.card_kinds[card] == slug:  # equipment
        return _equip_score(obs, card)
    return -1.0


def _sha_score(obs: SanguoshaObservation, friend: list[float], target: int, card: int) -> float:
    foe = -friend[target]
    if foe < FOE:
        return -10.0 if friend[target] > FRIEND else -1.0
    hp = obs.hp[target]
    if obs.role == LORD and foe < 0.6 and hp <= 1:  # might be his own loyalist: no kill at random
        return -1.0
    armour = obs.equipment[target][ARMOR_SLOT]
    weapon = obs.equipment[obs.seat][WEAPON_SLOT]
    armour_kind = obs.card_kinds[armour] if armour >= 0 and (weapon < 0 or obs.card_kinds[weapon] != QINGGANG) else -1
    if armour_kind == RENWANG and obs.card_suits[card] in (0, 2):  # 仁王盾 stops black 殺
        return -1.0
    value = 4.0 + 3.0 * foe + (2.5 if hp <= 1 else 1.0 if hp == 2 else 0.0)
    value += 1.5 if obs.role == REBEL and obs.roles[target] == LORD else 0.0
    value -= 0.3 * min(obs.hand_counts[target], 5) + (1.5 if armour_kind == BAGUA else 0.0)
    return max(value, 0.5)


def _single_trick_score(obs: SanguoshaObservation, friend: list[float], slug: int, target: int) -> float:
    foe = -friend[target]
    if slug in (GUOHE, SHUNSHOU) and friend[target] > FRIEND:
        return 6.0 + 2.0 * (obs.roles[target] == LORD) if obs.judge_areas[target] else -5.0
    if foe < FOE:
        return -1.0
    equip = obs.equipment[target]
    if slug == JUEDOU:
        mine = sum(1 for x in obs.hand if obs.card_kinds[x] == SHA)
        theirs = 0.3 * obs.hand_counts[target]
        if mine + 0.5 < theirs:
            return -1.0
        return foe * (4.0 + (2.0 if obs.hp[target] <= 1 else 0.0) + min(2.0, mine - theirs))
    if slug == LEBU:
        return foe * (3.0 + 0.5 * _threat(obs, target))
    worth = 0.6 * min(obs.hand_counts[target], 5) + 1.5 * (equip[ARMOR_SLOT] >= 0) + 1.0 * (equip[WEAPON_SLOT] >= 0) \
        + 0.8 * (equip[PLUS_SLOT] >= 0)
    if not worth:
        return -1.0
    return foe * (3.0 + worth + (slug == SHUNSHOU))


def _mass_score(obs: SanguoshaObservation, friend: list[float]) -> float:
    """南蛮入侵 / 万箭斉発: the harm to foes minus the harm to friends, the weak counted double."""
    total = 0.0
    for s in range(len(obs.hp)):
        if obs.alive[s] and s != obs.seat:
            total -= friend[s] * (2.0 if obs.hp[s] <= 1 else 1.0)
    return 2.0 * total - 0.5


def _tao_score(obs: SanguoshaObservation, friend: list[float]) -> float:
    me = obs.seat
    if obs.hp[me] >= obs.max_hp[me]:
        return -5.0
    lord = obs.roles.index(LORD) if LORD in obs.roles else -1
    keep = obs.role == LOYALIST and lord >= 0 and obs.hp[lord] <= 2 and obs.hp[me] >= 2
    over = len(obs.hand) - 1 > obs.hp[me]  # it would be discarded anyway
    return 0.3 if over or not keep else -1.0


def _equip_score(obs: SanguoshaObservation, card: int) -> float:
    slot = SLOT[obs.card_kinds[card]]
    if obs.equipment[obs.seat][slot] < 0:
        return 12.0  # before attacking: weapons and −1 horses widen the reach
    return 0.2 if len(obs.hand) > obs.hp[obs.seat] else -1.0


def _skill_score(obs: SanguoshaObservation, friend: list[float], slug: str, b: int, c: int) -> float:
    me = obs.seat
    hand = len(obs.hand)
    if slug in ("zhangba", "jijiang"):  # a 殺 at b paid with two cards, or by a 蜀 player
        return 3.0 * -friend[b] if -friend[b] > FRIEND else -5.0
    if slug == "rende":
        return (3.0 if hand > obs.hp[me] else 1.0) * friend[c] - 0.5 if friend[c] > FRIEND else -1.0
    if slug == "zhiheng":
        return 1.5 if any(VALUE[obs.card_kinds[x]] <= 4 for x in obs.hand) else -1.0
    if slug == "kurou":
        return 3.0 if obs.hp[me] >= 3 else -5.0
    if slug == "fanjian":
        return 3.0 * -friend[b]
    if slug in ("jieyin", "qingnang"):  # heal: only a friend
        return 4.0 * friend[b] if friend[b] > FRIEND else -1.0
    if slug == "lijian":
        return 2.0 * (-friend[b] - friend[c])
    return -1.0


def _respond(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action], code: int) -> Action:
    source, cause, helping = obs.prompt[1], obs.prompt[2], obs.prompt[3] - 1
    if helping >= 0 and friend[helping] <= FRIEND:  # 護駕 / 激将: only for a friend
        return _pass(legal)
    if code == P_SHA and cause == JIEDAO and friend[source] > FRIEND:
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
        want_effect = friend[target] < -FRIEND
    elif trick in HELPFUL:
        want_effect = friend[target] > -FRIEND
    else:
        return _pass(legal)
    return _first_not_pass(legal) if want_effect == cancelled else _pass(legal)


def _trigger(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action]) -> Action:
    slug, context = EFFECT_SLUGS[obs.prompt[1]], obs.prompt[2]
    if slug in _DECLINE_TRIGGERS:
        return _pass(legal)
    if slug == "luoyi" and not any(obs.card_kinds[c] in (SHA, JUEDOU) for c in obs.hand):
        return _pass(legal)
    concerned = context < len(obs.hp) and friend[context] > FRIEND
    if slug in ("fankui", "ganglie", "cixiong", "tieji", "qilin") and concerned:
        return _pass(legal)
    if slug == "hanbing":
        return _first_not_pass(legal) if concerned else _pass(legal)
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
    mine = target < len(obs.hp) and friend[target] > FRIEND

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
        if mine:
            return -2.0
        return 3.5 if SLOT[obs.card_kinds[card]] == ARMOR_SLOT else 3.0
    return max(legal, key=score)


def _option(obs: SanguoshaObservation, friend: list[float], legal: Sequence[Action], rng: random.Random) -> Action:
    effect = EFFECT_SLUGS[obs.prompt[1]]
    if effect == "fanjian":
        return legal[int(rng.random() * len(legal))]
    if effect == "ganglie":  # option 0: discard two hand cards, 1: take the damage
        return legal[0] if obs.hp[obs.seat] <= 2 or len(obs.hand) >= 4 else legal[-1]
    if effect == "cixiong":  # a PICK discards that card; OPTION 0 lets the user draw
        user = obs.prompt[2]
        if friend[user] > FRIEND or not obs.hand:
            return next(a for a in legal if a >> 28 == OPTION)
        picks = [a for a in legal if a >> 28 == PICK]
        return min(picks, key=lambda a: VALUE[obs.card_kinds[unpack(a)[1]]]) if picks else legal[-1]
    return legal[0]
