"""Information-set Monte Carlo tree search (single observer, SO-ISMCTS): a policy that plays well
from what its seat has seen, for any game whose package can deal a state from an observation.

Each iteration deals a fresh state consistent with the observation (GameSpec.determinize: the
cards the seat has not seen, dealt anew) and walks one tree of the seat's own decisions, shared by
all those deals: UCB1 over the actions legal in this deal, counted by how often each was available
(Cowling, Powley and Whitehouse 2012), with progressive widening (a node visited n times tries at
most 1 + √n of its actions, the game's heuristic pick first). The other seats move by the game's
heuristic (random where it has none), as does everyone in the playout after the one new node; the
nodes on the path are credited with the seat's share of the win (of the match as it stands, in a
later game of one). A decision stops before its budget once the most visited action can no longer be
caught: it chooses there what the whole budget would. The budget is iterations, never seconds, and
every draw comes from the generator the harness hands the policy, so a seed gives the same choices on
any machine and with any number of workers. The search knows no rule: it reads only
State's generic methods.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from .api import Action, GameOfMatch, Seat, State, best_seats
from .playout import ending
from .policies import Heuristic

Determinize = Callable[[Any, random.Random], State]

DEFAULT_ITERATIONS = 200
MAX_ITERATIONS = 100_000
EXPLORATION = 0.7  # UCB1's constant for win shares in [0, 1]
WIDENING = 1.0  # a node visited n times tries up to 1 + WIDENING·√n of its actions
ROLLOUT_CAP = 2_000  # moves one iteration may play before its game counts as won by no one


class _Node:
    """One of the seat's actions: how often it was tried and available, and the win share it earned."""

    __slots__ = ("chooser", "children", "visits", "available", "wins")

    def __init__(self, chooser: Seat) -> None:
        self.chooser = chooser
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 1
        self.wins = 0.0

    def score(self) -> float:
        return self.wins / self.visits + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


class SearchPolicy:
    """`mcts:N`: N iterations of SO-ISMCTS for every decision with more than one legal action."""

    needs_observation = True

    def __init__(self, determinize: Determinize, iterations: int = DEFAULT_ITERATIONS,
                 rollout: Heuristic | None = None) -> None:
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"mcts needs 1 to {MAX_ITERATIONS:,} iterations, not {iterations}")
        self.determinize, self.iterations, self.rollout = determinize, iterations, rollout
        self.name = f"mcts:{iterations}"

    def choose(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = _Node(observation.seat)
        allowed = set(legal_actions)
        for left in range(self.iterations - 1, -1, -1):
            self._iterate(root, self.determinize(observation, rng), allowed, rng)
            if left and _settled(root, left):
                break

        def tried(action: Action) -> tuple[int, float]:  # most visits, then the best win share
            child = root.children.get(action)
            return (-1, 0.0) if child is None else (child.visits, child.wins / child.visits)
        return max(legal_actions, key=tried)

    def _iterate(self, root: _Node, state: State, allowed: set[Action], rng: random.Random) -> None:
        node, path, me = root, [], root.chooser
        for _ in range(ROLLOUT_CAP):  # selection, then expansion of one new node
            if state.is_terminal():
                break
            legal = state.legal_actions()
            player = state.current_player()
            if player != me:  # the tree holds the seat's own decisions; the others play their heuristic
                state.apply_action(self._default(state, legal, player, rng))
                continue
            if node is root:
                legal = [action for action in legal if action in allowed]
                if not legal:
                    raise ValueError("a dealt state offers none of the seat's legal actions (determinize is wrong)")
            tried = [action for action in legal if action in node.children]
            for action in tried:
                node.children[action].available += 1
            # Progressive widening: a node tries a new action only while it has fewer than 1 + √visits of
            # them here, so a small budget goes deep on a few moves instead of once over dozens; the
            # heuristic's own pick comes first (the game's sense of a good move), the rest at random.
            if len(tried) < len(legal) and (not tried or len(tried) < 1 + WIDENING * math.sqrt(node.visits)):
                action = self._untried(state, legal, node, player, rng)
                node.children[action] = child = _Node(player)
                state.apply_action(action)
                path.append(child)
                break
            action = max(tried, key=lambda a: node.children[a].score())
            node = node.children[action]
            state.apply_action(action)
            path.append(node)
        for _ in range(ROLLOUT_CAP):  # the rest of the game: every seat plays the game's heuristic, else at random
            if state.is_terminal():
                break
            state.apply_action(self._default(state, state.legal_actions(), state.current_player(), rng))
        winners = match_winners(state)
        root.visits += 1
        for visited in path:
            visited.visits += 1
            if visited.chooser in winners:
                visited.wins += 1 / len(winners)

    def _default(self, state: State, legal: Sequence[Action], player: Seat, rng: random.Random) -> Action:
        """The move a seat outside the tree makes: the game's heuristic, else a random one."""
        if self.rollout is None or len(legal) == 1:
            return legal[int(rng.random() * len(legal))]
        return self.rollout(state.observation(player), legal, rng)

    def _untried(self, state: State, legal: Sequence[Action], node: _Node, player: Seat,
                 rng: random.Random) -> Action:
        if self.rollout is not None:
            pick = self.rollout(state.observation(player), legal, rng)
            if pick not in node.children:
                return pick
        fresh = [action for action in legal if action not in node.children]
        return fresh[int(rng.random() * len(fresh))]


def _settled(root: _Node, left: int) -> bool:
    """Can the `left` iterations still to come change the choice? Not once the most visited action leads
    every other by more than that: each iteration visits one action, so no other can catch it, and the
    choice is the most visited. Stopping there gives the choice the whole budget would, for less: half a
    sanguosha mcts:200 seat's time, where many answers are clear; nothing in jinzai, whose turns stay close."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > left


def match_winners(state: State) -> tuple[Seat, ...]:
    """Who won what the seat is playing for: the game, or, in a later game of a match the best total
    wins (FixedGamesMatch), the match as it stands after this game — behind on the total, winning
    this game is not enough (gogyo's second game: one mcts:200 seat among three greedy ones won 30 %
    of 40 matches on the game, 42.5 % on the match total)."""
    _, scores, winners = ending(state)
    if winners and isinstance(state, GameOfMatch) and state.previous_scores:
        return best_seats([sum(column) for column in zip(*state.previous_scores, scores)])
    return winners


def parse_iterations(name: str) -> int | None:
    """The N of "mcts" or "mcts:N" (None when `name` is not an mcts policy); ValueError when N is bad."""
    return parse_budget(name, "mcts", DEFAULT_ITERATIONS, "iterations")


def parse_budget(name: str, kind: str, default: int, unit: str) -> int | None:
    """The N of a search policy's name, `kind` or `kind:N` (None when `name` is another policy)."""
    base, colon, count = name.partition(":")
    if base != kind:
        return None
    if not colon:
        return default
    if not (count.isascii() and count.isdigit()) or len(count) > 6:
        raise ValueError(f"{name!r}: write {kind}:N with N a whole number of {unit}, e.g. {kind}:200")
    return int(count)
