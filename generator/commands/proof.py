"""`fudaya proof`: the static HTML proof gallery of a built game."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.issues import DeckError
from validator.loader import load_game
from validator.paths import DeckFolders

from ..output_set import interruptible
from .common import _err, _games, _report


def proof(name: str, *, output: Path, decks: Path | None) -> None:
    """Write the gallery and say where; exit 1 on problems, 130 when interrupted."""
    from validator.checks import check_game

    from ..export import ExportError
    from ..proof import write_proof

    folders = DeckFolders.for_command(decks)
    game_id = _games([name], folders)[0]
    try:
        game = load_game(folders.folder_for(game_id), game_id)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    try:
        with interruptible():
            index = write_proof(game, output, check_game(game).issues)
    except (ExportError, OSError) as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the staging folder is gone, the earlier gallery intact
        _err(f"{game_id}: interrupted; {output / game_id / 'proof'} is as it was before")
        raise typer.Exit(130) from None
    typer.echo(f"wrote {index}")
