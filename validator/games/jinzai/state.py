"""人材登用 (jinzai): rules engine — deal, hidden placement, four rounds of bid/judge/acquire, VP, repeated games.

Shape (OpenSpiel): rules and actions (jinzai_rules), `JinzaiGame` (immutable rules and tile table built
from the loaded deck), `JinzaiState` (one whole match — games repeat until someone has the winning VP —
mutated in place), `JinzaiObservation`. Tiles are ints (physical blocks); `kinds[tile]` is the number,
0 for a trickster. Columns are stacks of tile ids, bottom to top; column c holds number c + 1.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.api import TERMINAL, Action, InvariantError, Outcome, Seat, best_seats
from ...model import Game as GameModel
from .rules import (ACTION_KINDS, BID_HAND, BID_PUBLIC, CLARIFICATIONS, GIVE, PICK, ROTATE, STAR,
                           STAR_TAKE, TAKE_BID, TAKE_POOL, JinzaiObservation, JinzaiRules, decode,
                           describe, encode, kind_label)
from .scoring import BUN, STAR as STAR_KIND, ScoringRules, TileTable, build_tile_table

__all__ = ["CLARIFICATIONS", "JinzaiGame", "JinzaiState", "JinzaiObservation"]

# Stages of a game and the phase of the pending decision.
SETUP, BIDDING, ACQUIRING, OVER, SCORING = range(5)
SIDE_BUN, SIDE_BU = 0, 1
END_VP, END_MAX_GAMES = "vp", "max-games"


@dataclass(frozen=True)
class JinzaiGame:
    """Immutable rules, tile table and scorer; deals new matches."""

    engine: ClassVar[str] = "jinzai"
    name: str
    rules: JinzaiRules
    table: TileTable
    scoring: ScoringRules
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS
    games_per_match: int = 1  # one State plays the whole match (games repeat until the winning VP)
    match_note: str = ("a match is one record: games repeat inside it until someone has the winning VP (the "
                       "'games' counter says how many); turns, scores (VP) and ending are per match")

    @classmethod
    def from_model(cls, model: GameModel) -> JinzaiGame:
        rules = JinzaiRules.from_mapping(model.rules)
        cards = [card for deck in model.decks for card in deck.cards]
        table = build_tile_table(cards, model.rules)
        low, high = model.players
        return cls(model.id, rules, table, ScoringRules.from_mapping(model.rules, table), low, high,
                   model.play_minutes)

    def tiles_for(self, num_players: int) -> list[int]:
        """Tile ids in play: all of them, or without the removed numbers for 3 players."""
        removed = self.rules.three_player_removed_numbers if num_players == 3 else ()
        return [t for t, kind in enumerate(self.table.kinds) if kind not in removed]

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> JinzaiState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        start = rng.randrange(num_players) if first_player is None else first_player
        return JinzaiState(self, rng, num_players, start)  # the harness's chance generator, not a private one

    def action_kind(self, action: Action) -> int:
        return action >> 12

    def next_first_player(self, first_player: Seat, num_players: int) -> Seat:
        return (first_player + 1) % num_players

    def match_over(self, deal_scores: Sequence[Sequence[int]]) -> bool:
        return len(deal_scores) >= self.games_per_match

    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]:
        return best_seats([sum(column) for column in zip(*deal_scores)])

    def fast_playout(self, policies: Sequence[Any]) -> Any:
        """A whole-match player equal to the API engine with these policies (jinzai_fast), or None."""
        from .fast import fast_playout
        return fast_playout(self, policies)

    def side_for(self, kinds: Sequence[int]) -> int:
        """The pool space: the type whose numbers add up to more (the seed's 文7・武3・武5 -> 武官, 7 < 8).

        One type only: its space. Equal sums: the type of the highest single number (clarification
        "pool-side"). Tricksters add nothing; tricksters only -> 文官.
        """
        bun = sum(k for k in kinds if k != STAR_KIND and self.table.type_of[k] == BUN)
        bu = sum(k for k in kinds if k != STAR_KIND and self.table.type_of[k] != BUN)
        if bun != bu:
            return SIDE_BUN if bun > bu else SIDE_BU
        numbers = [k for k in kinds if k != STAR_KIND]
        if not numbers:
            return SIDE_BUN
        return SIDE_BUN if self.table.type_of[max(numbers)] == BUN else SIDE_BU


class JinzaiState:
    """A match in progress; apply_action mutates it in place."""

    def __init__(self, game: JinzaiGame, rng: random.Random, num_players: int, first_player: Seat) -> None:
        self.game, self.rng, self.num_players = game, rng, num_players
        self.vp = [0] * num_players
        self.games_played = self.turns = 0
        self.game_totals: list[tuple[int, ...]] = []
        self.counts = {"forced_duplicates": 0, "pool_taken": 0, "rotations": 0, "gifts": 0, "games": 0,
                       "second_place_by_2": 0}
        self.end_reason = ""
        self._returns: tuple[int, ...] = ()
        self._deal(first_player)

    # -- dealing --------------------------------------------------------------------------------
    def _deal(self, start: Seat) -> None:
        n, rules = self.num_players, self.game.rules
        tiles = self.game.tiles_for(n)
        self.rng.shuffle(tiles)
        self.hands = [[tiles.pop() for _ in range(rules.hand_size)] for _ in range(n)]
        self.pool = [tiles.pop() for _ in range(rules.pool_size)]
        self.aside = tiles
        self.cols: list[list[list[int]]] = [[[] for _ in range(self.game.table.columns)] for _ in range(n)]
        self.picked: list[list[int]] = [[] for _ in range(n)]
        self.bids: list[int] = [-1] * n
        self.put_out: list[int] = []                  # tiles put out this round, in order (stay listed)
        self.dup = [False] * n
        self.pending_stars: list[tuple[Seat, int, Seat]] = []  # (who chooses, trickster, whose sheet)
        self.effect: tuple[int, Seat] | None = None   # (effect kind, seat) awaiting its choice
        self.start = start
        self.round = 0
        self.stage = SETUP
        self.step = 0                                 # picks made, bids made or acquisitions made
        self.places: list[Seat] = []
        self.star_seat = -1
        self.pool_side = self.game.side_for(self._kinds(self.pool))
        self._set_player()

    def _kinds(self, tiles: Sequence[int]) -> list[int]:
        kinds = self.game.table.kinds
        return [kinds[t] for t in tiles]

    # -- queries --------------------------------------------------------------------------------
    def current_player(self) -> Seat:
        return TERMINAL if self.stage == OVER else self.player

    def is_terminal(self) -> bool:
        return self.stage == OVER

    def phase(self) -> int:
        """The kind of decision pending (an action kind), 0 when over."""
        if self.stage == OVER:
            return 0
        if self.pending_stars:
            return STAR
        if self.effect is not None:
            return self.effect[0]
        return {SETUP: PICK, BIDDING: BID_HAND, ACQUIRING: TAKE_POOL}.get(self.stage, 0)

    def _set_player(self) -> None:
        n = self.num_players
        if self.pending_stars:
            self.player = self.pending_stars[0][0]
        elif self.effect is not None:
            self.player = self.effect[1]
        elif self.stage == SETUP:
            self.player = (self.start + self.step // self.game.rules.public_at_setup) % n
        elif self.stage == BIDDING:
            self.player = (self.start + self.step) % n
        elif self.stage == ACQUIRING:
            self.player = self.places[self.step]

    def _distinct(self, tiles: Sequence[int]) -> list[int]:
        return sorted(set(self._kinds(tiles)))

    def _tops(self, seat: Seat) -> list[int]:
        return [c for c, col in enumerate(self.cols[seat]) if col]

    def legal_actions(self) -> Sequence[Action]:
        phase, seat = self.phase(), self.player
        if phase == 0:
            return ()
        if phase == STAR:
            cols = self.cols[self.pending_stars[0][2]]
            filled = [c for c, col in enumerate(cols) if col] or list(range(len(cols)))
            return [encode(STAR, c) for c in filled]
        if phase == PICK:
            return [encode(PICK, k) for k in self._distinct(self.hands[seat])]
        if phase == BID_HAND:
            return self._bid_actions(seat)
        if phase == STAR_TAKE:
            return [encode(STAR_TAKE, k) for k in self._distinct(self.pool)]
        if phase == ROTATE:
            return [encode(ROTATE, number, d) for number in self._rotatable() for d in (0, 1)]
        if phase == GIVE:
            return [encode(GIVE, c, target) for c in self._tops(seat)
                    for target in range(self.num_players) if target != seat]
        actions = [encode(TAKE_POOL)] if self.pool else []
        return actions + [encode(TAKE_BID, s) for s in range(self.num_players)
                          if s != seat and self.bids[s] >= 0]

    def _bid_actions(self, seat: Seat) -> list[Action]:
        hand_kinds = self._distinct(self.hands[seat])
        options = [(encode(BID_HAND, k), k) for k in hand_kinds]
        kinds = self.game.table.kinds
        for c in self._tops(seat):
            top = kinds[self.cols[seat][c][-1]]
            options += [(encode(BID_PUBLIC, c, k), top) for k in hand_kinds]
        out = set(self._kinds(self.put_out))
        fresh = [a for a, k in options if k not in out]
        return fresh or [a for a, _ in options]

    def _rotatable(self) -> list[int]:
        """文官 numbers held (physically, in their column) by two or more players."""
        type_of, kinds = self.game.table.type_of, self.game.table.kinds
        out = []
        for number in range(1, self.game.table.columns + 1):
            if type_of[number] != BUN:
                continue
            holders = sum(1 for cols in self.cols if any(kinds[t] == number for t in cols[number - 1]))
            if holders >= 2:
                out.append(number)
        return out

    # -- transitions ----------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        """Play one of legal_actions() (legality is not re-checked here: test `a in legal_actions()`)."""
        if self.stage == OVER:
            raise ValueError("the game is over")
        kind, x, y = decode(action)
        seat = self.player
        if kind == STAR:
            _, tile, owner = self.pending_stars.pop(0)
            self.cols[owner][x].append(tile)
        elif kind == PICK:
            self.picked[seat].append(self._take_kind(self.hands[seat], x))
            self.step += 1
            if self.step == self.num_players * self.game.rules.public_at_setup:
                self._reveal()
        elif kind in (BID_HAND, BID_PUBLIC):
            self._bid(seat, kind, x, y)
        elif kind == STAR_TAKE:
            self.effect = None
            self._to_public(seat, self._take_kind(self.pool, x))
        elif kind == ROTATE:
            self.effect = None
            self._rotate(x, 1 if y == 0 else -1)
        elif kind == GIVE:
            self.effect = None
            self.counts["gifts"] += 1
            self._to_public(y, self.cols[seat][x].pop(), chooser=seat)
        elif kind in (TAKE_POOL, TAKE_BID):
            self._acquire(seat, kind, x)
        else:
            raise ValueError(f"not a jinzai action: {action}")
        if not self.pending_stars and self.effect is None:
            if self.stage == BIDDING and self.step == self.num_players:
                self._judge()
            if self.stage == SCORING:
                self._score_game()
        if self.stage != OVER:
            self._set_player()

    def _take_kind(self, tiles: list[int], kind: int) -> int:
        kinds = self.game.table.kinds
        for i, t in enumerate(tiles):
            if kinds[t] == kind:
                return tiles.pop(i)
        raise ValueError(f"no tile of kind {kind}")

    def _to_public(self, seat: Seat, tile: int, chooser: Seat | None = None) -> None:
        """A numbered tile goes on top of its column; a trickster waits for a column choice."""
        kind = self.game.table.kinds[tile]
        if kind == STAR_KIND:  # a given trickster is placed by the giver (clarification "give")
            self.pending_stars.append((seat if chooser is None else chooser, tile, seat))
            return
        self.cols[seat][kind - 1].append(tile)

    def _reveal(self) -> None:
        for offset in range(self.num_players):
            seat = (self.start + offset) % self.num_players
            picks, self.picked[seat] = self.picked[seat], []
            for tile in sorted(picks, key=lambda t: self.game.table.kinds[t] == STAR_KIND):
                self._to_public(seat, tile)
        self._begin_round()

    def _begin_round(self) -> None:
        self.stage, self.step, self.round = BIDDING, 0, self.round + 1
        self.bids, self.dup, self.put_out = [-1] * self.num_players, [False] * self.num_players, []
        self.places, self.star_seat = [], -1
        self.pool_side = self.game.side_for(self._kinds(self.pool))

    def _bid(self, seat: Seat, kind: int, x: int, y: int) -> None:
        self.turns += 1
        if kind == BID_HAND:
            tile = self._take_kind(self.hands[seat], x)
        else:
            tile = self.cols[seat][x].pop()
            self._to_public(seat, self._take_kind(self.hands[seat], y))
        number = self.game.table.kinds[tile]
        if number in self._kinds(self.put_out):
            self.dup[seat] = True
            self.counts["forced_duplicates"] += 1
        else:
            self._effect(seat, number)
        self.put_out.append(tile)
        self.bids[seat] = tile
        self.step += 1

    def _effect(self, seat: Seat, number: int) -> None:
        if number == STAR_KIND:
            self.star_seat = seat
            if self.pool:
                self.effect = (STAR_TAKE, seat)
        elif number == 2:
            self.counts["second_place_by_2"] += 1
        elif number == 1 and self._rotatable():
            self.effect = (ROTATE, seat)
        elif number == 3 and self._tops(seat):
            self.effect = (GIVE, seat)

    def _rotate(self, number: int, direction: int) -> None:
        """Every holder of `number` passes all those tiles to the next holder in `direction`."""
        kinds, n, c = self.game.table.kinds, self.num_players, number - 1
        holders = [s for s in range(n) if any(kinds[t] == number for t in self.cols[s][c])]
        moving = {s: [t for t in self.cols[s][c] if kinds[t] == number] for s in holders}
        for s in holders:
            self.cols[s][c] = [t for t in self.cols[s][c] if kinds[t] != number]
        ordered = sorted(holders, reverse=direction < 0)
        for i, s in enumerate(ordered):
            self.cols[ordered[(i + 1) % len(ordered)]][c].extend(moving[s])
        self.counts["rotations"] += 1

    def _judge(self) -> None:
        """Acquiring order: 2 takes 2nd, then by number (文 space high first, 武 low first), * below, duplicates last."""
        n, kinds, side = self.num_players, self.game.table.kinds, self.pool_side
        order = [(self.start + i) % n for i in range(n)]
        fair = [s for s in order if not self.dup[s]]
        two = [s for s in fair if kinds[self.bids[s]] == 2]
        others = [s for s in fair if kinds[self.bids[s]] != 2]

        def key(s: Seat) -> tuple[int, int]:
            k = kinds[self.bids[s]]
            if k == STAR_KIND:
                return (1, 0)
            return (0, -k if side == SIDE_BUN else k)
        others.sort(key=key)
        places: list[Seat | None] = [None] * n
        if two:
            places[1] = two[0]
        rest = iter(others)
        for i in range(n):
            if places[i] is None:
                places[i] = next(rest, None)
        ranked = [s for s in places if s is not None]
        self.places = [s for s in places[:n - 1] if s is not None]
        dups = [s for s in order if self.dup[s]]
        if self.star_seat >= 0:
            self.next_start = self.star_seat
        elif dups:
            self.next_start = dups[0]
        else:
            self.next_start = ranked[n - 1]
        self.stage, self.step = ACQUIRING, 0
        if not self.places:
            self._end_round()

    def _acquire(self, seat: Seat, kind: int, x: int) -> None:
        if kind == TAKE_POOL:
            self.counts["pool_taken"] += 1
            taken, self.pool = self.pool, []
            for tile in sorted(taken, key=lambda t: self.game.table.kinds[t] == STAR_KIND):
                self._to_public(seat, tile)
        else:
            tile, self.bids[x] = self.bids[x], -1
            self._to_public(seat, tile)
        self.step += 1
        if self.step == len(self.places):
            self._end_round()

    def _end_round(self) -> None:
        self.pool += [t for t in self.bids if t >= 0]
        self.bids = [-1] * self.num_players
        self.put_out = []
        self.start = self.next_start
        if self.round < self.game.rules.rounds:
            self._begin_round()
            return
        self.stage = SCORING  # pending trickster placements finish before the game is scored

    def _score_game(self) -> None:
        scoring = self.game.scoring
        sets = [self.kind_columns(s) for s in range(self.num_players)]
        totals = tuple(scoring.total(cols) for cols in sets)
        gained = scoring.game_vp(totals, sets)
        self.vp = [v + g for v, g in zip(self.vp, gained)]
        self.game_totals.append(totals)
        self.games_played += 1
        self.counts["games"] = self.games_played
        if max(self.vp) >= self.game.rules.vp_to_win:
            self._finish(END_VP)
        elif self.games_played >= self.game.rules.max_games:
            self._finish(END_MAX_GAMES)
        else:
            self._deal(self.start)

    def _finish(self, reason: str) -> None:
        self.stage, self.end_reason, self.player = OVER, reason, TERMINAL
        self._returns = tuple(self.vp)

    def kind_columns(self, seat: Seat) -> list[list[int]]:
        return [self._kinds(col) for col in self.cols[seat]]

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
        return dict(self.counts)

    def observation(self, player: Seat) -> JinzaiObservation:
        return JinzaiObservation(
            game_name=self.game.name, game=self.game, seat=player, phase=self.phase(),
            hand=tuple(self._kinds(self.hands[player])), picked=tuple(self._kinds(self.picked[player])),
            columns=tuple(tuple(tuple(col) for col in self.kind_columns(s)) for s in range(self.num_players)),
            pool=tuple(self._kinds(self.pool)), pool_side=self.pool_side,
            bids=tuple(self.game.table.kinds[t] if t >= 0 else -1 for t in self.bids),
            bidders_left=self.num_players - self.step if self.stage == BIDDING else 0,
            round=self.round, vp=tuple(self.vp), places=tuple(self.places),
            star_owner=self.pending_stars[0][2] if self.pending_stars else player)

    # -- display and checks ---------------------------------------------------------------------
    def kind_label(self, kind: int) -> str:
        return kind_label(self.game.table.type_of, kind)

    def action_to_string(self, action: Action) -> str:
        return describe(self.game.table.type_of, action)

    def check_invariants(self) -> None:
        """Raise InvariantError unless every tile is in exactly one place and hand sizes fit the round."""
        every = self.pool + self.aside + [t for t in self.bids if t >= 0]
        for seat in range(self.num_players):
            every += self.hands[seat] + self.picked[seat] + [t for col in self.cols[seat] for t in col]
        every += [t for _, t, _ in self.pending_stars]
        if self.stage != OVER and sorted(every) != sorted(self.game.tiles_for(self.num_players)):
            raise InvariantError(f"tiles not conserved: {len(every)} held, {len(set(every))} distinct")
        rules = self.game.rules
        for seat in range(self.num_players):
            if self.stage == OVER:
                break
            if self.stage == SETUP:
                held, expected = len(self.hands[seat]) + len(self.picked[seat]), rules.hand_size
            else:
                held = len(self.hands[seat])
                expected = rules.hand_size - rules.public_at_setup - self.round
                expected += 1 if self.stage == BIDDING and self.bids[seat] < 0 else 0
            if held != expected:
                raise InvariantError(f"seat {seat} holds {held} tiles in round {self.round}, expected {expected}")
