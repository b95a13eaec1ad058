"""三国殺 (sanguosha): the 40 skills of the standard edition's 25 generals — where each one lives.

Conversions (武聖 竜胆 傾国 奇襲 国色 急救) are in the option lists (options.py, damage.py); locked
modifiers (馬術 空城 謙遜 奇才 無双 咆哮 救援) are read where the rule they change is decided; the answers'
skills (鬼才 天妬 集智 連営 梟姫 護駕 激将) are in flow.py, the damage skills (奸雄 反饋 剛烈 遺計) in
damage.py, the 殺 skills (流離 鉄騎) in cards.py. This module holds the start and draw phase skills
(観星 洛神 突襲 英姿 裸衣) and the play phase's active skills (仁徳 制衡 苦肉 反間 結姻 青嚢 離間) with 丈八蛇矛,
as frames of the decision stack.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Seat
from .cards import Juedou, Sha, count_sha
from .damage import damage, lose_hp
from .flow import (
    EVERYONE,
    SHA_ANSWER,
    AskKingdom,
    ChooseDiscards,
    ZhangbaCards,
    accepted,
    draw,
    judge,
    judged,
    lose,
    offer,
    recover,
    top,
)
from .options import TRIG
from .rules import (
    DISCARD,
    EFFECT_INDEX,
    EFFECT_SLUGS,
    OPTION,
    P_COST,
    P_GUANXING,
    P_OPTION,
    P_SHA,
    P_TARGET,
    PASS_ACTION,
    PICK,
    RED,
    SHA,
    TARGET,
    act,
    first,
    second,
)
from .stack import Frame, Got

if TYPE_CHECKING:
    from .state import SanguoshaState

IMPLEMENTED_SKILLS: frozenset[str] = frozenset({
    "jianxiong", "hujia", "fankui", "guicai", "ganglie", "tuxi", "luoyi", "tiandu", "yiji", "qingguo", "luoshen",
    "rende", "jijiang", "wusheng", "paoxiao", "guanxing", "kongcheng", "longdan", "mashu", "tieji", "jizhi", "qicai",
    "zhiheng", "jiuyuan", "qixi", "keji", "kurou", "yingzi", "fanjian", "guose", "liuli", "qianxun", "lianying",
    "jieyin", "xiaoji", "jijiu", "qingnang", "wushuang", "lijian", "biyue"})

_SKILL = {slug: EFFECT_INDEX[slug] for slug in EFFECT_SLUGS}


# -- start and draw phases ------------------------------------------------------------------------
def start_phase(st: SanguoshaState, seat: Seat) -> Frame | None:
    sk = st.skills[seat]
    return StartPhase(seat) if "guanxing" in sk or "luoshen" in sk else None


@dataclass(eq=False, repr=False)
class StartPhase(Frame):
    """観星, then 洛神 (judge again while black: each black card goes to the hand)."""

    seat: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat, sk = self.seat, st.skills[self.seat]
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 2
                if "guanxing" in sk:
                    self.pc = 1
                    return offer(st, seat, "guanxing")
                continue
            if pc == 1:
                self.pc = 2
                if accepted(st, got):
                    return Guanxing(seat)
                continue
            if pc == 2:  # 洛神
                if "luoshen" not in sk:
                    return st.done()
                self.pc = 3
                return offer(st, seat, "luoshen")
            if pc == 3:
                if not accepted(st, got):
                    return st.done()
                self.pc = 4
                if (f := judge(st, seat)) is not None:
                    return f
                got = st.ret
                continue
            if pc == 4:
                if got < 0 or st.color[got] == RED:
                    self.pc = 5
                    if (f := judged(st, seat, got)) is not None:
                        return f
                    return st.done()
                st.proc.remove(got)
                st.hands[seat].append(got)
                st.known[got] = EVERYONE
                self.pc = 2
                continue
            return st.done()  # pc 5


@dataclass(eq=False, repr=False)
class Guanxing(Frame):
    """観星: look at the top X cards (X = living players, at most 5), put each on top or at the bottom."""

    seat: Seat
    shown: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            for _ in range(min(5, len(st.living))):
                card = top(st)
                if card < 0:
                    break
                self.shown += (card,)
                st.proc.append(card)
            self.pc = 1
        else:
            card, where = first(got), second(got)
            self.shown = tuple(c for c in self.shown if c != card)
            st.proc.remove(card)
            if where == 0:
                st.deck.append(card)
            else:
                st.deck.insert(0, card)
            st.known[card] = 1 << self.seat
        if not self.shown:
            return st.done()
        legal = [act(PICK, c, where) for c in self.shown for where in (0, 1)]
        return st.ask(self.seat, legal, (P_GUANXING, len(self.shown), 0, 0))


def draw_phase(st: SanguoshaState, seat: Seat) -> Frame | None:
    sk = st.skills[seat]
    if "tuxi" in sk or "yingzi" in sk or "luoyi" in sk:
        return DrawPhase(seat)
    draw(st, seat, st.rules.draw_per_turn)
    return None


@dataclass(eq=False, repr=False)
class DrawPhase(Frame):
    """突襲 instead of drawing; else 英姿 (+1) and 裸衣 (−1, and +1 damage this turn), then the draw."""

    seat: Seat
    count: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat, sk = self.seat, st.skills[self.seat]
        while True:
            pc = self.pc
            if pc == 0:
                self.count = st.rules.draw_per_turn
                self.pc = 2
                if "tuxi" in sk and any(st.hands[t] for t in st.living if t != seat):
                    self.pc = 1
                    return offer(st, seat, "tuxi")
                continue
            if pc == 1:
                self.pc = 2
                if accepted(st, got):
                    self.pc = 9
                    return Tuxi(seat)
                continue
            if pc == 2:
                self.pc = 4
                if "yingzi" in sk:
                    self.pc = 3
                    return offer(st, seat, "yingzi")
                continue
            if pc == 3:
                if accepted(st, got):
                    self.count += 1
                self.pc = 4
                continue
            if pc == 4:
                self.pc = 6
                if "luoyi" in sk:
                    self.pc = 5
                    return offer(st, seat, "luoyi")
                continue
            if pc == 5:
                if accepted(st, got):
                    self.count -= 1
                    st.luoyi = True
                self.pc = 6
                continue
            if pc == 6:
                draw(st, seat, self.count)
            return st.done()  # pc 6 and 9


@dataclass(eq=False, repr=False)
class Tuxi(Frame):
    """突襲: instead of drawing, take a hand card (at random) from each of up to two other players."""

    seat: Seat
    chosen: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        if self.pc == 1:
            if got == PASS_ACTION:
                self.pc = 2
            else:
                self.chosen += (first(got),)
        if self.pc == 0:
            self.pc = 1
        if self.pc == 1:
            if len(self.chosen) < 2:
                legal = [act(TARGET, t) for t in st.living if t != seat and t not in self.chosen and st.hands[t]]
                if legal:
                    if self.chosen:
                        legal.append(PASS_ACTION)
                    return st.ask(seat, legal, (P_TARGET, _SKILL["tuxi"], 0, 0))
            self.pc = 2
        while self.at < len(self.chosen):  # pc 2: take the cards
            target = self.chosen[self.at]
            self.at += 1
            if st.hands[target]:
                card = st.random_hand_card(target)
                if (f := lose(st, target, [card], st.hands[seat], 1 << seat | 1 << target)) is not None:
                    return f
        return st.done()


# -- play-phase skills --------------------------------------------------------------------------------
@dataclass(eq=False, repr=False)
class Active(Frame):
    """A play-phase skill (or 丈八蛇矛) chosen from the play options."""

    seat: Seat
    effect: int
    a: int
    b: int
    cards: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:  # noqa: C901 - one branch per skill
        seat, a, b = self.seat, self.a, self.b
        slug = EFFECT_SLUGS[self.effect]
        if self.pc == 9:
            return st.done()
        if self.pc == 0:
            st.counts["skills_used"] += 1
            self.pc = 1
            if slug == "zhangba":
                return ZhangbaCards(seat)
            if slug == "jijiang":  # the lord's 殺 at `a`, played by a 蜀 player for him
                self.pc = 2
                return AskKingdom(seat, "蜀", SHA_ANSWER, (P_SHA, a, SHA, seat + 1))
            if slug in ("zhiheng", "fanjian", "jieyin", "qingnang", "lijian"):
                st.once = st.once | {slug}
            if slug == "rende":
                if (f := lose(st, seat, [a], st.hands[b], 1 << seat | 1 << b)) is not None:
                    return f
            elif slug == "zhiheng":
                self.pc = 9
                return Zhiheng(seat)
            elif slug == "kurou":
                if (f := lose_hp(st, seat, 1)) is not None:
                    return f
            elif slug == "fanjian":
                self.pc = 9
                return Fanjian(seat, a)
            elif slug == "jieyin":
                return ChooseDiscards(seat, 2, True, reason=self.effect)
            elif slug == "qingnang":
                return ChooseDiscards(seat, 1, True, reason=self.effect)
            elif slug == "lijian":
                return ChooseDiscards(seat, 1, False, reason=self.effect)
        if self.pc == 2:  # 激将: a 蜀 player's answer, or none
            if got is None:
                st.once = st.once | {slug}  # nobody would: not asked again this play phase
                return st.done()
            helper, reply = got
            self.pc = 1
            if reply == TRIG["zhangba"]:
                return ZhangbaCards(helper)
            got = self.cards = (first(reply),)
            f = lose(st, helper, got, st.proc)
            if f is not None:
                self.pc = 3
                return f
        if self.pc == 3:
            got = self.cards
        # pc 1: the cost is paid
        self.pc = 9
        if slug == "jijiang":
            count_sha(st)
            return Sha(seat, got, (a,))
        if slug == "zhangba":
            count_sha(st)
            return Sha(seat, got, (a,))
        if slug == "rende":
            st.rende_given += 1
            if st.rende_given == 2:
                recover(st, seat)
        elif slug == "kurou":
            draw(st, seat, 2)
        elif slug == "jieyin":
            recover(st, seat)
            recover(st, a)
        elif slug == "qingnang":
            recover(st, a)
        elif slug == "lijian" and st.alive[a] and st.alive[b]:
            return Juedou(b, a, (), cancellable=False)
        return st.done()


@dataclass(eq=False, repr=False)
class Zhiheng(Frame):
    """制衡: discard any number of cards (at least one), then draw as many."""

    seat: Seat
    chosen: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        if self.pc == 2:
            draw(st, seat, len(self.chosen))
            return st.done()
        if self.pc == 1 and got != PASS_ACTION:
            self.chosen += (first(got),)
        if self.pc == 0 or got != PASS_ACTION:
            self.pc = 1
            legal = [act(DISCARD, c) for c in st.owned(seat) if c not in self.chosen]
            if self.chosen:
                legal.append(PASS_ACTION)
            if legal:
                return st.ask(seat, legal, (P_COST, _SKILL["zhiheng"], len(self.chosen), 0))
        self.pc = 2
        if (f := lose(st, seat, self.chosen, st.discard)) is not None:
            return f
        draw(st, seat, len(self.chosen))
        return st.done()


@dataclass(eq=False, repr=False)
class Fanjian(Frame):
    """反間: the target names a suit, takes one of the user's hand cards at random; another suit: 1 damage."""

    seat: Seat
    target: Seat
    named: int = 0
    card: int = -1

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat, target = self.seat, self.target
        if self.pc == 0:
            self.pc = 1
            return st.ask(target, [act(OPTION, s) for s in range(4)], (P_OPTION, _SKILL["fanjian"], seat, 0))
        if self.pc == 1:
            self.named = first(got)
            if not st.hands[seat]:
                return st.done()
            self.card = st.random_hand_card(seat)  # shown to all: the suit named is checked against it
            self.pc = 2
            if (f := lose(st, seat, [self.card], st.hands[target], EVERYONE)) is not None:
                return f
        if self.pc == 2:
            self.pc = 3
            if st.suit[self.card] != self.named:
                if (f := damage(st, target, seat, 1)) is not None:
                    return f
        return st.done()
