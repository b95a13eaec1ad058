"""三国殺 (sanguosha): who may be targeted and which actions are legal — the play phase's plays (cards,
conversions by skill, active skills), the cards that answer as 閃 or 殺 — as pure queries of the state.

Nothing here waits for a player; the rules steps (flow.py, cards.py, skills.py, turn.py) ask with these
lists.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .rules import (
    A_SHIFT,
    B_SHIFT,
    CONVERT,
    DIAMOND,
    EFFECT_INDEX,
    GUOHE,
    JIEDAO,
    JUEDOU,
    LEBU,
    MINUS_SLOT,
    NANMAN,
    NONE,
    PASS_ACTION,
    PLUS_SLOT,
    RED,
    RESPOND,
    SHA,
    SHAN,
    SHANDIAN,
    SHUNSHOU,
    SKILL,
    TAO,
    TAOYUAN,
    TRIGGER,
    USE,
    WANJIAN,
    WEAPON_SLOT,
    WUGU,
    WUZHONG,
    ZHANGBA,
    ZHUGE,
    act,
)

if TYPE_CHECKING:
    from .state import SanguoshaState

TRIG = {slug: act(TRIGGER, i) for slug, i in EFFECT_INDEX.items()}
_ALL_TARGETS = frozenset({WUZHONG, NANMAN, WANJIAN, TAOYUAN, WUGU})
_SKILL = EFFECT_INDEX
_USE = act(USE, 0, 0)                    # a card used: its card and first target added by bits
_NO_TARGET = act(0, 0, NONE)             # the NONE of an untargeted use's first target


def trig(slug: str) -> Action:
    """The action that activates an optional skill or equipment effect."""
    return TRIG[slug]


# -- targets ------------------------------------------------------------------------------------------
def targetable(st: SanguoshaState, target: Seat) -> bool:
    """空城: no 殺 or 決闘 at a player with the skill and an empty hand."""
    return bool(st.hands[target]) or "kongcheng" not in st.skills[target]


def distances_from(st: SanguoshaState, seat: Seat, without: int = -1) -> list[int]:
    """The distance from `seat` to every seat (0 for itself and the dead): state.dist's rule (馬術, horses;
    rules.distance is the pure one) for a whole row at once, as the play options and every observation
    need it. `without`: a −1 horse of the seat's that does not count (it is being used up as a 殺)."""
    living, equips = st.living, st.equip
    size = len(living)
    me = living.index(seat)
    minus = equips[seat][MINUS_SLOT]
    shorter = (minus >= 0 and minus != without) + ("mashu" in st.skills[seat])
    row = [0] * st.n
    for j in range(size):
        if j != me:
            target = living[j]
            gap = j - me if j > me else me - j
            if size - gap < gap:
                gap = size - gap
            gap += (equips[target][PLUS_SLOT] >= 0) - shorter
            row[target] = gap if gap > 1 else 1
    return row


def sha_targets(st: SanguoshaState, seat: Seat, without: int = -1) -> list[Seat]:
    """Players `seat` may use 殺 on (in attack range, not 空城 with an empty hand); `without`: a card of
    its equipment that the 殺 itself would use up (a weapon or a −1 horse used as 殺 by 武聖)."""
    weapon = st.equip[seat][WEAPON_SLOT]
    reach = st.cards.range[weapon] if weapon >= 0 and weapon != without else 1
    row = distances_from(st, seat, without)
    hands, skills = st.hands, st.skills
    return [t for t in st.living if t != seat and row[t] <= reach and (hands[t] or "kongcheng" not in skills[t])]


def lord_may_ask(st: SanguoshaState, seat: Seat, skill: str, kingdom: str) -> bool:
    """護駕 (魏) and 激将 (蜀): the seat has the lord's skill and another living player of its kingdom."""
    return skill in st.skills[seat] and any(st.gens.kingdom[st.general[s]] == kingdom for s in st.living if s != seat)


def can_sha(st: SanguoshaState, seat: Seat) -> bool:
    return st.sha_used < st.rules.sha_per_turn or st.weapon(seat) == ZHUGE or "paoxiao" in st.skills[seat]


def steal_targets(st: SanguoshaState, seat: Seat, others: list[Seat]) -> list[Seat]:
    qicai = "qicai" in st.skills[seat]
    return [t for t in others if st.has_cards(t, True) and "qianxun" not in st.skills[t]
            and (qicai or st.dist(seat, t) <= 1)]


def lebu_targets(st: SanguoshaState, others: list[Seat]) -> list[Seat]:
    return [t for t in others if "qianxun" not in st.skills[t]
            and not any(st.judge_as[j] == LEBU for j in st.judge[t])]


def jiedao_pairs(st: SanguoshaState, seat: Seat, others: list[Seat]) -> list[tuple[Seat, Seat]]:
    pairs = []
    for a in others:
        if st.equip[a][WEAPON_SLOT] >= 0:
            pairs += [(a, b) for b in sha_targets(st, a)]
    return pairs


# -- answers --------------------------------------------------------------------------------------------
def shan_options(st: SanguoshaState, seat: Seat, legal: list[Action]) -> None:
    """The seat's cards that answer as 閃 (閃 itself, 傾国's black cards, 竜胆's 殺)."""
    kind, color = st.kind, st.color
    sk = st.skills[seat]
    qingguo, longdan = "qingguo" in sk, "longdan" in sk
    for c in st.hands[seat]:
        k = kind[c]
        if k == SHAN:
            legal.append(act(RESPOND, c))
        elif (qingguo and color[c] != RED) or (longdan and k == SHA):
            legal.append(act(CONVERT, c, SHAN))


def sha_options(st: SanguoshaState, seat: Seat, legal: list[Action]) -> None:
    """The seat's cards that answer as 殺 (殺, 武聖's red cards, 竜胆's 閃, 丈八蛇矛's two cards)."""
    kind, color = st.kind, st.color
    sk = st.skills[seat]
    wusheng, longdan = "wusheng" in sk, "longdan" in sk
    for c in st.hands[seat]:
        k = kind[c]
        if k == SHA:
            legal.append(act(RESPOND, c))
        elif (wusheng and color[c] == RED) or (longdan and k == SHAN):
            legal.append(act(CONVERT, c, SHA))
    if wusheng:
        for c in st.equip[seat]:
            if c >= 0 and color[c] == RED:
                legal.append(act(CONVERT, c, SHA))
    if st.weapon(seat) == ZHANGBA and len(st.hands[seat]) >= 2:
        legal.append(TRIG["zhangba"])


ANSWER_OPTIONS = (shan_options, sha_options)  # what a kingdom's helper may play: 0 閃 (護駕), 1 殺 (激将)


# -- the play phase ---------------------------------------------------------------------------------------
def play_options(st: SanguoshaState, seat: Seat) -> list[Action]:
    """Every legal play of the play phase, PASS (end the phase) first."""
    legal = [PASS_ACTION]
    hand, kind, sk = st.hands[seat], st.kind, st.skills[seat]
    sha_ok = can_sha(st, seat)
    sha_to = sha_targets(st, seat) if sha_ok else []
    others = [t for t in st.living if t != seat]
    slot = st.cards.slot
    for c in hand:
        k = kind[c]
        card = _USE | c << A_SHIFT  # act(USE, c, ...) with the targets still to add
        if k == SHA:
            legal += [card | t << B_SHIFT for t in sha_to]
        elif k == SHAN:
            if "longdan" in sk:
                legal += [act(CONVERT, c, SHA, t) for t in sha_to]
        elif k == TAO:
            if st.hp[seat] < st.max_hp[seat]:
                legal.append(card | _NO_TARGET)
        elif k in _ALL_TARGETS:
            legal.append(card | _NO_TARGET)
        elif k == JUEDOU:
            legal += [card | t << B_SHIFT for t in others if targetable(st, t)]
        elif k == GUOHE:
            legal += [card | t << B_SHIFT for t in others if st.has_cards(t, True)]
        elif k == SHUNSHOU:
            legal += [card | t << B_SHIFT for t in steal_targets(st, seat, others)]
        elif k == JIEDAO:
            legal += [act(USE, c, a, b) for a, b in jiedao_pairs(st, seat, others)]
        elif k == LEBU:
            legal += [card | t << B_SHIFT for t in lebu_targets(st, others)]
        elif k == SHANDIAN:
            if not any(st.judge_as[j] == SHANDIAN for j in st.judge[seat]):
                legal.append(card | _NO_TARGET)
        elif slot[c] >= 0:
            legal.append(card | _NO_TARGET)
    if sk:
        conversions(st, seat, legal, sha_ok, others)
    play_skill_options(st, seat, legal, sha_to, others)
    return legal


def conversions(st: SanguoshaState, seat: Seat, legal: list[Action], sha_ok: bool, others: list[Seat]) -> None:
    """Cards used as another card by a skill: 武聖 (red as 殺), 奇襲 (black as 過河拆橋), 国色 (♦ as 楽不思蜀)."""
    sk = st.skills[seat]
    kind, color, suit = st.kind, st.color, st.suit
    if "wusheng" in sk and sha_ok:
        # a red 諸葛連弩 used as the 殺 no longer lifts the limit that 殺 is counted against
        spent = st.sha_used >= st.rules.sha_per_turn and "paoxiao" not in sk
        weapon = st.equip[seat][WEAPON_SLOT]
        for c in st.owned(seat):
            if color[c] == RED and kind[c] != SHA and not (spent and c == weapon and kind[c] == ZHUGE):
                legal += [act(CONVERT, c, SHA, t) for t in sha_targets(st, seat, c)]
    if "qixi" in sk:
        targets = [t for t in others if st.has_cards(t, True)]
        for c in st.owned(seat):
            if color[c] != RED and kind[c] != GUOHE:
                legal += [act(CONVERT, c, GUOHE, t) for t in targets]
    if "guose" in sk:
        targets = lebu_targets(st, others)
        for c in st.owned(seat):
            if suit[c] == DIAMOND and kind[c] != LEBU:
                legal += [act(CONVERT, c, LEBU, t) for t in targets]


def play_skill_options(st: SanguoshaState, seat: Seat, legal: list[Action], sha_to: list[Seat],
                       others: list[Seat]) -> None:
    """The play phase's active skills (仁徳 制衡 苦肉 反間 結姻 青嚢 離間, 激将's 殺 at a target) and 丈八蛇矛's 殺."""
    sk, hand, once = st.skills[seat], st.hands[seat], st.once
    if st.weapon(seat) == ZHANGBA and len(hand) >= 2:
        legal += [act(SKILL, _SKILL["zhangba"], t) for t in sha_to]
    if not sk:
        return
    if "rende" in sk:
        legal += [act(SKILL, _SKILL["rende"], c, t) for c in hand for t in others]
    if sha_to and "jijiang" not in once and lord_may_ask(st, seat, "jijiang", "蜀"):
        legal += [act(SKILL, _SKILL["jijiang"], t) for t in sha_to]
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
        males = [t for t in others if st.gens.male[st.general[t]]]
        legal += [act(SKILL, _SKILL["lijian"], a, b) for a in males if targetable(st, a) for b in males if b != a]
