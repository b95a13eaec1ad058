"""三国殺 (sanguosha): the 40 skills of the standard edition's 25 generals, as hooks the flow calls.

Conversions (武聖 竜胆 傾国 奇襲 国色 急救) are in the option lists of flow.py and turn.py; locked
modifiers (馬術 空城 謙遜 奇才 無双 咆哮 救援) are read where the rule they change is decided. This
module holds the triggered and active skills: start and draw phase skills, damage triggers, judgement
changes, 流離, 鉄騎, 集智 and the play-phase skills (仁徳 制衡 苦肉 反間 結姻 青嚢 離間) and 丈八蛇矛.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .flow import (
    Flow,
    ask,
    choose_discards,
    damage,
    draw,
    judge,
    judged,
    lose,
    lose_hp,
    offer,
    recover,
    to_discard,
    top,
    zhangba_cards,
)
from .rules import (
    DISCARD,
    EFFECT_INDEX,
    EFFECT_SLUGS,
    GIVE,
    HAND,
    HEART,
    OPTION,
    P_COST,
    P_GIVE,
    P_GUANXING,
    P_OPTION,
    P_PICK,
    P_TARGET,
    P_TRIGGER,
    PASS_ACTION,
    PICK,
    RED,
    RESPOND,
    SKILL,
    TARGET,
    act,
    first,
    second,
)
from .state import LOOK, PUBLIC

if TYPE_CHECKING:
    from .state import SanguoshaState

IMPLEMENTED_SKILLS: frozenset[str] = frozenset({
    "jianxiong", "hujia", "fankui", "guicai", "ganglie", "tuxi", "luoyi", "tiandu", "yiji", "qingguo", "luoshen",
    "rende", "jijiang", "wusheng", "paoxiao", "guanxing", "kongcheng", "longdan", "mashu", "tieji", "jizhi", "qicai",
    "zhiheng", "jiuyuan", "qixi", "keji", "kurou", "yingzi", "fanjian", "guose", "liuli", "qianxun", "lianying",
    "jieyin", "xiaoji", "jijiu", "qingnang", "wushuang", "lijian", "biyue"})

_SKILL = {slug: EFFECT_INDEX[slug] for slug in EFFECT_SLUGS}


# -- start and draw phases ------------------------------------------------------------------------
def start_phase(st: SanguoshaState, seat: Seat) -> Flow[None]:
    sk = st.skills[seat]
    if "guanxing" in sk and (yield from offer(st, seat, "guanxing")):
        yield from guanxing(st, seat)
    if "luoshen" in sk:
        while (yield from offer(st, seat, "luoshen")):
            card = yield from judge(st, seat)
            if card < 0 or st.color[card] == RED:
                yield from judged(st, seat, card)
                return
            st.proc.remove(card)
            st.hands[seat].append(card)


def guanxing(st: SanguoshaState, seat: Seat) -> Flow[None]:
    """観星: look at the top X cards (X = living players, at most 5), put each on top or at the bottom."""
    shown = []
    for _ in range(min(5, len(st.living))):
        card = top(st, seat, LOOK)
        if card < 0:
            break
        shown.append(card)
        st.proc.append(card)
    while shown:
        legal = [act(PICK, c, where) for c in shown for where in (0, 1)]
        action = yield from ask(st, seat, legal, (P_GUANXING, len(shown), 0, 0))
        card, where = first(action), second(action)
        shown.remove(card)
        st.proc.remove(card)
        if where == 0:
            st.deck.append(card)
        else:
            st.deck.insert(0, card)


def draw_phase(st: SanguoshaState, seat: Seat) -> Flow[None]:
    sk = st.skills[seat]
    if "tuxi" in sk and any(st.hands[t] for t in st.living if t != seat) and (yield from offer(st, seat, "tuxi")):
        yield from tuxi(st, seat)
        return
    count = st.rules.draw_per_turn
    if "yingzi" in sk and (yield from offer(st, seat, "yingzi")):
        count += 1
    if "luoyi" in sk and (yield from offer(st, seat, "luoyi")):
        count -= 1
        st.luoyi = True
    draw(st, seat, count)


def tuxi(st: SanguoshaState, seat: Seat) -> Flow[None]:
    """突襲: instead of drawing, take a hand card (at random) from each of up to two other players."""
    chosen: list[Seat] = []
    while len(chosen) < 2:
        legal = [act(TARGET, t) for t in st.living if t != seat and t not in chosen and st.hands[t]]
        if not legal:
            break
        if chosen:
            legal.append(PASS_ACTION)
        action = yield from ask(st, seat, legal, (P_TARGET, _SKILL["tuxi"], 0, 0))
        if action == PASS_ACTION:
            break
        chosen.append(first(action))
    for target in chosen:
        hand = st.hands[target]
        if hand:
            yield from lose(st, target, [st.random_hand_card(target, seat)], st.hands[seat])


# -- damage triggers --------------------------------------------------------------------------------
def after_damage(st: SanguoshaState, target: Seat, source: Seat, amount: int, cards: Sequence[int]) -> Flow[None]:
    """奸雄, 反饋, 剛烈 and 遺計 of the damaged player (who survived)."""
    sk = st.skills[target]
    if not sk:
        return
    if "jianxiong" in sk:
        held = [c for c in cards if c in st.proc]
        if held and (yield from offer(st, target, "jianxiong")):
            for card in held:
                st.proc.remove(card)
            st.hands[target] += held
    if "fankui" in sk and source >= 0 and source != target and st.alive[source] and st.has_cards(source) \
            and (yield from offer(st, target, "fankui", source)):
        yield from pick_card(st, target, source, _SKILL["fankui"])
    if "ganglie" in sk and source >= 0 and source != target and st.alive[source] \
            and (yield from offer(st, target, "ganglie", source)):
        card = yield from judge(st, target)
        hit = card >= 0 and st.suit[card] != HEART
        yield from judged(st, target, card)
        if hit and st.alive[source]:
            yield from ganglie(st, target, source)
    if "yiji" in sk:
        for _ in range(amount):
            if not st.alive[target] or not (yield from offer(st, target, "yiji")):
                break
            yield from yiji(st, target)


def pick_card(st: SanguoshaState, taker: Seat, target: Seat, effect: int) -> Flow[None]:
    """Take one card of the target's hand (at random) or equipment into the taker's hand."""
    legal: list[Action] = [act(PICK, HAND, target)] if st.hands[target] else []
    legal += [act(PICK, c, target) for c in st.equip[target] if c >= 0]
    action = yield from ask(st, taker, legal, (P_PICK, target, 1, effect))
    card = first(action)
    if card == HAND:
        card = st.random_hand_card(target, taker)
    yield from lose(st, target, [card], st.hands[taker])


def ganglie(st: SanguoshaState, seat: Seat, source: Seat) -> Flow[None]:
    """剛烈 hit: the source discards two hand cards or takes 1 damage from the skill's owner."""
    if len(st.hands[source]) >= 2:
        legal = [act(OPTION, 0), act(OPTION, 1)]
        action = yield from ask(st, source, legal, (P_OPTION, _SKILL["ganglie"], seat, 0))
        if action == act(OPTION, 0):
            yield from choose_discards(st, source, 2, True, reason=_SKILL["ganglie"])
            return
    yield from damage(st, source, seat, 1)


def yiji(st: SanguoshaState, seat: Seat) -> Flow[None]:
    """遺計: the top two cards, each given to any living player (oneself included)."""
    cards = []
    for _ in range(2):
        card = top(st, seat, LOOK)
        if card >= 0:
            cards.append(card)
            st.proc.append(card)
    while cards:
        legal = [act(GIVE, c, t) for c in cards for t in st.living]
        action = yield from ask(st, seat, legal, (P_GIVE, _SKILL["yiji"], 0, 0))
        card, to = first(action), second(action)
        cards.remove(card)
        st.proc.remove(card)
        st.hands[to].append(card)


# -- judgements, tricks, 殺 -------------------------------------------------------------------------
def guicai(st: SanguoshaState, seat: Seat, card: int) -> Flow[int]:
    """鬼才: before a judgement takes effect, its owner may play a hand card to replace the judgement card."""
    for owner in st.living:
        if "guicai" in st.skills[owner] and st.hands[owner]:
            legal = [act(RESPOND, c) for c in st.hands[owner]]
            legal.append(PASS_ACTION)
            action = yield from ask(st, owner, legal, (P_TRIGGER, _SKILL["guicai"], seat, card))
            if action != PASS_ACTION:
                st.counts["skills_used"] += 1
                new = first(action)
                yield from lose(st, owner, [new], st.proc)
                to_discard(st, [card])
                card = new
    return card


def jizhi(st: SanguoshaState, seat: Seat) -> Flow[None]:
    """集智: using a non-delayed trick, its user may draw a card."""
    if "jizhi" in st.skills[seat] and (yield from offer(st, seat, "jizhi")):
        draw(st, seat, 1)


def liuli(st: SanguoshaState, user: Seat, target: Seat) -> Flow[Seat]:
    """流離: the target of a 殺 may discard a card to pass the 殺 to another player in its attack range."""
    from .turn import targetable

    if not st.has_cards(target):
        return target
    reach = st.attack_range(target)
    others = [t for t in st.living if t not in (user, target) and st.dist(target, t) <= reach and targetable(st, t)]
    if not others:
        return target
    legal = [act(TARGET, t) for t in others]
    legal.append(PASS_ACTION)
    action = yield from ask(st, target, legal, (P_TARGET, _SKILL["liuli"], user, 0))
    if action == PASS_ACTION:
        return target
    st.counts["skills_used"] += 1
    yield from choose_discards(st, target, 1, False, reason=_SKILL["liuli"])
    return first(action)


def tieji(st: SanguoshaState, user: Seat, target: Seat) -> Flow[bool]:
    """鉄騎: judge after targeting; red makes the 殺 undodgeable."""
    if not (yield from offer(st, user, "tieji", target)):
        return False
    card = yield from judge(st, user)
    red = card >= 0 and st.color[card] == RED
    yield from judged(st, user, card)
    return red


# -- play-phase skills --------------------------------------------------------------------------------
def play_skill_options(st: SanguoshaState, seat: Seat, legal: list[Action], sha_to: list[Seat],
                       others: list[Seat]) -> None:
    from .rules import ZHANGBA

    sk, hand, once = st.skills[seat], st.hands[seat], st.once
    if st.weapon(seat) == ZHANGBA and len(hand) >= 2:
        legal += [act(SKILL, _SKILL["zhangba"], t) for t in sha_to]
    if not sk:
        return
    if "rende" in sk:
        legal += [act(SKILL, _SKILL["rende"], c, t) for c in hand for t in others]
    if "zhiheng" in sk and "zhiheng" not in once and st.has_cards(seat):
        legal.append(act(SKILL, _SKILL["zhiheng"]))
    if "kurou" in sk:
        legal.append(act(SKILL, _SKILL["kurou"]))
    if "fanjian" in sk and "fanjian" not in once and hand:
        legal += [act(SKILL, _SKILL["fanjian"], t) for t in others]
    if "jieyin" in sk and "jieyin" not in once and len(hand) >= 2:
        male = st.gens.male
        legal += [act(SKILL, _SKILL["jieyin"], t) for t in others
                  if male[st.general[t]] and st.hp[t] < st.max_hp[t]]
    if "qingnang" in sk and "qingnang" not in once and hand:
        legal += [act(SKILL, _SKILL["qingnang"], t) for t in st.living if st.hp[t] < st.max_hp[t]]
    if "lijian" in sk and "lijian" not in once and st.has_cards(seat):
        from .turn import targetable

        males = [t for t in others if st.gens.male[st.general[t]]]
        legal += [act(SKILL, _SKILL["lijian"], a, b) for a in males if targetable(st, a) for b in males if b != a]


def active(st: SanguoshaState, seat: Seat, effect: int, a: int, b: int, c: int) -> Flow[None]:
    """A play-phase skill (or 丈八蛇矛) chosen from the play options."""
    from .cards import juedou, sha

    slug = EFFECT_SLUGS[effect]
    st.counts["skills_used"] += 1
    if slug == "zhangba":
        from .cards import count_sha

        cards = yield from zhangba_cards(st, seat)
        count_sha(st)
        yield from sha(st, seat, cards, [a])
    elif slug == "rende":
        yield from lose(st, seat, [a], st.hands[b])
        st.rende_given += 1
        if st.rende_given == 2:
            recover(st, seat)
    elif slug == "zhiheng":
        st.once.add(slug)
        yield from zhiheng(st, seat)
    elif slug == "kurou":
        yield from lose_hp(st, seat, 1)
        draw(st, seat, 2)
    elif slug == "fanjian":
        st.once.add(slug)
        yield from fanjian(st, seat, a)
    elif slug == "jieyin":
        st.once.add(slug)
        yield from choose_discards(st, seat, 2, True, reason=effect)
        recover(st, seat)
        recover(st, a)
    elif slug == "qingnang":
        st.once.add(slug)
        yield from choose_discards(st, seat, 1, True, reason=effect)
        recover(st, a)
    elif slug == "lijian":
        st.once.add(slug)
        yield from choose_discards(st, seat, 1, False, reason=effect)
        if st.alive[a] and st.alive[b]:
            yield from juedou(st, b, a, [], cancellable=False)


def zhiheng(st: SanguoshaState, seat: Seat) -> Flow[None]:
    """制衡: discard any number of cards (at least one), then draw as many."""
    chosen: list[int] = []
    while True:
        legal = [act(DISCARD, c) for c in st.owned(seat) if c not in chosen]
        if chosen:
            legal.append(PASS_ACTION)
        if not legal:
            break
        action = yield from ask(st, seat, legal, (P_COST, _SKILL["zhiheng"], len(chosen), 0))
        if action == PASS_ACTION:
            break
        chosen.append(first(action))
    yield from lose(st, seat, chosen, st.discard)
    draw(st, seat, len(chosen))


def fanjian(st: SanguoshaState, seat: Seat, target: Seat) -> Flow[None]:
    """反間: the target names a suit, takes one of the user's hand cards at random; another suit: 1 damage."""
    action = yield from ask(st, target, [act(OPTION, s) for s in range(4)], (P_OPTION, _SKILL["fanjian"], seat, 0))
    named = first(action)
    if not st.hands[seat]:
        return
    card = st.random_hand_card(seat, PUBLIC)  # shown: the suit named is checked against it
    yield from lose(st, seat, [card], st.hands[target])
    if st.suit[card] != named:
        yield from damage(st, target, seat, 1)
