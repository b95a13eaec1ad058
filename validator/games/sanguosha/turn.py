"""三国殺 (sanguosha): one turn — start, judge, draw, play, discard and end phases — and the legal
plays of the play phase (cards, conversions by skill, active skills).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .flow import Flow, ask, discard_phase, draw, judge_phase, offer
from .rules import (
    CONVERT,
    DIAMOND,
    GUOHE,
    JIEDAO,
    JUEDOU,
    LEBU,
    MINUS_SLOT,
    NANMAN,
    P_PLAY,
    PASS_ACTION,
    RED,
    SHA,
    SHAN,
    SHANDIAN,
    SHUNSHOU,
    TAO,
    TAOYUAN,
    USE,
    WANJIAN,
    WEAPON_SLOT,
    WUGU,
    WUZHONG,
    ZHUGE,
    act,
    unpack,
)

if TYPE_CHECKING:
    from .state import SanguoshaState

_ALL_TARGETS = frozenset({WUZHONG, NANMAN, WANJIAN, TAOYUAN, WUGU})


def turn(st: SanguoshaState, seat: Seat) -> Flow[None]:
    from . import skills

    st.turn_player = seat
    st.turns += 1
    st.sha_used, st.sha_in_play, st.luoyi, st.rende_given, st.zhuge_used = 0, False, False, 0, False
    st.once.clear()
    sk = st.skills[seat]
    if sk:
        yield from skills.start_phase(st, seat)
    skip_play = False
    if st.judge[seat]:
        skip_play = yield from judge_phase(st, seat)
    if sk:
        yield from skills.draw_phase(st, seat)
    else:
        draw(st, seat, st.rules.draw_per_turn)
    yield from rest_of_turn(st, seat, skip_play)


def rest_of_turn(st: SanguoshaState, seat: Seat, skip_play: bool = False) -> Flow[None]:
    """The play phase (unless skipped), the discard phase and the end phase (閉月)."""
    if not skip_play:
        yield from play_phase(st, seat)
    yield from discard_phase(st, seat)
    if "biyue" in st.skills[seat] and (yield from offer(st, seat, "biyue")):
        draw(st, seat, 1)


def play_phase(st: SanguoshaState, seat: Seat) -> Flow[None]:
    from . import cards, skills

    while True:
        legal = play_options(st, seat)
        action = yield from ask(st, seat, legal, (P_PLAY, 0, 0, 0))
        if action == PASS_ACTION:
            return
        kind, a, b, c, d = unpack(action)
        if kind == USE:
            yield from cards.use(st, seat, st.kind[a], [a], b, c)
        elif kind == CONVERT:
            yield from cards.use(st, seat, b, [a], c, d)
        else:
            yield from skills.active(st, seat, a, b, c, d)


def can_sha(st: SanguoshaState, seat: Seat) -> bool:
    return st.sha_used < st.rules.sha_per_turn or st.weapon(seat) == ZHUGE or "paoxiao" in st.skills[seat]


def sha_targets(st: SanguoshaState, seat: Seat, without: int = -1) -> list[Seat]:
    """Players `seat` may use 殺 on (in attack range, not 空城 with an empty hand); `without`: a card of
    its equipment that the 殺 itself would use up (a weapon or a −1 horse used as 殺 by 武聖)."""
    equip = st.equip[seat]
    saved = -1
    if without >= 0 and without in (equip[WEAPON_SLOT], equip[MINUS_SLOT]):
        slot = equip.index(without)
        saved, equip[slot] = equip[slot], -1
    reach = st.attack_range(seat)
    found = [t for t in st.living if t != seat and st.dist(seat, t) <= reach and targetable(st, t)]
    if saved >= 0:
        equip[slot] = saved
    return found


def targetable(st: SanguoshaState, target: Seat) -> bool:
    """空城: no 殺 or 決闘 at a player with the skill and an empty hand."""
    return bool(st.hands[target]) or "kongcheng" not in st.skills[target]


def play_options(st: SanguoshaState, seat: Seat) -> list[Action]:
    """Every legal play of the play phase, PASS (end the phase) first."""
    from .skills import play_skill_options

    legal = [PASS_ACTION]
    hand, kind, sk = st.hands[seat], st.kind, st.skills[seat]
    sha_ok = can_sha(st, seat)
    sha_to = sha_targets(st, seat) if sha_ok else []
    others = [t for t in st.living if t != seat]
    for c in hand:
        k = kind[c]
        if k == SHA:
            legal += [act(USE, c, t) for t in sha_to]
        elif k == SHAN:
            if "longdan" in sk:
                legal += [act(CONVERT, c, SHA, t) for t in sha_to]
        elif k == TAO:
            if st.hp[seat] < st.max_hp[seat]:
                legal.append(act(USE, c))
        elif k in _ALL_TARGETS:
            legal.append(act(USE, c))
        elif k == JUEDOU:
            legal += [act(USE, c, t) for t in others if targetable(st, t)]
        elif k == GUOHE:
            legal += [act(USE, c, t) for t in others if st.has_cards(t, True)]
        elif k == SHUNSHOU:
            legal += [act(USE, c, t) for t in steal_targets(st, seat, others)]
        elif k == JIEDAO:
            legal += [act(USE, c, a, b) for a, b in jiedao_pairs(st, seat, others)]
        elif k == LEBU:
            legal += [act(USE, c, t) for t in lebu_targets(st, others)]
        elif k == SHANDIAN:
            if not any(st.judge_as[j] == SHANDIAN for j in st.judge[seat]):
                legal.append(act(USE, c))
        elif st.cards.slot[c] >= 0:
            legal.append(act(USE, c))
    if sk:
        conversions(st, seat, legal, sha_ok, others)
    play_skill_options(st, seat, legal, sha_to, others)
    return legal


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


def conversions(st: SanguoshaState, seat: Seat, legal: list[Action], sha_ok: bool, others: list[Seat]) -> None:
    """Cards used as another card by a skill: 武聖 (red as 殺), 奇襲 (black as 過河拆橋), 国色 (♦ as 楽不思蜀)."""
    sk = st.skills[seat]
    kind, color, suit = st.kind, st.color, st.suit
    if "wusheng" in sk and sha_ok:
        for c in st.owned(seat):
            if color[c] == RED and kind[c] != SHA:
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
