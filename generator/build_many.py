"""Build several games at once, one process per core, and hand back what each build did.

Games share nothing while they build (each has its own output set and lock), so `fudaya build`
of every game runs them side by side: on two cores the five shipped games build in about half
the time. A worker returns a GameOutcome rather than raising, because the build's errors carry
located issues that must reach the parent whole. Ctrl-C or SIGTERM stops every worker through
`interruptible`: each removes its staging folder, so a game not finished keeps its earlier set.
"""
from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from validator.cluster import ClusterError
from validator.issues import Issue

from .build import BuildError, BuildOptions, build_game, load_checked
from .deck_pdf import WrittenFile
from .elements import DrawError
from .output_set import interruptible


@dataclass
class GameOutcome:
    """One game's build: the files written, or the issues or write error that stopped it."""

    game_id: str
    files: list[WrittenFile] = field(default_factory=list)
    placements: int = 0
    issues: list[Issue] = field(default_factory=list)
    error: str | None = None  # one line: what stopped the build (a write that failed, a cluster lost)
    warnings: list[str] = field(default_factory=list)  # preflight findings of the files written
    seconds: float = 0.0

    @property
    def built(self) -> bool:
        return not self.issues and self.error is None


def build_one(game_id: str, options: BuildOptions, *, preflight_workers: int = 1,
              progress: Callable[[int], None] = lambda n: None,
              on_loaded: Callable[[int], None] | None = None) -> GameOutcome:
    """Load, check, build and preflight one game. KeyboardInterrupt (and Terminated) pass through:
    the output set has already put the earlier files back. `on_loaded` is told the build's step
    count once the game is loaded (the CLI's progress bar needs it)."""
    from .build import total_steps

    start = time.perf_counter()
    try:
        with interruptible():
            game = load_checked(game_id, options.decks_for(game_id), sim_budget=options.sim_budget, paper=options.paper)
            if on_loaded is not None:
                on_loaded(total_steps(game, options))
            result = build_game(game, options, progress=progress, preflight_workers=preflight_workers)
    except (BuildError, DrawError) as exc:
        return GameOutcome(game_id, issues=exc.issues, seconds=time.perf_counter() - start)
    except OSError as exc:  # e.g. the disk is full
        return GameOutcome(game_id, error=f"{exc.filename or options.output_dir}: cannot write the build "
                                          f"({exc.strerror or exc})", seconds=time.perf_counter() - start)
    except ClusterError as exc:  # the simulation's cluster, lost or unusable after the command's first look
        return GameOutcome(game_id, error=str(exc), seconds=time.perf_counter() - start)
    warnings = [f"warning: {finding.line(str(path))}" for path, found in result.findings for finding in found]
    warnings += result.notes
    return GameOutcome(game_id, result.files, len(result.placements), warnings=warnings,
                       seconds=time.perf_counter() - start)


def build_side_by_side(game_ids: list[str], options: BuildOptions, workers: int) -> Iterator[GameOutcome]:
    """Each game's outcome in the order given, built `workers` at a time in forked processes.

    On KeyboardInterrupt every worker is sent SIGTERM and waited for before the interrupt goes on;
    `interrupted_games` of the exception tells which games kept their earlier set."""
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    # Largest first (by the bytes of its data, a fair guess at its drawing time), so that no core
    # is left with a large game at the end while the other idles; printed in the order given.
    by_size = sorted(game_ids, key=lambda game_id: -_data_bytes(options.decks_for(game_id) / game_id))
    submitted = {game_id: pool.submit(build_one, game_id, options) for game_id in by_size}
    futures: list[Future[GameOutcome]] = [submitted[game_id] for game_id in game_ids]
    try:
        for future in futures:
            yield future.result()
    except KeyboardInterrupt as interrupt:
        for child in multiprocessing.active_children():
            child.terminate()
        pool.shutdown(wait=True, cancel_futures=True)
        interrupt.interrupted_games = [game_id for game_id, future in zip(game_ids, futures)  # type: ignore[attr-defined]
                                       if not _built(future)]
        raise
    finally:
        pool.shutdown(wait=True)


def _built(future: Future[GameOutcome]) -> bool:
    return future.done() and not future.cancelled() and future.exception() is None and future.result().built


def _data_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.glob("*.json") if path.is_file())  # not rglob: no links followed


def default_game_workers(games: int) -> int:
    return max(1, min(games, os.cpu_count() or 1))
