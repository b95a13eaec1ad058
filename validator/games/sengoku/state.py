"""漢字と家紋の戦国武将 (sengoku): rules engine — deal, draw, lay out names, discard, steal, end and ranking.

Shape (OpenSpiel): rules and actions (sengoku_rules), `SengokuGame` (immutable rules and name table
built from the loaded deck), `SengokuState` (one game, mutated in place), `SengokuObservation`.
Cards are ints 0..119; `table.type_of[card]` is the card type (a family or a kanji). A turn is: draw,
lay out completed names (base rule), discard one; then a steal window (横取り) opens on the discard.
The riichi variant (もうひとつのルール) keeps names hidden and ends at the first empty hand.
"""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from ...model import Game as GameModel
from .data import max_players
from .names import NameTable, build_name_table
from .rules import (ACTION_KINDS, CLARIFICATIONS, DISCARD, PASS, PASS_ACTION, REVEAL, STEAL,
                            SengokuObservation, SengokuRules, decode)

__all__ = ["CLARIFICATIONS", "SengokuGame", "SengokuState", "SengokuObservation"]

OVER = 0  # phase once the game has ended; otherwise the phase is the kind of the pending decision
END_PILE, END_ALL_OUT, END_RIICHI_WIN, END_DRAW, END_DRAW_RANKED = (
    "pile-empty", "all-out", "riichi-win", "draw", "draw-ranked")


@dataclass(frozen=True)
class SengokuGame:
    """Immutable rules and name table; deals new games."""

    engine: ClassVar[str] = "sengoku"
    name: str
    rules: SengokuRules
    table: NameTable
    min_players: int
    max_players: int                  # hand_size x players must leave a draw pile (clarification "max-players")
    box_players: tuple[int, int]      # what game.json "players" (the box) says
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS
    games_per_match: int = 1

    @classmethod
    def from_model(cls, model: GameModel) -> SengokuGame:
        rules = SengokuRules.from_mapping(model.rules)
        cards = [card for deck in model.decks for card in deck.cards  # play cards, not reference sheets
                 if card.fields.get("kind") in ("surname", "given")]
        table = build_name_table(cards, model.rules)
        return cls(model.id, rules, table, model.players[0], cls.players_limit(len(table.type_of), rules.hand_size),
                   model.players, model.play_minutes)

    players_limit = staticmethod(max_players)  # hand_size x players must leave a card to draw

    def with_rules(self, **changes: Any) -> SengokuGame:
        """This game under other rule settings (variant, riichi_draw, hand_size)."""
        rules = dataclasses.replace(self.rules, **changes)
        return dataclasses.replace(self, rules=rules,
                                   max_players=self.players_limit(len(self.table.type_of), rules.hand_size))

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> SengokuState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        start = rng.randrange(num_players) if first_player is None else first_player
        pile = list(range(len(self.table.type_of)))
        rng.shuffle(pile)
        return SengokuState(self, pile, num_players, start)

    def action_kind(self, action: Action) -> int:
        return action >> 8

    def next_first_player(self, first_player: Seat, num_players: int) -> Seat:
        return (first_player + 1) % num_players

    def match_over(self, deal_scores: Sequence[Sequence[int]]) -> bool:
        return len(deal_scores) >= self.games_per_match

    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]:
        return best_seats([sum(column) for column in zip(*deal_scores)])


class SengokuState:
    """A game in progress; apply_action mutates it in place."""

    def __init__(self, game: SengokuGame, pile: list[int], num_players: int, first_player: Seat) -> None:
        self.game, self.table, self.num_players = game, game.table, num_players
        self.riichi_variant = game.rules.variant == "riichi"
        self.pile = pile
        size = game.rules.hand_size
        self.hands: list[list[int]] = [[pile.pop() for _ in range(size)] for _ in range(num_players)]
        type_of = self.table.type_of
        self.held: list[list[int]] = [[type_of[c] for c in hand] for hand in self.hands]  # hands, as types
        self.counts = [[0] * self.table.num_types for _ in range(num_players)]
        for seat, held in enumerate(self.held):
            for t in held:
                self.counts[seat][t] += 1
        self.shown: list[list[int]] = [[] for _ in range(num_players)]        # warlords laid out
        self.shown_cards: list[list[int]] = [[] for _ in range(num_players)]  # their cards
        self.discards: list[int] = []
        self.riichi = [False] * num_players
        self.zero_order: list[Seat] = []
        self.first_player = first_player
        self.turn_player = first_player
        self.candidates: list[tuple[Seat, list[int]]] = []  # (seat, names) still to be asked in the steal window
        self.live = -1                        # the discard open to a steal, -1 if none
        self.turns = 0
        self.places: tuple[int, ...] = ()
        self.counts_ = {"names": 0, "steals": 0, "emptied": 0, "tie_rule1": 0, "tie_rule2": 0, "tie_shared": 0,
                        "riichi": 0, "riichi_wins": 0, "draws": 0}
        self._after = tuple(tuple((seat + i) % num_players for i in range(1, num_players))
                            for seat in range(num_players))  # seat -> the others, in turn order
        self._names_key = tuple(f"names_p{seat + 1}" for seat in range(num_players))
        for key in self._names_key:
            self.counts_[key] = 0
        self.end_reason = ""
        self._returns: tuple[int, ...] = (0,) * num_players
        self._winners: tuple[Seat, ...] = ()
        self.phase, self.player, self._legal = OVER, first_player, []  # type: int, Seat, list[Action]
        if self.riichi_variant:
            for seat in range(num_players):
                self._check_riichi(seat)
        self._draw_turn(first_player)

    # -- queries --------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> Sequence[Action]:
        return self._legal

    def hand_types(self, seat: Seat) -> tuple[int, ...]:
        return tuple(sorted(self.held[seat]))

    # -- turn -----------------------------------------------------------------------------------
    def _draw_turn(self, seat: Seat) -> None:
        if not self.pile:
            self._finish_pile()
            return
        card = self.pile.pop()
        card_type = self.table.type_of[card]
        self.hands[seat].append(card)
        self.held[seat].append(card_type)
        self.counts[seat][card_type] += 1
        self.turns += 1
        self.turn_player = seat
        self._after_gain(seat)

    def _after_gain(self, seat: Seat) -> None:
        """After a draw, a steal or a lay-out: win (riichi), lay out a name (base) or discard."""
        held = set(self.held[seat])
        if self.riichi_variant:
            if self.table.is_complete_but_one(self.hand_types(seat)):
                self._win(seat)
                return
        else:
            counts, by_family = self.counts[seat], self.table.completers
            names = [w for t in held & self.table.surname_types for w, a, b in by_family[t]
                     if counts[a] and counts[b] and (a != b or counts[a] > 1)]
            if names:
                names.sort()
                self.phase, self.player, self._legal = REVEAL, seat, [REVEAL << 8 | w for w in names]
                return
        self.phase, self.player, self._legal = DISCARD, seat, sorted([DISCARD << 8 | t for t in held])

    def _set(self, phase: int, player: Seat, legal: list[Action]) -> None:
        self.phase, self.player, self._legal = phase, player, legal

    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        if self.phase == OVER:
            raise ValueError("the game is over")
        kind, x, seat = action >> 8, action & 255, self.player
        if kind == DISCARD:
            self._discard(seat, x)
        elif kind == REVEAL:
            self._lay_out(seat, x)
            self._after_gain(seat)
        elif kind == STEAL:
            self._steal(seat, x)
        elif kind == PASS:
            self._ask_next()
        else:
            raise ValueError(f"not a sengoku action: {action}")

    def _take_type(self, seat: Seat, card_type: int) -> int:
        """Take the hand's last card of `card_type` out of it."""
        held = self.held[seat]
        if not self.counts[seat][card_type]:
            raise ValueError(f"seat {seat} holds no card of type {self.table.type_label[card_type]}")
        i = len(held) - 1 - held[::-1].index(card_type)
        del held[i]
        self.counts[seat][card_type] -= 1
        return self.hands[seat].pop(i)

    def _lay_out(self, seat: Seat, warlord: int) -> None:
        self.shown[seat].append(warlord)
        self.shown_cards[seat].extend([self._take_type(seat, t) for t in self.table.names[warlord]])
        counts = self.counts_
        counts["names"] += 1
        counts[self._names_key[seat]] += 1

    def _discard(self, seat: Seat, card_type: int) -> None:
        card = self._take_type(seat, card_type)
        self.discards.append(card)
        if not self.hands[seat]:
            self.zero_order.append(seat)
            self.counts_["emptied"] = 1
        elif self.riichi_variant:
            self._check_riichi(seat)
        self.live = card
        counts, completers = self.counts, self.table.completers[card_type]
        candidates = []
        if completers:
            for s in self._after[seat]:  # a name's two other cards in hand: the hand holds two cards or more
                held = counts[s]
                for _, a, b in completers:  # most seats can't steal: find out before building a list
                    if held[a] and held[b] and (a != b or held[a] > 1):
                        candidates.append((s, [w for w, a, b in completers
                                               if held[a] and held[b] and (a != b or held[a] > 1)]))
                        break
        self.candidates = candidates
        self._ask_next()

    def _check_riichi(self, seat: Seat) -> None:
        if not self.riichi[seat] and self.table.is_ready(self.hand_types(seat)):
            self.riichi[seat] = True
            self.counts_["riichi"] += 1

    def _ask_next(self) -> None:
        """Offer the live discard to the next seat able to steal it, or close the window."""
        if self.candidates:
            seat, names = self.candidates.pop(0)  # its hand is as when the window opened: only passes since
            legal = [STEAL << 8 | w for w in names]
            legal.append(PASS_ACTION)
            self.phase, self.player, self._legal = STEAL, seat, legal
            return
        self.live = -1
        n = self.num_players
        if n - len(self.zero_order) <= 1:  # an emptied hand never gains a card again
            self._finish_base(END_ALL_OUT)
            return
        hands, seat = self.hands, self.turn_player
        while True:
            seat = seat + 1 if seat + 1 < n else 0
            if hands[seat]:
                break
        self._draw_turn(seat)

    def _steal(self, seat: Seat, warlord: int) -> None:
        card = self.discards.pop()
        card_type = self.table.type_of[card]
        self.hands[seat].append(card)
        self.held[seat].append(card_type)
        self.counts[seat][card_type] += 1
        self.live, self.candidates = -1, []
        self.counts_["steals"] += 1
        self._lay_out(seat, warlord)
        self._after_gain(seat)

    # -- the end --------------------------------------------------------------------------------
    def _win(self, seat: Seat) -> None:
        """Riichi variant: lay out every hidden name, discard the last card, win at once."""
        names, left = self.table.best_split(self.hand_types(seat))
        for w in names:
            self._lay_out(seat, w)
        self.discards.append(self._take_type(seat, left[0]))
        self.zero_order.append(seat)
        self.counts_["emptied"] = 1
        self.counts_["riichi_wins"] += 1
        scores = tuple(self.num_players - 1 if s == seat else 0 for s in range(self.num_players))
        self._finish(END_RIICHI_WIN, scores, (seat,))

    def _finish_pile(self) -> None:
        if not self.riichi_variant:
            self._finish_base(END_PILE)
            return
        self.counts_["draws"] = 1
        if self.game.rules.riichi_draw == "draw":
            self._finish(END_DRAW, (0,) * self.num_players, tuple(range(self.num_players)))
            return
        left = [self.table.best_split(self.hand_types(s))[1] for s in range(self.num_players)]
        scores = self._rank(left)
        self._finish(END_DRAW_RANKED, scores, best_seats(scores))

    def _finish_base(self, reason: str) -> None:
        scores = self._rank([self.hand_types(s) for s in range(self.num_players)])
        self._finish(reason, scores, best_seats(scores))

    def _rank(self, hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """Points per seat: the seats ranked strictly below it (clarification "tie-break")."""
        n = self.num_players
        order = {s: i for i, s in enumerate(self.zero_order)}
        key: list[tuple[int, float]] = []
        for seat in range(n):
            key.append((len(hands[seat]), order.get(seat, 0) if not hands[seat] else 0.0))
        for size in {len(h) for h in hands if h}:
            group = [s for s in range(n) if len(hands[s]) == size]
            wins = dict.fromkeys(group, 0.0)
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    result, used = self.table.compare_tied(hands[a], hands[b])
                    if result == 0:
                        self.counts_["tie_shared"] += 1
                    else:
                        self.counts_["tie_rule1" if used == 1 else "tie_rule2"] += 1
                        wins[a if result < 0 else b] += 1
            for s in group:
                key[s] = (size, -wins[s])
        return tuple(sum(key[o] > key[s] for o in range(n)) for s in range(n))

    def _finish(self, reason: str, scores: tuple[int, ...], winners: tuple[Seat, ...]) -> None:
        self.end_reason, self._returns, self._winners = reason, scores, winners
        self._set(OVER, TERMINAL, [])

    # -- results --------------------------------------------------------------------------------
    def returns(self) -> tuple[int, ...]:
        return self._returns

    def outcome(self) -> Outcome:
        """Points (seats ranked below); winners: first place, shared on a full tie or a draw (流局)."""
        if self.phase != OVER:
            raise ValueError("the game is not over")
        return Outcome(self._returns, self._winners, self.end_reason, self.turns)

    def turn_number(self) -> int:
        """Cards drawn so far (every draw is one turn)."""
        return self.turns

    def counters(self) -> Mapping[str, int]:
        return dict(self.counts_)

    def observation(self, player: Seat) -> SengokuObservation:
        type_of = self.table.type_of
        return SengokuObservation(
            game_name=self.game.name, game=self.game, seat=player, phase=self.phase,
            hand=self.hand_types(player), hand_sizes=tuple(len(h) for h in self.hands),
            shown=tuple(tuple(s) for s in self.shown), discards=tuple(type_of[c] for c in self.discards),
            live=type_of[self.live] if self.live >= 0 else -1, pile=len(self.pile), riichi=tuple(self.riichi),
            zero_order=tuple(self.zero_order))

    # -- display and checks ---------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        kind, x = decode(action)
        table = self.table
        texts = {REVEAL: lambda: f"公開: {table.name_label[x]}", DISCARD: lambda: f"捨てる: {table.type_label[x]}",
                 STEAL: lambda: f"横取り: {table.name_label[x]}", PASS: lambda: "見送る"}
        return texts[kind]() if kind in texts else f"?{action}"

    def check_invariants(self) -> None:
        """Raise InvariantError unless every card is in one place and hand sizes fit the phase."""
        every = self.pile + self.discards + [c for h in self.hands for c in h] + [c for s in self.shown_cards for c in s]
        if len(every) != len(self.table.type_of) or set(every) != set(range(len(self.table.type_of))):
            raise InvariantError(f"cards not conserved: {len(every)} placed, {len(set(every))} distinct")
        type_of = self.table.type_of
        for seat in range(self.num_players):
            held = [0] * self.table.num_types
            for card in self.hands[seat]:
                held[type_of[card]] += 1
            if held != self.counts[seat] or self.held[seat] != [type_of[c] for c in self.hands[seat]]:
                raise InvariantError(f"seat {seat}: type counts out of step with the hand")
            shown = sorted(type_of[c] for c in self.shown_cards[seat])
            if shown != sorted(t for w in self.shown[seat] for t in self.table.names[w]):
                raise InvariantError(f"seat {seat}: laid-out cards do not spell the laid-out names")
            size = len(self.hands[seat])
            acting = self.phase in (REVEAL, DISCARD) and seat == self.player
            if size % 3 != (1 if acting else 0):
                raise InvariantError(f"seat {seat} holds {size} cards in phase {self.phase}")
            if (size == 0) != (seat in self.zero_order):
                raise InvariantError(f"seat {seat}: {size} cards but zero order {self.zero_order}")
        if self.end_reason == END_RIICHI_WIN and not self.riichi[self._winners[0]]:
            raise InvariantError("a riichi win without a riichi declaration")
        if self.phase != OVER and not self._legal:
            raise InvariantError("a decision with no legal action")
