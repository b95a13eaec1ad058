"""`fudaya watch`: build a game, then rebuild what each change of its files affects."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.paths import DeckFolders

from ..build import BuildError, BuildOptions, build_game, load_checked
from ..elements import DrawError
from ..output_set import interruptible
from .common import _err, _games, _refuse_bad_folders


def watch(name: str, *, output: Path, decks: Path | None, max_rebuilds: int | None) -> None:
    """Build, then watch until interrupted (or `max_rebuilds` rebuilds); exit 1 if the folder cannot be watched."""
    import time

    from validator.deckfs import ConfinedError

    from ..watch import ALL, only_for, watch_game

    folders = DeckFolders.for_command(decks)
    game_id = _games([name], folders)[0]
    decks_dir = folders.folder_for(game_id)
    _refuse_bad_folders(decks_dir, output)

    def rebuild(components: tuple[str, ...]) -> tuple[bool, str]:
        try:
            game = load_checked(game_id, decks_dir)
            build_game(game, BuildOptions(decks_dir=decks_dir, output_dir=output, report=False,
                                          only=only_for(game, components)))
            return True, ""
        except (BuildError, DrawError) as exc:
            return False, "\n".join(issue.render(Path.cwd()) for issue in exc.issues)
        except OSError as exc:
            return False, f"{exc.filename or output}: cannot write the build ({exc.strerror or exc})"

    started = time.perf_counter()
    ok, said = rebuild(ALL)
    if said:
        _err(said)
    typer.echo(f"{'built' if ok else 'not built'} {game_id} into {output / game_id} "
               f"in {time.perf_counter() - started:.1f} s")
    try:
        with interruptible():
            watch_game(decks_dir / game_id, rebuild, echo=typer.echo, max_rebuilds=max_rebuilds)
    except ConfinedError as exc:
        _err(f"{decks_dir / game_id}: cannot be watched ({exc})")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("stopped watching")
