"""The interface every rules engine follows, shaped after OpenSpiel: Game -> State -> actions.

A game module provides an immutable *rules game* (built from the loaded deck model, never from
hard-coded card lists) whose `new_initial_state(rng, num_players)` deals a fresh state. Chance
(shuffles, draws) comes only from the injected `random.Random`; nothing here touches the
module-level `random` functions. Policies receive `state.observation(player)` and the legal
actions, never the state itself.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeAlias, runtime_checkable

Seat: TypeAlias = int
Action: TypeAlias = int

TERMINAL: Seat = -4  # OpenSpiel's kTerminalPlayerId: current_player() once the game is over


class InvariantError(AssertionError):
    """A state broke one of its game's invariants (a rules-engine bug, never a user error)."""


def check_conserved(places: Sequence[tuple[str, Sequence[int]]], total: int) -> None:
    """Every card 0..total-1 lies in exactly one of the named places (hands, deck, discard…)."""
    seen: dict[int, str] = {}
    for where, cards in places:
        for card in cards:
            if card in seen:
                raise InvariantError(f"card {card} both in {seen[card]} and {where}")
            seen[card] = where
    if len(seen) != total:
        raise InvariantError(f"cards lost: {sorted(set(range(total)) - set(seen))}")


@dataclass(frozen=True)
class Clarification:
    """A rule decision the source rules leave open, stated for the rulebook and referenced by tests."""

    id: str
    ja: str
    en: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one game ended: points per seat, the seats with the best points, why and when it ended."""

    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    reason: str
    turns: int


class Observation(Protocol):
    """What one player may see. Hidden cards never appear in it. (Members are read-only, so frozen
    dataclasses satisfy the protocol.)"""

    @property
    def game_name(self) -> str: ...
    @property
    def seat(self) -> Seat: ...


class State(Protocol):
    """One game in progress. Mutated in place by apply_action; snapshot explicitly if needed."""

    def current_player(self) -> Seat: ...
    def legal_actions(self) -> Sequence[Action]: ...
    def apply_action(self, action: Action) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[int, ...]: ...
    def outcome(self) -> Outcome: ...
    def turn_number(self) -> int: ...
    def observation(self, player: Seat) -> Observation: ...
    def action_to_string(self, action: Action) -> str: ...
    def check_invariants(self) -> None: ...
    def counters(self) -> Mapping[str, int]: ...
    def clone(self) -> Self:
        """An independent copy (the immutable game shared) that the caller may play on and throw away."""
        ...


@runtime_checkable
class GameOfMatch(Protocol):
    """Optional State ability: the scores of the match's earlier games, which the harness hands
    new_initial_state (a match of several games, FixedGamesMatch: the best total wins it)."""

    previous_scores: tuple[tuple[int, ...], ...]


@runtime_checkable
class LabelledSeats(Protocol):
    """Optional State ability: labels per seat that the report compares win rates by — a start area,
    an identity, a general — when the seat number says less than what the seat was dealt. One entry
    per kind of label (e.g. "identity", "general"), each a label per seat."""

    def seat_labels(self) -> Mapping[str, tuple[str, ...]]: ...


@runtime_checkable
class TeamVictory(Protocol):
    """Optional RulesGame ability: several winners are one side winning together (lord and loyalists,
    the rebels), not a tie among rivals, so each winner counts a whole win in the report's rates."""

    @property
    def team_victory(self) -> bool: ...


@dataclass(frozen=True)
class Side:
    """One side of a team game: the roles (seat labels of the game's `side_kind`) that win together.
    `alone`: every seat dealt one of these roles is a side of its own (a renegade who wins only as the
    last one standing, even with a second renegade at the table)."""

    name: str
    roles: tuple[str, ...]
    alone: bool = False


@runtime_checkable
class SidedSeats(Protocol):
    """Optional RulesGame ability of a TeamVictory game: which side each role plays on, the roles being
    the labels of kind `side_kind` that its states' seat_labels give. The report reads the sides' win
    rates and each one's fair share from it (validator.teams), never the game's own rules."""

    @property
    def side_kind(self) -> str: ...
    @property
    def sides(self) -> tuple[Side, ...]: ...


class RulesGame(Protocol):
    """Immutable rules and card table of one game; deals states and judges matches."""

    # Read-only members, so frozen dataclasses satisfy the protocol.
    @property
    def name(self) -> str:
        """The game's id (its deck folder)."""
        ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def play_minutes(self) -> tuple[int, int]: ...
    @property
    def games_per_match(self) -> int:
        """Games in a match when the number is fixed (for reports); match_over decides."""
        ...
    @property
    def action_kinds(self) -> tuple[str, ...]: ...

    @property
    def engine(self) -> str:
        """The name the game's package is registered under (validator.games.<engine>)."""
        ...

    def new_initial_state(self, rng: random.Random, num_players: int, *,
                          first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> State: ...
    def action_kind(self, action: Action) -> int: ...
    def next_first_player(self, first_player: Seat, num_players: int) -> Seat: ...
    def match_over(self, deal_scores: Sequence[Sequence[int]]) -> bool:
        """Whether a match whose finished games scored `deal_scores` (one row per game) is decided."""
        ...
    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]: ...


class FastPlayout(Protocol):
    """Optional engine hook (`RulesGame.fast_playout(policies)` returns one or None): plays a whole game
    in a tight loop and returns the fields of validator.simulate.GameRecord, equal to playing it
    through State with the same policies, generators and arguments."""

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> tuple[Any, ...]: ...


def best_seats(scores: Sequence[int]) -> tuple[Seat, ...]:
    """Every seat holding the highest score (several on a tie)."""
    top = max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == top)


def rule(rules: Mapping[str, Any], key: str, kind: type, game: str) -> Any:
    """One value of a game.json "rules" object, checked for presence and type."""
    if key not in rules:
        raise ValueError(f"{game}: game.json rules lack {key!r}")
    value = rules[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ValueError(f"{game}: game.json rules {key!r} must be {kind.__name__}, got {value!r}")
    return value
