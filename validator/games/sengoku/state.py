"""漢字と家紋の戦国武将 (sengoku): rules engine — deal, draw, lay out names, discard, steal, end and ranking.

Shape (OpenSpiel): rules, actions and the observation (rules.py), `SengokuGame` (immutable rules and
name table built from the loaded deck), `SengokuState` (one game, mutated in place). Cards are ints
0..119; `table.type_of[card]` is the card type (a family or a kanji). A turn is: draw, lay out
completed names (base rule), discard one; then a steal window (横取り) opens on the discard. The
riichi variant (もうひとつのルール) keeps names hidden and ends at the first empty hand.

Kept cheap per step, for seeded simulation: a hand is held as type counts and its sorted distinct
types (the discard choices), with a stack of physical cards per type; the discard choices are listed
only when asked (`legal_count`/`legal_at` index them without a list); once a hand has been seen to
hold no complete name, only names through the card just drawn are looked for (a hand less a name
laid out is part of a hand that completed none); in the riichi variant only a hand in riichi is
packed after a gain. `fast_playout` plays whole games through this same State (playout.py).
"""
from __future__ import annotations

import dataclasses
import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from ...engine.chance import shuffle, shuffle_bits
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from .data import max_players
from .names import NameTable, build_name_table
from .playout import playout_for
from .rules import (
    ACTION_KINDS,
    CLARIFICATIONS,
    DISCARD,
    KIND_SHIFT,
    MASK,
    OVER,
    PASS,
    PASS_ACTION,
    REVEAL,
    STEAL,
    SengokuObservation,
    SengokuRules,
    decode,
    encode,
)

__all__ = ["CLARIFICATIONS", "SengokuGame", "SengokuObservation", "SengokuState"]

END_PILE, END_ALL_OUT, END_RIICHI_WIN, END_DRAW, END_DRAW_RANKED = (
    "pile-empty", "all-out", "riichi-win", "draw", "draw-ranked")
REVEAL_BASE, DISCARD_BASE, STEAL_BASE = encode(REVEAL), encode(DISCARD), encode(STEAL)

# A name one card completes: (warlord, type a, type b, d), complete when counts[a] and counts[b] > d.
Completion = tuple[int, int, int, int]


def _completions(table: NameTable, drawn: bool) -> tuple[tuple[Completion, ...], ...]:
    """type t -> the names (one per card set, as table.completers) that a card of type t completes:
    with the other two cards in a hand (a steal: `drawn` False), or in a hand that now holds the card
    too (`drawn` True: a repeated t must then be held twice)."""
    out = []
    for t, completers in enumerate(table.completers):
        row = []
        for w, a, b in completers:
            if drawn and a == t:
                a, b = b, a
            row.append((w, a, b, int(a == b or drawn and b == t)))
        out.append(tuple(row))
    return tuple(out)


class Seating:
    """Seat orders and counter names of a table of `num_players`, shared by its games."""

    def __init__(self, num_players: int) -> None:
        seats = range(num_players)
        self.after = tuple(tuple((seat + i) % num_players for i in range(1, num_players))
                           for seat in seats)  # seat -> the others, in turn order
        self.next = tuple((seat + 1) % num_players for seat in seats)
        self.names_key = tuple(f"names_p{seat + 1}" for seat in seats)
        self.counters = {"names": 0, "steals": 0, "emptied": 0, "tie_rule1": 0, "tie_rule2": 0, "tie_shared": 0,
                         "riichi": 0, "riichi_wins": 0, "draws": 0, **dict.fromkeys(self.names_key, 0)}


@dataclass(frozen=True)
class SengokuGame(FixedGamesMatch):
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
    # Derived from the table (not compared): what a card completes, and how to shuffle the deck.
    steal_names: tuple[tuple[Completion, ...], ...] = field(init=False, repr=False, compare=False)
    draw_names: tuple[tuple[Completion, ...], ...] = field(init=False, repr=False, compare=False)
    is_surname: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    shuffle_bits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _seatings: dict[int, Seating] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size = len(self.table.type_of)
        derived = {"steal_names": _completions(self.table, False), "draw_names": _completions(self.table, True),
                   "is_surname": tuple(not g for g in self.table.is_given),
                   "shuffle_bits": shuffle_bits(size), "_seatings": {}}
        for key, value in derived.items():
            object.__setattr__(self, key, value)

    @classmethod
    def from_model(cls, model: GameModel) -> SengokuGame:
        rules = SengokuRules.from_mapping(model.rules)
        copies = [copy for deck in model.decks for copy in deck.copies()  # play cards, not reference sheets
                  if copy.card.fields.get("kind") in ("surname", "given")]
        table = build_name_table(copies, model.rules)
        return cls(model.id, rules, table, model.players[0], max_players(len(table.type_of), rules.hand_size),
                   model.players, model.play_minutes)

    @staticmethod
    def players_limit(cards: int, hand_size: int) -> int:
        """The most players for whom hand_size x players leaves a card to draw."""
        return max_players(cards, hand_size)

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
        shuffle(rng, pile, self.shuffle_bits)
        return SengokuState(self, pile, num_players, start)

    def seating(self, num_players: int) -> Seating:
        """What a table of `num_players` needs (built once per table size)."""
        known = self._seatings.get(num_players)
        if known is None:
            known = self._seatings[num_players] = Seating(num_players)
        return known

    def action_kind(self, action: Action) -> int:
        return action >> KIND_SHIFT

    def fast_playout(self, policies: Sequence[Any]) -> Any:
        """The harness hook: a whole-game player that drives SengokuState with these policies, or None."""
        return playout_for(self, policies)


class SengokuState:
    """A game in progress; apply_action mutates it in place."""

    def __init__(self, game: SengokuGame, pile: list[int], num_players: int, first_player: Seat) -> None:
        self.game, self.table, self.num_players = game, game.table, num_players
        self.riichi_variant = game.rules.variant == "riichi"
        self.pile = pile
        num_types = self.table.num_types
        self.counts = [[0] * num_types for _ in range(num_players)]            # seat -> type -> cards held
        self.distinct: list[list[int]] = [[] for _ in range(num_players)]      # seat -> distinct types, sorted
        self.stacks: list[dict[int, list[int]]] = [{} for _ in range(num_players)]  # seat -> type -> cards
        self._type_of, self._steal_names, self._draw_names = self.table.type_of, game.steal_names, game.draw_names
        size = game.rules.hand_size
        for seat in range(num_players):
            self._deal(seat, [pile.pop() for _ in range(size)])
        self.clean = [False] * num_players  # the hand was seen to hold no complete name (base rule)
        self.shown: list[list[int]] = [[] for _ in range(num_players)]        # warlords laid out
        self.shown_cards: list[list[int]] = [[] for _ in range(num_players)]  # their cards
        self.discards: list[int] = []
        self.riichi = [False] * num_players
        self.zero_order: list[Seat] = []
        self.first_player = first_player
        self.turn_player = first_player
        self.candidates: list[tuple[Seat, list[Action]]] = []  # (seat, its steals) still to be asked
        self.live = -1                        # the discard open to a steal, -1 if none
        self.discarder: Seat = -1             # the seat that discarded last
        self.turns = 0
        seating = game.seating(num_players)
        self._after, self._next, self._names_key = seating.after, seating.next, seating.names_key
        self.counts_ = dict(seating.counters)
        self.end_reason = ""
        self._returns: tuple[int, ...] = (0,) * num_players
        self._winners: tuple[Seat, ...] = ()
        # The pending decision; _legal None stands for the discard choices, listed when asked.
        self.phase, self.player = OVER, first_player
        self._legal: list[Action] | None = []
        if self.riichi_variant:
            for seat in range(num_players):
                self._check_riichi(seat)
        self._draw_turn(first_player)

    def clone(self) -> SengokuState:
        """An independent copy sharing only the immutable game (and its name table)."""
        other = SengokuState.__new__(SengokuState)
        other.__dict__.update(self.__dict__)  # immutable members and ints; the mutable ones are copied below
        other.pile, other.discards, other.zero_order = self.pile[:], self.discards[:], self.zero_order[:]
        other.counts = [c[:] for c in self.counts]
        other.distinct = [d[:] for d in self.distinct]
        other.stacks = [{t: cards[:] for t, cards in s.items()} for s in self.stacks]
        other.clean, other.riichi = self.clean[:], self.riichi[:]
        other.shown = [s[:] for s in self.shown]
        other.shown_cards = [s[:] for s in self.shown_cards]
        other.candidates = [(seat, steals[:]) for seat, steals in self.candidates]
        other.counts_ = dict(self.counts_)
        other._legal = None if self._legal is None else self._legal[:]
        return other

    # -- queries --------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> Sequence[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = [DISCARD_BASE | t for t in self.distinct[self.player]]
        return legal

    def legal_count(self) -> int:
        """len(legal_actions()), without listing them."""
        legal = self._legal
        return len(self.distinct[self.player]) if legal is None else len(legal)

    def legal_at(self, index: int) -> Action:
        """legal_actions()[index], without listing them (0 <= index < legal_count())."""
        legal = self._legal
        return DISCARD_BASE | self.distinct[self.player][index] if legal is None else legal[index]

    def hand_types(self, seat: Seat) -> tuple[int, ...]:
        """The seat's card types, sorted."""
        held, types = self.counts[seat], []
        for t in self.distinct[seat]:
            if held[t] == 1:
                types.append(t)
            else:
                types += [t] * held[t]
        return tuple(types)

    @property
    def hands(self) -> list[list[int]]:
        """Seat -> the physical cards it holds (grouped by type, types in order)."""
        return [[card for t in distinct for card in stacks[t]] for distinct, stacks in zip(self.distinct, self.stacks)]

    def hand_size(self, seat: Seat) -> int:
        held = self.counts[seat]
        return sum(held[t] for t in self.distinct[seat])

    # -- cards in and out of a hand ---------------------------------------------------------------
    def _deal(self, seat: Seat, cards: list[int]) -> None:
        """Put the dealt cards in an empty hand."""
        held, stacks, type_of = self.counts[seat], self.stacks[seat], self._type_of
        for card in cards:
            t = type_of[card]
            if held[t]:
                stacks[t].append(card)
            else:
                stacks[t] = [card]
            held[t] += 1
        self.distinct[seat] = sorted(stacks)

    def _gain(self, seat: Seat, card: int) -> int:
        """Put a card in a hand; its type."""
        t = self._type_of[card]
        held = self.counts[seat]
        if held[t]:
            self.stacks[seat][t].append(card)
        else:
            self.stacks[seat][t] = [card]
            insort(self.distinct[seat], t)
        held[t] += 1
        return t

    def _take_type(self, seat: Seat, card_type: int) -> int:
        """Take the hand's last card of `card_type` (the latest gained) out of it."""
        held = self.counts[seat]
        left = held[card_type] - 1
        if left < 0:
            raise ValueError(f"seat {seat} holds no card of type {self.table.type_label[card_type]}")
        held[card_type] = left
        if not left:
            self.distinct[seat].remove(card_type)
        return self.stacks[seat][card_type].pop()

    def set_cards(self, hands: Sequence[Sequence[int]], pile: list[int], discards: list[int],
                  shown_cards: Sequence[Sequence[int]]) -> None:
        """Put every card in the given place at once: a position dealt for a search (determinize.py).
        The names those laid-out cards spell and the pending decision are the caller's to set."""
        num_types = self.table.num_types
        self.counts = [[0] * num_types for _ in hands]
        self.distinct = [[] for _ in hands]
        self.stacks = [{} for _ in hands]
        for seat, cards in enumerate(hands):
            self._deal(seat, list(cards))
        self.pile, self.discards = pile, discards
        self.shown_cards = [list(cards) for cards in shown_cards]

    # -- turn -----------------------------------------------------------------------------------
    def _draw_turn(self, seat: Seat) -> None:
        pile = self.pile
        if not pile:
            self._finish_pile()
            return
        drawn = self._gain(seat, pile.pop())
        self.turns += 1
        self.turn_player = seat
        if self.riichi_variant or not self.clean[seat]:
            self._after_gain(seat)
            return
        held = self.counts[seat]  # a clean hand completes only names through the card drawn
        completions = self._draw_names[drawn]
        for _, a, b, d in completions:  # mostly none: find out before building a list
            if held[a] and held[b] > d:
                self.phase, self.player = REVEAL, seat
                self._legal = [REVEAL_BASE | w for w, a, b, d in completions if held[a] and held[b] > d]
                return
        self.phase, self.player, self._legal = DISCARD, seat, None

    def _after_gain(self, seat: Seat) -> None:
        """After a steal or a lay-out, or a draw in the riichi variant or to a hand not yet seen clean: win
        (riichi), lay out a name (base) or discard."""
        if self.riichi_variant:
            # Only a hand in riichi can be all names but one after a gain (it was one card from complete
            # before it), so the others are not packed.
            if self.riichi[seat] and self.table.is_complete_but_one(self.hand_types(seat)):
                self._win(seat)
                return
        elif not self.clean[seat]:
            held, completers, is_surname = self.counts[seat], self.table.completers, self.game.is_surname
            names = [REVEAL_BASE | w for t in self.distinct[seat] if is_surname[t] for w, a, b in completers[t]
                     if held[a] and held[b] and (a != b or held[a] > 1)]
            if names:
                names.sort()
                self.phase, self.player, self._legal = REVEAL, seat, names
                return
            self.clean[seat] = True
        self.phase, self.player, self._legal = DISCARD, seat, None

    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        if self.phase == OVER:
            raise ValueError("the game is over")
        kind, x, seat = action >> KIND_SHIFT, action & MASK, self.player
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

    def _lay_out(self, seat: Seat, warlord: int) -> None:
        self.shown[seat].append(warlord)
        self.shown_cards[seat].extend([self._take_type(seat, t) for t in self.table.names[warlord]])
        counts = self.counts_
        counts["names"] += 1
        counts[self._names_key[seat]] += 1

    def _discard(self, seat: Seat, card_type: int) -> None:
        card = self._take_type(seat, card_type)
        self.discards.append(card)
        self.discarder = seat
        if not self.distinct[seat]:
            self.zero_order.append(seat)
            self.counts_["emptied"] = 1
        elif self.riichi_variant:
            self._check_riichi(seat)
        self.live = card
        completions = self._steal_names[card_type]
        if completions:
            counts, candidates = self.counts, []
            for s in self._after[seat]:  # a name's two other cards in hand: the hand holds two cards or more
                held = counts[s]
                for _, a, b, d in completions:  # most seats can't steal: find out before building a list
                    if held[a] and held[b] > d:
                        steals = [STEAL_BASE | w for w, a, b, d in completions if held[a] and held[b] > d]
                        candidates.append((s, steals))
                        break
            self.candidates = candidates
        self._ask_next()

    def _check_riichi(self, seat: Seat) -> None:
        if self.riichi[seat]:
            return
        if self.table.is_ready(self.hand_types(seat)):
            self.riichi[seat] = True
            self.counts_["riichi"] += 1

    def _ask_next(self) -> None:
        """Offer the live discard to the next seat able to steal it, or close the window."""
        if self.candidates:
            seat, steals = self.candidates.pop(0)  # its hand is as when the window opened: only passes since
            self.phase, self.player, self._legal = STEAL, seat, [*steals, PASS_ACTION]
            return
        self.live = -1
        if self.num_players - len(self.zero_order) <= 1:  # an emptied hand never gains a card again
            self._finish_base(END_ALL_OUT)
            return
        after, distinct = self._next, self.distinct
        seat = after[self.turn_player]
        while not distinct[seat]:
            seat = after[seat]
        self._draw_turn(seat)

    def _steal(self, seat: Seat, warlord: int) -> None:
        self._gain(seat, self.discards.pop())
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
            crests = {s: self.table.tie_crests(hands[s]) for s in group}
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    result, used = self.table.compare_crests(crests[a], crests[b])
                    if result == 0:
                        self.counts_["tie_shared"] += 1
                    else:
                        self.counts_["tie_rule1" if used == 1 else "tie_rule2"] += 1
                        wins[a if result < 0 else b] += 1
            for s in group:
                key[s] = (size, -wins[s])
        return tuple([sum([1 for other in key if other > mine]) for mine in key])

    def _finish(self, reason: str, scores: tuple[int, ...], winners: tuple[Seat, ...]) -> None:
        self.end_reason, self._returns, self._winners = reason, scores, winners
        self.phase, self.player, self._legal = OVER, TERMINAL, []

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
            hand=self.hand_types(player), hand_sizes=tuple(self.hand_size(s) for s in range(self.num_players)),
            shown=tuple(tuple(s) for s in self.shown), discards=tuple(type_of[c] for c in self.discards),
            live=type_of[self.live] if self.live >= 0 else -1, pile=len(self.pile), riichi=tuple(self.riichi),
            zero_order=tuple(self.zero_order), first_player=self.first_player, turn_player=self.turn_player,
            discarder=self.discarder if self.live >= 0 else -1, clean=tuple(self.clean),
            steals=self.counts_["steals"])

    # -- display and checks ---------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        kind, x = decode(action)
        table = self.table
        if kind == REVEAL:
            return f"公開: {table.name_label[x]}"
        if kind == DISCARD:
            return f"捨てる: {table.type_label[x]}"
        if kind == STEAL:
            return f"横取り: {table.name_label[x]}"
        return "見送る" if kind == PASS else f"?{action}"

    def _complete_names(self, seat: Seat) -> list[int]:
        """Every name the seat's hand completes (a slow reference for check_invariants)."""
        held = self.counts[seat]
        return [w for w, name in enumerate(self.table.names) if all(held[t] >= name.count(t) for t in name)]

    def check_invariants(self) -> None:
        """Raise InvariantError unless every card is in one place, each hand's views agree and hand sizes
        fit the phase."""
        hands, type_of = self.hands, self.table.type_of
        every = self.pile + self.discards + [c for h in hands for c in h] + [c for s in self.shown_cards for c in s]
        if len(every) != len(type_of) or set(every) != set(range(len(type_of))):
            raise InvariantError(f"cards not conserved: {len(every)} placed, {len(set(every))} distinct")
        for seat in range(self.num_players):
            hand = hands[seat]
            held = [0] * self.table.num_types
            for card in hand:
                held[type_of[card]] += 1
            if any(type_of[c] != t for t, cards in self.stacks[seat].items() for c in cards):
                raise InvariantError(f"seat {seat}: a card stacked under another type")
            if (held != self.counts[seat] or self.distinct[seat] != sorted({type_of[c] for c in hand})
                    or self.hand_size(seat) != len(hand)):
                raise InvariantError(f"seat {seat}: type counts out of step with the hand")
            shown = sorted(type_of[c] for c in self.shown_cards[seat])
            if shown != sorted(t for w in self.shown[seat] for t in self.table.names[w]):
                raise InvariantError(f"seat {seat}: laid-out cards do not spell the laid-out names")
            size = len(hand)
            acting = self.phase in (REVEAL, DISCARD) and seat == self.player
            if size % 3 != (1 if acting else 0):
                raise InvariantError(f"seat {seat} holds {size} cards in phase {self.phase}")
            if (size == 0) != (seat in self.zero_order):
                raise InvariantError(f"seat {seat}: {size} cards but zero order {self.zero_order}")
            revealing = self.phase == REVEAL and seat == self.player
            if self.clean[seat] and not revealing and self._complete_names(seat):
                raise InvariantError(f"seat {seat}: marked clean but completes {self._complete_names(seat)}")
        if self.end_reason == END_RIICHI_WIN and not self.riichi[self._winners[0]]:
            raise InvariantError("a riichi win without a riichi declaration")
        if self.phase != OVER and not self.legal_count():
            raise InvariantError("a decision with no legal action")
