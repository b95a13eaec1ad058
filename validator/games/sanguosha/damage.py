"""三国殺 (sanguosha): damage and what follows it — the damaged general's skills (奸雄 反饋 剛烈 遺計), HP
lost (苦肉), dying (桃 from everyone in seat order, 急救, 救援), death, the end of the game, and the
rewards and penalties of a kill — as frames of the decision stack.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .flow import (
    EVERYONE,
    ChooseDiscards,
    accepted,
    draw,
    judge,
    judged,
    lose,
    offer,
    to_discard,
    to_hand,
    top,
)
from .rules import (
    CONVERT,
    EFFECT_INDEX,
    GIVE,
    HAND,
    HEART,
    LORD,
    LOYALIST,
    OPTION,
    P_GIVE,
    P_OPTION,
    P_PICK,
    P_TAO,
    PASS_ACTION,
    PICK,
    REBEL,
    RED,
    RENEGADE,
    RESPOND,
    TAO,
    act,
    first,
    second,
)
from .stack import Frame, GameOver, Got, TurnEnd

if TYPE_CHECKING:
    from .state import SanguoshaState

_AFTER_DAMAGE = frozenset({"jianxiong", "fankui", "ganglie", "yiji"})
_FANKUI, _GANGLIE, _YIJI = EFFECT_INDEX["fankui"], EFFECT_INDEX["ganglie"], EFFECT_INDEX["yiji"]


def damage(st: SanguoshaState, target: Seat, source: Seat, amount: int, cards: Sequence[int] = ()) -> Frame | None:
    """`source` (-1: none) deals `amount` to `target`; dying first, then the damage triggers."""
    if not st.alive[target] or amount <= 0:
        return None
    st.hp[target] -= amount
    st.counts["damage"] += amount
    if source >= 0 and source != target:
        # public reputation only (roles stay hidden): hurting the lord, or one who defends him, counts
        # against the source; hurting one who attacked the lord counts for him
        record = st.hostility[target]
        lean = 1 if st.role[target] == LORD else -1 if record > 0 else 1 if record < 0 else 0
        st.hostility[source] += lean * amount
    if st.hp[target] <= 0 or has_damage_skill(st, target):
        return Damage(target, source, amount, tuple(cards))
    return None


def has_damage_skill(st: SanguoshaState, seat: Seat) -> bool:
    """Whether the seat's general has a skill that answers damage (奸雄 反饋 剛烈 遺計: AfterDamage)."""
    return not _AFTER_DAMAGE.isdisjoint(st.skills[seat])


@dataclass(eq=False, repr=False)
class Damage(Frame):
    """The rest of a damage whose target is dying or has a damage skill."""

    target: Seat
    source: Seat
    amount: int
    cards: tuple[int, ...]

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            self.pc = 1
            if st.hp[self.target] <= 0:
                return Dying(self.target, self.source)
        if self.pc == 1 and st.alive[self.target] and has_damage_skill(st, self.target):
            self.pc = 2
            return AfterDamage(self.target, self.source, self.amount, self.cards)
        return st.done()


@dataclass(eq=False, repr=False)
class AfterDamage(Frame):
    """奸雄, 反饋, 剛烈 and 遺計 of the damaged player (who survived)."""

    target: Seat
    source: Seat
    amount: int
    cards: tuple[int, ...]
    held: tuple[int, ...] = ()
    hit: bool = False
    left: int = 0

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:  # noqa: C901 - one skill after another
        target, source = self.target, self.source
        sk = st.skills[target]
        while True:
            pc = self.pc
            if pc == 0:  # 奸雄
                self.pc = 2
                if "jianxiong" in sk:
                    self.held = tuple(c for c in self.cards if c in st.proc)
                    if self.held:
                        self.pc = 1
                        return offer(st, target, "jianxiong")
                continue
            if pc == 1:
                if accepted(st, got):
                    for card in self.held:
                        st.proc.remove(card)
                        to_hand(st, target, card, EVERYONE)
                self.pc = 2
                continue
            if pc == 2:  # 反饋
                self.pc = 4
                if "fankui" in sk and source >= 0 and source != target and st.alive[source] \
                        and st.has_cards(source):
                    self.pc = 3
                    return offer(st, target, "fankui", source)
                continue
            if pc == 3:
                self.pc = 4
                if accepted(st, got):
                    return PickCard(target, source, _FANKUI)
                continue
            if pc == 4:  # 剛烈
                self.pc = 9
                if "ganglie" in sk and source >= 0 and source != target and st.alive[source]:
                    self.pc = 5
                    return offer(st, target, "ganglie", source)
                continue
            if pc == 5:
                self.pc = 9
                if accepted(st, got):
                    self.pc = 6
                    if (f := judge(st, target)) is not None:
                        return f
                    got = st.ret
                continue
            if pc == 6:
                self.hit = got >= 0 and st.suit[got] != HEART
                self.pc = 7
                if (f := judged(st, target, got)) is not None:
                    return f
                continue
            if pc == 7:
                self.pc = 9
                if self.hit and st.alive[source]:
                    return Ganglie(target, source)
                continue
            if pc == 9:  # 遺計, once per point of damage
                self.pc = 10
                self.left = self.amount if "yiji" in sk else 0
                continue
            if pc == 10:
                if self.left <= 0 or not st.alive[target]:
                    return st.done()
                self.left -= 1
                self.pc = 11
                return offer(st, target, "yiji")
            if not accepted(st, got):  # pc 11
                return st.done()
            self.pc = 10
            return Yiji(target)


@dataclass(eq=False, repr=False)
class PickCard(Frame):
    """Take one card of the target's hand (at random) or equipment into the taker's hand (反饋)."""

    taker: Seat
    target: Seat
    effect: int

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            legal: list[Action] = [act(PICK, HAND, self.target)] if st.hands[self.target] else []
            legal += [act(PICK, c, self.target) for c in st.equip[self.target] if c >= 0]
            self.pc = 1
            return st.ask(self.taker, legal, (P_PICK, self.target, 1, self.effect))
        if self.pc == 2:
            return st.done()
        card = first(got)
        mask = EVERYONE
        if card == HAND:
            card = st.random_hand_card(self.target)
            mask = 1 << self.taker | 1 << self.target
        self.pc = 2
        if (f := lose(st, self.target, [card], st.hands[self.taker], mask)) is not None:
            return f
        return st.done()


@dataclass(eq=False, repr=False)
class Ganglie(Frame):
    """剛烈 hit: the source discards two hand cards or takes 1 damage from the skill's owner."""

    seat: Seat
    source: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        if self.pc == 0:
            if len(st.hands[self.source]) >= 2:
                self.pc = 1
                return st.ask(self.source, [act(OPTION, 0), act(OPTION, 1)], (P_OPTION, _GANGLIE, self.seat, 0))
            got = None
        if self.pc == 2:
            return st.done()
        self.pc = 2
        if got == act(OPTION, 0):
            return ChooseDiscards(self.source, 2, True, reason=_GANGLIE)
        if (f := damage(st, self.source, self.seat, 1)) is not None:
            return f
        return st.done()


@dataclass(eq=False, repr=False)
class Yiji(Frame):
    """遺計: the top two cards, each given to any living player (oneself included)."""

    seat: Seat
    cards: tuple[int, ...] = ()

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        if self.pc == 0:
            for _ in range(2):
                card = top(st)
                if card >= 0:
                    self.cards += (card,)
                    st.proc.append(card)
            self.pc = 1
        else:
            card, to = first(got), second(got)
            self.cards = tuple(c for c in self.cards if c != card)
            st.proc.remove(card)
            to_hand(st, to, card, st.known[card] | 1 << seat | 1 << to)
        if not self.cards:
            return st.done()
        legal = [act(GIVE, c, t) for c in self.cards for t in st.living]
        return st.ask(seat, legal, (P_GIVE, _YIJI, 0, 0))


def lose_hp(st: SanguoshaState, seat: Seat, amount: int) -> Frame | None:
    """HP lost without damage (苦肉)."""
    st.hp[seat] -= amount
    return Dying(seat, -1) if st.hp[seat] <= 0 else None


@dataclass(eq=False, repr=False)
class Dying(Frame):
    """Every living player from the dying one, in seat order, may use 桃 until HP is 1 again; else death."""

    seat: Seat
    source: Seat
    helpers: tuple[Seat, ...] = ()
    at: int = 0
    card: int = -1

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat = self.seat
        while True:
            pc = self.pc
            if pc == 0:
                self.helpers = tuple(st.order_from(seat))
                pc = self.pc = 1
            if pc == 1:  # ask the helper at `at` (again while it saves and HP is still below 1)
                if st.hp[seat] < 1 and self.at < len(self.helpers):
                    helper = self.helpers[self.at]
                    legal = _peaches(st, helper)
                    if legal:
                        legal.append(PASS_ACTION)
                        self.pc = 2
                        return st.ask(helper, legal, (P_TAO, seat, self.source, 0))
                    self.at += 1
                    continue
                if st.hp[seat] >= 1:
                    st.hp[seat] = min(st.hp[seat], st.max_hp[seat])
                    return st.done()
                self.pc = 4
                return Die(seat, self.source)
            if pc == 2:
                if got == PASS_ACTION:
                    self.at += 1
                    self.pc = 1
                    continue
                self.card = first(got)
                self.pc = 3
                if (f := lose(st, self.helpers[self.at], [self.card], st.proc)) is not None:
                    return f
                continue
            if pc == 3:
                helper = self.helpers[self.at]
                to_discard(st, [self.card])
                bonus = int("jiuyuan" in st.skills[seat] and helper != seat
                            and st.gens.kingdom[st.general[helper]] == "呉")
                st.hp[seat] += 1 + bonus
                st.counts["healed"] += 1 + bonus
                if st.hp[seat] >= 1:
                    st.hp[seat] = min(st.hp[seat], st.max_hp[seat])
                    return st.done()
                self.pc = 1
                continue
            return st.done()  # pc 4: died


def _peaches(st: SanguoshaState, helper: Seat) -> list[Action]:
    """The helper's cards that save as 桃 (桃, and 急救's red cards outside its own turn)."""
    kind, color = st.kind, st.color
    jijiu = "jijiu" in st.skills[helper] and st.turn_player != helper
    legal: list[Action] = []
    for c in st.hands[helper]:
        if kind[c] == TAO:
            legal.append(act(RESPOND, c))
        elif jijiu and color[c] == RED:
            legal.append(act(CONVERT, c, TAO))
    if jijiu:
        legal += [act(CONVERT, c, TAO) for c in st.equip[helper] if c >= 0 and color[c] == RED]
    return legal


@dataclass(eq=False, repr=False)
class Die(Frame):
    """The seat dies: its cards go to the discard pile, the game may end, the killer is rewarded (a rebel:
    draw 3) or penalised (the lord killing a loyalist discards everything), and a dead turn player's turn
    ends."""

    seat: Seat
    source: Seat

    def step(self, st: SanguoshaState, got: Got) -> Frame | None:
        seat, source = self.seat, self.source
        if self.pc == 0:
            self.pc = 1
            if (f := _die(st, seat, source)) is not None:
                return f
        if seat == st.turn_player:
            raise TurnEnd
        return st.done()


def _die(st: SanguoshaState, seat: Seat, source: Seat) -> Frame | None:
    st.alive[seat] = False
    st.living.remove(seat)
    st.counts["deaths"] += 1
    st.discard += sorted(st.hands[seat])  # face up onto the pile in no order that tells how they were held
    st.hands[seat] = []
    st.discard += [c for c in st.equip[seat] if c >= 0]
    st.equip[seat] = [-1, -1, -1, -1]
    for card in st.judge[seat]:
        del st.judge_as[card]
    st.discard += st.judge[seat]
    st.judge[seat] = []
    role = st.role[seat]
    if role == LORD:
        if len(st.living) == 1 and st.role[st.living[0]] == RENEGADE:
            end(st, (st.living[0],), "renegade-alone")
        end(st, tuple(s for s in range(st.n) if st.role[s] == REBEL), "lord-killed")
    if not any(st.role[s] in (REBEL, RENEGADE) for s in st.living):
        end(st, tuple(s for s in range(st.n) if st.role[s] in (LORD, LOYALIST)), "rebels-and-renegades-dead")
    if source >= 0 and st.alive[source]:
        if role == REBEL:
            st.counts["rebel_rewards"] += 1
            draw(st, source, st.rules.rebel_kill_draw)
        elif role == LOYALIST and st.role[source] == LORD:
            st.counts["lord_penalties"] += 1
            cards = sorted(st.hands[source]) + [c for c in st.equip[source] if c >= 0]
            return lose(st, source, cards, st.discard)
    return None


def end(st: SanguoshaState, winners: tuple[Seat, ...], reason: str) -> None:
    st.winners, st.reason = winners, reason
    raise GameOver
