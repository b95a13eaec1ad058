"""三国殺 (sanguosha): what each playing card does when used — 殺 with every weapon and armour effect (and
the 殺 skills 流離 鉄騎), 桃, the tricks (each target behind its own 無懈可撃 window), delayed tricks and
equipment — as frames of the decision stack.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .damage import damage
from .flow import (
    EVERYONE,
    AskSha,
    AskShan,
    ChooseDiscards,
    accepted,
    draw,
    jizhi,
    judge,
    judged,
    lose,
    offer,
    recover,
    to_discard,
    to_hand,
    top,
    wuxie,
)
from .options import sha_targets, targetable
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
    RED,
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
from .stack import Frame, Got

if TYPE_CHECKING:
    from .state import SanguoshaState

_LIULI, _FANGTIAN, _QILIN = EFFECT_INDEX["liuli"], EFFECT_INDEX["fangtian"], EFFECT_INDEX["qilin"]
_GUANSHI = EFFECT_INDEX["guanshi"]


@dataclass(eq=False, repr=False)
class Use(Frame):
    """`user` uses `cards` as a card of slug index `k` on targets t1, t2 (NONE when not needed)."""

    user: Seat
    k: int
    cards: tuple[int, ...]
    t1: int = NONE
    t2: int = NONE
    last: bool = False

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        user, k, cards = self.user, self.k, self.cards
        while True:
            pc = self.pc
            if pc == 0:
                hand = st.hands[user]
                self.last = len(hand) == len(cards) and all(c in hand for c in cards)  # 方天画戟: the last card(s)
                self.pc = 1
                if (f := lose(st, user, cards, st.proc)) is not None:
                    return f
                continue
            if pc == 1:
                self.pc = 9
                if k == SHA:
                    count_sha(st)
                    if self.last and st.weapon(user) == FANGTIAN:
                        self.pc = 2
                        return FangtianTargets(user, self.t1)
                    return Sha(user, cards, (self.t1,))
                if k == TAO:
                    recover(st, user)
                elif st.cards.slot[cards[0]] >= 0 and k == st.kind[cards[0]]:
                    if (f := equip(st, user, cards[0])) is not None:
                        return f
                elif k == LEBU or k == SHANDIAN:
                    target = user if k == SHANDIAN else self.t1
                    st.proc.remove(cards[0])
                    st.judge[target].append(cards[0])
                    st.judge_as[cards[0]] = k
                else:
                    st.counts["tricks_used"] += 1
                    self.pc = 3
                    if (f := jizhi(st, user)) is not None:
                        return f
                continue
            if pc == 2:  # 方天画戟's extra targets chosen
                self.pc = 9
                return Sha(user, cards, (self.t1, *got))
            if pc == 3:
                self.pc = 9
                if (f := trick(st, user, k, cards, self.t1, self.t2)) is not None:
                    return f
                continue
            to_discard(st, cards)  # pc 9
            return st.done()


def count_sha(st: SanguoshaState) -> None:
    """A 殺 used in the play phase counts against the per-turn limit (beyond it only by 諸葛連弩 or 咆哮)."""
    st.sha_used += 1
    st.sha_in_play = True
    st.counts["sha_used"] += 1
    if st.sha_used > st.rules.sha_per_turn:
        st.zhuge_used = True


def trick(st: SanguoshaState, user: Seat, k: int, cards: tuple[int, ...], t1: int, t2: int) -> Frame | None:
    if k == JUEDOU:
        return Juedou(user, t1, cards)
    if k == GUOHE or k == SHUNSHOU:
        return TakeAfterWuxie(user, t1, k)
    if k == WUZHONG:
        return Wuzhong(user)
    if k == NANMAN or k == WANJIAN:
        return MassAttack(user, k, cards)
    if k == TAOYUAN:
        return Taoyuan(user)
    if k == WUGU:
        return Wugu(user)
    if k == JIEDAO:
        return Jiedao(user, t1, t2)
    return None


def equip(st: SanguoshaState, seat: Seat, card: int) -> Frame | None:
    """The card (in processing) goes into its slot; the card it replaces is discarded first (梟姫)."""
    old = st.equip[seat][st.cards.slot[card]]
    if old >= 0:
        return Equip(seat, card, old)
    st.proc.remove(card)
    st.equip[seat][st.cards.slot[card]] = card
    return None


@dataclass(eq=False, repr=False)
class Equip(Frame):
    seat: Seat
    card: int
    old: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            if (f := lose(st, self.seat, [self.old], st.discard)) is not None:
                return f
        st.proc.remove(self.card)
        st.equip[self.seat][st.cards.slot[self.card]] = self.card
        return st.done()


@dataclass(eq=False, repr=False)
class FangtianTargets(Frame):
    """方天画戟: up to two more targets when the 殺 was the last hand card; returns them."""

    user: Seat
    chosen: Seat
    extra: tuple[Seat, ...] = ()
    candidates: tuple[Seat, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.candidates = tuple(t for t in sha_targets(st, self.user) if t != self.chosen)
            self.pc = 1
        elif got == PASS_ACTION:
            return st.done(self.extra)
        else:
            self.extra += (first(got),)
            self.candidates = tuple(t for t in self.candidates if t != first(got))
        if len(self.extra) < 2 and self.candidates:
            legal = [act(TARGET, t) for t in self.candidates] + [PASS_ACTION]
            return st.ask(self.user, legal, (P_TARGET, _FANGTIAN, self.chosen, 0))
        return st.done(self.extra)


def colour(st: SanguoshaState, cards: Sequence[int]) -> int:
    colours = {st.color[c] for c in cards}
    return colours.pop() if len(colours) == 1 else NO_COLOR


@dataclass(eq=False, repr=False)
class Sha(Frame):
    """A 殺 at each target in turn (while the user and the target live)."""

    user: Seat
    cards: tuple[int, ...]
    targets: tuple[Seat, ...]
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while self.at < len(self.targets):
            target = self.targets[self.at]
            self.at += 1
            if st.alive[target] and st.alive[self.user]:
                return ShaOne(self.user, target, self.cards, colour(st, self.cards))
        to_discard(st, self.cards)
        return st.done()


@dataclass(eq=False, repr=False)
class ShaOne(Frame):
    """One 殺 at one target: 流離, 雌雄双股剣, 鉄騎, armour, 閃 (twice against 無双), 青龍偃月刀, 貫石斧,
    寒氷剣, 麒麟弓, then the damage."""

    user: Seat
    target: Seat
    cards: tuple[int, ...]
    tint: int
    weapon: int = -1
    undodgeable: bool = False
    armour: bool = True
    need: int = 0
    left: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:  # noqa: C901 - the 殺's steps in order
        user = self.user
        while True:
            pc = self.pc
            if pc == 0:  # 流離
                self.pc = 1
                if "liuli" in st.skills[self.target]:
                    if (f := liuli(st, user, self.target)) is not None:
                        return f
                    got = st.ret
                else:
                    got = self.target
                continue
            if pc == 1:  # 雌雄双股剣
                self.target = target = got
                self.weapon = st.weapon(user)
                self.pc = 3
                if self.weapon == CIXIONG and st.gens.male[st.general[user]] != st.gens.male[st.general[target]]:
                    self.pc = 2
                    return offer(st, user, "cixiong", target)
                continue
            if pc == 2:
                self.pc = 3
                if accepted(st, got):
                    return Cixiong(user, self.target)
                continue
            if pc == 3:  # 鉄騎
                self.pc = 4
                if "tieji" in st.skills[user]:
                    return Tieji(user, self.target)
                got = False
                continue
            if pc == 4:  # armour, then 閃
                self.undodgeable = got
                self.armour = self.weapon != QINGGANG
                if self.armour and self.tint == BLACK and st.armor(self.target) == RENWANG:
                    return st.done()
                if self.undodgeable:
                    self.pc = 20
                    continue
                self.need = 2 if "wushuang" in st.skills[user] else 1
                self.pc = 5
                continue
            if pc == 5:
                if self.need <= 0:  # dodged every time
                    self.weapon = st.weapon(user)
                    self.pc = 7
                    if self.weapon == QINGLONG and st.alive[self.target]:
                        self.pc = 6
                        return Qinglong(user, self.target)
                    continue
                self.need -= 1
                self.pc = 10
                return AskShan(self.target, user, self.armour, SHA)
            if pc == 10:
                self.pc = 5 if got else 20
                continue
            if pc == 6:
                if got:
                    return st.done()
                self.pc = 7
                continue
            if pc == 7:  # 貫石斧
                if self.weapon == GUANSHI:
                    self.pc = 8
                    return Guanshi(user)
                return st.done()
            if pc == 8:
                if not got:
                    return st.done()
                self.pc = 20
                continue
            if pc == 20:  # the 殺 hits: 寒氷剣, 麒麟弓, damage
                target = self.target
                if not st.alive[target]:
                    return st.done()
                self.weapon = st.weapon(user)
                self.pc = 23
                if self.weapon == HANBING and st.has_cards(target):
                    self.pc = 21
                    return offer(st, user, "hanbing", target)
                continue
            if pc == 21:
                self.pc = 23
                if accepted(st, got):
                    self.left = 2
                    self.pc = 22
                continue
            if pc == 22:
                if self.left <= 0:
                    return st.done()
                self.left -= 1
                if st.has_cards(self.target):
                    return TakeCard(user, self.target, False, False)
                continue
            if pc == 23:
                target = self.target
                self.pc = 25
                if self.weapon == QILIN and (st.equip[target][PLUS_SLOT] >= 0 or st.equip[target][MINUS_SLOT] >= 0):
                    horses = [c for c in (st.equip[target][PLUS_SLOT], st.equip[target][MINUS_SLOT]) if c >= 0]
                    legal = [act(PICK, c) for c in horses] + [PASS_ACTION]
                    self.pc = 24
                    return st.ask(user, legal, (P_PICK, target, 0, _QILIN))
                continue
            if pc == 24:
                self.pc = 25
                if got != PASS_ACTION:
                    if (f := lose(st, self.target, [first(got)], st.discard)) is not None:
                        return f
                continue
            if pc == 25:
                bonus = int(st.luoyi and user == st.turn_player)
                self.pc = 26
                if (f := damage(st, self.target, user, 1 + bonus, self.cards)) is not None:
                    return f
            return st.done()  # pc 26


def liuli(st: SanguoshaState, user: Seat, target: Seat) -> Frame | None:
    """流離: the target of a 殺 may discard a card to pass the 殺 to another player in its attack range;
    the result is the 殺's target."""
    if st.has_cards(target):
        reach = st.attack_range(target)
        others = tuple(t for t in st.living
                       if t not in (user, target) and st.dist(target, t) <= reach and targetable(st, t))
        if others:
            return Liuli(user, target, others)
    return st.done(target)


@dataclass(eq=False, repr=False)
class Liuli(Frame):
    user: Seat
    target: Seat
    others: tuple[Seat, ...]
    to: Seat = -1

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            legal = [act(TARGET, t) for t in self.others] + [PASS_ACTION]
            return st.ask(self.target, legal, (P_TARGET, _LIULI, self.user, 0))
        if self.pc == 1:
            if got == PASS_ACTION:
                return st.done(self.target)
            st.counts["skills_used"] += 1
            self.to = first(got)
            self.pc = 2
            return ChooseDiscards(self.target, 1, False, reason=_LIULI)
        return st.done(self.to)


@dataclass(eq=False, repr=False)
class Tieji(Frame):
    """鉄騎: judge after targeting; red makes the 殺 undodgeable (the result)."""

    user: Seat
    target: Seat
    red: bool = False

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 1
                return offer(st, self.user, "tieji", self.target)
            if pc == 1:
                if not accepted(st, got):
                    return st.done(False)
                self.pc = 2
                if (f := judge(st, self.user)) is not None:
                    return f
                got = st.ret
                continue
            if pc == 2:
                self.red = got >= 0 and st.color[got] == RED
                self.pc = 3
                if (f := judged(st, self.user, got)) is not None:
                    return f
            return st.done(self.red)


@dataclass(eq=False, repr=False)
class Cixiong(Frame):
    """雌雄双股剣: the target discards a hand card or lets the user draw one."""

    user: Seat
    target: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            legal: list[Action] = [act(PICK, c) for c in st.hands[self.target]]
            legal.append(act(OPTION, 0))
            self.pc = 1
            return st.ask(self.target, legal, (P_OPTION, EFFECT_INDEX["cixiong"], self.user, 0))
        if self.pc == 1:
            self.pc = 2
            if got == act(OPTION, 0):
                draw(st, self.user, 1)
            else:
                if (f := lose(st, self.target, [first(got)], st.discard)) is not None:
                    return f
        return st.done()


@dataclass(eq=False, repr=False)
class Qinglong(Frame):
    """青龍偃月刀: after a 閃, the user may use another 殺 on the same target; returns whether it did."""

    user: Seat
    target: Seat
    got: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            return AskSha(self.user, self.target, QINGLONG)
        if self.pc == 1:
            if got is None:
                return st.done(False)
            self.got = got
            st.sha_in_play = st.sha_in_play or self.user == st.turn_player
            st.counts["skills_used"] += 1
            self.pc = 2
            return ShaOne(self.user, self.target, got, colour(st, got))
        to_discard(st, self.got)
        return st.done(True)


@dataclass(eq=False, repr=False)
class Guanshi(Frame):
    """貫石斧: discard two cards (not the axe) to make a dodged 殺 hit; returns whether it did."""

    user: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            if len(st.owned(self.user)) < 3:
                return st.done(False)
            self.pc = 1
            return offer(st, self.user, "guanshi")
        if self.pc == 1:
            if not accepted(st, got):
                return st.done(False)
            self.pc = 2
            axe = st.equip[self.user][WEAPON_SLOT]
            return ChooseDiscards(self.user, 2, False, keep=axe, reason=_GUANSHI)
        return st.done(True)


@dataclass(eq=False, repr=False)
class TakeCard(Frame):
    """過河拆橋 / 順手牽羊 / 寒氷剣: the user picks a card of the target (a hand card at random)."""

    user: Seat
    target: Seat
    steal: bool
    judge_area: bool

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        user, target = self.user, self.target
        if self.pc == 0:
            legal: list[Action] = [act(PICK, HAND, target)] if st.hands[target] else []
            legal += [act(PICK, c, target) for c in st.equip[target] if c >= 0]
            if self.judge_area:
                legal += [act(PICK, c, target) for c in st.judge[target]]
            if not legal:
                return st.done()
            self.pc = 1
            return st.ask(user, legal, (P_PICK, target, int(self.steal), NONE))
        if self.pc == 1:
            self.pc = 2
            card = first(got)
            mask = EVERYONE
            if card == HAND:
                card = st.random_hand_card(target)
                mask = 1 << user | 1 << target
            if card in st.judge[target]:
                st.judge[target].remove(card)
                del st.judge_as[card]
                if self.steal:
                    to_hand(st, user, card, EVERYONE)
                else:
                    st.discard.append(card)
            else:
                f = lose(st, target, [card], st.hands[user] if self.steal else st.discard, mask if self.steal else 0)
                if f is not None:
                    return f
        return st.done()


@dataclass(eq=False, repr=False)
class TakeAfterWuxie(Frame):
    """過河拆橋 / 順手牽羊 at one target, unless a 無懈可撃 cancels it."""

    user: Seat
    target: Seat
    k: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            if (f := wuxie(st, self.user, self.target, self.k)) is not None:
                return f
            got = st.ret
        if self.pc == 1:
            self.pc = 2
            if not got and st.alive[self.target]:
                return TakeCard(self.user, self.target, self.k == SHUNSHOU, True)
        return st.done()


@dataclass(eq=False, repr=False)
class Wuzhong(Frame):
    """無中生有: draw two, unless a 無懈可撃 cancels it."""

    user: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            if (f := wuxie(st, self.user, self.user, WUZHONG)) is not None:
                return f
            got = st.ret
        if not got:
            draw(st, self.user, 2)
        return st.done()


@dataclass(eq=False, repr=False)
class Taoyuan(Frame):
    """桃園結義: every wounded player from the user heals 1, each behind its own 無懈可撃 window."""

    user: Seat
    order: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            if self.pc == 0:
                self.order = tuple(st.order_from(self.user))
                self.pc = 1
            elif self.pc == 2:
                if not got:
                    recover(st, self.order[self.at - 1])
                self.pc = 1
            while self.at < len(self.order):
                seat = self.order[self.at]
                self.at += 1
                if st.alive[seat] and st.hp[seat] < st.max_hp[seat]:
                    self.pc = 2
                    if (f := wuxie(st, self.user, seat, TAOYUAN)) is not None:
                        return f
                    got = st.ret
                    break
            else:
                return st.done()


@dataclass(eq=False, repr=False)
class Juedou(Frame):
    """決闘: the target first, each plays 殺 (two against 無双) until one fails and takes 1 from the other."""

    user: Seat
    target: Seat
    cards: tuple[int, ...]
    cancellable: bool = True
    cur: Seat = -1
    other: Seat = -1
    need: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 1
                if self.cancellable:
                    if (f := wuxie(st, self.user, self.target, JUEDOU)) is not None:
                        return f
                    got = st.ret
                else:
                    got = False
                continue
            if pc == 1:
                if got:
                    return st.done()
                self.cur, self.other = self.target, self.user
                pc = self.pc = 2
            if pc == 2:  # a new exchange: cur must answer
                if not (st.alive[self.cur] and st.alive[self.other]):
                    return st.done()
                self.need = 2 if "wushuang" in st.skills[self.other] else 1
                pc = self.pc = 3
            if pc == 3:
                if self.need <= 0:
                    self.cur, self.other = self.other, self.cur
                    self.pc = 2
                    continue
                self.need -= 1
                self.pc = 4
                return AskSha(self.cur, self.other, JUEDOU)
            if pc == 4:
                if got is None:
                    bonus = int(st.luoyi and self.other == self.user == st.turn_player)
                    self.pc = 5
                    if (f := damage(st, self.cur, self.other, 1 + bonus, self.cards)) is not None:
                        return f
                    return st.done()
                to_discard(st, got)
                if self.cur == st.turn_player:
                    st.sha_in_play = True
                self.pc = 3
                continue
            return st.done()  # pc 5


@dataclass(eq=False, repr=False)
class MassAttack(Frame):
    """南蛮入侵 (殺 or 1 damage) / 万箭斉発 (閃 or 1 damage) at every other player from the user's left."""

    user: Seat
    k: int
    cards: tuple[int, ...]
    order: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        user = self.user
        while True:
            pc = self.pc
            if pc == 0:
                self.order = tuple(st.order_from(user)[1:])
                pc = self.pc = 1
            if pc == 1:  # the next seat
                if self.at >= len(self.order):
                    return st.done()
                seat = self.order[self.at]
                self.at += 1
                if not st.alive[seat]:
                    continue
                self.pc = 2
                if (f := wuxie(st, user, seat, self.k)) is not None:
                    return f
                got = st.ret
                pc = 2
            seat = self.order[self.at - 1]
            if pc == 2:
                if got:
                    self.pc = 1
                    continue
                self.pc = 3
                if self.k == NANMAN:
                    return AskSha(seat, user, NANMAN)
                return AskShan(seat, user, True, WANJIAN)
            if pc == 3:
                self.pc = 1
                if self.k == NANMAN:
                    if got is not None:
                        to_discard(st, got)
                        continue
                elif got:
                    continue
                if (f := damage(st, seat, user, 1, self.cards)) is not None:
                    return f


@dataclass(eq=False, repr=False)
class Wugu(Frame):
    """五穀豊登: one card per living player turned up; from the user, each takes one."""

    user: Seat
    shown: tuple[int, ...] = ()
    order: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:
                for _ in range(len(st.living)):
                    card = top(st)
                    if card >= 0:
                        self.shown += (card,)
                        st.proc.append(card)
                self.order = tuple(st.order_from(self.user))
                pc = self.pc = 1
            if pc == 1:  # the next seat
                if self.at >= len(self.order) or not self.shown:
                    to_discard(st, self.shown)
                    return st.done()
                seat = self.order[self.at]
                self.at += 1
                if not st.alive[seat]:
                    continue
                self.pc = 2
                if (f := wuxie(st, self.user, seat, WUGU)) is not None:
                    return f
                got = st.ret
                pc = 2
            seat = self.order[self.at - 1]
            if pc == 2:
                if got:
                    self.pc = 1
                    continue
                self.pc = 3
                return st.ask(seat, [act(PICK, c) for c in self.shown], (P_WUGU, self.user, 0, 0))
            card = first(got)  # pc 3
            self.shown = tuple(c for c in self.shown if c != card)
            st.proc.remove(card)
            to_hand(st, seat, card, EVERYONE)
            self.pc = 1


@dataclass(eq=False, repr=False)
class Jiedao(Frame):
    """借刀殺人: the holder uses 殺 on the victim, or gives the user his weapon."""

    user: Seat
    holder: Seat
    victim: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        user, holder, victim = self.user, self.holder, self.victim
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 1
                if (f := wuxie(st, user, holder, JIEDAO)) is not None:
                    return f
                got = st.ret
                pc = 1
            if pc == 1:
                if got or not st.alive[holder] or st.equip[holder][WEAPON_SLOT] < 0:
                    return st.done()
                if st.alive[victim] and victim in sha_targets(st, holder):
                    self.pc = 2
                    return AskSha(holder, victim, JIEDAO)
                pc = 3
            if pc == 2:
                if got is not None:
                    self.pc = 4
                    return Sha(holder, got, (victim,))
                pc = 3
            if pc == 3:  # the weapon goes to the user
                weapon = st.equip[holder][WEAPON_SLOT]
                self.pc = 4
                if weapon >= 0 and st.alive[user]:
                    if (f := lose(st, holder, [weapon], st.hands[user], EVERYONE)) is not None:
                        return f
            return st.done()  # pc 4
