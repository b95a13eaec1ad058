"""五行中国史カードゲーム (gogyo): the rules engine — setup, the three turn actions, duels, declaration, end, match.

`GogyoState` is one game in progress, mutated in place; `GogyoGame` (game.py) the immutable rules
and card table built from the loaded deck, which deals it. This is the only place the rules are
written: every transition is in GogyoState.run (apply_action is run for one move), every
legal-action list comes from GogyoState.choices, and the harness's whole-game playout
(playout.py) drives this same state.

Cards are ints 0..65 (physical copies; `CardTable.type_of` maps them to card types). The state is
kept cheap to play: each seat's hand key (the sum of its cards' weights, the scorer's memo key) is
updated as cards move, so a repeated card type is one bit test and a score is one memo lookup; the
face-down cards of a hand are a bit mask, so revealing a hand is one assignment; the legal actions
are moves into a pool whose lists are built once per game (tables.py), so they can be counted and
indexed (legal_count, legal_at, sample) without building the list of action ints; and run plays
on through a sequence of random seats' moves in one call.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from .rules import (
    ACTION_KINDS,
    DECLARE,
    DECLARE_CHOICE,
    DESTROY,
    DRAW,
    DUEL,
    END_DECK,
    END_DECLARED,
    FIELD,
    GIVE,
    GIVE_CHOICE,
    KIND_SHIFT,
    MAIN,
    MASK,
    NONE,
    OVER,
    PASS,
    PLUNDER,
    SHIFT,
    WIN_CHOICE,
    GogyoObservation,
)
from .tables import DECLARE_OR_PASS_MOVES, NONE_POOL, Move, shape

if TYPE_CHECKING:
    from .game import GogyoGame


class GogyoState:
    """One game in progress; apply_action mutates it in place.

    Kept alongside the piles (and checked by check_invariants): `keys[s]`, the hand key of seat s;
    `field_key`, the field's key in the field's own weights; `down[s]`, the bit mask (1 << card) of
    the cards seat s holds face down (drawn from the deck and not revealed since).
    """

    __slots__ = ("game", "num_players", "deck", "field", "hands", "discard", "down", "keys", "field_key", "phase",
                 "player", "turn_player", "first_player", "turns", "own_turns", "winner", "loser", "end_reason",
                 "previous_scores", "wrong_declarations", "duels_won_by_attacker", "_returns", "_moves", "_pool")

    def __init__(self, game: GogyoGame, num_players: int, first_player: Seat,
                 previous_scores: tuple[tuple[int, ...], ...]) -> None:
        """A table before the deal (`deal` fills it; `clone` copies into one)."""
        self.game = game
        self.num_players = num_players
        self.deck: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.field: list[int] = []
        self.discard: list[int] = []
        self.down = [0] * num_players  # dealt hands are face up
        self.keys = [0] * num_players
        self.field_key = 0
        self.phase = MAIN
        self.player = self.turn_player = self.first_player = first_player
        self.turns = 1
        self.own_turns = [0] * num_players
        self.winner = self.loser = -1
        self.end_reason = ""
        self.previous_scores = previous_scores
        self.wrong_declarations = self.duels_won_by_attacker = 0
        self._returns: tuple[int, ...] | None = None
        self._moves: Sequence[Move] | None = None  # the cached choices(), dropped by every move
        self._pool: Sequence[int] = ()

    def deal(self, deck: list[int]) -> None:
        """Deal from the shuffled deck's end, a hand at a time, then the field; the rest is the draw pile."""
        game, num_players = self.game, self.num_players
        hand_size, weight = game.rules.hand_size, game.tables.weight
        dealt = len(deck) - num_players * hand_size - game.rules.field_size
        top = deck[dealt:]
        del deck[dealt:]
        top.reverse()
        self.deck = deck
        self.hands = hands = [top[seat * hand_size:(seat + 1) * hand_size] for seat in range(num_players)]
        self.field = top[num_players * hand_size:]
        self.keys = [sum([weight[c] for c in hand]) for hand in hands]
        field_weight = game.tables.field_weight
        self.field_key = sum([field_weight[c] for c in self.field])

    def set_cards(self, hands: Sequence[Sequence[int]], field: Sequence[int], deck: Sequence[int],
                  discard: Sequence[int], face_down: Sequence[int] = ()) -> None:
        """Lay the cards out anew (scripted positions for tests and tools); `face_down` lists hand cards."""
        self.hands, self.field = [list(h) for h in hands], list(field)
        self.deck, self.discard = list(deck), list(discard)
        self.down = [sum(1 << c for c in hand if c in face_down) for hand in self.hands]
        weight, field_weight = self.game.tables.weight, self.game.tables.field_weight
        self.keys = [sum([weight[c] for c in hand]) for hand in self.hands]
        self.field_key = sum([field_weight[c] for c in self.field])
        self._returns = self._moves = None

    def clone(self) -> GogyoState:
        """An independent copy sharing only the immutable game."""
        other = GogyoState(self.game, self.num_players, self.first_player, self.previous_scores)
        other.deck, other.field, other.discard = self.deck[:], self.field[:], self.discard[:]
        other.hands = [hand[:] for hand in self.hands]
        other.down, other.keys, other.field_key = self.down[:], self.keys[:], self.field_key
        other.phase, other.player, other.turn_player = self.phase, self.player, self.turn_player
        other.turns, other.own_turns = self.turns, self.own_turns[:]
        other.winner, other.loser, other.end_reason = self.winner, self.loser, self.end_reason
        other.wrong_declarations, other.duels_won_by_attacker = self.wrong_declarations, self.duels_won_by_attacker
        other._returns, other._moves, other._pool = self._returns, self._moves, self._pool
        return other

    # -- queries ---------------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.phase == OVER else self.player

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_face_up(self, card: int) -> bool:
        """Whether a card is face up (every card but those a hand holds face down)."""
        return not any(mask >> card & 1 for mask in self.down)

    # The legal actions of a decision are kept as moves (kind, a, b) into a pool of cards and seats,
    # so that legal_actions, legal_count, legal_at, sample and run all read the one list `choices`
    # gives. The moves depend only on the shapes of the hands and field involved (and on what the deck
    # allows), so each list is made once per game (Tables.moves); the pair is cached until the next move.
    def choices(self) -> tuple[Sequence[Move], Sequence[int]]:
        """The legal actions as moves and their pool: action i is (kind, pool[a], pool[b]) of moves[i]."""
        if self._moves is None:
            self._moves, self._pool = self._choices()
        return self._moves, self._pool

    def _choices(self) -> tuple[Sequence[Move], Sequence[int]]:
        phase, tables = self.phase, self.game.tables
        moves: Sequence[Move] | None = None
        pool: Sequence[int]
        type_of = self.game.table.type_of
        key: tuple[Any, ...] = ()
        if phase == MAIN:
            player, deck_size, rules = self.player, len(self.deck), self.game.rules
            hand, field = self.hands[player], self.field
            pool = [*hand, *field, *tables.tails[self.num_players][player]]
            key = (MAIN, shape(hand, type_of, self.keys[player] & tables.repeats),
                   shape(field, type_of, self.field_key & tables.field_repeats),
                   deck_size >= 2 and rules.draw_max >= 2,
                   self.num_players - 1 if deck_size > rules.duel_forbidden_deck_max else 0)
        elif phase == DECLARE_CHOICE:
            pool, moves = NONE_POOL, DECLARE_OR_PASS_MOVES
        elif phase == WIN_CHOICE:
            own, theirs = self.hands[self.winner], self.hands[self.loser]
            pool = own + theirs
            pool.append(NONE)
            key = (WIN_CHOICE, shape(own, type_of, self.keys[self.winner] & tables.repeats),
                   shape(theirs, type_of, self.keys[self.loser] & tables.repeats))
        elif phase == GIVE_CHOICE:
            pool = self.field + [NONE]
            key = (GIVE_CHOICE, shape(self.field, type_of, self.field_key & tables.field_repeats))
        else:
            pool, moves = [], ()
        if moves is None:
            moves = tables.moves.get(key)
            if moves is None:
                moves = tables.moves[key] = tables.build_moves(key)
        return moves, pool

    def legal_actions(self) -> Sequence[Action]:
        moves, pool = self.choices()
        if not moves:
            return ()
        return [kind << KIND_SHIFT | pool[a] << SHIFT | pool[b] for kind, a, b in moves]

    def legal_count(self) -> int:
        """len(legal_actions()), without building the list."""
        return len(self.choices()[0])

    def move_at(self, index: int) -> tuple[int, int, int]:
        """legal_actions()[index] decoded as (kind, x, y), without building the list."""
        moves, pool = self.choices()
        kind, a, b = moves[index]
        return kind, pool[a], pool[b]

    def legal_at(self, index: int) -> Action:
        """legal_actions()[index], without building the list (0 <= index < legal_count())."""
        kind, x, y = self.move_at(index)
        return kind << KIND_SHIFT | x << SHIFT | y

    def sample(self, fraction: float) -> tuple[int, int, int, int]:
        """(legal_count(), *move_at(int(fraction * legal_count()))) in one call, for 0 <= fraction < 1:
        how a random seat picks from the list without it being built."""
        moves, pool = self.choices()
        count = len(moves)
        kind, a, b = moves[int(fraction * count)]
        return count, kind, pool[a], pool[b]

    # -- transitions -----------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        if self.phase == OVER:
            raise ValueError("the game is over")
        self.run(action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK)

    def run(self, kind: int, x: int, y: int, randoms: Sequence[bool] = (), rand: Callable[[], float] | None = None,
            budget: int = 1, counts: list[int] | None = None) -> tuple[int, int]:
        """Apply the move (kind, x, y) (an action decoded): the one place the rules' transitions are written.

        Then, while fewer than `budget` moves have been made and the seat to move is marked in
        `randoms`, pick its move as RandomPolicy would (legal action int(rand() * count) of `choices`)
        and apply it too: a whole run of random seats' moves in one call, for the harness's playout.
        Counts every move made by kind into `counts`; returns (moves made, of those picked here, the
        ones picked from more than one legal action). The scalars of the state live in locals while it
        runs (written back before anything else reads them), which is most of what makes it fast.
        """
        tables, rules = self.game.tables, self.game.rules
        weight, field_weight, value = tables.weight, tables.field_weight, tables.duel_value
        hands, field, deck, discard, keys, down = self.hands, self.field, self.deck, self.discard, self.keys, self.down
        repeats, field_repeats, plain_floor = tables.repeats, tables.field_repeats, tables.plain_floor
        seats, own_turns, field_size = self.num_players, self.own_turns, rules.field_size
        plain, tails = tables.plain[seats], tables.tails[seats]
        phase, player, turn_player, field_key = self.phase, self.player, self.turn_player, self.field_key
        winner, loser, turns = self.winner, self.loser, self.turns
        self._moves = None  # the cached choices go stale with the first move (and are not refilled here)
        moves: Sequence[Move]
        pool: Sequence[int]
        if counts is None:
            counts = [0] * len(ACTION_KINDS)
        made = multi = 0
        while True:
            made += 1
            counts[kind] += 1
            turn_over = False  # whether the next player's turn begins
            if kind == FIELD or kind == DRAW or kind == GIVE:  # the turn's action, completed below
                if kind == FIELD:  # discard x, take the field card y (face up)
                    hand = hands[player]
                    hand.remove(x)
                    discard.append(x)
                    field.remove(y)
                    hand.append(y)
                    down[player] &= ~(1 << x)
                    keys[player] += weight[y] - weight[x]
                    field_key -= field_weight[y]
                elif kind == DRAW:  # discard x (and y unless NONE), draw as many from the deck, face down
                    hand = hands[player]
                    for card in (x, y) if y != NONE else (x,):
                        hand.remove(card)
                        discard.append(card)
                        drawn = deck.pop()
                        hand.append(drawn)
                        keys[player] += weight[drawn] - weight[card]
                        down[player] = down[player] & ~(1 << card) | 1 << drawn
                else:  # GIVE: the duel's winner hands the loser the field card x
                    field.remove(x)
                    hands[loser].append(x)
                    keys[loser] += weight[x]
                    field_key -= field_weight[x]
                    player = turn_player
                while deck and len(field) < field_size:  # refill the field
                    card = deck.pop()
                    field.append(card)
                    field_key += field_weight[card]
                if not deck:
                    phase, self.end_reason = OVER, END_DECK  # clarification "deck-empty"
                elif own_turns[turn_player]:
                    phase = DECLARE_CHOICE  # (no declaration on a player's first own turn)
                    if made < budget and randoms[player]:  # a random seat's choice, picked as below, played at once
                        kind = DECLARE_OR_PASS_MOVES[int(rand() * len(DECLARE_OR_PASS_MOVES))][0]  # type: ignore[misc]
                        made += 1
                        counts[kind] += 1
                        multi += 1
                else:
                    turn_over = True
            elif kind == DUEL:
                # Both draw a card, compared, then both discarded (clarification "duel-cards"); a tie goes
                # to the defender x. The loser's hand is revealed; the winner chooses what to take.
                attack, defend = deck.pop(), deck.pop()
                discard += (attack, defend)
                if value[attack] > value[defend]:
                    winner, loser = player, x
                    self.duels_won_by_attacker += 1
                else:
                    winner, loser = x, player
                down[loser] = 0
                player, phase = winner, WIN_CHOICE
            elif kind == PLUNDER or kind == DESTROY:  # the winner discards x and takes y, or has the loser discard y
                hands[loser].remove(y)
                down[loser] &= ~(1 << y)  # (all revealed by the duel already)
                keys[loser] -= weight[y]
                if kind == PLUNDER:
                    hands[winner].remove(x)
                    discard.append(x)
                    hands[winner].append(y)
                    down[winner] &= ~(1 << x)
                    keys[winner] += weight[y] - weight[x]
                else:
                    discard.append(y)
                phase = GIVE_CHOICE
            elif kind != PASS and kind != DECLARE:
                self.player, self.phase, self.field_key = player, phase, field_key
                raise ValueError(f"not a gogyo action: {kind << KIND_SHIFT | x << SHIFT | y}")
            if kind == PASS:  # (also reached right after a random seat's action, above)
                turn_over = True
            elif kind == DECLARE:  # at the threshold the game ends; below it the hand is revealed, play goes on
                if tables.cards.reaches(keys[turn_player], hands[turn_player], rules.declare_threshold):
                    phase, self.end_reason = OVER, END_DECLARED
                else:
                    self.wrong_declarations += 1
                    down[turn_player] = 0
                    turn_over = True
            if turn_over:  # the next player's turn
                own_turns[turn_player] += 1
                turn_player = player = (turn_player + 1) % seats
                winner = loser = -1
                turns += 1
                phase = MAIN
            if made >= budget or phase == OVER or not randoms[player]:
                break
            # The random seat's pick, as `sample` makes it; the commonest decision read directly.
            if phase == MAIN and not (keys[player] & repeats or field_key & field_repeats or len(deck) <= plain_floor):
                moves, pool = plain, [*hands[player], *field, *tails[player]]  # what choices() gives then
            else:
                self.phase, self.player, self.turn_player, self.field_key = phase, player, turn_player, field_key
                self.winner, self.loser = winner, loser
                moves, pool = self._choices()
            count = len(moves)
            if count > 1:
                multi += 1
            kind, a, b = moves[int(rand() * count)]  # type: ignore[misc]  # rand comes with randoms
            x, y = pool[a], pool[b]
        self.phase, self.player, self.turn_player, self.field_key = phase, TERMINAL if phase == OVER else player, \
            turn_player, field_key
        self.winner, self.loser, self.turns = winner, loser, turns
        return made, multi

    # -- results ---------------------------------------------------------------------------
    def returns(self) -> tuple[int, ...]:
        """Each seat's best-order score (also mid-game: what the hands would score now)."""
        if self._returns is None or self.phase != OVER:
            score = self.game.tables.cards.score
            scores = tuple([score(key, hand) for key, hand in zip(self.keys, self.hands)])
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
        return GogyoObservation(
            self.game.name, self.game, player, self.phase, self.turn_player, tuple([tuple(h) for h in self.hands]),
            tuple(self.down), tuple(self.field), len(self.deck), len(self.discard), self.winner, self.loser,
            self.own_turns[self.turn_player] == 0, self.previous_scores, tuple(self.discard), tuple(self.own_turns))

    # -- display and checks ----------------------------------------------------------------
    def card_label(self, card: int) -> str:
        return self.game.table.labels[self.game.table.type_of[card]]

    def action_to_string(self, action: Action) -> str:
        kind, x, y = action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK
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
        """Raise InvariantError unless cards are conserved, hands, field and deck have legal sizes and
        the kept keys and face-down masks agree with the piles."""
        table, rules, tables = self.game.table, self.game.rules, self.game.tables
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
        if [sum([tables.weight[c] for c in hand]) for hand in self.hands] != self.keys:
            raise InvariantError("a kept hand key differs from the hand")
        if sum([tables.field_weight[c] for c in self.field]) != self.field_key:
            raise InvariantError("the kept field key differs from the field")
        if any(down & ~sum(1 << c for c in hand) for hand, down in zip(self.hands, self.down)):
            raise InvariantError("a face-down card is not in its holder's hand")
