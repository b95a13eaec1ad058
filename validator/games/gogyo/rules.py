"""五行中国史カードゲーム (gogyo): rule numbers, clarifications, the action layout and the observation.

Everything here is vocabulary the engine (state.py), the greedy heuristic (policies.py) and the
rulebook oracle (claims.py) share, kept apart from the engine so each of them imports it alone.
Actions are ints laid out by one ActionCodec: kind << 14 | x << 7 | y, where x and y are card ids
(0..65) or a seat, and NONE (the all-ones operand) marks an unused operand.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine.actions import ActionCodec
from ...engine.api import Action, Clarification, Seat, rule
from ...engine.frozen import reduce_frozen

if TYPE_CHECKING:
    from .game import GogyoGame

CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("faction-typo", "ルール中の「閔」は「閥」のことです。",
                  "The seed's 閔 (twice, in the scoring rules) means 閥, the faction card."),
    Clarification("duel-cards", "決闘で双方が引いたカードは、数字を比べた後ともに捨札にします。",
                  "Both cards drawn for a duel are compared, then both go to the discard pile."),
    Clarification("deck-empty", "山札が0枚になったら、その行動を最後まで終えた時点で"
                  "ゲーム終了です（宣言はできません）。"
                  "場札入手は1枚、山札入手は山札の枚数まで、決闘は3枚（山札3枚以上でのみ可）しか使わないので、"
                  "行動の途中で山札が足りなくなることはありません。",
                  "The game ends as soon as an action leaves the deck empty, once that action is complete; "
                  "no declaration follows. No action can run short mid-way: a field take needs 1 card, a draw "
                  "at most the deck's size, a duel 3 (allowed only with 3 or more in the deck)."),
    Clarification("second-game-start", "2回目のゲームは66枚すべてをシャッフルし直し、1回目の最初の手番プレイヤーの"
                  "左隣（時計回りで次）から始めます。",
                  "Game 2 reshuffles all 66 cards and starts with the next seat clockwise from the player who "
                  "started game 1."),
    Clarification("wrong-declaration", "30点未満での宣言は誤りとなり、その手札を全て表向きにしてゲームを続けます。"
                  "再度の宣言もできます。",
                  "A declaration below 30 points is a mistake: that hand is turned face up and play goes on; "
                  "the player may declare again on a later turn."),
    Clarification("public-cards", "場札から取ったカード、略奪したカード、決闘で負けた手札、"
                  "誤宣言の手札は表向きのままです。"
                  "山札から引いたカードだけが裏向き（本人のみ確認可）です。",
                  "Cards taken from the field, plundered cards and hands revealed by a lost duel or a wrong "
                  "declaration stay face up; only cards drawn from the deck are face down (their owner may look)."),
    Clarification("tie-scores", "2回の合計点が同じなら2回目の得点が高い人の勝ち、それも同じなら勝利を分かち合います"
                  "（3人以上の同点も同様）。",
                  "Equal two-game totals go to the higher game-2 score; still equal, those players share the "
                  "win (also when three or more tie)."),
)

# The action layout: a kind and two 7-bit operands (cards, or a seat for a duel).
CODEC = ActionCodec(2, 7)
KIND_SHIFT, SHIFT, MASK = CODEC.kind_shift, CODEC.shift, CODEC.mask
NONE = MASK  # an unused operand
FIELD, DRAW, DUEL, PLUNDER, DESTROY, GIVE, DECLARE, PASS = range(1, 9)
ACTION_KINDS = ("", "field", "draw", "duel", "plunder", "destroy", "give", "declare", "pass")
# Phases of a turn: who acts and what they choose.
MAIN, WIN_CHOICE, GIVE_CHOICE, DECLARE_CHOICE, OVER = range(5)
END_DECLARED, END_DECK = "declaration", "empty-deck"


def encode(kind: int, x: int = NONE, y: int = NONE) -> Action:
    """An action from its kind and up to two operands (cards, or a seat for a duel); NONE when unused."""
    return CODEC.encode(kind, x, y)


@dataclass(frozen=True)
class GogyoRules:
    """Rule numbers from game.json "rules"."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_frozen(self)  # spawned workers get it pickled, also when compiled

    hand_size: int
    field_size: int
    draw_max: int
    duel_forbidden_deck_max: int
    declare_threshold: int
    games_per_match: int

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> GogyoRules:
        return cls(**{name: rule(rules, name, int, "gogyo") for name in cls.__dataclass_fields__})


class GogyoObservation:
    """One seat's view: own hand, the field, everyone's face-up cards, pile sizes, the turn's context.

    A snapshot, built for every greedy decision, so it is cheap to make: the hands are copied as
    tuples with their face-down masks, and `shown` and `hidden` are worked out only when read.
    """

    __slots__ = ("game_name", "game", "seat", "phase", "turn_player", "field", "deck_size", "discard_size",
                 "duel_winner", "duel_loser", "first_turn", "previous_scores", "discard", "own_turns", "_hands",
                 "_down", "_shown")

    def __init__(self, game_name: str, game: GogyoGame, seat: Seat, phase: int, turn_player: Seat,
                 hands: tuple[tuple[int, ...], ...], down: tuple[int, ...], field: tuple[int, ...], deck_size: int,
                 discard_size: int, duel_winner: Seat, duel_loser: Seat, first_turn: bool,
                 previous_scores: tuple[tuple[int, ...], ...], discard: tuple[int, ...],
                 own_turns: tuple[int, ...]) -> None:
        self.game_name, self.game, self.seat, self.phase, self.turn_player = game_name, game, seat, phase, turn_player
        self._hands, self._down, self.field = hands, down, field  # _down[s]: bit mask of s's face-down cards
        self.deck_size, self.discard_size, self.duel_winner, self.duel_loser = deck_size, discard_size, duel_winner, \
            duel_loser
        self.first_turn, self.previous_scores = first_turn, previous_scores
        # Public too, for a search that deals the unseen cards anew: the discard pile (face up) and how
        # many turns each seat has had (a seat declares only after its first).
        self.discard, self.own_turns = discard, own_turns
        self._shown: tuple[tuple[int, ...], ...] | None = None

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own hand, face-down cards included (its owner may look)."""
        return self._hands[self.seat]

    @property
    def shown(self) -> tuple[tuple[int, ...], ...]:
        """Per seat: its face-up hand cards, in hand order."""
        if self._shown is None:
            self._shown = tuple([hand if not down else tuple([c for c in hand if not down >> c & 1])
                                 for hand, down in zip(self._hands, self._down)])
        return self._shown

    @property
    def hidden(self) -> tuple[int, ...]:
        """Per seat: how many of its hand cards are face down."""
        return tuple([len(hand) - len(shown) for hand, shown in zip(self._hands, self.shown)])
