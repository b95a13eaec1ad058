"""人材登用 (jinzai): rules engine — deal, hidden placement, four rounds of bid/judge/acquire, VP, repeated games.

Shape (OpenSpiel): `JinzaiGame` (game.py: immutable rules, tile table and lookup tables built from the
loaded deck) deals `JinzaiState`s; a state is one whole match (games repeat until someone has the winning VP,
because the next game's start player and the match's tie-break depend on how the last game went) and
is mutated in place.

The state is integer-coded because the simulator plays tens of thousands of matches: only a tile's
kind matters to the rules, so hands, picks, the pool and the set-aside tiles are counts per kind (with
a bit mask of the kinds held), and a public column is a stack code (columns.py) with per-seat masks of
the non-empty columns and of those topped by a trickster. After every action the state works out the
pending decision once: who decides and the legal actions as pre-encoded `singles` followed by the
product `outer x inner` (an action is `outer | inner`), so `legal_count()` and `legal_at(i)` index the
legal actions without listing them. Chance is the harness's generator, kept by reference.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from .rules import (
    BID_HAND,
    BID_PUBLIC,
    CODEC,
    GIVE,
    PICK,
    ROTATE,
    STAR,
    STAR_TAKE,
    TAKE_BID,
    TAKE_POOL,
    JinzaiObservation,
    PublicRecord,
    describe,
    kind_label,
)
from .scoring import BUN
from .scoring import STAR as STAR_KIND

if TYPE_CHECKING:
    from .game import JinzaiGame

__all__ = ["FIELDS", "JinzaiState", "JinzaiObservation"]

# Stages of a game.
SETUP, BIDDING, ACQUIRING, OVER, SCORING = range(5)
SIDE_BUN, SIDE_BU = 0, 1
END_VP, END_MAX_GAMES = "vp", "max-games"
NO_EFFECT = 0
KIND_SHIFT, SHIFT, MASK = CODEC.kind_shift, CODEC.shift, CODEC.mask
LAST = 1 << 30  # judging key of a trickster: below every number


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def _column_masks(cols: Sequence[int]) -> tuple[int, int]:
    """(non-empty columns, columns topped by a trickster) of one seat's stack codes, as column masks."""
    filled = sum(1 << c for c, code in enumerate(cols) if code > 1)
    return filled, sum(1 << c for c, code in enumerate(cols) if code > 1 and code & 1)


class Menus:
    """Pre-encoded actions per bit mask, so a decision's legal actions are a few tuple lookups.

    Kind masks have bit k for kind k (0 = trickster); column masks have bit c for column c (number c + 1).
    """

    def __init__(self, columns: int, max_players: int) -> None:
        enc = CODEC.encode
        self.kinds = kinds = tuple(_bits(mask) for mask in range(1 << (columns + 1)))
        column_masks = kinds[:1 << columns]
        self.pick = tuple(tuple(enc(PICK, k) for k in ks) for ks in kinds)
        self.bid_hand = tuple(tuple(enc(BID_HAND, k) for k in ks) for ks in kinds)
        self.star_take = tuple(tuple(enc(STAR_TAKE, k) for k in ks) for ks in kinds)
        anywhere = tuple(enc(STAR, c) for c in range(columns))  # clarification "trickster-column"
        self.star = tuple(tuple(enc(STAR, c) for c in cs) or anywhere for cs in column_masks)
        self.bid_public = tuple(tuple(enc(BID_PUBLIC, c) for c in cs) for cs in column_masks)
        self.give = tuple(tuple(enc(GIVE, c) for c in cs) for cs in column_masks)
        self.rotate = tuple(enc(ROTATE, number) for number in range(columns + 1))
        self.take_pool = enc(TAKE_POOL)
        self.take_bid = tuple(enc(TAKE_BID, seat) for seat in range(max_players))
        self.directions = (0, 1)  # ROTATE's y: clockwise, counter-clockwise


class JinzaiState:
    """A match in progress; apply_action mutates it in place (clone() for a throwaway copy)."""

    def __init__(self, game: JinzaiGame, chance: random.Random, num_players: int, first_player: Seat, *,
                 blank: bool = False) -> None:
        self.game, self.chance, self.num_players = game, chance, num_players
        if blank:  # clone() and unpickling set every other field
            return
        self.codes, self.menus = game.codes, game.menus
        self.deck = tuple(game.table.kinds[t] for t in game.tiles_for(num_players))  # kinds in tile-id order
        self.others = tuple(tuple(t for t in range(num_players) if t != s) for s in range(num_players))
        self.orders = tuple(tuple((s + i) % num_players for i in range(num_players)) for s in range(num_players))
        self.bun_columns = tuple(n - 1 for n in range(1, game.table.columns + 1) if game.table.type_of[n] == BUN)
        self.vp = [0] * num_players
        self.games_played = self.turns = 0
        self.game_totals: list[tuple[int, ...]] = []
        self.forced_duplicates = self.pool_taken = self.rotations = self.gifts = self.second_place_by_2 = 0
        self.end_reason = ""
        self._returns: tuple[int, ...] = ()
        self._singles: Sequence[Action] = ()
        self._outer: tuple[Action, ...] = ()  # read only when the decision has a product part
        self._inner: tuple[int, ...] = ()
        self._deal(first_player)

    # -- dealing --------------------------------------------------------------------------------
    def _deal(self, start: Seat) -> None:
        n, rules, width = self.num_players, self.game.rules, self.game.table.columns + 1
        tiles = list(self.deck)
        self.chance.shuffle(tiles)
        tiles.reverse()  # dealt from the end of the shuffled list: hands, seat 0 first, then the pool
        size, pool_size = rules.hand_size, rules.pool_size
        self.hands = [[0] * width for _ in range(n)]  # seat -> kind -> count
        self.held = [0] * n                            # seat -> mask of the kinds in hand
        for seat in range(n):
            hand, held = self.hands[seat], 0
            for kind in tiles[seat * size:seat * size + size]:
                hand[kind] += 1
                held |= 1 << kind
            self.held[seat] = held
        self.pool = [0] * width
        self.aside = [0] * width
        for kind in tiles[n * size:n * size + pool_size]:
            self.pool[kind] += 1
        for kind in tiles[n * size + pool_size:]:
            self.aside[kind] += 1
        self._pool_changed()
        self.cols = [[1] * (width - 1) for _ in range(n)]  # seat -> column -> stack code
        self.filled = [0] * n                              # seat -> mask of non-empty columns
        self.star_top = [0] * n                            # seat -> mask of columns topped by a trickster
        self.picked = [[0] * width for _ in range(n)]      # hidden setup picks: seat -> kind -> count
        self.bids = [-1] * n                               # kind put out this round per seat, -1 if none/taken
        self.out = 0                                       # mask of the kinds put out this round
        self.dup = [False] * n
        self.pending: list[tuple[Seat, Seat]] = []         # tricksters awaiting a column: (chooser, owner)
        self.may_hold = ((1 << width) - 1,) * n            # seat -> kinds its hand may hold, as the table knows
        self.effect, self.effect_seat = NO_EFFECT, -1      # an effect awaiting its choice
        self.rotatable: tuple[int, ...] = ()               # the numbers a pending ROTATE may choose
        self.start = self.next_start = start
        self.round = 0
        self.stage = SETUP
        self.step = 0                                      # picks made, bids made or acquisitions made
        self.due = False                                   # judging or scoring waits for pending choices
        self.places: list[Seat] = []
        self.star_seat = -1
        self.pool_side = self.game.side_of_counts(self.pool)
        self._decide()

    def set_position(self, *, hands: Sequence[Sequence[int]], columns: Sequence[Sequence[Sequence[int]]],
                     pool: Sequence[int], start: Seat) -> None:
        """Replace the deal by a hand-made position at the start of round 1's bidding (scenario tests):
        hands and pool as kinds, each seat's columns as kinds bottom to top; the deck's other tiles are
        set aside. ValueError when the position uses tiles the deck does not have."""
        width = self.game.table.columns + 1
        used = [0] * width
        self.hands = [[0] * width for _ in hands]
        for seat, hand in enumerate(hands):
            for kind in hand:
                self.hands[seat][kind] += 1
        self.held = [sum(1 << k for k in set(hand)) for hand in hands]
        self.pool = [list(pool).count(k) for k in range(width)]
        self._pool_changed()
        self.cols = [[self.codes.code_of(col) for col in seat_cols] for seat_cols in columns]
        for seat in range(self.num_players):
            self._columns_changed(seat)
        for kinds in [*hands, pool, *(col for seat_cols in columns for col in seat_cols)]:
            for kind in kinds:
                used[kind] += 1
        self.aside = [self.deck.count(k) - used[k] for k in range(width)]
        if min(self.aside) < 0:
            raise ValueError(f"the position uses more tiles than the deck has: {used}")
        self.picked = [[0] * width for _ in hands]
        self.pending, self.effect, self.effect_seat = [], NO_EFFECT, -1
        self.stage, self.round, self.start = SETUP, 0, start
        self._begin_round()
        self._decide()

    def _pool_changed(self) -> None:
        self.pool_mask = sum(1 << k for k, count in enumerate(self.pool) if count)
        self.pool_count = sum(self.pool)

    def _columns_changed(self, seat: Seat) -> None:
        self.filled[seat], self.star_top[seat] = _column_masks(self.cols[seat])

    def clone(self, chance: random.Random | None = None) -> JinzaiState:
        """An independent copy sharing the immutable game and, unless given another, the chance generator.

        Every field is set by name (compiled by mypyc, a state has no __dict__ to copy): the lists are
        copied (the per-seat ones one level deeper), everything else is immutable and shared."""
        copy = JinzaiState(self.game, self.chance if chance is None else chance, self.num_players, 0, blank=True)
        copy.codes, copy.menus, copy.deck, copy.others, copy.orders = self.codes, self.menus, self.deck, self.others, \
            self.orders
        copy.bun_columns, copy.games_played, copy.turns, copy.end_reason = self.bun_columns, self.games_played, \
            self.turns, self.end_reason
        copy.forced_duplicates, copy.pool_taken, copy.rotations, copy.gifts, copy.second_place_by_2 = \
            self.forced_duplicates, self.pool_taken, self.rotations, self.gifts, self.second_place_by_2
        copy._returns, copy._singles, copy._outer, copy._inner = self._returns, self._singles, self._outer, self._inner
        copy.player, copy._phase, copy._count = self.player, self._phase, self._count
        copy.pool_mask, copy.pool_count, copy.out, copy.may_hold = self.pool_mask, self.pool_count, self.out, \
            self.may_hold
        copy.effect, copy.effect_seat, copy.rotatable = self.effect, self.effect_seat, self.rotatable
        copy.start, copy.next_start, copy.round, copy.stage, copy.step = self.start, self.next_start, self.round, \
            self.stage, self.step
        copy.due, copy.star_seat, copy.pool_side = self.due, self.star_seat, self.pool_side
        copy.held, copy.filled, copy.star_top = self.held[:], self.filled[:], self.star_top[:]
        copy.pool, copy.aside, copy.bids, copy.dup = self.pool[:], self.aside[:], self.bids[:], self.dup[:]
        copy.pending, copy.places, copy.vp, copy.game_totals = self.pending[:], self.places[:], self.vp[:], \
            self.game_totals[:]
        copy.hands = [row[:] for row in self.hands]
        copy.picked = [row[:] for row in self.picked]
        copy.cols = [row[:] for row in self.cols]
        return copy

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled field by field (compiled by mypyc, a state has no __dict__ for pickle to take)."""
        return _unpickle, (tuple(getattr(self, name) for name in FIELDS),)

    # -- the pending decision ---------------------------------------------------------------------
    def _decide(self) -> None:
        """Who decides next, the phase and the legal actions (singles, then outer x inner), once per action."""
        menus, stage = self.menus, self.stage
        if stage == SETUP:  # nothing is public during the hidden picks: no trickster or effect pending
            player = (self.start + self.step // self.game.rules.public_at_setup) % self.num_players
            singles = menus.pick[self.held[player]]
            self.player, self._phase, self._singles, self._count = player, PICK, singles, len(singles)
            return
        if self.pending:
            chooser, owner = self.pending[0]
            singles = menus.star[self.filled[owner]]
            self.player, self._phase, self._singles, self._count = chooser, STAR, singles, len(singles)
            return
        effect = self.effect
        if effect:
            player = self.effect_seat
            if effect == STAR_TAKE:
                singles = menus.star_take[self.pool_mask]
                self.player, self._phase, self._singles, self._count = player, effect, singles, len(singles)
                return
            if effect == ROTATE:
                outer: tuple[Action, ...] = tuple(menus.rotate[k] for k in self.rotatable)
                inner: tuple[int, ...] = menus.directions
            else:
                outer, inner = menus.give[self.filled[player]], self.others[player]
            self.player, self._phase, self._singles, self._outer, self._inner = player, effect, (), outer, inner
            self._count = len(outer) * len(inner)
            return
        if stage == BIDDING:
            player = self.orders[self.start][self.step]
            held, out, filled, star_top = self.held[player], self.out, self.filled[player], self.star_top[player]
            fresh = held & ~out
            tops = filled & ~star_top & ~(out >> 1) | (0 if out & 1 else star_top)  # tops not put out yet
            if not fresh and not tops:  # clarification "forced-duplicate": every option was put out
                fresh, tops = held, filled
            singles, outer, inner = menus.bid_hand[fresh], menus.bid_public[tops], menus.kinds[held]
            self.player, self._phase, self._singles, self._outer, self._inner = player, BID_HAND, singles, outer, inner
            self._count = len(singles) + len(outer) * len(inner)
            return
        if stage == ACQUIRING:
            player = self.places[self.step]
            take, bids = menus.take_bid, self.bids
            takes = [take[s] for s in self.others[player] if bids[s] >= 0]
            if self.pool_count:
                takes.insert(0, menus.take_pool)
            self.player, self._phase, self._singles, self._count = player, TAKE_POOL, takes, len(takes)
            return
        self.player, self._phase, self._singles, self._count = TERMINAL, 0, (), 0

    def current_player(self) -> Seat:
        return self.player

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def phase(self) -> int:
        """The kind of decision pending (an action kind; TAKE_POOL for any acquisition), 0 when over."""
        return self._phase

    def legal_count(self) -> int:
        """len(legal_actions()), without listing them."""
        return self._count

    def legal_at(self, index: int) -> Action:
        """legal_actions()[index], without listing them (0 <= index < legal_count())."""
        singles = self._singles
        if index < len(singles):
            return singles[index]
        index -= len(singles)
        inner = self._inner
        return self._outer[index // len(inner)] | inner[index % len(inner)]

    def legal_actions(self) -> list[Action]:
        singles = self._singles
        if len(singles) == self._count:
            return list(singles)
        inner = self._inner
        return [*singles, *(o | i for o in self._outer for i in inner)]

    # -- transitions ----------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        kind = action >> KIND_SHIFT
        if self.stage == OVER or not 0 < kind <= TAKE_BID:
            raise ValueError("the game is over" if self.stage == OVER else f"not a jinzai action: {action}")
        _APPLY[kind](self, action >> SHIFT & MASK, action & MASK)
        if self.due and not self.pending and not self.effect:  # the round's last bid or the last round made
            self.due = False
            if self.stage == BIDDING:
                self._judge()
            if self.stage == SCORING:
                self._score_game()
        self._decide()

    # One handler per action kind, (x, y) decoded; the acting seat is self.player.
    def _apply_pick(self, kind: int, _: int) -> None:
        seat = self.player
        self._take_from_hand(seat, kind)
        self.picked[seat][kind] += 1
        self.step += 1
        if self.step == self.num_players * self.game.rules.public_at_setup:
            self._reveal()

    def _apply_star(self, column: int, _: int) -> None:
        _, owner = self.pending.pop(0)
        self.cols[owner][column] = self.cols[owner][column] << 1 | 1
        self.filled[owner] |= 1 << column
        self.star_top[owner] |= 1 << column

    def _apply_bid_hand(self, kind: int, _: int) -> None:
        seat = self.player
        hand = self.hands[seat]
        hand[kind] -= 1
        if not hand[kind]:
            self.held[seat] &= ~(1 << kind)
        self._bid(seat, kind)

    def _apply_bid_public(self, column: int, kind: int) -> None:
        """clarification "bid-from-public": the top of the column is put out, then the hand tile joins."""
        seat = self.player
        number = self._pop(seat, column)
        hand = self.hands[seat]
        hand[kind] -= 1
        if not hand[kind]:
            self.held[seat] &= ~(1 << kind)
        if kind == STAR_KIND:
            self.pending.append((seat, seat))
        else:
            self.cols[seat][kind - 1] <<= 1
            self.filled[seat] |= 1 << kind - 1
            self.star_top[seat] &= ~(1 << kind - 1)
        self._bid(seat, number)

    def _apply_star_take(self, kind: int, _: int) -> None:
        self.effect = NO_EFFECT
        self.pool[kind] -= 1
        self._pool_changed()
        self._to_public(self.player, kind)

    def _apply_rotate(self, number: int, direction: int) -> None:
        self.effect = NO_EFFECT
        self._rotate(number, 1 if direction == 0 else -1)

    def _apply_give(self, column: int, target: int) -> None:
        self.effect = NO_EFFECT
        self.gifts += 1
        seat = self.player
        self._to_public(target, self._pop(seat, column), chooser=seat)

    def _apply_take_pool(self, _: int, __: int) -> None:
        seat = self.player
        self.pool_taken += 1
        pool, self.pool = self.pool, [0] * len(self.pool)
        self.pool_mask = self.pool_count = 0
        cols = self.cols[seat]
        for k in range(1, len(pool)):
            if pool[k]:
                cols[k - 1] <<= pool[k]
                self.filled[seat] |= 1 << k - 1
                self.star_top[seat] &= ~(1 << k - 1)
        for _ in range(pool[STAR_KIND]):
            self.pending.append((seat, seat))
        self._acquired()

    def _apply_take_bid(self, source: int, _: int) -> None:
        taken, self.bids[source] = self.bids[source], -1
        self._to_public(self.player, taken)
        self._acquired()

    def _take_from_hand(self, seat: Seat, kind: int) -> None:
        hand = self.hands[seat]
        hand[kind] -= 1
        if not hand[kind]:
            self.held[seat] &= ~(1 << kind)

    def _pop(self, seat: Seat, column: int) -> int:
        """Take the top tile of a column; its kind."""
        code = self.cols[seat][column]
        kind = STAR_KIND if code & 1 else column + 1
        code >>= 1
        self.cols[seat][column] = code
        bit = 1 << column
        if code == 1:
            self.filled[seat] &= ~bit
            self.star_top[seat] &= ~bit
        elif code & 1:
            self.star_top[seat] |= bit
        else:
            self.star_top[seat] &= ~bit
        return kind

    def _to_public(self, seat: Seat, kind: int, chooser: Seat | None = None) -> None:
        """A numbered tile goes on top of its column; a trickster waits for a column choice (a given
        trickster is placed by the giver: clarification "give")."""
        if kind == STAR_KIND:
            self.pending.append((seat if chooser is None else chooser, seat))
            return
        column = kind - 1
        self.cols[seat][column] <<= 1
        self.filled[seat] |= 1 << column
        self.star_top[seat] &= ~(1 << column)

    def _reveal(self) -> None:
        """Every seat's picks go public together, numbers first, from the start player (tricksters then
        wait for their columns in that order)."""
        n, stars = self.num_players, STAR_KIND
        for offset in range(n):
            seat = (self.start + offset) % n
            picks, self.picked[seat] = self.picked[seat], [0] * len(self.picked[seat])
            cols, filled = self.cols[seat], self.filled[seat]
            for kind in range(1, len(picks)):
                if picks[kind]:
                    cols[kind - 1] <<= picks[kind]
                    filled |= 1 << kind - 1
            self.filled[seat] = filled  # columns are empty until the reveal: no trickster on top yet
            for _ in range(picks[stars]):
                self._to_public(seat, stars)
        self._begin_round()

    def _begin_round(self) -> None:
        n = self.num_players
        self.stage, self.step, self.round = BIDDING, 0, self.round + 1
        self.bids, self.dup, self.out = [-1] * n, [False] * n, 0
        self.places, self.star_seat = [], -1
        self.pool_side = self.game.side_of_counts(self.pool)

    def _bid(self, seat: Seat, number: int) -> None:
        """`number` was put out: a duplicate, or its effect."""
        self.turns += 1
        if self.out >> number & 1:
            self.dup[seat] = True
            self.forced_duplicates += 1
            # Forced (clarification "forced-duplicate"): everyone now knows the seat's hand held only kinds
            # already put out, and a hand only shrinks until the next deal (determinize.py reads this).
            hold = self.may_hold
            self.may_hold = (*hold[:seat], hold[seat] & self.out, *hold[seat + 1:])
        else:
            self._effect(seat, number)
        self.out |= 1 << number
        self.bids[seat] = number
        self.step += 1
        self.due = self.step == self.num_players  # judge once pending tricksters and effects are done

    def _effect(self, seat: Seat, number: int) -> None:
        if number == STAR_KIND:
            self.star_seat = seat
            if self.pool_count:
                self.effect, self.effect_seat = STAR_TAKE, seat
        elif number == 2:
            self.second_place_by_2 += 1
        elif number == 1:
            self.rotatable = self._rotatable()
            if self.rotatable:
                self.effect, self.effect_seat = ROTATE, seat
        elif number == 3 and self.filled[seat]:
            self.effect, self.effect_seat = GIVE, seat

    def _rotatable(self) -> tuple[int, ...]:
        """文官 numbers held (physically, in their column) by two or more players."""
        numbered, out = self.codes.numbered, []
        for c in self.bun_columns:
            holders = 0
            for cols in self.cols:
                if numbered[cols[c]]:
                    holders += 1
            if holders >= 2:
                out.append(c + 1)
        return tuple(out)

    def _rotate(self, number: int, direction: int) -> None:
        """Every holder of `number` passes all those tiles to the next holder in `direction`; each keeps
        its tricksters, the incoming tiles go on top of them (clarification "rotate")."""
        numbered, c = self.codes.numbered, number - 1
        holders = [s for s in range(self.num_players) if numbered[self.cols[s][c]]]
        ordered = sorted(holders, reverse=direction < 0)
        moving = [numbered[self.cols[s][c]] for s in ordered]
        for i, _ in enumerate(ordered):
            receiver = ordered[(i + 1) % len(ordered)]
            code = self.cols[receiver][c]
            kept = code.bit_length() - 1 - numbered[code]  # its tricksters
            self.cols[receiver][c] = ((1 << kept + 1) - 1) << moving[i]
            self.star_top[receiver] &= ~(1 << c)
        self.rotations += 1

    def _judge(self) -> None:
        """Acquiring order: 2 takes 2nd, then by number (文 space high first, 武 low first), * below,
        duplicates last."""
        n, bids, dup = self.num_players, self.bids, self.dup
        fair, dups, two = [], [], -1
        for s in self.orders[self.start]:  # bidding order, from the start player
            if dup[s]:
                dups.append(s)
            elif bids[s] == 2:
                two = s  # at most one 2 is not a duplicate
            else:
                fair.append(s)
        keys = self.game.rank_keys[self.pool_side]
        if len(fair) > 1:
            fair.sort(key=lambda s: keys[bids[s]])
        if two >= 0:
            fair.insert(min(1, len(fair)), two)  # 2nd place, or 1st when nobody else is ranked
        self.places = fair[:n - 1]
        if self.star_seat >= 0:
            self.next_start = self.star_seat
        elif dups:
            self.next_start = dups[0]
        else:
            self.next_start = fair[n - 1]
        self.stage, self.step = ACQUIRING, 0
        if not self.places:
            self._end_round()

    def _acquired(self) -> None:
        self.step += 1
        if self.step == len(self.places):
            self._end_round()

    def _end_round(self) -> None:
        pool = self.pool
        for kind in self.bids:  # what nobody took is the next pool
            if kind >= 0:
                pool[kind] += 1
                self.pool_mask |= 1 << kind
                self.pool_count += 1
        self.bids = [-1] * self.num_players
        self.out = 0
        self.start = self.next_start
        if self.round < self.game.rules.rounds:
            self._begin_round()
            return
        self.stage, self.due = SCORING, True  # pending trickster placements finish before the game is scored

    def _score_game(self) -> None:
        score = self.codes.score
        scored = [score(self.codes.key(cols)) for cols in self.cols]
        totals = tuple(total for total, _ in scored)
        gained = self.game.scoring.ranked_vp(totals, [set_vp for _, set_vp in scored])
        self.vp = [v + g for v, g in zip(self.vp, gained)]
        self.game_totals.append(totals)
        self.games_played += 1
        if max(self.vp) >= self.game.rules.vp_to_win:
            self._finish(END_VP)
        elif self.games_played >= self.game.rules.max_games:
            self._finish(END_MAX_GAMES)
        else:
            self._deal(self.start)

    def _finish(self, reason: str) -> None:
        self.stage, self.end_reason = OVER, reason
        self._returns = tuple(self.vp)

    # -- results --------------------------------------------------------------------------------
    def returns(self) -> tuple[int, ...]:
        return self._returns if self.stage == OVER else tuple(self.vp)

    def outcome(self) -> Outcome:
        """VP per seat; winners: most VP, then the last game's top total, else shared."""
        if self.stage != OVER:
            raise ValueError("the game is not over")
        leaders = best_seats(self.vp)
        last = self.game_totals[-1]
        top = max(last)
        firsts = tuple(s for s in leaders if last[s] == top)
        return Outcome(self._returns, firsts or leaders, self.end_reason, self.turns)

    def turn_number(self) -> int:
        """Bidding turns taken so far (every player's put-out is one turn)."""
        return self.turns

    def counters(self) -> Mapping[str, int]:
        return {"forced_duplicates": self.forced_duplicates, "pool_taken": self.pool_taken,
                "rotations": self.rotations, "gifts": self.gifts, "games": self.games_played,
                "second_place_by_2": self.second_place_by_2}

    def kind_columns(self, seat: Seat) -> list[list[int]]:
        """A seat's columns as tile kinds, bottom to top."""
        kinds = self.codes.kinds
        return [list(kinds(c, code)) for c, code in enumerate(self.cols[seat])]

    def observation(self, player: Seat) -> JinzaiObservation:
        return JinzaiObservation(
            self.game.name, self.game, player, self._phase, tuple(self.hands[player]), tuple(self.picked[player]),
            tuple(map(tuple, self.cols)), tuple(self.pool), self.pool_side, tuple(self.bids),
            self.num_players - self.step if self.stage == BIDDING else 0, self.round, tuple(self.vp),
            tuple(self.places), self.pending[0][1] if self.pending else player,
            PublicRecord(self.stage, self.step, self.start, self.next_start, self.star_seat, tuple(self.dup),
                         self.out, tuple(self.pending), self.effect, self.effect_seat, self.rotatable, self.due,
                         self.may_hold, self.games_played, self.turns, tuple(self.game_totals),
                         (self.forced_duplicates, self.pool_taken, self.rotations, self.gifts,
                          self.second_place_by_2)))

    # -- display and checks ---------------------------------------------------------------------
    def kind_label(self, kind: int) -> str:
        return kind_label(self.game.table.type_of, kind)

    def action_to_string(self, action: Action) -> str:
        return describe(self.game.table.type_of, action)

    def check_invariants(self) -> None:
        """Raise InvariantError unless every tile is in exactly one place, hand sizes fit the round, the
        incremental masks and counts agree with what they summarise and no hand holds a kind its seat's
        forced duplicates showed it lacks."""
        if self.stage == OVER:
            return
        n, width, codes = self.num_players, len(self.pool), self.codes
        held = [0] * width
        for places in (self.hands, self.picked, [self.pool, self.aside]):
            for counts in places:
                for kind, count in enumerate(counts):
                    held[kind] += count
        for seat in range(n):
            for c, code in enumerate(self.cols[seat]):
                numbered = codes.numbered[code]
                held[c + 1] += numbered
                held[STAR_KIND] += code.bit_length() - 1 - numbered
        for kind in self.bids:
            held[kind] += kind >= 0
        held[STAR_KIND] += len(self.pending)
        deck = [self.deck.count(k) for k in range(width)]
        if held != deck:
            raise InvariantError(f"tiles not conserved: {held} held per kind, the deck has {deck}")
        if self.pool_mask != sum(1 << k for k, c in enumerate(self.pool) if c) or self.pool_count != sum(self.pool):
            raise InvariantError("the pool's mask or count disagrees with its tiles")
        for seat in range(n):
            if self.held[seat] != sum(1 << k for k, c in enumerate(self.hands[seat]) if c):
                raise InvariantError(f"seat {seat}'s mask of held kinds disagrees with its hand")
            if (self.filled[seat], self.star_top[seat]) != _column_masks(self.cols[seat]):
                raise InvariantError(f"seat {seat}'s column masks disagree with its columns")
            if self.held[seat] & ~self.may_hold[seat]:
                raise InvariantError(f"seat {seat} holds a kind its forced duplicates showed it lacks")
        rules = self.game.rules
        for seat in range(n):
            if self.stage == SETUP:
                count, expected = sum(self.hands[seat]) + sum(self.picked[seat]), rules.hand_size
            else:
                count = sum(self.hands[seat])
                expected = rules.hand_size - rules.public_at_setup - self.round
                expected += 1 if self.stage == BIDDING and self.bids[seat] < 0 else 0
            if count != expected:
                raise InvariantError(f"seat {seat} holds {count} tiles in round {self.round}, expected {expected}")


# Every field of a state but the game's lookup tables (codes, menus), for pickling: unpickling takes those from
# the game, as a clone shares them (tests check the list against an interpreted state's fields).
FIELDS = ("game", "chance", "num_players", "deck", "others", "orders", "bun_columns", "vp",
          "games_played", "turns", "game_totals", "forced_duplicates", "pool_taken", "rotations", "gifts",
          "second_place_by_2", "end_reason", "_returns", "_singles", "_outer", "_inner", "hands", "held", "pool",
          "aside", "pool_mask", "pool_count", "cols", "filled", "star_top", "picked", "bids", "out", "dup", "pending",
          "may_hold", "effect", "effect_seat", "rotatable", "start", "next_start", "round", "stage", "step", "due",
          "places", "star_seat", "pool_side", "player", "_phase", "_count")


def _unpickle(values: tuple[object, ...]) -> JinzaiState:
    game, chance, num_players = values[:3]
    state = JinzaiState(game, chance, num_players, 0, blank=True)  # type: ignore[arg-type]
    for name, value in zip(FIELDS, values):
        setattr(state, name, value)
    state.codes, state.menus = state.game.codes, state.game.menus
    return state


# apply_action's handlers by action kind (index 0 is no kind: apply_action rejects it first).
_APPLY: tuple[Callable[[JinzaiState, int, int], None], ...] = (
    JinzaiState._apply_pick, JinzaiState._apply_pick, JinzaiState._apply_star, JinzaiState._apply_bid_hand,
    JinzaiState._apply_bid_public, JinzaiState._apply_star_take, JinzaiState._apply_rotate,
    JinzaiState._apply_give, JinzaiState._apply_take_pool, JinzaiState._apply_take_bid)
