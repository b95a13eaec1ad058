"""The `fudaya` command: parse arguments, call the library, print results, map them to exit codes."""
from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from validator.checks import check_game
from validator.issues import DeckError, Issue
from validator.loader import find_games, load_game
from validator.model import Game
from validator.paths import DEFAULT_DECKS_DIR, DEFAULT_OUTPUT_DIR, PROJECT_ROOT

from .build import BuildError, BuildOptions, build_game, load_checked, total_steps
from .elements import DrawError

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="fudaya: JSON game definitions to print-ready PDFs, checked before printing.")


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Marks(str, Enum):
    tombo = "tombo"
    western = "western"
    none = "none"


class Mode(str, Enum):
    both = "both"
    sheets = "sheets"
    printshop = "printshop"


DecksOption = Annotated[Path, typer.Option("--decks", help="folder holding one sub-folder per game")]


def _err(line: str) -> None:
    typer.echo(line, err=True)


def _report(issues: list[Issue]) -> None:
    for issue in issues:
        _err(issue.render(PROJECT_ROOT))


def _problems(count: int) -> str:
    return f"{count} problem{'s' if count != 1 else ''}"


def _contents(game: Game) -> str:
    """'66 cards, 4 sheets': what the game prints, counted by kind."""
    counts: dict[str, int] = {}
    for deck in game.decks:
        noun = "cards" if deck.has_backs else "sheets"
        counts[noun] = counts.get(noun, 0) + sum(card.qty for card in deck.cards)
    return ", ".join(f"{n} {noun}" for noun, n in counts.items())


def _games(requested: list[str] | None, decks: Path) -> list[str]:
    if requested:
        return requested
    found = find_games(decks)
    if not found:
        _err(f"{decks}: no games found (each game is a folder with a game.json)")
        raise typer.Exit(1)
    return found


@app.command()
def build(
    games: Annotated[Optional[list[str]], typer.Argument(help="games to build (default: all)")] = None,
    paper: Annotated[Paper, typer.Option(help="paper for n-up sheets")] = Paper.a4,
    marks: Annotated[Marks, typer.Option(help="cut marks: Japanese トンボ, western crop marks or none")] = Marks.tombo,
    mode: Annotated[Mode, typer.Option(help="n-up duplex sheets, one-card-per-page print-shop file, or both")] = Mode.both,
    proof: Annotated[bool, typer.Option("--proof", help="draw trim, safe-zone and corner guides (files get -proof)")] = False,
    gutter: Annotated[Optional[float], typer.Option(help="space between cards in mm (default: full bleed if it costs no card)")] = None,
    output: Annotated[Path, typer.Option("--output", "-o", help="output folder")] = DEFAULT_OUTPUT_DIR,
    decks: DecksOption = DEFAULT_DECKS_DIR,
) -> None:
    """Build print files for each game into OUTPUT/<game>/."""
    options = BuildOptions(paper=paper.value, marks=marks.value, mode=mode.value, proof=proof,
                           gutter=gutter, decks_dir=decks, output_dir=output)
    failed = False
    for game_id in _games(games, decks):
        try:
            game = load_checked(game_id, decks)
            with typer.progressbar(length=total_steps(game, options), label=f"{game_id:10}", file=sys.stderr) as bar:
                result = build_game(game, options, progress=bar.update)
        except (BuildError, DrawError) as exc:
            _report(exc.issues)
            _err(f"{game_id}: not built ({len(exc.issues)} problem{'s' if len(exc.issues) > 1 else ''})")
            failed = True
            continue
        except OSError as exc:  # e.g. --output names a file, or the disk is full
            _err(f"{exc.filename or output}: cannot write the build ({exc.strerror or exc})")
            _err(f"{game_id}: not built")
            failed = True
            continue
        for written in result.files:
            width, height = written.page_size
            typer.echo(f"wrote {written.path}: {written.pages} page{'s' if written.pages != 1 else ''}, {width:g}×{height:g} mm")
        typer.echo(f"wrote {output / game_id / 'build.json'}: {len(result.placements)} placements")
    if failed:
        raise typer.Exit(1)


@app.command()
def check(
    games: Annotated[Optional[list[str]], typer.Argument(help="games to check (default: all)")] = None,
    decks: DecksOption = DEFAULT_DECKS_DIR,
) -> None:
    """Check schema, composition, references, artwork, glyph coverage and text fit. Exit 1 on findings."""
    findings = 0
    for game_id in _games(games, decks):
        try:
            game = load_game(decks, game_id)
        except DeckError as exc:
            _report(exc.issues)
            findings += len(exc.issues)
            typer.echo(f"{game_id}: {_problems(len(exc.issues))} (cannot be loaded)")
            continue
        result = check_game(game)
        _report(result.issues)
        findings += len(result.errors)
        state = "ok" if result.ok else _problems(len(result.errors))
        typer.echo(f"{game_id}: {state} ({_contents(game)})")
    if findings:
        raise typer.Exit(1)


@app.command("list")
def list_games(decks: DecksOption = DEFAULT_DECKS_DIR) -> None:
    """List the games found and their components."""
    for game_id in _games(None, decks):
        try:
            game = load_game(decks, game_id)
        except DeckError as exc:
            typer.echo(f"{game_id}: cannot be loaded")
            _report(exc.issues[:1])
            continue
        low, high = game.players
        minutes = game.play_minutes
        typer.echo(f"{game_id}  {game.title}  {low}–{high} players, {minutes[0]}–{minutes[1]} min")
        for deck in game.decks:
            size = deck.layout.size
            cards = sum(card.qty for card in deck.cards)
            typer.echo(f"  deck {deck.id}: {cards} cards, {size.width:g}×{size.height:g} mm, bleed {size.bleed:g} mm")


def main() -> None:  # pragma: no cover - console entry used by `python -m generator.cli`
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
