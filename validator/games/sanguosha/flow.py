"""三国殺 (sanguosha): the rules steps every card and skill builds on — cards moving (and 連営 梟姫 on
losing them), judgements (鬼才 天妬), the answers (閃 殺 and the lord's 護駕 激将), 無懈可撃 windows (集智),
discards — as frames of the decision stack (stack.py).

A function here that returns `Frame | None` starts a step: a Frame when the step must wait for a player
(the caller returns it, and gets the step's result back as `got`), None when it finished at once, its
result then in `st.ret` — the caller writes `if (f := lose(...)) is not None: return f` and reads
`st.ret` where it needs the result. Most steps finish at once (no 連営 to offer, no 無懈可撃 in any hand), and
building no frame for them keeps a playout fast.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .options import ANSWER_OPTIONS, TRIG, lord_may_ask, sha_options, shan_options
from .rules import (
    BAGUA,
    DISCARD,
    EFFECT_INDEX,
    NONE,
    P_DISCARD,
    P_SHA,
    P_SHAN,
    P_TRIGGER,
    P_WUXIE,
    PASS_ACTION,
    RED,
    RESPOND,
    WUXIE,
    act,
    first,
)
from .stack import Frame, Got

if TYPE_CHECKING:
    from .state import SanguoshaState

DRAW, JUDGE, LOOK = range(3)  # why a card leaves the deck: drawn, turned up for all, looked at by one
EVERYONE = -1                 # a `known` mask: the whole table saw the card go into the hand
SHAN_ANSWER, SHA_ANSWER = range(2)  # ANSWER_OPTIONS index for AskKingdom
_GUICAI = EFFECT_INDEX["guicai"]
_ZHANGBA = EFFECT_INDEX["zhangba"]


# -- optional effects -----------------------------------------------------------------------------------
def offer(st: SanguoshaState, seat: Seat, slug: str, context: int = NONE) -> Frame:
    """Ask `seat` whether to activate an optional skill or equipment effect (see `accepted`)."""
    return st.ask(seat, [TRIG[slug], PASS_ACTION], (P_TRIGGER, EFFECT_INDEX[slug], context, 0))


def accepted(st: SanguoshaState, got: Got) -> bool:
    """Whether the answer to `offer` activates the effect (counted as a skill used)."""
    if got != PASS_ACTION:
        st.counts["skills_used"] += 1
        return True
    return False


# -- setup ----------------------------------------------------------------------------------------------
def pick(st: SanguoshaState, seat: Seat, general: int) -> None:
    """The seat takes `general`: its skills (主公技 for the lord only) and HP (+1 for a lord at 5 or more)."""
    gens = st.gens
    st.general[seat] = general
    skills = gens.skills[general]
    if not st.is_lord(seat):
        skills = frozenset(s for s in skills if s not in ("hujia", "jijiang", "jiuyuan"))
    st.skills[seat] = skills
    hp = gens.hp[general]
    if st.is_lord(seat) and st.n >= st.rules.lord_extra_hp_min_players:
        hp += st.rules.lord_extra_hp
    st.hp[seat] = st.max_hp[seat] = hp


# -- cards moving ---------------------------------------------------------------------------------------
def top(st: SanguoshaState) -> int:
    """The deck's top card, taken off (the discard pile is shuffled in when the deck is empty); -1 if none."""
    if not st.deck:
        if not st.discard:
            return -1
        st.deck, st.discard = st.discard, []
        for card in st.deck:  # nobody knows where a reshuffled card lies
            st.known[card] = 0
        st.shuffle(st.deck)
        st.counts["reshuffles"] += 1
    return st.deck.pop()


def draw(st: SanguoshaState, seat: Seat, count: int) -> None:
    hand, known, mask = st.hands[seat], st.known, 1 << seat
    for _ in range(count):
        card = top(st)
        if card < 0:
            return
        hand.append(card)
        known[card] |= mask  # the drawer, and whoever knew it lay on top (観星)
        st.counts["cards_drawn"] += 1


def to_hand(st: SanguoshaState, seat: Seat, card: int, mask: int) -> None:
    """A card goes into the seat's hand, known there to the seats of `mask` (bits; EVERYONE)."""
    st.hands[seat].append(card)
    st.known[card] = mask


def take_out(st: SanguoshaState, seat: Seat, card: int) -> bool:
    """Remove a card from the seat's hand or equipment; True when it was equipment."""
    hand = st.hands[seat]
    if card in hand:
        hand.remove(card)
        return False
    equip = st.equip[seat]
    equip[equip.index(card)] = -1
    return True


def lose(st: SanguoshaState, seat: Seat, cards: Sequence[int], dest: list[int], mask: int = 0) -> Frame | None:
    """Cards leave the seat's hand or equipment for `dest` (a hand: known there to `mask`); then 連営
    and 梟姫 may trigger."""
    had = bool(st.hands[seat])
    equipment = 0
    known = st.known
    for card in cards:
        equipment += take_out(st, seat, card)
        dest.append(card)
        if mask:
            known[card] = mask
    if not st.alive[seat]:
        return None
    sk = st.skills[seat]
    lianying = had and not st.hands[seat] and "lianying" in sk
    xiaoji = equipment if "xiaoji" in sk else 0
    return LoseTriggers(seat, lianying, xiaoji) if lianying or xiaoji else None


@dataclass(eq=False, repr=False)
class LoseTriggers(Frame):
    """連営 (the last hand card lost: draw one) and 梟姫 (each equipment card lost: draw two)."""

    seat: Seat
    lianying: bool
    xiaoji: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 1
                if self.lianying:
                    return offer(st, self.seat, "lianying")
                continue
            if pc == 1:
                if self.lianying and accepted(st, got):
                    draw(st, self.seat, 1)
                self.pc = 2
            if self.pc == 2:
                if self.xiaoji <= 0:
                    return st.done()
                self.xiaoji -= 1
                self.pc = 3
                return offer(st, self.seat, "xiaoji")
            if accepted(st, got):  # pc 3
                draw(st, self.seat, 2)
            self.pc = 2


def to_discard(st: SanguoshaState, cards: Sequence[int]) -> None:
    """Cards still in the processing zone go to the discard pile."""
    proc = st.proc
    for card in cards:
        if card in proc:
            proc.remove(card)
            st.discard.append(card)


@dataclass(eq=False, repr=False)
class ChooseDiscards(Frame):
    """The seat discards `count` of its own cards, one decision each (never `keep`); returns them."""

    seat: Seat
    count: int
    hand_only: bool
    keep: int = -1
    reason: int = 0
    chosen: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            if self.pc == 1:
                card = first(got)
                self.chosen += (card,)
                self.count -= 1
                self.pc = 0
                if (f := lose(st, seat, [card], st.discard)) is not None:
                    return f
            if self.count <= 0:
                return st.done(self.chosen)
            pool = st.hands[seat] if self.hand_only else st.owned(seat)
            legal = [act(DISCARD, c) for c in pool if c != self.keep]
            if not legal:
                return st.done(self.chosen)
            self.pc = 1
            return st.ask(seat, legal, (P_DISCARD, self.count, self.reason, 0))


# -- judgement -------------------------------------------------------------------------------------------
def judge(st: SanguoshaState, seat: Seat) -> Frame | None:
    """Turn up a judgement card for `seat` (鬼才 may replace it); it stays in processing until `judged`.
    The card (-1 when none is left) is the result."""
    st.counts["judgements"] += 1
    card = top(st)
    if card < 0:
        return st.done(-1)
    st.proc.append(card)
    if any("guicai" in st.skills[owner] and st.hands[owner] for owner in st.living):
        return Judge(seat, card, tuple(st.living))
    return st.done(card)


@dataclass(eq=False, repr=False)
class Judge(Frame):
    """鬼才: before a judgement takes effect, its owner may play a hand card to replace the judgement card."""

    seat: Seat
    card: int
    owners: tuple[Seat, ...]
    at: int = 0
    new: int = -1

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            if self.pc == 1:
                self.pc = 0
                if got != PASS_ACTION:
                    st.counts["skills_used"] += 1
                    self.new = first(got)
                    self.pc = 2
                    if (f := lose(st, self.owners[self.at - 1], [self.new], st.proc)) is not None:
                        return f
            if self.pc == 2:
                to_discard(st, [self.card])
                self.card = self.new
                self.pc = 0
            while self.at < len(self.owners):
                owner = self.owners[self.at]
                self.at += 1
                if "guicai" in st.skills[owner] and st.hands[owner]:
                    legal = [act(RESPOND, c) for c in st.hands[owner]]
                    legal.append(PASS_ACTION)
                    self.pc = 1
                    return st.ask(owner, legal, (P_TRIGGER, _GUICAI, self.seat, self.card))
            return st.done(self.card)


def judged(st: SanguoshaState, seat: Seat, card: int) -> Frame | None:
    """After the judgement took effect: 天妬 may keep the card, else it is discarded."""
    if card < 0 or card not in st.proc:
        return None
    if st.alive[seat] and "tiandu" in st.skills[seat]:
        return Judged(seat, card)
    to_discard(st, [card])
    return None


@dataclass(eq=False, repr=False)
class Judged(Frame):
    """天妬: the judged card may go into its owner's hand."""

    seat: Seat
    card: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            return offer(st, self.seat, "tiandu")
        if accepted(st, got):
            st.proc.remove(self.card)
            to_hand(st, self.seat, self.card, EVERYONE)
        else:
            to_discard(st, [self.card])
        return st.done()


# -- answers -----------------------------------------------------------------------------------------------
@dataclass(eq=False, repr=False)
class AskKingdom(Frame):
    """護駕 and 激将: the other players of `kingdom`, in seat order from `seat`, are each asked once to play
    a card for the lord; returns (helper, action) for the first who does, or None when all pass."""

    seat: Seat
    kingdom: str
    answers: int                      # ANSWER_OPTIONS index: what the helpers may play
    prompt: tuple[int, int, int, int]
    helpers: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.helpers = tuple(st.order_from(self.seat)[1:])
            self.pc = 1
        elif got != PASS_ACTION:
            return st.done((self.helpers[self.at - 1], got))
        options = ANSWER_OPTIONS[self.answers]
        while self.at < len(self.helpers):
            helper = self.helpers[self.at]
            self.at += 1
            if st.gens.kingdom[st.general[helper]] != self.kingdom:
                continue
            offers: list[Action] = []
            options(st, helper, offers)
            if offers:
                offers.append(PASS_ACTION)
                return st.ask(helper, offers, self.prompt)
        return st.done(None)


@dataclass(eq=False, repr=False)
class AskShan(Frame):
    """One 閃 asked of `seat` (cards, 傾国, 竜胆, 八卦陣, 護駕); returns whether one was played."""

    seat: Seat
    source: Seat
    armour: bool
    cause: int
    bagua: bool = False
    hujia: bool = False
    red: bool = False
    cards: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                self.bagua = self.armour and st.armor(seat) == BAGUA
                self.hujia = lord_may_ask(st, seat, "hujia", "魏")
                pc = self.pc = 1
            if pc == 1:  # ask
                legal: list[Action] = []
                shan_options(st, seat, legal)
                if self.bagua:
                    legal.append(TRIG["bagua"])
                if self.hujia:
                    legal.append(TRIG["hujia"])
                if not legal:
                    return st.done(False)
                legal.append(PASS_ACTION)
                self.pc = 2
                return st.ask(seat, legal, (P_SHAN, self.source, self.cause, 0))
            if pc == 2:  # the answer
                if got == PASS_ACTION:
                    return st.done(False)
                if got == TRIG["bagua"]:
                    self.bagua = False
                    self.pc = 3
                    if (f := judge(st, seat)) is not None:
                        return f
                    got = st.ret
                    continue
                if got == TRIG["hujia"]:
                    self.hujia = False
                    st.counts["skills_used"] += 1
                    self.pc = 5
                    return AskKingdom(seat, "魏", SHAN_ANSWER, (P_SHAN, self.source, self.cause, seat + 1))
                self.cards = (first(got),)
                self.pc = 7
                if (f := lose(st, seat, self.cards, st.proc)) is not None:
                    return f
                continue
            if pc == 3:  # 八卦陣's judgement
                self.red = got >= 0 and st.color[got] == RED
                self.pc = 4
                if (f := judged(st, seat, got)) is not None:
                    return f
                continue
            if pc == 4:
                if self.red:
                    st.counts["shan_played"] += 1
                    return st.done(True)
                self.pc = 1
                continue
            if pc == 5:  # 護駕's answer
                if got is None:
                    self.pc = 1
                    continue
                helper, reply = got
                self.cards = (first(reply),)
                self.pc = 7
                if (f := lose(st, helper, self.cards, st.proc)) is not None:
                    return f
                continue
            to_discard(st, self.cards)  # pc 7
            st.counts["shan_played"] += 1
            return st.done(True)


@dataclass(eq=False, repr=False)
class ZhangbaCards(Frame):
    """丈八蛇矛: two hand cards chosen one at a time, moved to processing; returns them."""

    seat: Seat
    cards: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 2:
            return st.done(self.cards)
        if self.pc == 1:
            self.cards += (first(got),)
        if len(self.cards) < 2:
            self.pc = 1
            legal = [act(DISCARD, c) for c in st.hands[self.seat] if c not in self.cards]
            return st.ask(self.seat, legal, (P_DISCARD, 2 - len(self.cards), _ZHANGBA, 0))
        self.pc = 2
        if (f := lose(st, self.seat, self.cards, st.proc)) is not None:
            return f
        return st.done(self.cards)


@dataclass(eq=False, repr=False)
class AskSha(Frame):
    """One 殺 asked of `seat` (cards, 武聖, 竜胆, 丈八蛇矛, 激将); returns the cards now in processing, or None."""

    seat: Seat
    opponent: Seat
    cause: int
    jijiang: bool = False
    cards: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                self.jijiang = lord_may_ask(st, seat, "jijiang", "蜀")
                pc = self.pc = 1
            if pc == 1:  # ask
                legal: list[Action] = []
                sha_options(st, seat, legal)
                if self.jijiang:
                    legal.append(TRIG["jijiang"])
                if not legal:
                    return st.done(None)
                legal.append(PASS_ACTION)
                self.pc = 2
                return st.ask(seat, legal, (P_SHA, self.opponent, self.cause, 0))
            if pc == 2:  # the answer
                if got == PASS_ACTION:
                    return st.done(None)
                if got == TRIG["zhangba"]:
                    self.pc = 9
                    return ZhangbaCards(seat)
                if got == TRIG["jijiang"]:
                    self.jijiang = False
                    st.counts["skills_used"] += 1
                    self.pc = 3
                    return AskKingdom(seat, "蜀", SHA_ANSWER, (P_SHA, self.opponent, self.cause, seat + 1))
                return self._play(st, seat, got)
            if pc == 3:  # 激将's answer
                if got is None:
                    self.pc = 1
                    continue
                helper, reply = got
                if reply == TRIG["zhangba"]:
                    self.pc = 9
                    return ZhangbaCards(helper)
                return self._play(st, helper, reply)
            if pc == 8:  # the played card is in processing
                return st.done(self.cards)
            return st.done(got)  # pc 9: 丈八蛇矛's two cards

    def _play(self, st: SanguoshaState, seat: Seat, action: Action) -> Frame | None:
        self.cards = (first(action),)
        self.pc = 8
        if (f := lose(st, seat, self.cards, st.proc)) is not None:
            return f
        return st.done(self.cards)


# -- 無懈可撃 --------------------------------------------------------------------------------------------------
def wuxie(st: SanguoshaState, user: Seat, target: Seat, trick: int) -> Frame | None:
    """The 無懈可撃 window for one target of a trick; the result: whether its effect there is cancelled."""
    kind = st.kind
    for seat in st.living:
        for c in st.hands[seat]:
            if kind[c] == WUXIE:
                return Wuxie(user, target, trick)
    return st.done(False)


@dataclass(eq=False, repr=False)
class Wuxie(Frame):
    """Everyone holding 無懈可撃 is asked in seat order from the turn player; after one is played (集智 may
    draw), everyone is asked again; returns whether the effect is cancelled."""

    user: Seat
    target: Seat
    trick: int
    cancelled: bool = False
    order: tuple[Seat, ...] = ()
    at: int = 0
    card: int = -1

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:  # a new round of asking
                self.order = tuple(st.order_from(st.turn_player))
                self.at = 0
                pc = self.pc = 1
            if pc == 1:
                kind = st.kind
                while self.at < len(self.order):
                    seat = self.order[self.at]
                    self.at += 1
                    legal = [act(RESPOND, c) for c in st.hands[seat] if kind[c] == WUXIE]
                    if not legal:
                        continue
                    legal.append(PASS_ACTION)
                    packed = int(self.cancelled) << 7 | (self.user if self.user >= 0 else 127)
                    self.pc = 2
                    return st.ask(seat, legal, (P_WUXIE, self.target, self.trick, packed))
                return st.done(self.cancelled)
            seat = self.order[self.at - 1]
            if pc == 2:
                if got == PASS_ACTION:
                    self.pc = 1
                    continue
                self.card = first(got)
                self.pc = 3
                if (f := lose(st, seat, [self.card], st.proc)) is not None:
                    return f
                continue
            if pc == 3:
                st.counts["wuxie_played"] += 1
                self.pc = 4
                if (f := jizhi(st, seat)) is not None:
                    return f
                continue
            to_discard(st, [self.card])  # pc 4
            self.cancelled = not self.cancelled
            self.pc = 0


def jizhi(st: SanguoshaState, seat: Seat) -> Frame | None:
    """集智: using a non-delayed trick, its user may draw a card."""
    return Jizhi(seat) if "jizhi" in st.skills[seat] else None


@dataclass(eq=False, repr=False)
class Jizhi(Frame):
    seat: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            return offer(st, self.seat, "jizhi")
        if accepted(st, got):
            draw(st, self.seat, 1)
        return st.done()


def recover(st: SanguoshaState, seat: Seat, amount: int = 1) -> None:
    if st.alive[seat]:
        before = st.hp[seat]
        st.hp[seat] = min(st.max_hp[seat], before + amount)
        st.counts["healed"] += st.hp[seat] - before
