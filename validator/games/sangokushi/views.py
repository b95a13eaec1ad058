"""sangokushi: what one seat may see (its own hand, used pile and choices; the public table; the battle
once revealed) and how an action reads, kept apart from the rules that change the state."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.api import Action, Seat
from . import knowledge
from .phases import DAMAGE_P, DEFEND_P
from .rules import (
    ATTACK,
    COMMIT,
    DAMAGE,
    DISCARD,
    KEEP,
    PAY,
    RELEASE,
    RESTORE,
    SHED,
    SPEND,
    TAKE,
    BattleView,
    SangokushiObservation,
    TableView,
    decode,
)

if TYPE_CHECKING:
    from .state import SangokushiState

LABELS = ("", "攻撃", "回復", "徴兵", "解雇", "パス", "中立獲得に使う", "出陣", "選出終了", "戦闘拒否", "裏にする",
          "使う", "ダイス", "戻す", "山札から引く", "在野から取る", "残す", "在野へ", "解雇する", "捨てる")
_CARD_KINDS = frozenset((PAY, COMMIT, DAMAGE, SPEND, RESTORE, TAKE, KEEP, RELEASE, DISCARD, SHED))


def observe(state: SangokushiState, player: Seat) -> SangokushiObservation:
    """Other hands are counts; battle cards chosen face down are counts until the reveal (5.4)."""
    view = None
    if state.seats[0] >= 0:
        shown = [tuple(state.sides[s]) if state.revealed or state.seats[s] == player else () for s in (0, 1)]
        defending = state.phase == DEFEND_P
        if defending and state.seats[1] == player:
            shown[1] = tuple(state.spent)
        view = BattleView(state.seats[0], state.seats[1], state.area, state.revealed, shown[0], shown[1],
                          len(state.sides[0]), len(state.spent) if defending else len(state.sides[1]),
                          tuple(state.up[0] + state.up[1]), state.method,
                          state.damage if state.phase == DAMAGE_P else 0)
    spent = tuple(state.spent) if state.spent_owner == player else ()
    eligible = tuple(state.eligible) if state.player == player else ()
    n = state.n
    return SangokushiObservation(
        state.game.name, state.game, player, state.phase, state.turn_player, tuple(state.hands[player]),
        tuple(state.used[player]), tuple(len(h) for h in state.hands), tuple(len(u) for u in state.used),
        tuple(state.limit(s) for s in range(n)), tuple(state.owner), tuple(state.points), tuple(state.pool),
        len(state.deck), tuple(state.removed), state.dead_lords, spent, state.pending, view, eligible,
        TableView(state.player, state.turns, state.passes_in_row, state.area, state.spent_owner, len(state.spent),
                  len(state.eligible), tuple(state.captured), state.shed_seat, state.starts, knowledge.view(state)))


def describe(state: SangokushiState, action: Action) -> str:
    kind, x = decode(action)
    label = LABELS[kind]
    if kind == ATTACK:
        return f"{label} {state.board.names[x]}"
    if kind in _CARD_KINDS:
        return f"{label} {state.gen.names[x]}"
    return label
