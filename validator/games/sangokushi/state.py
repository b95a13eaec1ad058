"""sangokushi: the rules engine — turns (attack, recover, recruit, dismiss, pass), neutral captures,
refusals, battles and their aftermath, holding limits and both victory conditions.

Every choice the rules give a player as "choose any number of cards" is a sequence of small
decisions (add one card, then done), so a legal-action list never grows beyond the hand or the map.
Dice are drawn from the `chance` generator the harness passes in, at the moment the rules roll them;
decisions with a single sensible outcome (the last card to turn face down, a draw when the pool is
empty) are taken by the engine rather than asked. The battle's rounds and aftermath live in
battle.py; this module holds the state and the turn, game.py the game that deals it.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from . import battle, economy, knowledge
from .phases import (
    ATTACK_P,
    CAPTURE_P,
    DAMAGE_P,
    DEFEND_P,
    DISMISS_P,
    DRAW_P,
    END_COUNTERS,
    END_ROUNDS,
    END_STALEMATE,
    END_TARGET,
    OVER,
    PAY_P,
    RECOVER_P,
    RECRUIT_P,
    RESTORE_P,
    SHED_P,
    TURN,
)
from .rules import (
    ATTACK,
    COMMIT,
    DAMAGE,
    DISCARD,
    DISMISS,
    DONE,
    DRAW,
    KEEP,
    PASS,
    PAY,
    RECOVER,
    RECRUIT,
    REFUSE,
    RELEASE,
    RESTORE,
    ROLL,
    SHED,
    SPEND,
    TAKE,
    SangokushiObservation,
    decode,
    encode,
)

if TYPE_CHECKING:
    from .game import SangokushiGame

COUNTERS = ("attacks", "neutral_captures", "battles", "refusals", "rounds", "ties", "attacker_wins",
            "defender_wins", "captures", "kills", "returns", "released", "lord_deaths", "end_rolls", "recoveries",
            "restored", "recruits", "extra_recruits", "drawn", "dismissals", "dismissed", "shed", "passes",
            "end_target", "end_lord", "end_stalemate", "end_rounds")
_PASS, _DONE, _REFUSE, _ROLL, _DRAW = (encode(k) for k in (PASS, DONE, REFUSE, ROLL, DRAW))
_RECOVER, _RECRUIT, _DISMISS = encode(RECOVER), encode(RECRUIT), encode(DISMISS)
# kind bases of the actions that carry a card or an area: base | operand (hot loop of the legal lists)
_ATTACK, _PAY, _COMMIT, _DAMAGE, _KEEP, _RELEASE, _SHED, _SPEND, _RESTORE, _TAKE, _DISCARD = (
    encode(k) for k in (ATTACK, PAY, COMMIT, DAMAGE, KEEP, RELEASE, SHED, SPEND, RESTORE, TAKE, DISCARD))


class SangokushiState:
    """One game in progress; apply_action mutates it in place, clone() copies it (sharing `chance`)."""

    def __init__(self, game: SangokushiGame, chance: random.Random, num_players: int, deck: list[int],
                 starts: Sequence[int], first_player: Seat, *, blank: bool = False) -> None:
        self.game, self.chance, self.n = game, chance, num_players
        if blank:  # clone() and unpickling set every other field
            return
        self.rules, self.gen, self.board = game.rules, game.generals, game.board
        self.deal, self.target = game.rules.deal_size[num_players], game.board.victory_points[num_players]
        self.deck = deck
        self.hands = [[deck.pop() for _ in range(self.deal)] for _ in range(num_players)]
        self.used: list[list[int]] = [[] for _ in range(num_players)]
        self.pool: list[int] = []
        self.removed: list[int] = []
        self.owner = [-1] * len(game.board.names)
        self.points = [0] * num_players
        for seat, area in enumerate(starts):
            self.owner[area] = seat
            self.points[seat] += game.board.points[area]
        self.starts = tuple(starts)
        self.first_player = self.turn_player = self.player = first_player
        self.phase, self.turns, self.passes_in_row = TURN, 1, 0
        self.spent: list[int] = []      # cards chosen so far (pay, battle selection, recovery, recruit)
        self.spent_owner: Seat = -1
        self.pending = 0                # draws, restores or dismissals counted in the current step
        self.eligible: list[int] = []   # used cards a recovery may bring back (7.7)
        self.area = -1                  # the attacked area
        self.sides: list[list[int]] = [[], []]   # battle cards: attacker, defender
        self.up: list[list[int]] = [[], []]      # of those, face up (after the reveal)
        self.seats = [-1, -1]                    # attacker, defender
        self.revealed, self.method, self.damage, self.damaged = False, 0, 0, -1
        self.captured: list[int] = []
        self.winner: Seat = -1
        self.shed_seat: Seat = -1
        self.dead_lords = 0
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.end_reason = ""
        # what the table saw of each seat's cards (knowledge.py): seat -> card -> the places it may be in
        self.known: list[dict[int, int]] = [{} for _ in range(num_players)]
        self.known_view: knowledge.Known | None = None
        self._legal: list[Action] | None = None

    def clone(self) -> SangokushiState:
        """Every field set by name (compiled by mypyc, a state has no __dict__ to copy): the lists and dicts
        are copied (the per-seat and per-side ones one level deeper), everything else is immutable and shared."""
        other = SangokushiState(self.game, self.chance, self.n, [], (), 0, blank=True)
        other.rules, other.gen, other.board, other.deal, other.target = self.rules, self.gen, self.board, self.deal, \
            self.target
        other.starts, other.first_player, other.turn_player, other.player = self.starts, self.first_player, \
            self.turn_player, self.player
        other.phase, other.turns, other.passes_in_row, other.pending = self.phase, self.turns, self.passes_in_row, \
            self.pending
        other.spent_owner, other.area, other.revealed, other.method = self.spent_owner, self.area, self.revealed, \
            self.method
        other.damage, other.damaged, other.winner, other.shed_seat = self.damage, self.damaged, self.winner, \
            self.shed_seat
        other.dead_lords, other.end_reason, other.known_view = self.dead_lords, self.end_reason, self.known_view
        other.deck, other.pool, other.removed = self.deck[:], self.pool[:], self.removed[:]
        other.hands, other.used = [h[:] for h in self.hands], [u[:] for u in self.used]
        other.owner, other.points = self.owner[:], self.points[:]
        other.spent, other.eligible, other.captured = self.spent[:], self.eligible[:], self.captured[:]
        other.sides, other.up, other.seats = [s[:] for s in self.sides], [u[:] for u in self.up], self.seats[:]
        other.counts = dict(self.counts)
        other.known = [dict(known) for known in self.known]
        other._legal = None
        return other

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled field by field (compiled by mypyc, a state has no __dict__ for pickle to take)."""
        return _unpickle, (tuple(getattr(self, name) for name in FIELDS),)

    def seat_labels(self) -> dict[str, tuple[str, ...]]:
        """Each seat's start area (seed 2.4), so the report can ask whether a start area is too strong."""
        return {"開始エリア": tuple(self.board.names[area] for area in self.starts)}

    # -- small queries ----------------------------------------------------------------------------
    def d6(self) -> int:
        """One die, drawn from the chance generator."""
        return int(self.chance.random() * 6) + 1

    def limit(self, seat: Seat) -> int:
        """10.3: the deal size plus the points of the areas held."""
        return self.deal + self.points[seat]

    def held(self, seat: Seat) -> int:
        """10.2: hand and used cards (cards chosen but not yet placed count for their holder)."""
        count = len(self.hands[seat]) + len(self.used[seat])
        if self.spent_owner == seat:
            count += len(self.spent)
        for side in (0, 1):
            if self.seats[side] == seat:
                count += len(self.sides[side])
        return count

    def attackable(self, seat: Seat) -> list[int]:
        """4.2/4.3: areas next to one the seat holds, or any area when it holds none (never its own)."""
        owner, neighbours = self.owner, self.board.neighbours
        found: set[int] = set()
        held = False
        for area, holder in enumerate(owner):
            if holder == seat:
                held = True
                found.update(neighbours[area])
        if not held:
            return [a for a, o in enumerate(owner) if o != seat]
        return sorted(a for a in found if owner[a] != seat)

    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def turn_number(self) -> int:
        return self.turns

    def returns(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise ValueError("the game is not over")
        scores = tuple(self.points)
        return Outcome(scores, best_seats(scores), self.end_reason, self.turns)

    def counters(self) -> Mapping[str, int]:
        return self.counts

    # -- legal actions ----------------------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        if self._legal is None:
            self._legal = self._list_legal()
        return self._legal

    def _list_legal(self) -> list[Action]:
        phase, seat = self.phase, self.player
        if phase == OVER:
            return []
        hand = self.hands[seat]
        if phase == TURN:
            legal = []
            if hand:
                cost = self.rules.neutral_cost
                legal = [_ATTACK | a for a in self.attackable(seat) if self.owner[a] >= 0 or len(hand) >= cost]
            if self.used[seat]:
                legal.append(_RECOVER)
            if self.held(seat) < self.limit(seat) and (self.deck or self.pool):
                legal.append(_RECRUIT)
            if hand:
                legal.append(_DISMISS)
            legal.append(_PASS)
            return legal
        if phase == PAY_P:
            return [_PAY | c for c in hand]
        if phase in (ATTACK_P, DEFEND_P):
            legal = [_COMMIT | c for c in hand]
            if self.spent:
                legal.append(_DONE)
            elif phase == DEFEND_P:
                legal.append(_REFUSE)
            return legal
        if phase == DAMAGE_P:
            return [_DAMAGE | c for c in self.up[self.damaged]]
        if phase == CAPTURE_P:
            card = self.captured[-1]
            return [_KEEP | card, _RELEASE | card]
        if phase == SHED_P:
            return [_SHED | c for c in hand + self.used[seat]]
        if phase == RECOVER_P:
            return [*(_SPEND | c for c in hand), _ROLL]
        if phase == RESTORE_P:
            return [_RESTORE | c for c in self.eligible]
        if phase == RECRUIT_P:
            return economy.recruit_legal(self, hand)
        if phase == DRAW_P:
            return ([_DRAW] if self.deck else []) + [_TAKE | c for c in self.pool]
        if phase == DISMISS_P:
            return [_DISCARD | c for c in hand] + ([_DONE] if self.pending else [])
        raise InvariantError(f"no phase {phase}")

    # -- applying ---------------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        if self.phase == OVER:
            raise ValueError("the game is over")
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {self.action_to_string(action)} ({action}) in phase {self.phase}")
        self._legal = None
        kind, x = decode(action)
        seat, phase = self.player, self.phase
        if phase == TURN:
            self._turn_action(kind, x)
        elif kind == PAY:
            self._take_card(seat, x)
            if len(self.spent) == self.rules.neutral_cost:
                self.used[seat].extend(self.spent)
                knowledge.move(self, seat, knowledge.SPENT, knowledge.USED)
                self._clear_spent()
                self.counts["neutral_captures"] += 1
                self.change_owner(self.area, seat)
                self.finish()
        elif kind == COMMIT:
            self._take_card(seat, x)
            if len(self.spent) == self.rules.max_battle_cards or not self.hands[seat]:
                battle.selection_done(self)
        elif kind == DONE and phase in (ATTACK_P, DEFEND_P):
            battle.selection_done(self)
        elif kind == REFUSE:
            battle.refuse(self)
        elif kind == DAMAGE:
            battle.flip(self, self.damaged, x)
            battle.continue_battle(self)
        elif kind in (KEEP, RELEASE):
            battle.place_captured(self, self.captured.pop(), keep=kind == KEEP)
            self.finish()
        elif kind == SHED:
            (self.hands[seat] if x in self.hands[seat] else self.used[seat]).remove(x)
            knowledge.forget(self, seat, x)
            self.pool.append(x)
            self.counts["shed"] += 1
            self.finish()
        elif kind == SPEND:
            self._take_card(seat, x)
        elif kind == ROLL:
            economy.recover_roll(self, seat) if phase == RECOVER_P else economy.recruit_roll(self, seat)
        elif kind == RESTORE:
            self.eligible.remove(x)
            self.used[seat].remove(x)
            self.hands[seat].append(x)
            knowledge.widen(self, seat, knowledge.ELIGIBLE, knowledge.HAND)
            self.counts["restored"] += 1
            self.pending -= 1
            if not self.pending:
                knowledge.move(self, seat, knowledge.ELIGIBLE, knowledge.USED)
                self.end_turn()
        elif kind in (DRAW, TAKE):
            economy.draw(self, seat, x if kind == TAKE else -1)
        elif kind == DISCARD:
            self.hands[seat].remove(x)
            knowledge.forget(self, seat, x)
            self.pool.append(x)
            self.pending += 1
            self.counts["dismissed"] += 1
            if not self.hands[seat]:
                self.end_turn()
        elif kind == DONE:  # dismissal
            self.end_turn()

    def _turn_action(self, kind: int, x: int) -> None:
        seat = self.player
        if kind == PASS:
            self.counts["passes"] += 1
            self.passes_in_row += 1
            if self.passes_in_row >= self.n:
                self.end(END_STALEMATE)
            else:
                self.end_turn()
            return
        self.passes_in_row = 0
        self.spent_owner = seat
        if kind == ATTACK:
            self.counts["attacks"] += 1
            self.area = x
            defender = self.owner[x]
            if defender < 0:
                self.phase = PAY_P
            else:
                self.seats[:] = [seat, defender]
                self.phase = ATTACK_P
        elif kind == RECOVER:
            self.counts["recoveries"] += 1
            self.phase = RECOVER_P
        elif kind == RECRUIT:
            self.counts["recruits"] += 1
            self.phase = RECRUIT_P
        elif kind == DISMISS:
            self.counts["dismissals"] += 1
            self.pending = 0
            self.phase = DISMISS_P

    def _take_card(self, seat: Seat, card: int) -> None:
        """A hand card chosen face down (pay, battle, recovery, recruit): no one sees which."""
        self.hands[seat].remove(card)
        self.spent.append(card)
        knowledge.widen(self, seat, knowledge.HAND, knowledge.SPENT)

    def _clear_spent(self) -> None:
        self.spent = []
        self.spent_owner = -1

    # -- areas, turn order, the end ---------------------------------------------------------------
    def change_owner(self, area: int, seat: Seat) -> None:
        """An area changes hands; the loser may now be over its limit (10.5); the taker may reach the target."""
        old = self.owner[area]
        self.owner[area] = seat
        value = self.board.points[area]
        self.points[seat] += value
        if old >= 0:
            self.points[old] -= value
            if self.held(old) > self.limit(old):
                self.shed_seat = old
        if self.points[seat] >= self.target:
            self.end(END_TARGET)

    def finish(self) -> None:
        """After an area change or a battle: the winner's captured cards, then the loser's excess, then the
        next turn (each a decision when there is a choice)."""
        if self.phase == OVER:
            return
        while self.captured:
            winner = self.winner
            if self.held(winner) < self.limit(winner):
                self.phase, self.player = CAPTURE_P, winner
                return
            battle.place_captured(self, self.captured.pop(), keep=False)
        seat = self.shed_seat
        if seat >= 0:
            if self.held(seat) > self.limit(seat):
                self.phase, self.player = SHED_P, seat
                return
            self.shed_seat = -1
        self.end_turn()

    def end_turn(self) -> None:
        self._clear_spent()
        self.eligible, self.pending, self.area = [], 0, -1
        battle.clear(self)
        if self.turns >= self.rules.round_limit * self.n:
            self.end(END_ROUNDS)
            return
        self.turns += 1
        self.turn_player = self.player = (self.turn_player + 1) % self.n
        self.phase = TURN

    def end(self, reason: str) -> None:
        self.end_reason = reason
        self.counts[END_COUNTERS[reason]] = 1
        self.phase = OVER
        self._legal = []

    # -- views ------------------------------------------------------------------------------------
    def observation(self, player: Seat) -> SangokushiObservation:
        from .views import observe

        return observe(self, player)

    def action_to_string(self, action: Action) -> str:
        from .views import describe

        return describe(self, action)

    def check_invariants(self) -> None:
        from .invariants import check

        check(self)


# Every field of a state, for pickling (tests check the list against an interpreted state's fields).
FIELDS = ("game", "chance", "n", "rules", "gen", "board", "deal", "target", "deck", "hands", "used", "pool", "removed",
          "owner", "points", "starts", "first_player", "turn_player", "player", "phase", "turns", "passes_in_row",
          "spent", "spent_owner", "pending", "eligible", "area", "sides", "up", "seats", "revealed", "method",
          "damage", "damaged", "captured", "winner", "shed_seat", "dead_lords", "counts", "end_reason", "known",
          "known_view", "_legal")


def _unpickle(values: tuple[object, ...]) -> SangokushiState:
    game, chance, n = values[:3]
    state = SangokushiState(game, chance, n, [], (), 0, blank=True)  # type: ignore[arg-type]
    for name, value in zip(FIELDS, values):
        setattr(state, name, value)
    return state
