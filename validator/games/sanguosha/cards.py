"""三国殺 (sanguosha): what each playing card does when used — 殺 with every weapon and armour effect,
桃, the tricks (each target behind its own 無懈可撃 window), delayed tricks and equipment.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .flow import (
    Flow,
    ask,
    ask_sha,
    ask_shan,
    choose_discards,
    damage,
    draw,
    lose,
    offer,
    recover,
    to_discard,
    top,
    wuxie,
)
from .rules import (
    BLACK,
    CIXIONG,
    EFFECT_INDEX,
    FANGTIAN,
    GUANSHI,
    GUOHE,
    HANBING,
    HAND,
    JIEDAO,
    JUEDOU,
    LEBU,
    MINUS_SLOT,
    NANMAN,
    NO_COLOR,
    NONE,
    OPTION,
    P_OPTION,
    P_PICK,
    P_TARGET,
    P_WUGU,
    PASS_ACTION,
    PICK,
    PLUS_SLOT,
    QILIN,
    QINGGANG,
    QINGLONG,
    RENWANG,
    SHA,
    SHANDIAN,
    SHUNSHOU,
    TAO,
    TAOYUAN,
    TARGET,
    WANJIAN,
    WEAPON_SLOT,
    WUGU,
    WUZHONG,
    act,
    first,
)
from .state import JUDGE, PUBLIC

if TYPE_CHECKING:
    from .state import SanguoshaState


def use(st: SanguoshaState, user: Seat, k: int, cards: list[int], t1: int, t2: int) -> Flow[None]:
    """`user` uses `cards` as a card of slug index `k` on targets t1, t2 (NONE when not needed)."""
    from .skills import jizhi

    hand = st.hands[user]
    last = len(hand) == len(cards) and all(c in hand for c in cards)  # 方天画戟: the last hand card(s)
    yield from lose(st, user, cards, st.proc)
    if k == SHA:
        count_sha(st)
        targets = [t1]
        if last and st.weapon(user) == FANGTIAN:
            targets += yield from fangtian_targets(st, user, t1)
        yield from sha(st, user, cards, targets)
    elif k == TAO:
        recover(st, user)
    elif st.cards.slot[cards[0]] >= 0 and k == st.kind[cards[0]]:
        yield from equip(st, user, cards[0])
    elif k == LEBU or k == SHANDIAN:
        target = user if k == SHANDIAN else t1
        st.proc.remove(cards[0])
        st.judge[target].append(cards[0])
        st.judge_as[cards[0]] = k
    else:
        st.counts["tricks_used"] += 1
        yield from jizhi(st, user)
        yield from trick(st, user, k, cards, t1, t2)
    to_discard(st, cards)


def count_sha(st: SanguoshaState) -> None:
    """A 殺 used in the play phase counts against the per-turn limit (beyond it only by 諸葛連弩 or 咆哮)."""
    st.sha_used += 1
    st.sha_in_play = True
    st.counts["sha_used"] += 1
    if st.sha_used > st.rules.sha_per_turn:
        st.zhuge_used = True


def trick(st: SanguoshaState, user: Seat, k: int, cards: list[int], t1: int, t2: int) -> Flow[None]:
    if k == JUEDOU:
        yield from juedou(st, user, t1, cards)
    elif k == GUOHE or k == SHUNSHOU:
        if not (yield from wuxie(st, user, t1, k)) and st.alive[t1]:
            yield from take_card(st, user, t1, steal=k == SHUNSHOU, judge_area=True)
    elif k == WUZHONG:
        if not (yield from wuxie(st, user, user, k)):
            draw(st, user, 2)
    elif k == NANMAN or k == WANJIAN:
        yield from mass_attack(st, user, k, cards)
    elif k == TAOYUAN:
        for seat in st.order_from(user):
            if st.alive[seat] and st.hp[seat] < st.max_hp[seat] and not (yield from wuxie(st, user, seat, k)):
                recover(st, seat)
    elif k == WUGU:
        yield from wugu(st, user)
    elif k == JIEDAO:
        yield from jiedao(st, user, t1, t2)


def equip(st: SanguoshaState, seat: Seat, card: int) -> Flow[None]:
    slot = st.cards.slot[card]
    old = st.equip[seat][slot]
    if old >= 0:
        yield from lose(st, seat, [old], st.discard)
    st.proc.remove(card)
    st.equip[seat][slot] = card


def fangtian_targets(st: SanguoshaState, user: Seat, chosen: Seat) -> Flow[list[Seat]]:
    """方天画戟: up to two more targets when the 殺 was the last hand card."""
    from .turn import sha_targets

    extra: list[Seat] = []
    candidates = [t for t in sha_targets(st, user) if t != chosen]
    while len(extra) < 2 and candidates:
        legal = [act(TARGET, t) for t in candidates] + [PASS_ACTION]
        action = yield from ask(st, user, legal, (P_TARGET, EFFECT_INDEX["fangtian"], chosen, 0))
        if action == PASS_ACTION:
            break
        extra.append(first(action))
        candidates.remove(first(action))
    return extra


def colour(st: SanguoshaState, cards: Sequence[int]) -> int:
    colours = {st.color[c] for c in cards}
    return colours.pop() if len(colours) == 1 else NO_COLOR


def sha(st: SanguoshaState, user: Seat, cards: list[int], targets: list[Seat]) -> Flow[None]:
    tint = colour(st, cards)
    for target in targets:
        if st.alive[target] and st.alive[user]:
            yield from sha_one(st, user, target, cards, tint)
    to_discard(st, cards)


def sha_one(st: SanguoshaState, user: Seat, target: Seat, cards: list[int], tint: int) -> Flow[None]:
    """One 殺 at one target: 流離, 雌雄双股剣, 鉄騎, armour, 閃 (twice against 無双), 青龍偃月刀, 貫石斧,
    寒氷剣, 麒麟弓, then the damage."""
    from .skills import liuli, tieji

    if "liuli" in st.skills[target]:
        target = yield from liuli(st, user, target)
    weapon = st.weapon(user)
    if weapon == CIXIONG and st.gens.male[st.general[user]] != st.gens.male[st.general[target]] \
            and (yield from offer(st, user, "cixiong", target)):
        yield from cixiong(st, user, target)
    undodgeable = "tieji" in st.skills[user] and (yield from tieji(st, user, target))
    armour = weapon != QINGGANG
    if armour and tint == BLACK and st.armor(target) == RENWANG:
        return
    if not undodgeable:
        need = 2 if "wushuang" in st.skills[user] else 1
        dodged = True
        for _ in range(need):
            if not (yield from ask_shan(st, target, user, armour, SHA)):
                dodged = False
                break
        if dodged:
            weapon = st.weapon(user)
            if weapon == QINGLONG and st.alive[target] and (yield from qinglong(st, user, target)):
                return
            if not (weapon == GUANSHI and (yield from guanshi(st, user))):
                return
    if not st.alive[target]:
        return
    weapon = st.weapon(user)
    if weapon == HANBING and st.has_cards(target) and (yield from offer(st, user, "hanbing", target)):
        for _ in range(2):
            if st.has_cards(target):
                yield from take_card(st, user, target, steal=False, judge_area=False)
        return
    if weapon == QILIN and (st.equip[target][PLUS_SLOT] >= 0 or st.equip[target][MINUS_SLOT] >= 0):
        horses = [c for c in (st.equip[target][PLUS_SLOT], st.equip[target][MINUS_SLOT]) if c >= 0]
        legal = [act(PICK, c) for c in horses] + [PASS_ACTION]
        action = yield from ask(st, user, legal, (P_PICK, target, 0, EFFECT_INDEX["qilin"]))
        if action != PASS_ACTION:
            yield from lose(st, target, [first(action)], st.discard)
    bonus = int(st.luoyi and user == st.turn_player)
    yield from damage(st, target, user, 1 + bonus, cards)


def cixiong(st: SanguoshaState, user: Seat, target: Seat) -> Flow[None]:
    """雌雄双股剣: the target discards a hand card or lets the user draw one."""
    legal: list[Action] = [act(PICK, c) for c in st.hands[target]]
    legal.append(act(OPTION, 0))
    action = yield from ask(st, target, legal, (P_OPTION, EFFECT_INDEX["cixiong"], user, 0))
    if action == act(OPTION, 0):
        draw(st, user, 1)
    else:
        yield from lose(st, target, [first(action)], st.discard)


def qinglong(st: SanguoshaState, user: Seat, target: Seat) -> Flow[bool]:
    """青龍偃月刀: after a 閃, the user may use another 殺 on the same target."""
    got = yield from ask_sha(st, user, target, QINGLONG)
    if got is None:
        return False
    st.sha_in_play = st.sha_in_play or user == st.turn_player
    st.counts["skills_used"] += 1
    yield from sha_one(st, user, target, got, colour(st, got))
    to_discard(st, got)
    return True


def guanshi(st: SanguoshaState, user: Seat) -> Flow[bool]:
    """貫石斧: discard two cards (not the axe) to make a dodged 殺 hit."""
    axe = st.equip[user][WEAPON_SLOT]
    if len(st.owned(user)) < 3 or not (yield from offer(st, user, "guanshi")):
        return False
    yield from choose_discards(st, user, 2, False, keep=axe, reason=EFFECT_INDEX["guanshi"])
    return True


def take_card(st: SanguoshaState, user: Seat, target: Seat, *, steal: bool, judge_area: bool) -> Flow[None]:
    """過河拆橋 / 順手牽羊 / 寒氷剣: the user picks a card of the target (a hand card at random)."""
    legal: list[Action] = [act(PICK, HAND, target)] if st.hands[target] else []
    legal += [act(PICK, c, target) for c in st.equip[target] if c >= 0]
    if judge_area:
        legal += [act(PICK, c, target) for c in st.judge[target]]
    if not legal:
        return
    action = yield from ask(st, user, legal, (P_PICK, target, int(steal), NONE))
    card = first(action)
    if card == HAND:
        card = st.random_hand_card(target, user if steal else PUBLIC)
    if card in st.judge[target]:
        st.judge[target].remove(card)
        del st.judge_as[card]
        (st.hands[user] if steal else st.discard).append(card)
        return
    yield from lose(st, target, [card], st.hands[user] if steal else st.discard)


def juedou(st: SanguoshaState, user: Seat, target: Seat, cards: list[int], cancellable: bool = True) -> Flow[None]:
    """決闘: the target first, each plays 殺 (two against 無双) until one fails and takes 1 from the other."""
    if cancellable and (yield from wuxie(st, user, target, JUEDOU)):
        return
    cur, other = target, user
    while st.alive[cur] and st.alive[other]:
        need = 2 if "wushuang" in st.skills[other] else 1
        for _ in range(need):
            got = yield from ask_sha(st, cur, other, JUEDOU)
            if got is None:
                bonus = int(st.luoyi and other == user == st.turn_player)
                yield from damage(st, cur, other, 1 + bonus, cards)
                return
            to_discard(st, got)
            if cur == st.turn_player:
                st.sha_in_play = True
        cur, other = other, cur


def mass_attack(st: SanguoshaState, user: Seat, k: int, cards: list[int]) -> Flow[None]:
    """南蛮入侵 (殺 or 1 damage) / 万箭斉発 (閃 or 1 damage) at every other player from the user's left."""
    for seat in st.order_from(user)[1:]:
        if not st.alive[seat]:
            continue
        if (yield from wuxie(st, user, seat, k)):
            continue
        if k == NANMAN:
            got = yield from ask_sha(st, seat, user, NANMAN)
            if got is not None:
                to_discard(st, got)
                continue
        elif (yield from ask_shan(st, seat, user, True, WANJIAN)):
            continue
        yield from damage(st, seat, user, 1, cards)


def wugu(st: SanguoshaState, user: Seat) -> Flow[None]:
    """五穀豊登: one card per living player turned up; from the user, each takes one."""
    shown = []
    for _ in range(len(st.living)):
        card = top(st, PUBLIC, JUDGE)
        if card >= 0:
            shown.append(card)
            st.proc.append(card)
    for seat in st.order_from(user):
        if not shown:
            break
        if not st.alive[seat] or (yield from wuxie(st, user, seat, WUGU)):
            continue
        action = yield from ask(st, seat, [act(PICK, c) for c in shown], (P_WUGU, user, 0, 0))
        card = first(action)
        shown.remove(card)
        st.proc.remove(card)
        st.hands[seat].append(card)
    to_discard(st, shown)


def jiedao(st: SanguoshaState, user: Seat, holder: Seat, victim: Seat) -> Flow[None]:
    """借刀殺人: the holder uses 殺 on the victim, or gives the user his weapon."""
    from .turn import sha_targets

    if (yield from wuxie(st, user, holder, JIEDAO)) or not st.alive[holder]:
        return
    if st.equip[holder][WEAPON_SLOT] < 0:
        return
    if st.alive[victim] and victim in sha_targets(st, holder):
        got = yield from ask_sha(st, holder, victim, JIEDAO)
        if got is not None:
            yield from sha(st, holder, got, [victim])
            return
    weapon = st.equip[holder][WEAPON_SLOT]
    if weapon >= 0 and st.alive[user]:
        yield from lose(st, holder, [weapon], st.hands[user])
