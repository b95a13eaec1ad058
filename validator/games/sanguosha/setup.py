"""三国殺 (sanguosha): the game from its deal — identities, the lord's general and then everyone else's,
the starting hands — and the turn loop, as the bottom frame of the decision stack.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Seat
from .flow import draw, pick
from .rules import GENERAL, LORD, P_GENERAL, act, first
from .stack import Frame, Got
from .turn import Turn

if TYPE_CHECKING:
    from .state import SanguoshaState


@dataclass(eq=False, repr=False)
class Main(Frame):
    """Set-up (pc 0-3), then turns from the lord on, one after another (pc 4-5: TurnEnd lands here).

    The generals the others choose from are dealt in one go once the lord has chosen (each seat's offer
    in st.options): every general but the lord's — the ones the lord declined go back among the rest
    (the seed: 主公が選ばなかった4枚を残りの20枚と合わせて) — shuffled, the same number to each."""

    turn_host = True
    seat: Seat = -1
    order: tuple[Seat, ...] = ()
    at: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        while True:
            pc = self.pc
            if pc == 0:
                rules, gens, n = st.rules, st.gens, st.n
                roles = [r for r, count in enumerate(rules.identity_table[n]) for _ in range(count)]
                st.shuffle(roles)
                st.role = roles
                st.lord = lord = roles.index(LORD)
                lords = [g for g in range(len(gens)) if gens.lord[g]]
                others = [g for g in range(len(gens)) if not gens.lord[g]]
                st.shuffle(others)
                k = rules.lord_choices_random
                st.options[lord] = tuple(lords + others[:k])
                self.pc = 1
                return st.ask(lord, [act(GENERAL, g) for g in st.options[lord]], (P_GENERAL, 0, 0, 0))
            if pc == 1:  # the lord has chosen: the others' offers
                lord = st.lord
                pick(st, lord, first(got))
                rest = [g for g in range(len(st.gens)) if g != st.general[lord]]
                st.shuffle(rest)
                self.order = tuple(st.order_from(lord)[1:])
                per = min(st.rules.general_choices, len(rest) // max(1, st.n - 1))
                for i, seat in enumerate(self.order):
                    st.options[seat] = tuple(rest[i * per:(i + 1) * per])
                pc = self.pc = 2
            if pc == 2:  # the next seat chooses
                if self.at < len(self.order):
                    seat = self.order[self.at]
                    self.pc = 3
                    return st.ask(seat, [act(GENERAL, g) for g in st.options[seat]], (P_GENERAL, 0, 0, 0))
                st.shuffle(st.deck)
                for seat in st.order_from(st.lord):
                    draw(st, seat, st.rules.start_hand)
                st.counts["cards_drawn"] = 0
                self.seat = st.lord
                self.pc = 4
                continue
            if pc == 3:
                pick(st, self.order[self.at], first(got))
                self.at += 1
                self.pc = 2
                continue
            if pc == 4:
                self.pc = 5
                return Turn(self.seat)
            if st.proc:  # pc 5: the turn is over (or ended by its player's death)
                st.discard += st.proc
                st.proc = []
            self.seat = st.next_alive(self.seat)
            self.pc = 4

