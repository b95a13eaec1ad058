"""`fudaya build`: every game built, side by side or one by one, each one's files or problems printed."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from validator.paths import DeckFolders
from validator.wording import counted

from ..build import BuildOptions
from ..build_many import GameOutcome, build_one, build_side_by_side, default_game_workers
from ..output_set import interruptible
from .common import _cluster, _err, _games, _problems, _refuse_bad_folders, _report, _sim_budget
from .options import Marks, Mode, Paper, Pdfx


def build(games: list[str] | None, *, paper: Paper, marks: Marks, mode: Mode, proof: bool, gutter: float | None,
          output: Path, only: list[str] | None, report: bool, booklet: bool, cache: bool, studies: bool, pdfx: Pdfx,
          workers: int | None, cluster: str | None, sim_budget: str | None, decks: Path | None) -> None:
    """Build each game into OUTPUT/<game>/; exit 1 if any was not built (or the cluster cannot be used),
    130 when interrupted."""
    folders = DeckFolders.for_command(decks)
    game_ids = _games(games, folders)
    for folder in {folders.folder_for(game_id) for game_id in game_ids} | {folders.main}:
        _refuse_bad_folders(folder, output)
    address = _cluster(cluster)
    options = BuildOptions(paper=paper.value, marks=marks.value, mode=mode.value, proof=proof,
                           gutter=gutter, decks_dir=folders.main, shipped_dir=folders.shipped, output_dir=output,
                           report=report,
                           only=tuple(only or ()), workers=workers, cluster=address, booklet=booklet,
                           pdfx=pdfx.value, report_cache=cache, studies=studies, sim_budget=_sim_budget(sim_budget))
    workers = default_game_workers(len(game_ids))
    outcomes = build_side_by_side(game_ids, options, workers) if workers > 1 else _one_by_one(game_ids, options)
    failed, reported = False, []
    try:
        with interruptible():
            for outcome in outcomes:
                failed |= not _print_outcome(outcome, output)
                reported.append(outcome.game_id)
    except KeyboardInterrupt as interrupt:  # Ctrl-C or SIGTERM: staging folders are gone, earlier sets intact
        unfinished = [game_id for game_id in game_ids if game_id not in reported]
        for game_id in getattr(interrupt, "interrupted_games", unfinished):
            _err(f"{game_id}: interrupted; {output / game_id} is as it was before this build")
        raise typer.Exit(130) from None
    if failed:
        raise typer.Exit(1)


def _one_by_one(game_ids: list[str], options: BuildOptions) -> Iterator[GameOutcome]:
    """Each game built in turn in this process; an interrupt names the game it stopped and those after it."""
    for position, game_id in enumerate(game_ids):
        try:
            yield _build_with_bar(game_id, options)
        except KeyboardInterrupt as interrupt:
            interrupt.interrupted_games = game_ids[position:]  # type: ignore[attr-defined]
            raise


def _build_with_bar(game_id: str, options: BuildOptions) -> GameOutcome:
    """One game in this process, a progress bar on stderr while its files are drawn."""
    with contextlib.ExitStack() as stack:
        bars: list[Any] = []

        def start(steps: int) -> None:
            bars.append(stack.enter_context(typer.progressbar(length=steps, label=f"{game_id:10}", file=sys.stderr)))
        outcome = build_one(game_id, options, preflight_workers=os.cpu_count() or 1, on_loaded=start,
                            progress=lambda n: bars[0].update(n) if bars else None)
    return outcome


def _print_outcome(outcome: GameOutcome, output: Path) -> bool:
    """What one game's build wrote (stdout) or why it was not built (stderr); whether it was built.
    Each game ends with a line saying it is built and how long it took: progress a CI log can read."""
    game_id = outcome.game_id
    if outcome.issues:
        _report(outcome.issues)
        _err(f"{game_id}: not built ({_problems(len(outcome.issues))})")
        return False
    if outcome.error is not None:
        _err(outcome.error)
        _err(f"{game_id}: not built")
        return False
    for written in outcome.files:
        width, height = written.page_size
        typer.echo(f"wrote {written.path}: {counted(written.pages, 'page')}, {width:g}×{height:g} mm")
    typer.echo(f"wrote {output / game_id / 'build.json'}: {counted(outcome.placements, 'placement')}")
    for line in outcome.warnings:
        _err(line)
    typer.echo(f"{game_id}: built in {outcome.seconds:.1f} s")
    return True
