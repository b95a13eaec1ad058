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


def export(name: str, *, format_: ExportFormat, dpi: int, base_url: str | None, local: bool, output: Path,
           decks: Path | None) -> None:
    """Export and say what was written; exit 1 on problems (2 for options that do not go together), 130 when
    interrupted."""
    from ..derived import ExportSettings, check_base_url
    from ..export import ExportError, export_png, export_tts

    settings = ExportSettings(format_.value, dpi, base_url, local)
    if format_ is ExportFormat.png and (base_url is not None or local):
        _err("--base-url and --local are for --format tts (png images are files, not a saved object)")
        raise typer.Exit(2)
    if format_ is ExportFormat.tts:
        if (base_url is None) == (not local):
            _err("--format tts needs where Tabletop Simulator will find the images: --base-url URL (the web "
                 "folder you upload export/tts/ to) or --local (file:// addresses, this machine only)")
            raise typer.Exit(2)
        if base_url is not None:
            try:
                check_base_url(base_url)
            except ValueError as exc:
                _err(str(exc))
                raise typer.Exit(2) from None

    folders = DeckFolders.for_command(decks)
    game_id = _games([name], folders)[0]
    try:
        game = load_checked(game_id, folders.folder_for(game_id))
        with interruptible():
            if format_ is ExportFormat.png:
                files = export_png(game, output, dpi=dpi)
                typer.echo(f"wrote {counted(len(files), 'image')} into {files[0].parent.parent}")
            else:
                saved = export_tts(game, output, settings)
                upload = f"upload {saved.parent}/*.png to {base_url}, then " if base_url is not None else ""
                typer.echo(f"wrote {saved} and its deck sheets: {upload}copy it into Tabletop Simulator's Saved "
                           "Objects folder")
    except BuildError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except (ExportError, OSError) as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the staging folder is gone, the earlier export intact
        _err(f"{game_id}: interrupted; {output / game_id / 'export' / format_.value} is as it was before")
        raise typer.Exit(130) from None
