"""三国殺 (sanguosha): what one seat sees (hidden hands and identities stay hidden) and actions as text."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from .options import distances_from
from .rules import (
    CARD_NAMES,
    CONVERT,
    DISCARD,
    EFFECT_NAMES,
    GAME,
    GENERAL,
    GIVE,
    HAND,
    LORD,
    OPTION,
    PASS,
    PICK,
    RANK_LABELS,
    RESPOND,
    SKILL,
    SUIT_MARKS,
    TARGET,
    TRIGGER,
    USE,
    SanguoshaObservation,
    unpack,
)

if TYPE_CHECKING:
    from .state import SanguoshaState


def observe(st: SanguoshaState, seat: Seat) -> SanguoshaObservation:
    alive, role, over = st.alive, st.role, st.over
    roles = tuple(role) if over else tuple([r if s == seat or not alive[s] or r == LORD else -1
                                            for s, r in enumerate(role)])
    chosen = st.general[seat] >= 0
    generals = tuple(st.general) if chosen else tuple([g if s == st.lord else -1 for s, g in enumerate(st.general)])
    hp, max_hp = tuple(st.hp), tuple(st.max_hp)
    if not chosen:  # a general chosen face down shows no HP either
        hp = tuple([h if g >= 0 else 0 for h, g in zip(hp, generals)])
        max_hp = tuple([h if g >= 0 else 0 for h, g in zip(max_hp, generals)])
    distances = tuple(distances_from(st, seat)) if alive[seat] else (0,) * st.n
    return SanguoshaObservation(
        GAME, seat, role[seat], roles, generals, st.options[seat], hp, max_hp,
        tuple(alive), tuple(st.hands[seat]), tuple([len(h) for h in st.hands]), tuple(map(tuple, st.equip)),
        tuple(map(tuple, st.judge)), len(st.deck), st.turn_player, st.sha_used, st.prompt, st.kind, st.suit,
        st.rank, distances, st.attack_range(seat), tuple(st.hostility), st.gens.hp, tuple(st.discard), tuple(st.proc),
        st.turns, st.seat == seat and not over, st.steps, st.game, st)


def card_name(st: SanguoshaState, card: int) -> str:
    return f"{CARD_NAMES[st.kind[card]]}{SUIT_MARKS[st.suit[card]]}{RANK_LABELS[st.rank[card]]}"


def seat_name(st: SanguoshaState, seat: int) -> str:
    if not 0 <= seat < st.n:
        return ""
    general = st.general[seat]
    return f"席{seat}" + (f"({st.gens.names[general]})" if general >= 0 else "")


def describe(st: SanguoshaState, action: Action) -> str:
    kind, a, b, c, d = unpack(action)
    if kind == PASS:
        return "パス pass"
    if kind == GENERAL:
        return f"武将 {st.gens.names[a]} を選ぶ"
    if kind == USE:
        targets = " ".join(seat_name(st, t) for t in (b, c) if t < st.n)
        return f"{card_name(st, a)} を使う" + (f" → {targets}" if targets else "")
    if kind == CONVERT:
        targets = " ".join(seat_name(st, t) for t in (c, d) if t < st.n)
        return f"{card_name(st, a)} を {CARD_NAMES[b]} として使う" + (f" → {targets}" if targets else "")
    if kind == SKILL:
        extra = " ".join(card_name(st, x) if x < len(st.kind) and EFFECT_NAMES[a] == "仁徳" and i == 0
                         else seat_name(st, x) for i, x in enumerate((b, c, d)) if x < 126)
        return f"{EFFECT_NAMES[a]} を発動 {extra}".rstrip()
    if kind == RESPOND:
        return f"{card_name(st, a)} を出す"
    if kind == TRIGGER:
        return f"{EFFECT_NAMES[a]} を発動する"
    if kind == PICK:
        if a == HAND:
            return f"{seat_name(st, b)} の手札から1枚（無作為）"
        where = {0: " 山札の上へ", 1: " 山札の下へ"}.get(b, "") if b < st.n and st.prompt[0] == 13 else ""
        return f"{card_name(st, a)} を選ぶ{where}"
    if kind == DISCARD:
        return f"{card_name(st, a)} を捨てる"
    if kind == TARGET:
        return f"{seat_name(st, a)} を選ぶ"
    if kind == OPTION:
        return f"選択肢 {a}" + (f" ({SUIT_MARKS[a]})" if a < 4 else "")
    if kind == GIVE:
        return f"{card_name(st, a)} を {seat_name(st, b)} に渡す"
    return f"action {action}"
