"""`fudaya import`: a component's cards replaced by a spreadsheet's rows."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.issues import DeckError
from validator.paths import DeckFolders, new_decks_dir
from validator.wording import counted

from .common import _err, _games, _report


def import_cards(name: str, source: Path, *, component: str | None, decks: Path | None) -> None:
    """Write the imported cards.json and say what to run next; exit 1 (nothing written) on a bad row or deck."""
    from validator.deckfs import ConfinedError

    from ..spreadsheet import RowError, import_into_game

    decks_dir = decks if decks is not None else new_decks_dir()
    folder = decks_dir / _games([name], DeckFolders(decks_dir))[0]  # never a shipped game: import writes
    try:
        written, how = import_into_game(folder, source, component)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except RowError as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    except (ConfinedError, OSError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or exc.__class__.__name__
        _err(f"{folder}: cannot import into this game ({why})")
        raise typer.Exit(1) from None
    read_as = "" if how == "xlsx" else f", read as {how}"
    for imported in written:
        typer.echo(f"wrote {imported.cards_file}: {counted(imported.count, 'card')} from {source}{read_as}")
    typer.echo(f"next: fudaya check {name}" + (f" --decks {decks}" if decks is not None else "") + " --no-simulate")
