"""三国殺 (sanguosha): the rules as one generator — setup, the turn's phases, card movement, judgements,
responses (閃, 殺, 桃, 無懈可撃), damage, dying, death and the end of the game.

Every function that may need a decision is a generator (`Flow`); `ask` suspends it with the legal
actions of one seat (a single legal action is taken without asking). Skills hook in through
skills.py; card effects live in cards.py.
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, TypeVar

from ...engine.api import Action, Seat
from .rules import (
    BAGUA,
    CONVERT,
    DISCARD,
    EFFECT_INDEX,
    HEART,
    LEBU,
    LORD,
    LOYALIST,
    NONE,
    P_DISCARD,
    P_GENERAL,
    P_SHA,
    P_SHAN,
    P_TAO,
    P_TRIGGER,
    P_WUXIE,
    PASS_ACTION,
    REBEL,
    RED,
    RENEGADE,
    RESPOND,
    SHA,
    SHAN,
    SHANDIAN,
    SPADE,
    TAO,
    TRIGGER,
    WUXIE,
    ZHANGBA,
    act,
    first,
)
from .state import DRAW, JUDGE, PUBLIC, GameOver, TurnEnd

if TYPE_CHECKING:
    from .state import SanguoshaState

T = TypeVar("T")
Flow = Generator[None, int, T]

_TRIG = {slug: act(TRIGGER, i) for slug, i in EFFECT_INDEX.items()}


def trig(slug: str) -> Action:
    return _TRIG[slug]


def ask(st: SanguoshaState, seat: Seat, legal: list[Action], prompt: tuple[int, int, int, int]) -> Flow[int]:
    """The decision of `seat` among `legal` (taken at once when there is only one), logged as the table
    sees it. While determinize.py rebuilds a game, its tap answers in place of the players."""
    tap = st.tap
    if tap is not None:
        answer = tap(st, seat, legal, prompt)
        if answer is not None:
            st.note_ask(seat, prompt, answer)
            return answer
    if len(legal) == 1:
        action = legal[0]
    else:
        st.seat, st.legal, st.prompt = seat, legal, prompt
        action = yield
    st.note_ask(seat, prompt, action)
    return action


def offer(st: SanguoshaState, seat: Seat, slug: str, context: int = NONE) -> Flow[bool]:
    """An optional skill or equipment effect: activate it or pass."""
    action = yield from ask(st, seat, [_TRIG[slug], PASS_ACTION], (P_TRIGGER, EFFECT_INDEX[slug], context, 0))
    if action != PASS_ACTION:
        st.counts["skills_used"] += 1
        return True
    return False


# -- setup ----------------------------------------------------------------------------------------
def main(st: SanguoshaState) -> Flow[None]:
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
    choice = yield from ask(st, lord, [act(2, g) for g in st.options[lord]], (P_GENERAL, 0, 0, 0))
    pick(st, lord, first(choice))
    rest = [g for g in lords if g != st.general[lord]] + others[k:]
    st.shuffle(rest)
    per = min(rules.general_choices, len(rest) // max(1, n - 1))
    for i, seat in enumerate(st.order_from(lord)[1:]):
        st.options[seat] = tuple(rest[i * per:(i + 1) * per])
        choice = yield from ask(st, seat, [act(2, g) for g in st.options[seat]], (P_GENERAL, 0, 0, 0))
        pick(st, seat, first(choice))
    st.shuffle(st.deck)
    for seat in st.order_from(lord):
        draw(st, seat, rules.start_hand)
    st.counts["cards_drawn"] = 0
    seat = lord
    from .turn import turn

    while True:
        try:
            yield from turn(st, seat)
        except TurnEnd:
            pass
        if st.proc:
            st.discard += st.proc
            st.proc = []
        seat = st.next_alive(seat)


def pick(st: SanguoshaState, seat: Seat, general: int) -> None:
    gens = st.gens
    st.general[seat] = general
    skills = gens.skills[general]
    if not st.is_lord(seat):
        skills = frozenset(s for s in skills if s not in ("hujia", "jijiang", "jiuyuan"))  # 主公技: the lord's only
    st.skills[seat] = skills
    hp = gens.hp[general]
    if st.is_lord(seat) and st.n >= st.rules.lord_extra_hp_min_players:
        hp += st.rules.lord_extra_hp
    st.hp[seat] = st.max_hp[seat] = hp


# -- cards moving ---------------------------------------------------------------------------------
def top(st: SanguoshaState, viewer: Seat, why: int) -> int:
    """The deck's top card, taken off (the discard pile is shuffled in when the deck is empty); -1 if none.
    Logged as seen by `viewer` alone, or by all (PUBLIC)."""
    if not st.deck:
        if not st.discard:
            return -1
        st.deck, st.discard = st.discard, []
        st.shuffle(st.deck)
        st.counts["reshuffles"] += 1
    card = st.deck.pop()
    st.note_pop(viewer, card, why)
    return card


def draw(st: SanguoshaState, seat: Seat, count: int) -> None:
    hand = st.hands[seat]
    for _ in range(count):
        card = top(st, seat, DRAW)
        if card < 0:
            return
        hand.append(card)
        st.counts["cards_drawn"] += 1


def take_out(st: SanguoshaState, seat: Seat, card: int) -> bool:
    """Remove a card from the seat's hand or equipment; True when it was equipment."""
    hand = st.hands[seat]
    if card in hand:
        hand.remove(card)
        return False
    equip = st.equip[seat]
    equip[equip.index(card)] = -1
    return True


def lose(st: SanguoshaState, seat: Seat, cards: Sequence[int], dest: list[int]) -> Flow[None]:
    """Cards leave the seat's hand or equipment for `dest`; then 連営 and 梟姫 may trigger."""
    had = bool(st.hands[seat])
    equipment = 0
    for card in cards:
        equipment += take_out(st, seat, card)
        dest.append(card)
    if not st.alive[seat]:
        return
    sk = st.skills[seat]
    if had and not st.hands[seat] and "lianying" in sk and (yield from offer(st, seat, "lianying")):
        draw(st, seat, 1)
    if equipment and "xiaoji" in sk:
        for _ in range(equipment):
            if (yield from offer(st, seat, "xiaoji")):
                draw(st, seat, 2)


def to_discard(st: SanguoshaState, cards: Sequence[int]) -> None:
    """Cards still in the processing zone go to the discard pile."""
    proc = st.proc
    for card in cards:
        if card in proc:
            proc.remove(card)
            st.discard.append(card)


def discard_cards(st: SanguoshaState, seat: Seat, cards: Sequence[int]) -> Flow[None]:
    yield from lose(st, seat, cards, st.discard)


def choose_discards(st: SanguoshaState, seat: Seat, count: int, hand_only: bool, keep: int = -1,
                    reason: int = 0) -> Flow[list[int]]:
    """The seat discards `count` of its own cards, one decision each (not `keep`)."""
    chosen: list[int] = []
    for left in range(count, 0, -1):
        pool = st.hands[seat] if hand_only else st.owned(seat)
        legal = [act(DISCARD, c) for c in pool if c != keep]
        if not legal:
            break
        action = yield from ask(st, seat, legal, (P_DISCARD, left, reason, 0))
        card = first(action)
        chosen.append(card)
        yield from discard_cards(st, seat, [card])
    return chosen


# -- judgement ------------------------------------------------------------------------------------
def judge(st: SanguoshaState, seat: Seat) -> Flow[int]:
    """Turn up a judgement card for `seat` (鬼才 may replace it); it stays in processing until judged()."""
    st.counts["judgements"] += 1
    card = top(st, PUBLIC, JUDGE)
    if card < 0:
        return -1
    st.proc.append(card)
    from .skills import guicai

    card = yield from guicai(st, seat, card)
    return card


def judged(st: SanguoshaState, seat: Seat, card: int) -> Flow[None]:
    """After the judgement took effect: 天妬 may keep the card, else it is discarded."""
    if card < 0 or card not in st.proc:
        return
    if st.alive[seat] and "tiandu" in st.skills[seat] and (yield from offer(st, seat, "tiandu")):
        st.proc.remove(card)
        st.hands[seat].append(card)
        return
    to_discard(st, [card])


# -- responses ------------------------------------------------------------------------------------
def play_response(st: SanguoshaState, seat: Seat, action: Action) -> Flow[list[int]]:
    """A RESPOND or CONVERT action: its card leaves the seat for processing; the cards."""
    card = first(action)
    yield from lose(st, seat, [card], st.proc)
    return [card]


def shan_options(st: SanguoshaState, seat: Seat, legal: list[Action]) -> None:
    kind, color = st.kind, st.color
    sk = st.skills[seat]
    qingguo, longdan = "qingguo" in sk, "longdan" in sk
    for c in st.hands[seat]:
        k = kind[c]
        if k == SHAN:
            legal.append(act(RESPOND, c))
        elif (qingguo and color[c] != RED) or (longdan and k == SHA):
            legal.append(act(CONVERT, c, SHAN))


def ask_kingdom(st: SanguoshaState, seat: Seat, kingdom: str,
                options: Callable[[SanguoshaState, Seat, list[Action]], None],
                prompt: tuple[int, int, int, int]) -> Flow[tuple[Seat, Action] | None]:
    """護駕 and 激将: the other players of `kingdom`, in seat order from `seat`, are each asked once to play
    a card for the lord; the first who does and what he plays, or None when all pass."""
    for helper in st.order_from(seat)[1:]:
        if st.gens.kingdom[st.general[helper]] != kingdom:
            continue
        offers: list[Action] = []
        options(st, helper, offers)
        if not offers:
            continue
        reply = yield from ask(st, helper, offers + [PASS_ACTION], prompt)
        if reply != PASS_ACTION:
            return helper, reply
    return None


def ask_shan(st: SanguoshaState, seat: Seat, source: Seat, armour: bool, cause: int) -> Flow[bool]:
    """One 閃 asked of `seat` (cards, 傾国, 竜胆, 八卦陣, 護駕); True when one was played."""
    bagua = armour and st.armor(seat) == BAGUA
    hujia = "hujia" in st.skills[seat] and any(
        st.gens.kingdom[st.general[s]] == "魏" for s in st.living if s != seat)
    while True:
        legal: list[Action] = []
        shan_options(st, seat, legal)
        if bagua:
            legal.append(_TRIG["bagua"])
        if hujia:
            legal.append(_TRIG["hujia"])
        if not legal:
            return False
        legal.append(PASS_ACTION)
        action = yield from ask(st, seat, legal, (P_SHAN, source, cause, 0))
        if action == PASS_ACTION:
            return False
        if action == _TRIG["bagua"]:
            bagua = False
            card = yield from judge(st, seat)
            red = card >= 0 and st.color[card] == RED
            yield from judged(st, seat, card)
            if red:
                st.counts["shan_played"] += 1
                return True
            continue
        if action == _TRIG["hujia"]:
            hujia = False
            st.counts["skills_used"] += 1
            answer = yield from ask_kingdom(st, seat, "魏", shan_options, (P_SHAN, source, cause, seat + 1))
            if answer is not None:
                cards = yield from play_response(st, *answer)
                to_discard(st, cards)
                st.counts["shan_played"] += 1
                return True
            continue
        cards = yield from play_response(st, seat, action)
        to_discard(st, cards)
        st.counts["shan_played"] += 1
        return True


def sha_options(st: SanguoshaState, seat: Seat, legal: list[Action]) -> None:
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
        legal.append(_TRIG["zhangba"])


def zhangba_cards(st: SanguoshaState, seat: Seat) -> Flow[list[int]]:
    """丈八蛇矛: two hand cards chosen one at a time, moved to processing."""
    cards: list[int] = []
    for _ in range(2):
        legal = [act(DISCARD, c) for c in st.hands[seat] if c not in cards]
        action = yield from ask(st, seat, legal, (P_DISCARD, 2 - len(cards), EFFECT_INDEX["zhangba"], 0))
        cards.append(first(action))
    yield from lose(st, seat, cards, st.proc)
    return cards


def ask_sha(st: SanguoshaState, seat: Seat, opponent: Seat, cause: int) -> Flow[list[int] | None]:
    """One 殺 asked of `seat` (cards, 武聖, 竜胆, 丈八蛇矛, 激将); the cards now in processing, or None."""
    jijiang = "jijiang" in st.skills[seat] and any(
        st.gens.kingdom[st.general[s]] == "蜀" for s in st.living if s != seat)
    while True:
        legal: list[Action] = []
        sha_options(st, seat, legal)
        if jijiang:
            legal.append(_TRIG["jijiang"])
        if not legal:
            return None
        legal.append(PASS_ACTION)
        action = yield from ask(st, seat, legal, (P_SHA, opponent, cause, 0))
        if action == PASS_ACTION:
            return None
        if action == _TRIG["zhangba"]:
            return (yield from zhangba_cards(st, seat))
        if action == _TRIG["jijiang"]:
            jijiang = False
            st.counts["skills_used"] += 1
            answer = yield from ask_kingdom(st, seat, "蜀", sha_options, (P_SHA, opponent, cause, seat + 1))
            if answer is not None:
                helper, reply = answer
                if reply == _TRIG["zhangba"]:
                    return (yield from zhangba_cards(st, helper))
                return (yield from play_response(st, helper, reply))
            continue
        return (yield from play_response(st, seat, action))


def wuxie(st: SanguoshaState, user: Seat, target: Seat, trick: int) -> Flow[bool]:
    """The 無懈可撃 window for one target of a trick; True when its effect there is cancelled."""
    cancelled = False
    kind = st.kind
    while True:
        played = False
        for seat in st.order_from(st.turn_player):
            cards = [c for c in st.hands[seat] if kind[c] == WUXIE]
            if not cards:
                continue
            legal = [act(RESPOND, c) for c in cards]
            legal.append(PASS_ACTION)
            packed = int(cancelled) << 7 | (user if user >= 0 else NONE)
            action = yield from ask(st, seat, legal, (P_WUXIE, target, trick, packed))
            if action == PASS_ACTION:
                continue
            card = first(action)
            yield from lose(st, seat, [card], st.proc)
            st.counts["wuxie_played"] += 1
            from .skills import jizhi

            yield from jizhi(st, seat)
            to_discard(st, [card])
            cancelled = not cancelled
            played = True
            break
        if not played:
            return cancelled


# -- damage, recovery, dying, death ---------------------------------------------------------------
def recover(st: SanguoshaState, seat: Seat, amount: int = 1) -> None:
    if st.alive[seat]:
        before = st.hp[seat]
        st.hp[seat] = min(st.max_hp[seat], before + amount)
        st.counts["healed"] += st.hp[seat] - before


def damage(st: SanguoshaState, target: Seat, source: Seat, amount: int, cards: Sequence[int] = ()) -> Flow[None]:
    """`source` (-1: none) deals `amount` to `target`; dying first, then the damage triggers."""
    if not st.alive[target] or amount <= 0:
        return
    st.hp[target] -= amount
    st.counts["damage"] += amount
    if source >= 0 and source != target:
        # public reputation only (roles stay hidden): hurting the lord, or one who defends him, counts
        # against the source; hurting one who attacked the lord counts for him
        record = st.hostility[target]
        lean = 1 if st.role[target] == LORD else -1 if record > 0 else 1 if record < 0 else 0
        st.hostility[source] += lean * amount
    if st.hp[target] <= 0:
        yield from dying(st, target, source)
        if not st.alive[target]:
            return
    from .skills import after_damage

    yield from after_damage(st, target, source, amount, cards)


def lose_hp(st: SanguoshaState, seat: Seat, amount: int) -> Flow[None]:
    """HP lost without damage (苦肉)."""
    st.hp[seat] -= amount
    if st.hp[seat] <= 0:
        yield from dying(st, seat, -1)


def dying(st: SanguoshaState, seat: Seat, source: Seat) -> Flow[None]:
    """Every living player from the dying one, in seat order, may use 桃 until HP is 1 again."""
    kind, color = st.kind, st.color
    for helper in st.order_from(seat):
        sk = st.skills[helper]
        jijiu = "jijiu" in sk and st.turn_player != helper
        while st.hp[seat] < 1:
            legal: list[Action] = []
            for c in st.hands[helper]:
                if kind[c] == TAO:
                    legal.append(act(RESPOND, c))
                elif jijiu and color[c] == RED:
                    legal.append(act(CONVERT, c, TAO))
            if jijiu:
                legal += [act(CONVERT, c, TAO) for c in st.equip[helper] if c >= 0 and color[c] == RED]
            if not legal:
                break
            legal.append(PASS_ACTION)
            action = yield from ask(st, helper, legal, (P_TAO, seat, source, 0))
            if action == PASS_ACTION:
                break
            cards = yield from play_response(st, helper, action)
            to_discard(st, cards)
            bonus = int("jiuyuan" in st.skills[seat] and helper != seat and st.gens.kingdom[st.general[helper]] == "呉")
            st.hp[seat] += 1 + bonus
            st.counts["healed"] += 1 + bonus
        if st.hp[seat] >= 1:
            st.hp[seat] = min(st.hp[seat], st.max_hp[seat])
            return
    yield from die(st, seat, source)


def die(st: SanguoshaState, seat: Seat, source: Seat) -> Flow[None]:
    st.alive[seat] = False
    st.living.remove(seat)
    st.counts["deaths"] += 1
    hand = sorted(st.hands[seat])  # face up onto the pile in no order that tells how they were held
    st.note_dump(seat, hand)
    st.discard += hand
    st.hands[seat] = []
    st.discard += [c for c in st.equip[seat] if c >= 0]
    st.equip[seat] = [-1, -1, -1, -1]
    for card in st.judge[seat]:
        del st.judge_as[card]
    st.discard += st.judge[seat]
    st.judge[seat] = []
    role = st.role[seat]
    if role == LORD:
        renegade = len(st.living) == 1 and st.role[st.living[0]] == RENEGADE
        if renegade:
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
            hand = sorted(st.hands[source])
            st.note_dump(source, hand)
            yield from lose(st, source, hand + [c for c in st.equip[source] if c >= 0], st.discard)
    if seat == st.turn_player:
        raise TurnEnd


def end(st: SanguoshaState, winners: tuple[Seat, ...], reason: str) -> None:
    st.winners, st.reason = winners, reason
    raise GameOver


# -- the judge phase's delayed tricks ---------------------------------------------------------------
def judge_phase(st: SanguoshaState, seat: Seat) -> Flow[bool]:
    """Delayed tricks, last placed first; True when 楽不思蜀 skips the play phase."""
    skip = False
    for card in reversed(st.judge[seat][:]):
        if card not in st.judge[seat]:
            continue
        st.judge[seat].remove(card)
        trick = st.judge_as.pop(card)
        st.proc.append(card)
        cancelled = yield from wuxie(st, -1, seat, trick)
        if trick == LEBU:
            if not cancelled:
                result = yield from judge(st, seat)
                if result >= 0 and st.suit[result] != HEART:
                    skip = True
                    st.counts["turns_skipped_lebu"] += 1
                yield from judged(st, seat, result)
            to_discard(st, [card])
        elif trick == SHANDIAN:
            hit = False
            if not cancelled:
                result = yield from judge(st, seat)
                hit = result >= 0 and st.suit[result] == SPADE and 2 <= st.rank[result] <= 9
                if hit:
                    to_discard(st, [card])
                    st.counts["shandian_hits"] += 1
                    yield from damage(st, seat, -1, 3, [card])
                yield from judged(st, seat, result)
            if not hit:
                pass_shandian(st, seat, card)
    return skip


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


def discard_phase(st: SanguoshaState, seat: Seat) -> Flow[None]:
    excess = len(st.hands[seat]) - st.hp[seat]
    if excess <= 0:
        return
    if "keji" in st.skills[seat] and not st.sha_in_play and (yield from offer(st, seat, "keji")):
        return
    yield from choose_discards(st, seat, excess, True)

