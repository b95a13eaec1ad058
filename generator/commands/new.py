"""`fudaya new`: a new game folder from the starter deck or a copy of a shipped game."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.paths import new_decks_dir
from validator.wording import counted

from .common import GAME_NAME, _err


def new(name: str, *, source: str | None, title: str | None, decks: Path | None, template: str | None = None) -> None:
    """Make the folder and say what to run next; exit 1 for a bad name or a folder that cannot be made."""
    from ..new_game import NewGameError, new_game

    if not GAME_NAME.fullmatch(name):
        _err(f"{name!r}: not a game name (lower-case letters, digits, - and _)")
        raise typer.Exit(1)
    try:
        folder = new_game(decks if decks is not None else new_decks_dir(), name, title=title, source=source,
                           template=template)
    except (NewGameError, OSError) as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    typer.echo(f"made {folder}: {counted(len(files), 'file')}")
    where = "" if decks is None else f" --decks {decks}"
    typer.echo(f"next: fudaya check {name}{where} --no-simulate; fudaya build {name}{where}")
