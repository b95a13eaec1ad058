"""五行中国史カードゲーム (gogyo): rules engine — setup, the three turn actions, declaration, end, match.

Shape (OpenSpiel): constants and actions, `GogyoGame` (immutable rules and card table built from
the loaded deck), `GogyoState` (mutated in place), `GogyoObservation` (what one seat may see), and
`CLARIFICATIONS` (the decisions this engine makes where the seed rules are silent).
Cards are ints 0..65 (physical copies); `CardTable.type_of` maps them to card types.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.api import TERMINAL, Action, Clarification, InvariantError, Outcome, Seat, best_seats, rule
from ...model import Game as GameModel
from .cards import CardTable, build_card_table, link_table, parse_hand
from .scoring import HandScore, Scorer, build_scoring_rules


CLARIFICATIONS: tuple[Clarification, ...] = (
    Clarification("faction-typo", "ルール中の「閔」は「閥」のことです。",
                  "The seed's 閔 (twice, in the scoring rules) means 閥, the faction card."),
    Clarification("duel-cards", "決闘で双方が引いたカードは、数字を比べた後ともに捨札にします。",
                  "Both cards drawn for a duel are compared, then both go to the discard pile."),
    Clarification("deck-empty", "山札が0枚になったら、その行動を最後まで終えた時点でゲーム終了です（宣言はできません）。"
                  "場札入手は1枚、山札入手は山札の枚数まで、決闘は3枚（山札3枚以上でのみ可）しか使わないので、行動の途中で山札が足りなくなることはありません。",
                  "The game ends as soon as an action leaves the deck empty, once that action is complete; "
                  "no declaration follows. No action can run short mid-way: a field take needs 1 card, a draw "
                  "at most the deck's size, a duel 3 (allowed only with 3 or more in the deck)."),
    Clarification("second-game-start", "2回目のゲームは66枚すべてをシャッフルし直し、1回目の最初の手番プレイヤーの"
                  "左隣（時計回りで次）から始めます。",
                  "Game 2 reshuffles all 66 cards and starts with the next seat clockwise from the player who "
                  "started game 1."),
    Clarification("wrong-declaration", "30点未満での宣言は誤りとなり、その手札を全て表向きにしてゲームを続けます。再度の宣言もできます。",
                  "A declaration below 30 points is a mistake: that hand is turned face up and play goes on; "
                  "the player may declare again on a later turn."),
    Clarification("public-cards", "場札から取ったカード、略奪したカード、決闘で負けた手札、誤宣言の手札は表向きのままです。"
                  "山札から引いたカードだけが裏向き（本人のみ確認可）です。",
                  "Cards taken from the field, plundered cards and hands revealed by a lost duel or a wrong "
                  "declaration stay face up; only cards drawn from the deck are face down (their owner may look)."),
    Clarification("tie-scores", "2回の合計点が同じなら2回目の得点が高い人の勝ち、それも同じなら勝利を分かち合います（3人以上の同点も同様）。",
                  "Equal two-game totals go to the higher game-2 score; still equal, those players share the "
                  "win (also when three or more tie)."),
)

# Action encoding: kind << 14 | x << 7 | y, card ids and seats below 127.
FIELD, DRAW, DUEL, PLUNDER, DESTROY, GIVE, DECLARE, PASS = range(1, 9)
NONE = 127
ACTION_KINDS = ("", "field", "draw", "duel", "plunder", "destroy", "give", "declare", "pass")
# Phases of a turn: who acts and what they choose.
MAIN, WIN_CHOICE, GIVE_CHOICE, DECLARE_CHOICE, OVER = range(5)
END_DECLARED, END_DECK = "declaration", "empty-deck"
_FIELD, _DRAW, _DUEL, _PLUNDER, _DESTROY, _GIVE = (kind << 14 for kind in (FIELD, DRAW, DUEL, PLUNDER, DESTROY, GIVE))
_DECLARE_OR_PASS = (PASS << 14 | NONE << 7 | NONE, DECLARE << 14 | NONE << 7 | NONE)
_PAIRS = [[(i, j) for i in range(n) for j in range(i + 1, n)] for n in range(16)]


def encode(kind: int, x: int = NONE, y: int = NONE) -> Action:
    """An action from its kind and up to two operands (cards, or a seat for a duel)."""
    return kind << 14 | x << 7 | y


@dataclass(frozen=True)
class GogyoRules:
    """Rule numbers from game.json "rules"."""

    hand_size: int
    field_size: int
    draw_max: int
    duel_forbidden_deck_max: int
    declare_threshold: int
    games_per_match: int

    @classmethod
    def from_mapping(cls, rules: Mapping[str, Any]) -> GogyoRules:
        return cls(**{name: rule(rules, name, int, "gogyo") for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class GogyoGame:
    """Immutable rules, card table and scorer; deals new states."""

    engine: ClassVar[str] = "gogyo"
    name: str
    rules: GogyoRules
    table: CardTable
    scorer: Scorer
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    links: tuple[tuple[int, ...], ...]  # card type x card type -> kinds of run they can neighbour in (0-2)
    action_kinds: tuple[str, ...] = ACTION_KINDS

    @classmethod
    def from_model(cls, model: GameModel) -> GogyoGame:
        gogyo_rules = GogyoRules.from_mapping(model.rules)
        cards = [card for deck in model.decks if getattr(deck, "kind", "deck") == "deck" for card in deck.cards]
        table = build_card_table(cards, model.rules, gogyo_rules.hand_size)
        if table.deck_size >= NONE:
            raise ValueError(f"gogyo: {table.deck_size} cards do not fit the action encoding (at most {NONE - 1})")
        scoring = build_scoring_rules(model.rules, table, gogyo_rules.hand_size)
        low, high = model.players
        links = link_table(table, dynasty_wraps=scoring.dynasty_wraps, element_wraps=scoring.element_wraps)
        return cls(model.id, gogyo_rules, table, Scorer(table, scoring), low, high, model.play_minutes, links)

    @property
    def games_per_match(self) -> int:
        return self.rules.games_per_match

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> GogyoState:
        """Shuffle, deal face-up hands and the field; `first_player` None means a random start."""
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        deck = list(range(self.table.deck_size))
        rng.shuffle(deck)
        start = rng.randrange(num_players) if first_player is None else first_player
        return GogyoState(self, deck, num_players, start, tuple(tuple(s) for s in previous_scores))

    def action_kind(self, action: Action) -> int:
        return action >> 14

    def next_first_player(self, first_player: Seat, num_players: int) -> Seat:
        return (first_player + 1) % num_players

    def match_over(self, deal_scores: Sequence[Sequence[int]]) -> bool:
        return len(deal_scores) >= self.games_per_match

    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]:
        """Highest total; ties broken by the last game's score; still tied, a shared win."""
        totals = [sum(column) for column in zip(*deal_scores)]
        leaders = best_seats(totals)
        last = deal_scores[-1]
        top = max(last[seat] for seat in leaders)
        return tuple(seat for seat in leaders if last[seat] == top)

    def fast_playout(self, policies: Sequence[Any]) -> Any:
        """A whole-game player equal to the API engine with these policies (gogyo_fast), or None."""
        from .fast import fast_playout
        return fast_playout(self, policies)

    def parse_hand(self, tokens: Sequence[str]) -> tuple[int, ...]:
        """Card types of a written hand (唐火 漢土 閥 天 隋金); ValueError naming the problem."""
        return parse_hand(self.table, tokens, self.rules.hand_size)

    def best_order(self, types: Sequence[int]) -> HandScore:
        """Best total of a hand of card types, an order reaching it and its dynasty/element parts."""
        return self.scorer.best(types)

    def labels(self, types: Sequence[int]) -> list[str]:
        return [self.table.labels[t] for t in types]

    def hand_score(self, cards: Sequence[int]) -> int:
        """Best total of physical cards."""
        type_of = self.table.type_of
        return self.scorer.total_of([type_of[c] for c in cards])


@dataclass(frozen=True)
class GogyoObservation:
    """One seat's view: own hand, the field, everyone's face-up cards, pile sizes, the turn's context."""

    game_name: str
    game: GogyoGame
    seat: Seat
    phase: int
    turn_player: Seat
    hand: tuple[int, ...]
    field: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]   # per seat: its face-up hand cards
    hidden: tuple[int, ...]              # per seat: how many of its hand cards are face down
    deck_size: int
    discard_size: int
    duel_winner: Seat
    duel_loser: Seat
    first_turn: bool
    previous_scores: tuple[tuple[int, ...], ...]


def distinct_pairs(hand: Sequence[int], type_of: Sequence[int]) -> list[tuple[int, int]]:
    """Two cards of `hand` per distinct pair of card types, in _PAIRS order: the two-card draws worth offering."""
    seen: set[tuple[int, int]] = set()
    out = []
    for i, j in _PAIRS[len(hand)]:
        a, b = hand[i], hand[j]
        key = (type_of[a], type_of[b]) if type_of[a] <= type_of[b] else (type_of[b], type_of[a])
        if key not in seen:
            seen.add(key)
            out.append((a, b))
    return out


class GogyoState:
    """One game in progress; apply_action mutates it in place."""

    __slots__ = ("game", "num_players", "deck", "field", "hands", "discard", "face_up", "phase", "player",
                 "turn_player", "first_player", "turns", "own_turns", "winner", "loser", "end_reason",
                 "previous_scores", "wrong_declarations", "duels_won_by_attacker", "_returns")

    def __init__(self, game: GogyoGame, deck: list[int], num_players: int, first_player: Seat,
                 previous_scores: tuple[tuple[int, ...], ...]) -> None:
        hand_size, field_size = game.rules.hand_size, game.rules.field_size
        self.game = game
        self.num_players = num_players
        self.face_up = [True] * len(deck)  # meaningful for hand cards; dealt hands and the field are face up
        self.deck = deck
        self.hands = [[deck.pop() for _ in range(hand_size)] for _ in range(num_players)]
        self.field = [deck.pop() for _ in range(field_size)]
        self.discard: list[int] = []
        self.phase = MAIN
        self.player = self.turn_player = self.first_player = first_player
        self.turns = 1
        self.own_turns = [0] * num_players
        self.winner = self.loser = -1
        self.end_reason = ""
        self.previous_scores = previous_scores
        self.wrong_declarations = self.duels_won_by_attacker = 0
        self._returns: tuple[int, ...] | None = None

    # -- queries ---------------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if phase == MAIN:
            return self._main_actions()
        if phase == DECLARE_CHOICE:
            return _DECLARE_OR_PASS
        if phase == WIN_CHOICE:
            return self._win_actions()
        if phase == GIVE_CHOICE:
            return [_GIVE | f << 7 | NONE for f in self._distinct(self.field)]
        return ()

    def _distinct(self, cards: list[int]) -> list[int]:
        """One card per card type (copies of 天 or 閥 are the same choice)."""
        type_of = self.game.table.type_of
        types = [type_of[c] for c in cards]
        if len(set(types)) == len(types):
            return cards
        first = {}
        for card, kind in zip(cards, types):
            first.setdefault(kind, card)
        return list(first.values())

    def _main_actions(self) -> list[Action]:
        cards = self.hands[self.player]
        hand = self._distinct(cards)
        field = self._distinct(self.field)
        actions = [_FIELD | d << 7 | f for d in hand for f in field]
        actions += [_DRAW | d << 7 | NONE for d in hand]
        deck_size = len(self.deck)
        if deck_size >= 2 and self.game.rules.draw_max >= 2:
            if hand is cards:  # no two cards alike: every pair is a different choice
                actions += [_DRAW | cards[i] << 7 | cards[j] for i, j in _PAIRS[len(cards)]]
            else:
                actions += self._pairs(cards)
        if deck_size > self.game.rules.duel_forbidden_deck_max:
            actions += [_DUEL | s << 7 | NONE for s in range(self.num_players) if s != self.player]
        return actions

    def _pairs(self, hand: list[int]) -> list[Action]:
        return [_DRAW | a << 7 | b for a, b in distinct_pairs(hand, self.game.table.type_of)]

    def _win_actions(self) -> list[Action]:
        own = self._distinct(self.hands[self.winner])
        theirs = self._distinct(self.hands[self.loser])
        actions = [_PLUNDER | d << 7 | t for d in own for t in theirs]
        actions += [_DESTROY | NONE << 7 | t for t in theirs]
        return actions

    # -- transitions -----------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        kind, x, y = action >> 14, action >> 7 & 127, action & 127
        if self.phase == OVER:
            raise ValueError("the game is over")
        if kind == FIELD:
            self._move(self.hands[self.player], x, self.discard)
            self._take(self.field, y, self.player)
            self._refill()
            self._end_action()
        elif kind == DRAW:
            hand, face_up = self.hands[self.player], self.face_up
            for card in (x, y) if y != NONE else (x,):
                self._move(hand, card, self.discard)
                drawn = self.deck.pop()
                face_up[drawn] = False
                hand.append(drawn)
            self._end_action()
        elif kind == DUEL:
            self._duel(x)
        elif kind == PLUNDER:
            self._move(self.hands[self.winner], x, self.discard)
            self._take(self.hands[self.loser], y, self.winner)
            self.phase = GIVE_CHOICE
        elif kind == DESTROY:
            self._move(self.hands[self.loser], y, self.discard)
            self.phase = GIVE_CHOICE
        elif kind == GIVE:
            self._take(self.field, x, self.loser)
            self._refill()
            self.player = self.turn_player
            self._end_action()
        elif kind == DECLARE:
            self._declare()
        elif kind == PASS:
            self._next_turn()
        else:
            raise ValueError(f"not a gogyo action: {action}")

    def _move(self, source: list[int], card: int, target: list[int]) -> None:
        source.remove(card)
        target.append(card)

    def _take(self, source: list[int], card: int, seat: Seat) -> None:
        """A face-up card (from the field or a revealed hand) goes face up into `seat`'s hand."""
        source.remove(card)
        self.hands[seat].append(card)
        self.face_up[card] = True

    def _refill(self) -> None:
        while len(self.field) < self.game.rules.field_size and self.deck:
            card = self.deck.pop()
            self.face_up[card] = True
            self.field.append(card)

    def _duel(self, defender: Seat) -> None:
        attacker, duel_value, type_of = self.player, self.game.table.duel_value, self.game.table.type_of
        attack, defend = self.deck.pop(), self.deck.pop()
        self.face_up[attack] = self.face_up[defend] = True
        self.discard += (attack, defend)  # clarification "duel-cards"
        if duel_value[type_of[attack]] > duel_value[type_of[defend]]:
            self.winner, self.loser = attacker, defender
            self.duels_won_by_attacker += 1
        else:  # a tie goes to the defender
            self.winner, self.loser = defender, attacker
        for card in self.hands[self.loser]:
            self.face_up[card] = True
        self.player = self.winner
        self.phase = WIN_CHOICE

    def _end_action(self) -> None:
        if not self.deck:
            self._finish(END_DECK)
        elif self.own_turns[self.turn_player] > 0:
            self.phase = DECLARE_CHOICE
        else:
            self._next_turn()

    def _declare(self) -> None:
        hand = self.hands[self.turn_player]
        if self.game.hand_score(hand) >= self.game.rules.declare_threshold:
            self._finish(END_DECLARED)
            return
        self.wrong_declarations += 1
        for card in hand:
            self.face_up[card] = True
        self._next_turn()

    def _next_turn(self) -> None:
        self.own_turns[self.turn_player] += 1
        self.turn_player = self.player = (self.turn_player + 1) % self.num_players
        self.winner = self.loser = -1
        self.turns += 1
        self.phase = MAIN

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.end_reason = reason
        self.player = TERMINAL

    # -- results ---------------------------------------------------------------------------
    def returns(self) -> tuple[int, ...]:
        """Each seat's best-order score (also mid-game: what the hands would score now)."""
        if self._returns is None or self.phase != OVER:
            scores = tuple(self.game.hand_score(hand) for hand in self.hands)
            if self.phase != OVER:
                return scores
            self._returns = scores
        return self._returns

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise ValueError("the game is not over")
        scores = self.returns()
        return Outcome(scores, best_seats(scores), self.end_reason, self.turns)

    def turn_number(self) -> int:
        """Turns begun so far (the current one included)."""
        return self.turns

    def counters(self) -> Mapping[str, int]:
        return {"wrong_declarations": self.wrong_declarations, "duels_won_by_attacker": self.duels_won_by_attacker}

    def observation(self, player: Seat) -> GogyoObservation:
        face_up = self.face_up
        shown = tuple([tuple([c for c in hand if face_up[c]]) for hand in self.hands])
        return GogyoObservation(
            game_name=self.game.name, game=self.game, seat=player, phase=self.phase,
            turn_player=self.turn_player, hand=tuple(self.hands[player]), field=tuple(self.field),
            shown=shown, hidden=tuple([len(h) - len(s) for h, s in zip(self.hands, shown)]),
            deck_size=len(self.deck), discard_size=len(self.discard),
            duel_winner=self.winner, duel_loser=self.loser,
            first_turn=self.own_turns[self.turn_player] == 0, previous_scores=self.previous_scores,
        )

    # -- display and checks ----------------------------------------------------------------
    def card_label(self, card: int) -> str:
        return self.game.table.labels[self.game.table.type_of[card]]

    def action_to_string(self, action: Action) -> str:
        kind, x, y = action >> 14, action >> 7 & 127, action & 127
        name = self.card_label
        if kind == FIELD:
            return f"場札入手: {name(x)}を捨て{name(y)}を取る"
        if kind == DRAW:
            return f"山札入手: {name(x)}{'・' + name(y) if y != NONE else ''}を捨てて引く"
        if kind == DUEL:
            return f"決闘: P{x + 1}に申し込む"
        if kind == PLUNDER:
            return f"略奪: {name(x)}を捨て{name(y)}を奪う"
        if kind == DESTROY:
            return f"破棄: {name(y)}を捨てさせる"
        if kind == GIVE:
            return f"場札{name(x)}を敗者に渡す"
        return {DECLARE: "ゲーム終了宣言", PASS: "宣言しない"}.get(kind, f"?{action}")

    def check_invariants(self) -> None:
        """Raise InvariantError unless cards are conserved and hands, field and deck have legal sizes."""
        table, rules = self.game.table, self.game.rules
        everywhere = self.deck + self.field + self.discard + [c for hand in self.hands for c in hand]
        if sorted(everywhere) != list(range(table.deck_size)):
            raise InvariantError(f"cards not conserved: {len(everywhere)} held, {len(set(everywhere))} distinct")
        sizes = [len(hand) for hand in self.hands]
        expected = [rules.hand_size] * self.num_players
        if self.phase == GIVE_CHOICE:
            expected[self.loser] -= 1
        if sizes != expected:
            raise InvariantError(f"hand sizes {sizes} in phase {self.phase}, expected {expected}")
        if len(self.field) != rules.field_size and self.deck:
            raise InvariantError(f"field holds {len(self.field)} cards while the deck has {len(self.deck)}")
        if self.phase != OVER and not self.deck:
            raise InvariantError("the deck is empty but the game goes on")
        if not all(self.face_up[c] for c in self.field):
            raise InvariantError("a field card is face down")
