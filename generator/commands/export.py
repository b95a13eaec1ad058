"""`fudaya export`: card images (png) or a Tabletop Simulator deck cut from a built game's print files."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.paths import DeckFolders
from validator.wording import counted

from ..build import BuildError, load_checked
from ..output_set import interruptible
from .common import _err, _games, _report
from .options import ExportFormat


def export(name: str, *, format_: ExportFormat, dpi: int, output: Path, decks: Path | None) -> None:
    """Export and say what was written; exit 1 on problems, 130 when interrupted."""
    from ..export import ExportError, export_png, export_tts

    folders = DeckFolders.for_command(decks)
    game_id = _games([name], folders)[0]
    try:
        game = load_checked(game_id, folders.folder_for(game_id))
        with interruptible():
            if format_ is ExportFormat.png:
                files = export_png(game, output, dpi=dpi)
                typer.echo(f"wrote {counted(len(files), 'image')} into {files[0].parent.parent}")
            else:
                saved = export_tts(game, output)
                typer.echo(f"wrote {saved} and its deck sheets: copy it into Tabletop Simulator's Saved Objects "
                           "folder")
    except BuildError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except (ExportError, OSError) as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the staging folder is gone, the earlier export intact
        _err(f"{game_id}: interrupted; {output / game_id / 'export' / format_.value} is as it was before")
        raise typer.Exit(130) from None
