"""Seeded simulation: play N matches (games until the engine's match_over) with one policy per seat -> records.

The unit is the match, because that is what the box's play time and the victory rule describe;
every record also keeps its games, so statistics are reported per game and per match. Match i
draws its chance (shuffles, first player) and its policies' choices from two generators seeded by
(base seed, i) alone, so the records are identical for any number of worker processes. A step
cap per game stops runaway games; a capped game ends its match as a timeout. Without invariant
checks, an engine's optional fast playout (RulesGame.fast_playout) plays the games when it covers
the seats' policies; it yields exactly the records State and the policies would.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import random
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .engine.api import FastPlayout, LabelledSeats, RulesGame
from .engine.playout import END_CAP, ending
from .engine.policies import Policy, find_policy
from .wording import counted

DEFAULT_STEP_CAP = 1000  # decisions per game; gogyo games take well under 200
MAX_STEP_CAP = 100_000  # game.json allows as much; a game needing more is a bug, not a long game
MAX_MATCHES = 1_000_000  # records are kept in memory (about 1 KB a match); game.json allows as much


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game of a match: its length, how it ended, scores and what was decided."""

    turns: int
    steps: int
    end: str
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    first_player: int
    actions: tuple[int, ...]       # count per entry of the game's action_kinds
    decisions: int                 # decision states visited
    choices: int                   # of those, states with more than one legal action
    counters: tuple[tuple[str, int], ...]
    # (kind, label per seat) pairs, from engines whose State has seat_labels (LabelledSeats)
    labels: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match: its games, the seats' totals and the winners by the game's match rule."""

    index: int
    games: tuple[GameRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]       # empty when a game hit the step cap
    first_player: int
    timed_out: bool


@dataclass(frozen=True)
class SimConfig:
    """What to simulate: seats and their policies, how many matches, seeds, cap, and who plays: `workers`
    local processes, or the workers of the Dask scheduler at `cluster` (validator/cluster.py)."""

    num_players: int
    policies: tuple[str, ...]      # one per seat
    matches: int
    seed: int = 1
    step_cap: int = DEFAULT_STEP_CAP
    workers: int = 1
    check_invariants: bool = False
    cluster: str | None = None  # a scheduler's address, tcp://HOST:8786; records do not depend on it

    def __post_init__(self) -> None:
        if len(self.policies) != self.num_players:
            raise ValueError(f"{counted(len(self.policies), 'policy')} for {counted(self.num_players, 'seat')}")
        if self.matches < 0 or self.workers < 1 or self.step_cap < 1:
            raise ValueError("matches must be >= 0, workers and step_cap >= 1")
        if self.matches > MAX_MATCHES:
            raise ValueError(f"{self.matches} matches is more than the {MAX_MATCHES:,} one run keeps in memory")
        if self.step_cap > MAX_STEP_CAP:
            raise ValueError(f"a step cap of {self.step_cap} is more than {MAX_STEP_CAP:,}")


def derive_seed(base: int, index: int, stream: str) -> int:
    """A 64-bit seed for one match and one stream ("chance" or "policy"), independent of workers."""
    digest = hashlib.blake2b(f"{base}:{index}:{stream}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def play_game(game: RulesGame, policies: Sequence[Policy], chance: random.Random, choice: random.Random, *,
              first_player: int | None, previous_scores: Sequence[Sequence[int]] = (),
              step_cap: int = DEFAULT_STEP_CAP, check_invariants: bool = False) -> GameRecord:
    """Play one game to its end (or the cap); check every invariant after every step if asked."""
    state = game.new_initial_state(chance, len(policies), first_player=first_player,
                                   previous_scores=previous_scores)
    first = state.current_player()
    counts = [0] * len(game.action_kinds)
    kind_of = game.action_kind
    wants = [policy.needs_observation for policy in policies]
    choosers = [policy.choose for policy in policies]
    steps = decisions = choices = 0
    if check_invariants:
        state.check_invariants()
    is_terminal, current, legal_actions = state.is_terminal, state.current_player, state.legal_actions
    observe, apply = state.observation, state.apply_action
    while not is_terminal():
        if steps >= step_cap:
            break
        player = current()
        legal = legal_actions()
        decisions += 1
        if len(legal) > 1:
            choices += 1
        action = choosers[player](observe(player) if wants[player] else None, legal, choice)
        if check_invariants and action not in legal:
            raise ValueError(f"policy chose {action}, not among the legal actions {legal}")
        counts[kind_of(action)] += 1
        apply(action)
        steps += 1
        if check_invariants:
            state.check_invariants()
    end, scores, winners = ending(state)
    labels = tuple((kind, tuple(per_seat)) for kind, per_seat in state.seat_labels().items()) \
        if isinstance(state, LabelledSeats) else ()
    return GameRecord(state.turn_number(), steps, end, tuple(scores), tuple(winners), first, tuple(counts),
                      decisions, choices, tuple(sorted(state.counters().items())), labels)


def fast_playout(game: RulesGame, policies: Sequence[Policy]) -> FastPlayout | None:
    """The engine's whole-game fast player for these policies (an optional hook), or None."""
    hook = getattr(game, "fast_playout", None)
    return None if hook is None else hook(policies)


def play_match(game: RulesGame, policies: Sequence[Policy], base_seed: int, index: int, *,
               step_cap: int = DEFAULT_STEP_CAP, check_invariants: bool = False,
               fast: FastPlayout | None = None) -> MatchRecord:
    """Match `index`: its games in order, the next game's first player from the game's rule. With
    `fast` (from fast_playout, never with invariant checks) its games are played by the engine's
    fast player, which yields the same records."""
    chance = random.Random(derive_seed(base_seed, index, "chance"))
    choice = random.Random(derive_seed(base_seed, index, "policy"))
    games: list[GameRecord] = []
    first: int | None = None
    while not game.match_over([g.scores for g in games]):
        if fast is not None and not check_invariants:
            record = GameRecord(*fast.play(chance, choice, first, [g.scores for g in games], step_cap))
        else:
            record = play_game(game, policies, chance, choice, first_player=first,
                               previous_scores=[g.scores for g in games], step_cap=step_cap,
                               check_invariants=check_invariants)
        games.append(record)
        if record.end == END_CAP:
            break
        first = game.next_first_player(record.first_player, len(policies))
    timed_out = games[-1].end == END_CAP
    totals = tuple(sum(column) for column in zip(*(g.scores for g in games)))
    winners = () if timed_out else game.match_winners([g.scores for g in games])
    return MatchRecord(index, tuple(games), totals, winners, games[0].first_player, timed_out)


def play_range(game: RulesGame, config: SimConfig, start: int, stop: int) -> list[MatchRecord]:
    """Matches start..stop-1, each seeded by its index alone: one chunk, as any worker plays it."""
    policies = [find_policy(name, game.engine) for name in config.policies]
    fast = None if config.check_invariants else fast_playout(game, policies)
    return [play_match(game, policies, config.seed, index, step_cap=config.step_cap,
                       check_invariants=config.check_invariants, fast=fast) for index in range(start, stop)]


_WORKER: dict[str, object] = {}


def _init_worker(payload: tuple[RulesGame, SimConfig] | bytes) -> None:
    """Set up a worker: the game and config as fork inherits them, or pickled (spawn).

    A worker ends when the pool terminates it (SIGTERM) and leaves Ctrl-C to the parent, whatever
    handlers it inherited by fork: a worker that raises inside a queue read can leave the queue's
    lock held, and the parent then waits for it forever. For the same reason a game that cannot be
    unpickled is not allowed to kill the worker (the pool would replace it, forever): the error is
    kept and raised by the worker's first chunk, which the parent re-raises.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        game, config = pickle.loads(payload) if isinstance(payload, bytes) else payload
    except Exception as exc:  # noqa: BLE001 - any unpickling failure is reported, see above
        _WORKER["error"] = f"{type(exc).__name__}: {exc}"
        return
    _WORKER["game"], _WORKER["config"] = game, config


def _run_chunk(bounds: tuple[int, int]) -> list[MatchRecord]:
    if "error" in _WORKER:
        raise RuntimeError(f"a simulation worker could not load the game ({_WORKER['error']})")
    game, config = _WORKER["game"], _WORKER["config"]
    return play_range(game, config, *bounds)  # type: ignore[arg-type]


# Forked workers inherit the loaded game and imports (about 0.5 s each saved on the 8 s benchmark
# run); spawn is the safe choice elsewhere (macOS frameworks are not fork-safe). Records do not
# depend on it: every match is seeded by its index alone.
_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"


def chunks(total: int, workers: int) -> Iterator[tuple[int, int]]:
    """Index ranges small enough to balance the workers, large enough to amortise the messaging (lazy)."""
    size = max(1, min(500, -(-total // (workers * 32))))
    return ((start, min(start + size, total)) for start in range(0, total, size))


def usable_workers(asked: int) -> int:
    """Worker processes actually started: never more than the machine's cores (results do not depend on it)."""
    return max(1, min(asked, os.cpu_count() or 1))


@dataclass(frozen=True)
class StopRule:
    """Stop before config.matches once `enough` says the records so far suffice. It is asked at every
    multiple of `every` matches, on exactly that many records (the first n by index), so where a
    run stops depends on the seed alone, never on the number of workers."""

    enough: Callable[[Sequence[MatchRecord]], bool]
    every: int

    def __post_init__(self) -> None:
        if self.every < 1:
            raise ValueError("a stop rule is asked every 1 match or more")


def simulate(game: RulesGame, config: SimConfig, stop: StopRule | None = None) -> list[MatchRecord]:
    """Play config.matches matches (fewer where `stop` says so), in index order, across
    config.workers processes (spawn-safe) or on config.cluster's workers."""
    if not game.min_players <= config.num_players <= game.max_players:
        raise ValueError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {config.num_players}")
    for name in config.policies:
        find_policy(name, game.engine)  # unknown names fail here, before any worker starts
    if config.cluster is not None:
        from .cluster import chunks_on  # distributed is imported only when a cluster is asked for

        with chunks_on(config.cluster, game, config) as parts:
            return _until(parts, stop)
    workers = usable_workers(config.workers)
    if workers == 1 or config.matches < 2:
        return _until(((play_range(game, config, *bounds) for bounds in chunks(config.matches, 1))), stop)
    context = multiprocessing.get_context(_START_METHOD)
    # Spawned workers get the game pickled here, so that one that cannot be unpickled is reported.
    payload = (game, config) if _START_METHOD == "fork" else pickle.dumps((game, config))
    with context.Pool(workers, initializer=_init_worker, initargs=(payload,)) as pool:
        return _until(pool.imap(_run_chunk, chunks(config.matches, workers)), stop)


def _until(parts: Iterator[list[MatchRecord]], stop: StopRule | None) -> list[MatchRecord]:
    """The records of `parts` in order, cut at the first checkpoint where the stop rule is satisfied
    (matches played past it in other chunks are dropped; leaving the pool ends their workers, leaving
    the cluster cancels their tasks)."""
    records: list[MatchRecord] = []
    checkpoint = stop.every if stop is not None else 0
    for part in parts:
        records.extend(part)
        while stop is not None and len(records) >= checkpoint:
            if stop.enough(records[:checkpoint]):
                return records[:checkpoint]
            checkpoint += stop.every
    return records
