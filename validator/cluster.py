"""Play a simulation's chunks of matches on a Dask cluster's workers (the optional `fudaya[cluster]` extra).

One machine's process pool (simulate.py) is the default. Sweeps that outgrow it go to a Dask scheduler
(`--cluster tcp://HOST:8786` or FUDAYA_CLUSTER), and Dask distributed, an existing, well-kept engine,
does the distributed part: placing tasks on workers, moving results, and rerunning the tasks of a
worker that dies (the scheduler does so up to its `allowed-failures`). The tasks are simulate.chunks'
index ranges and every match is seeded by (seed, index) alone, so the records are a local run's.
`distributed` is imported here only, and only once a cluster is asked for.

A worker needs fudaya, the same code as the machine that asks (checked: other code could play other
matches), and nothing else: the game is loaded where the command runs and sent whole, its deck's data inside
it, so no deck file has to be on a worker.
"""
from __future__ import annotations

import hashlib
import pickle
import time
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import CancelledError
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from .engine.api import RulesGame
from .simulate import MatchRecord, SimConfig, chunks, play_range

if TYPE_CHECKING:
    from distributed import Future

CONNECT_SECONDS = 10  # for the scheduler to answer, and for it to have a worker (again, once all have left)
# A chunk that raised on a worker (out of memory, say) is tried again this often; a worker that dies is
# another matter, its tasks are rescheduled by the scheduler itself.
RETRIES = 2
WAIT_SLICE = 1.0  # seconds between looks at whether any worker is left, while a chunk is awaited
INSTALL = "pip install 'fudaya[cluster]'"
_OTHER_CODE = ("worker {worker} runs other fudaya code than the machine that asked (install the same fudaya on "
               "every worker)")


class ClusterError(Exception):
    """A cluster that cannot be used, in one line naming its address (the CLI prints it and exits 1)."""


def check_address(address: str) -> None:
    """ClusterError unless `address` is one Dask can dial (tcp://HOST:8786, say) and the extra is installed."""
    try:
        from distributed.comm.addressing import parse_address
        from distributed.comm.registry import backends
    except ImportError:
        raise ClusterError(f"{address}: a cluster needs Dask distributed ({INSTALL})") from None
    try:
        scheme, location = parse_address(address)
    except ValueError:
        scheme, location = "", ""
    if scheme not in backends or not location:
        raise ClusterError(f"{address}: not a Dask scheduler address (tcp://HOST:8786; schemes: "
                           f"{', '.join(sorted(backends))})")


def reach(address: str) -> None:
    """ClusterError unless a Dask scheduler answers at `address` within CONNECT_SECONDS. Asked before any
    work (and before a distributed.Client is made, which leaves its thread behind when it cannot connect);
    it leaves no thread behind itself, so a build may fork after it."""
    check_address(address)
    import asyncio  # here, not at the top: every build imports this module for ClusterError

    from distributed.core import rpc

    async def identity() -> Any:
        async with rpc(address, timeout=CONNECT_SECONDS) as scheduler:  # type: ignore[no-untyped-call]
            return await scheduler.identity()

    try:
        answer = asyncio.run(identity())
    except Exception:  # noqa: BLE001 - whatever answered (or nothing did), it is no scheduler to use
        raise ClusterError(f"{address}: no Dask scheduler answered within {CONNECT_SECONDS} s") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ClusterError(f"{address}: what answered is not a Dask scheduler")


@cache
def code_digest(engine: str) -> str:
    """The simulator's code as the report cache keys it (study.code_files): equal code, equal matches."""
    from .study import CODE, code_files

    digest = hashlib.sha256()
    for name, data in sorted(code_files(CODE, engine)):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


@dataclass(frozen=True)
class _Run:
    """What every chunk task of one simulate() shares besides the game's bytes: their hash (a worker keeps
    each game it unpickled, so an engine's memo stays warm from run to run, as in a local process), the
    engine and the asking machine's code_digest of it, and the config."""

    game_key: str
    engine: str
    code: str
    config: SimConfig


@contextmanager
def chunks_on(address: str, game: RulesGame, config: SimConfig) -> Iterator[Iterator[list[MatchRecord]]]:
    """The records of config's chunks as the cluster's workers play them, in index order. The game goes
    to the cluster once; leaving the block cancels what is not played yet (a stop rule was satisfied)."""
    reach(address)
    from distributed import Client

    try:
        client = Client(address, timeout=CONNECT_SECONDS, set_as_default=False)  # type: ignore[no-untyped-call]
    except OSError:
        raise ClusterError(f"{address}: no Dask scheduler answered within {CONNECT_SECONDS} s") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise ClusterError(f"{address}: the scheduler has no workers (start some: dask worker {address})") from None
        threads = sum(client.nthreads().values())  # type: ignore[no-untyped-call]
        _check_workers(client, game.engine)
        blob = pickle.dumps(game)
        run = _Run(hashlib.sha256(blob).hexdigest(), game.engine, code_digest(game.engine), config)
        # The bytes as a task's result, not scattered data: were every worker holding them lost, the scheduler
        # would compute them again from the task.
        shipped = client.submit(_shipped, blob, pure=False)
        futures = [client.submit(_play, shipped, run, bounds, priority=-position, retries=RETRIES, pure=False)
                   for position, bounds in enumerate(chunks(config.matches, threads))]
        try:
            yield (_result(client, address, future) for future in futures)
        finally:
            client.cancel([shipped, *futures])  # type: ignore[no-untyped-call]


def _check_workers(client: Any, engine: str) -> None:
    """ClusterError naming the first worker that cannot play as this machine would: one without fudaya (a task
    would not even unpickle there, and kill the worker), or with other code."""
    ours = code_digest(engine)
    for worker, theirs in sorted(client.run(code_digest, engine, on_error="return").items()):
        if isinstance(theirs, Exception):  # Dask may hand back a plain Exception holding the worker's repr
            said = str(theirs) if type(theirs) is Exception else f"{type(theirs).__name__}: {theirs}"
            raise ClusterError(f"worker {worker} cannot run fudaya ({said}; install the same fudaya on every worker)")
        if theirs != ours:
            raise ClusterError(_OTHER_CODE.format(worker=worker))


def _result(client: Any, address: str, future: Future[list[MatchRecord]]) -> list[MatchRecord]:
    """A chunk's records once played; ClusterError for a lost scheduler, a chunk that kept killing workers,
    or no worker left for CONNECT_SECONDS (Dask would wait for one forever)."""
    from distributed.scheduler import KilledWorker

    alone_since: float | None = None
    while True:
        try:
            return future.result(timeout=WAIT_SLICE)
        except KilledWorker as exc:
            raise ClusterError(f"{address}: {exc.allowed_failures + 1} workers in a row died playing one chunk of "
                               "matches (out of memory?)") from None
        except TimeoutError:
            # Cancelled (by the client, its connection lost) is the end; "lost" is not: the data died with its
            # worker and the scheduler computes it again once a worker is there, so look for one below.
            if future.status == "cancelled":
                raise ClusterError(f"{address}: the connection to the scheduler was lost while playing") from None
        except (OSError, CancelledError) as exc:
            if future.status == "error":
                raise  # the chunk's own error, raised on a worker
            raise ClusterError(f"{address}: the connection to the scheduler was lost while playing "
                               f"({type(exc).__name__})") from None
        if client.nthreads():
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since > CONNECT_SECONDS:
            raise ClusterError(f"{address}: no worker left to play (all stopped or died); start some: "
                               f"dask worker {address}")


def _shipped(blob: bytes) -> bytes:
    """The pickled game, as a task's result (see chunks_on)."""
    return blob


_GAMES: OrderedDict[str, RulesGame] = OrderedDict()  # on a worker: the games it unpickled, newest last
KEPT_GAMES = 4  # a variant study plays a few engines in turn; each keeps its own memo


def _play(blob: bytes, run: _Run, bounds: tuple[int, int]) -> list[MatchRecord]:
    """On a worker: the matches of one chunk, once this worker's code is known to be the asking machine's
    (compared before unpickling, which other code could fail in obscure ways or, worse, not fail)."""
    if code_digest(run.engine) != run.code:
        from distributed import get_worker

        raise ClusterError(_OTHER_CODE.format(worker=get_worker().address))
    game = _GAMES.pop(run.game_key, None)
    if game is None:
        game = pickle.loads(blob)
    _GAMES[run.game_key] = game
    while len(_GAMES) > KEPT_GAMES:
        _GAMES.popitem(last=False)
    return play_range(game, run.config, *bounds)
