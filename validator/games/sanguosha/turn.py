"""三国殺 (sanguosha): one turn — start, judge (楽不思蜀 閃電), draw, play, discard (克己) and end (閉月)
phases — as frames of the decision stack.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Seat
from .cards import Use
from .damage import damage
from .flow import ChooseDiscards, accepted, draw, judge, judged, offer, to_discard, wuxie
from .options import play_options
from .rules import CONVERT, HEART, LEBU, P_PLAY, PASS_ACTION, SHANDIAN, SPADE, USE, unpack
from .skills import Active, draw_phase, start_phase
from .stack import Frame, Got

if TYPE_CHECKING:
    from .state import SanguoshaState


@dataclass(eq=False, repr=False)
class Turn(Frame):
    seat: Seat
    skip: bool = False

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                st.turn_player = seat
                st.turns += 1
                st.sha_used, st.sha_in_play, st.luoyi, st.rende_given, st.zhuge_used = 0, False, False, 0, False
                st.once = frozenset()
                self.pc = 1
                if st.skills[seat]:
                    if (f := start_phase(st, seat)) is not None:
                        return f
                continue
            if pc == 1:
                self.pc = 2
                if st.judge[seat]:
                    return JudgePhase(seat)
                got = False
                continue
            if pc == 2:
                self.skip = got
                self.pc = 3
                if st.skills[seat]:
                    if (f := draw_phase(st, seat)) is not None:
                        return f
                else:
                    draw(st, seat, st.rules.draw_per_turn)
                continue
            if pc == 3:
                self.pc = 4
                return RestOfTurn(seat, self.skip)
            return st.done()  # pc 4


@dataclass(eq=False, repr=False)
class RestOfTurn(Frame):
    """The play phase (unless skipped), the discard phase and the end phase (閉月)."""

    seat: Seat
    skip_play: bool = False

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                self.pc = 1
                if not self.skip_play:
                    return PlayPhase(seat)
                continue
            if pc == 1:
                self.pc = 2
                if (f := discard_phase(st, seat)) is not None:
                    return f
                continue
            if pc == 2:
                if "biyue" in st.skills[seat]:
                    self.pc = 3
                    return offer(st, seat, "biyue")
                return st.done()
            if accepted(st, got):  # pc 3
                draw(st, seat, 1)
            return st.done()


@dataclass(eq=False, repr=False)
class PlayPhase(Frame):
    """Plays one after another until the player passes."""

    seat: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        if self.pc == 1:
            if got == PASS_ACTION:
                return st.done()
            self.pc = 0
            kind, a, b, c, d = unpack(got)
            if kind == USE:
                return Use(seat, st.kind[a], (a,), b, c)
            if kind == CONVERT:
                return Use(seat, b, (a,), c, d)
            return Active(seat, a, b, c)
        self.pc = 1
        return st.ask(seat, play_options(st, seat), (P_PLAY, 0, 0, 0))


@dataclass(eq=False, repr=False)
class JudgePhase(Frame):
    """Delayed tricks, last placed first; returns whether 楽不思蜀 skips the play phase."""

    seat: Seat
    cards: tuple[int, ...] = ()
    at: int = 0
    skip: bool = False
    card: int = -1
    trick: int = -1
    result: int = -1
    hit: bool = False

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:  # noqa: C901 - the two tricks' steps
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                self.cards = tuple(reversed(st.judge[seat]))
                pc = self.pc = 1
            if pc == 1:  # the next delayed trick
                if self.at >= len(self.cards):
                    return st.done(self.skip)
                card = self.cards[self.at]
                self.at += 1
                if card not in st.judge[seat]:
                    continue
                st.judge[seat].remove(card)
                self.card, self.trick = card, st.judge_as.pop(card)
                st.proc.append(card)
                self.pc = 2
                if (f := wuxie(st, -1, seat, self.trick)) is not None:
                    return f
                got = st.ret
                pc = 2
            if pc == 2:  # cancelled or not
                if got:
                    self.pc = 6
                    continue
                self.pc = 3
                if (f := judge(st, seat)) is not None:
                    return f
                got = st.ret
                pc = 3
            if pc == 3:  # the judgement card
                self.result = result = got
                self.pc = 5
                if self.trick == LEBU:
                    if result >= 0 and st.suit[result] != HEART:
                        self.skip = True
                        st.counts["turns_skipped_lebu"] += 1
                    continue
                self.hit = result >= 0 and st.suit[result] == SPADE and 2 <= st.rank[result] <= 9
                if not self.hit:
                    continue
                st.counts["shandian_hits"] += 1  # the 閃電 stays in processing through the damage: 奸雄 may take it
                self.pc = 4
                if (f := damage(st, seat, -1, 3, [self.card])) is not None:
                    return f
                pc = 4
            if pc == 4:
                to_discard(st, [self.card])
                self.pc = 5
                continue
            if pc == 5:
                self.pc = 6
                if (f := judged(st, seat, self.result)) is not None:
                    return f
                continue
            if self.trick == LEBU:  # pc 6: the trick leaves
                to_discard(st, [self.card])
            elif self.trick == SHANDIAN and not self.hit:
                pass_shandian(st, seat, self.card)
            self.hit = False
            self.pc = 1


def pass_shandian(st: SanguoshaState, seat: Seat, card: int) -> None:
    """A 閃電 that did not strike moves on to the next living player without one (or stays)."""
    if card not in st.proc:
        return
    st.proc.remove(card)
    for other in st.order_from(seat)[1:]:
        if not any(st.judge_as[c] == SHANDIAN for c in st.judge[other]):
            st.judge[other].append(card)
            st.judge_as[card] = SHANDIAN
            return
    if st.alive[seat]:
        st.judge[seat].append(card)
        st.judge_as[card] = SHANDIAN
    else:
        st.discard.append(card)


def discard_phase(st: SanguoshaState, seat: Seat) -> Frame | None:
    excess = len(st.hands[seat]) - st.hp[seat]
    if excess <= 0:
        return None
    return DiscardPhase(seat, excess)


@dataclass(eq=False, repr=False)
class DiscardPhase(Frame):
    """Discard down to HP, unless 克己 (no 殺 used or played this play phase) keeps them."""

    seat: Seat
    excess: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        if self.pc == 0:
            if "keji" in st.skills[seat] and not st.sha_in_play:
                self.pc = 1
                return offer(st, seat, "keji")
            got = PASS_ACTION
        if self.pc == 2 or accepted(st, got):
            return st.done()
        self.pc = 2
        return ChooseDiscards(seat, self.excess, True)
