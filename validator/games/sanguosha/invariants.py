"""三国殺 (sanguosha) invariants: what must hold after every step.

Every card in exactly one place (deck, discard, processing, a hand, equipment, a judge area); HP within
max HP; the dead hold nothing; equipment in its own slot; no two delayed tricks of one name in one judge
area; 殺 within the per-turn limit unless 諸葛連弩 or 咆哮; a finished game has winners and a reason.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import InvariantError, check_conserved
from .rules import ZHUGE

if TYPE_CHECKING:
    from .state import SanguoshaState


def check(st: SanguoshaState) -> None:
    places: list[tuple[str, list[int]]] = [("deck", st.deck), ("discard", st.discard), ("processing", st.proc)]
    for seat in range(st.n):
        places += [(f"hand{seat}", st.hands[seat]), (f"equip{seat}", [c for c in st.equip[seat] if c >= 0]),
                   (f"judge{seat}", st.judge[seat])]
    check_conserved(places, len(st.cards))
    judged = {c for j in st.judge for c in j}
    if set(st.judge_as) != judged:
        raise InvariantError("judge-area bookkeeping out of step with the judge areas")
    for seat in range(st.n):
        if st.hp[seat] > st.max_hp[seat]:
            raise InvariantError(f"seat {seat}: HP {st.hp[seat]} above max {st.max_hp[seat]}")
        if not st.alive[seat] and (st.hands[seat] or st.judge[seat] or any(c >= 0 for c in st.equip[seat])):
            raise InvariantError(f"dead seat {seat} holds cards")
        for slot, card in enumerate(st.equip[seat]):
            if card >= 0 and st.cards.slot[card] != slot:
                raise InvariantError(f"seat {seat}: card {card} in equipment slot {slot}")
        names = [st.judge_as[c] for c in st.judge[seat]]
        if len(names) != len(set(names)):
            raise InvariantError(f"seat {seat}: two delayed tricks of one name")
    if st.living != [s for s in range(st.n) if st.alive[s]]:
        raise InvariantError("the living-seat list is out of step")
    turn = st.turn_player
    if turn >= 0 and not st.over and st.sha_used > st.rules.sha_per_turn:
        if st.weapon(turn) != ZHUGE and "paoxiao" not in st.skills[turn] and not st.zhuge_used:
            raise InvariantError(f"seat {turn} used {st.sha_used} 殺 this turn")
    if st.over and (not st.winners or not st.reason):
        raise InvariantError("the game ended without winners or a reason")
    if not st.over and not st.legal:
        raise InvariantError("a game in progress with no legal action")
