"""What the commands share: one-line errors, game names, folder refusals, loading, the simulation budget,
the cluster."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from validator.cluster import ClusterError, reach
from validator.engine.api import RulesGame
from validator.issues import DeckError, Issue
from validator.loader import GAME_ID, find_games, load_game
from validator.model import Game
from validator.paths import DeckFolders, deck_folder_of
from validator.wording import counted

if TYPE_CHECKING:
    from validator.sim_cost import CostPart


def _err(line: str) -> None:
    typer.echo(line, err=True)


def _sim_budget(text: str | None) -> float:
    """--sim-budget in seconds (the documented default when not given); exit 2 on a bad duration."""
    from validator.limits import SIM_BUDGET_SECONDS
    from validator.sim_cost import parse_duration

    if text is None:
        return SIM_BUDGET_SECONDS
    try:
        return parse_duration(text)
    except ValueError as exc:
        _err(f"--sim-budget {exc}")
        raise typer.Exit(2) from None


def _cluster(address: str | None) -> str | None:
    """--cluster (or FUDAYA_CLUSTER), asked before any work: the address, or None when none is given; one
    line naming it and exit 1 when no Dask scheduler answers there (or the extra is not installed)."""
    if not address:
        return None
    with _cluster_exits():
        reach(address)
    return address


@contextmanager
def _cluster_exits() -> Iterator[None]:
    """Exit 1 with its one line for a cluster that cannot be used, found so before or while playing."""
    try:
        yield
    except ClusterError as exc:
        _err(str(exc))
        raise typer.Exit(1) from None


def _report(issues: list[Issue]) -> None:
    from ..console import print_findings

    print_findings(issues, Path.cwd())


def _problems(count: int) -> str:
    return counted(count, "problem")


GAME_NAME = GAME_ID  # a folder name, never a path (the loader's own test)


def _games(requested: list[str] | None, folders: DeckFolders) -> list[str]:
    """The games a command works on: those named (each found in the project, else among the shipped games,
    with a note saying so), or every game of the main folder. One line and exit 1 for a name found nowhere."""
    decks = folders.main
    if not requested:
        found = find_games(decks)
        if not found:
            _err(f"{decks}: no games found (each game is a folder with a game.json; --decks FOLDER reads another "
                 "folder)")
            raise typer.Exit(1)
        return found
    for name in requested:
        if not GAME_NAME.fullmatch(name):
            _err(f"{name!r}: not a game name (lower-case letters, digits, - and _: a folder in {decks})")
            raise typer.Exit(1)
        if not folders.has(folders.folder_for(name), name):
            elsewhere = " nor among the shipped games" if folders.shipped is not None else ""
            known = ", ".join(find_games(decks)) or "none"
            _err(f"{name}: no such game in {decks}{elsewhere} (games there: {known}); --decks FOLDER reads the "
                 "games of another folder")
            raise typer.Exit(1)
        if folders.uses_shipped(name):
            _err(f"note: {name}: not in {decks}; using the shipped game in {folders.shipped}")
    return requested


def _unwritable(output: Path) -> str | None:
    """Why the output folder could not be made or written into, judged at its nearest existing folder: a file on
    the way, or no permission to write there; else None."""
    probe = output
    while not probe.exists() and probe.parent != probe:
        probe = probe.parent
    if not probe.is_dir():
        return "Not a directory"
    if not os.access(probe, os.W_OK | os.X_OK):
        return "Permission denied"
    return None


def _refuse_bad_folders(decks: Path, output: Path) -> None:
    """One line and exit 1 for folder arguments that cannot work or would write into a deck.

    (A NUL character in a path is refused when the options are parsed, cli._path, as a usage error with exit 2.)"""
    if output.exists() and not output.is_dir():
        _err(f"{output}: --output names a file, not a folder")
        raise typer.Exit(1)
    blocked = _unwritable(output)
    if blocked is not None:  # said now, not after the minutes a simulation may take
        _err(f"{output}: cannot write the output folder ({blocked})")
        raise typer.Exit(1)
    try:
        decks_root, output_root = decks.resolve(), output.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop (Python 3.11)
        _err(f"{decks} or {output}: cannot be resolved ({exc.__class__.__name__}: its links loop?)")
        raise typer.Exit(1) from None
    if output_root == decks_root or output_root.is_relative_to(decks_root):
        _err(f"{output}: --output may not be the decks folder {decks} or lie inside it (a build would write "
             f"over deck files)")
        raise typer.Exit(1)
    if decks_root.is_relative_to(output_root):
        _err(f"{decks}: the decks folder may not lie inside --output {output} (a build replaces what is there)")
        raise typer.Exit(1)
    deck = deck_folder_of(output_root)
    if deck is not None:
        _err(f"{output}: lies inside the deck folder {deck} (a build would write into the deck); run fudaya from "
             "the project folder (the one holding decks/) or pass --output")
        raise typer.Exit(1)


def _model(game_id: str, folders: DeckFolders) -> Game:
    """The loaded game of a deck folder; exit 1 (its problems reported) if it cannot be loaded."""
    folder = folders.folder_for(_games([game_id], folders)[0])
    try:
        return load_game(folder, game_id)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None


def _engine(model: Game) -> RulesGame:
    """The game's rules engine; exit 1 if its data cannot be played, 2 if it has no engine."""
    from validator.engine.registry import engine_for

    with _unplayable_exits(model):
        return engine_for(model)


@contextmanager
def _unplayable_exits(model: Game) -> Iterator[None]:
    """Exit 1 (its problems reported) for game data an engine cannot read, 2 (one line) for a ValueError."""
    try:
        yield
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except ValueError as exc:
        _err(f"{model.id}: {exc}")
        raise typer.Exit(2) from None


def _within_budget(model: Game, parts: list[CostPart], budget: float, advice: str) -> None:
    """Exit 2 with one line when a run asked for on the command line would cost more than the budget."""
    from validator.sim_cost import over_budget

    found = over_budget(parts, budget, advice)
    if found is not None:
        _err(f"{model.id}: {found[1]}")
        raise typer.Exit(2)
