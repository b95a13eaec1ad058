"""The `fudaya` command: declare each command's options and help, then call its module in generator/commands.

Only Typer, the folder defaults and the options' choices are imported at start (`fudaya --help` stays quick);
a command imports its module, and that module what it needs, when it runs.
"""
from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated

import typer

from validator.paths import working_decks_dir, working_output_dir

from .commands.options import ExportFormat, Marks, Mode, Paper, Pdfx

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="fudaya: JSON game definitions to print-ready PDFs, checked before printing.")


def _path(value: str) -> Path:
    """A path option's value. One with a NUL byte names no file (the system cannot take it, and Typer's own
    conversion fails on it with a traceback): a usage error like any bad option, before anything runs. (A shell
    cannot pass one; a program calling fudaya can.)"""
    if "\x00" in value:
        raise typer.BadParameter("a path cannot hold a NUL byte")
    return Path(value)


# Folders default to the project's decks/ (else the shipped games) and output/, found from where the command
# runs when it runs (validator.paths), never at import.
DecksOption = Annotated[Path | None, typer.Option(
    "--decks", parser=_path, metavar="PATH",
    help="folder holding one sub-folder per game, and only it (default: the decks/ of the project you "
    "are in, even from inside it, else the shipped games; a game the project lacks is taken from the shipped "
    "games, with a note)", show_default=False)]
OutputOption = Annotated[Path | None, typer.Option(
    "--output", "-o", parser=_path, metavar="PATH",
    help="the output folder, one sub-folder per game (default: the output/ of the project you are "
    "in, else ./output)", show_default=False)]
SimBudgetOption = Annotated[str | None, typer.Option(
    "--sim-budget", metavar="DURATION", help="the most the simulation may cost, estimated before playing: seconds "
    "or a duration such as 45m, 6h, 2d (default: 2h on 2 cores; see docs/security.md)")]
CLUSTER_ENV = "FUDAYA_CLUSTER"
ClusterOption = Annotated[str | None, typer.Option(
    "--cluster", envvar=CLUSTER_ENV, metavar="ADDRESS", help="play the simulations on the workers of the Dask "
    "scheduler at this address, e.g. tcp://HOST:8786 (pip install 'fudaya[cluster]'); results are a local run's")]



def _settled() -> None:
    """The command's modules are imported: set what importing made aside from the garbage collector (gc.freeze),
    so that its collections walk the command's own objects, not every module's again and again: 0.1 s of
    `fudaya build gogyo --only cards`, and no copies of those pages in a forked worker (CPython's advice)."""
    gc.freeze()


@app.command()
def build(
    games: Annotated[list[str] | None, typer.Argument(help="games to build (default: all)", metavar="[GAME]...")]
        = None,
    paper: Annotated[Paper, typer.Option(help="paper for n-up sheets")] = Paper.a4,
    marks: Annotated[Marks, typer.Option(help="cut marks: Japanese トンボ, western crop marks or none")] = Marks.tombo,
    mode: Annotated[Mode, typer.Option(
        help="n-up duplex sheets, one-card-per-page print-shop file, or both")] = Mode.both,
    proof: Annotated[bool, typer.Option("--proof",
        help="draw trim, safe-zone and corner guides (files get -proof)")] = False,
    gutter: Annotated[float | None, typer.Option(
        help="space between cards in mm (default: as much bleed as fits without losing a card)")] = None,
    output: OutputOption = None,
    only: Annotated[list[str] | None, typer.Option(
        help="write only this component (repeatable; 'report' for the simulation report)", metavar="COMPONENT",
    )] = None,
    report: Annotated[bool, typer.Option("--report/--no-report", help="simulate and write report.json/.pdf")] = True,
    booklet: Annotated[bool, typer.Option("--booklet/--no-booklet",
        help="also write each rulebook as a saddle-stitch booklet to print at home, 2-up (A5 on A4), duplex on "
             "the short edge (not in --mode printshop)")]
        = True,
    cache: Annotated[bool, typer.Option("--cache/--no-cache", help="reuse a report simulated before for the "
                                        "same game data and simulator code (OUTPUT/.cache)")] = True,
    studies: Annotated[bool, typer.Option("--studies", help="also play the studies game.json asks for (the "
                                          "strength ladder, a variant study under stronger policies): minutes to "
                                          "an hour; kept in OUTPUT/.cache and shown by later reports")] = False,
    pdfx: Annotated[Pdfx, typer.Option(
        help="PDF/X standard of the print files: X-4, or X-1a (PDF 1.4, no transparency) for shops that ask")]
        = Pdfx.x4,
    workers: Annotated[int | None, typer.Option(
        help="simulation worker processes (results do not depend on it)")] = None,
    cluster: ClusterOption = None,
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = None,
) -> None:
    """Build print files, rulebook and simulation report for each game into OUTPUT/<game>/.

    Example: fudaya build gogyo --paper a3 --marks western; fudaya build gogyo --studies"""
    from .commands.build import build as build_games

    _settled()
    build_games(games, paper=paper, marks=marks, mode=mode, proof=proof, gutter=gutter,
                output=output or working_output_dir(), only=only, report=report, booklet=booklet, cache=cache,
                studies=studies, pdfx=pdfx, workers=workers,
                cluster=cluster, sim_budget=sim_budget, decks=decks)


@app.command()
def preflight(
    files: Annotated[list[Path], typer.Argument(parser=_path, help="PDF files to check (any tool's)",
                                                metavar="FILE.pdf")],
    sheets: Annotated[bool, typer.Option("--sheets",
        help="sheets cut at home: skip TrimBox, BleedBox and bleed")] = False,
    min_bleed: Annotated[float, typer.Option(help="bleed in mm the shop asks for")] = 3.0,
    min_dpi: Annotated[float, typer.Option(help="lowest effective image resolution")] = 300.0,
    max_ink: Annotated[float, typer.Option(help="highest total ink in percent")] = 300.0,
    pdfx: Annotated[bool, typer.Option("--pdfx", help="also report a file that does not declare PDF/X")] = False,
) -> None:
    """Check PDFs for what print shops reject: RGB or spot colours, ink over 300 %, unembedded fonts,
    missing boxes, bleed under 3 mm, images under 300 dpi, hairlines, text under 5 pt, forms, scripts;
    in a file that claims PDF/X, its identification keys, output intent, metadata, page boxes and (X-1a)
    transparency.

    One line per finding with page and position (mm from the page's lower left); exit 1 when any.
    A file that cannot be checked (unreadable, encrypted, over preflight's limits) is one line on
    stderr, and the others are still checked.

    Example: fudaya preflight output/gogyo/cards-printshop.pdf"""
    from .commands.preflight import preflight as check_pdfs

    _settled()
    check_pdfs(files, sheets=sheets, min_bleed=min_bleed, min_dpi=min_dpi, max_ink=max_ink, pdfx=pdfx)


@app.command()
def check(
    games: Annotated[list[str] | None, typer.Argument(help="games to check (default: all)", metavar="[GAME]...")]
        = None,
    simulate: Annotated[bool, typer.Option("--simulate/--no-simulate",
        help="also play the game.json simulation and write report.json/.pdf")] = True,
    output: OutputOption = None,
    workers: Annotated[int | None, typer.Option(
        help="simulation worker processes (results do not depend on it)")] = None,
    cluster: ClusterOption = None,
    sim_budget: SimBudgetOption = None,
    paper: Annotated[Paper, typer.Option(help="the paper the cards must fit, as build --paper")] = Paper.a4,
    decks: DecksOption = None,
) -> None:
    """Check schema, composition, references, artwork, glyphs, text fit, rulebook claims; then simulate.

    Exit 1 on findings. Example: fudaya check gogyo --no-simulate"""
    from .commands.check import check as check_games

    _settled()
    check_games(games, simulate=simulate, output=output or working_output_dir(), workers=workers, cluster=cluster,
                sim_budget=sim_budget,
                paper=paper, decks=decks)


@app.command("list")
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="print the listing as JSON (for scripts)")] = False,
    decks: DecksOption = None,
) -> None:
    """List the games found and their components: a table per game, or JSON.

    Example: fudaya list --decks ~/games/decks"""
    from .commands.list_games import list_games as print_listing

    print_listing(as_json=as_json, decks=decks)


@app.command()
def score(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help="game whose scoring rules apply: gogyo, jinzai, sengoku")],
    cards: Annotated[list[str], typer.Argument(
        metavar="TOKEN...",
        help="the hand: gogyo 唐火 漢土 閥 天 隋金; jinzai one column per token, bottom to top: 文7 武3・武3 文4・＊; "
             "sengoku one card per token: 武田 信 玄")],
    as_json: Annotated[bool, typer.Option("--json", help='print {"total", the other parts, "order"} as JSON')] = False,
    decks: DecksOption = None,
) -> None:
    """Score a hand by the game's rules: total, parts and, where order matters, the best order. Exit 2 if bad.

    Example: fudaya score gogyo 唐火 漢土 閥 天 隋金"""
    from .commands.score import score as score_hand

    score_hand(game_id, cards, as_json=as_json, decks=decks)


@app.command()
def simulate(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game to simulate, e.g. gogyo")],
    players: Annotated[str | None, typer.Option(
        help="seats at the table, or a range such as 5..8 (one summary per count; default: the game's maximum)")]
        = None,
    games: Annotated[int, typer.Option("--games",
        help="matches to play, or the most to play with --precision (a match is the game's games_per_match games)")]
        = 1000,
    precision: Annotated[float, typer.Option(
        help="stop once every seat's 95% win-rate interval is within this on either side, e.g. 0.02 for ±2 points "
             "(0: play every match)")] = 0.0,
    policy: Annotated[str, typer.Option(
        help="policy for every seat, or one per seat: greedy,random,random,random; mcts:N searches N deals a "
             "decision (a tree), pimc:N plays N heuristic playouts from dealt states")] = "greedy",
    seed: Annotated[int, typer.Option(help="base seed; match i uses seeds derived from (seed, i)")] = 1,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")] = 1,
    cluster: ClusterOption = None,
    seconds_per_turn: Annotated[float | None, typer.Option(
        help="assumed seconds per turn for the play-time estimate (default: game.json simulation, else 30)")] = None,
    step_cap: Annotated[int | None, typer.Option(
        help="decisions per game before it is stopped as a timeout (default: game.json simulation, else 1000)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = None,
) -> None:
    """Play seeded matches with the real rules: length, endings, scores, seat balance, play time, Ludii metrics.

    Example: fudaya simulate gogyo --players 4 --games 10000 --policy greedy --seed 1 --precision 0.02"""
    from .commands.simulate import simulate as simulate_game

    _settled()
    simulate_game(game_id, players=players, games=games, precision=precision, policy=policy, seed=seed,
                  workers=workers, cluster=cluster, seconds_per_turn=seconds_per_turn, step_cap=step_cap,
                  as_json=as_json, sim_budget=sim_budget, decks=decks)


@app.command()
def ladder(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game to climb, e.g. gogyo")],
    rungs: Annotated[str | None, typer.Option(
        help="policies from weakest to strongest (default: game.json simulation.ladder, else "
             "random,greedy,mcts:100,mcts:1000)")] = None,
    matches: Annotated[int | None, typer.Option(
        help="the most matches each adjacent pair plays head to head (default: game.json, else 100)")] = None,
    self_play: Annotated[str | None, typer.Option(
        metavar="N[,N...]",
        help="the most matches each rung plays against itself for its balance metrics: one count, or one per rung "
             "(0: none; a team game's pair needs the weaker rung's; default: matches)")] = None,
    players: Annotated[int | None, typer.Option(help="seats at the table (default: game.json simulation)")] = None,
    precision: Annotated[float, typer.Option(
        help="stop a pair or a rung once its 95% intervals are within this on either side (0: play every match)")]
        = 0.0,
    seed: Annotated[int | None, typer.Option(help="base seed (default: game.json simulation, else 1)")] = None,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")] = 1,
    cluster: ClusterOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the ladder as JSON")] = False,
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = None,
) -> None:
    """Climb the strength ladder: each adjacent pair of policies head to head (the stronger in one seat),
    and the seats' win rates with every seat at each strength, with 95% intervals.

    Example: fudaya ladder gogyo --players 2 --rungs random,greedy,mcts:100 --matches 100 --workers 2"""
    from .commands.ladder import ladder as climb_ladder

    _settled()
    climb_ladder(game_id, rungs=rungs, matches=matches, self_play=self_play, players=players, precision=precision,
                 seed=seed, workers=workers, cluster=cluster, as_json=as_json, sim_budget=sim_budget, decks=decks)


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the new game's id: its folder name", metavar="NAME")],
    source: Annotated[str | None, typer.Option("--from", help="copy this shipped game instead of the starter deck",
                                               metavar="GAME")] = None,
    title: Annotated[str | None, typer.Option(help="the game's title (default: NAME)")] = None,
    template: Annotated[str | None, typer.Option(
        help="the starter: basic (default), or tategaki (vertical text with ruby and 縦中横)",
        metavar="STARTER")] = None,
    decks: Annotated[Path | None, typer.Option(
        "--decks", parser=_path, metavar="PATH",
        help="where to make it (default: the decks/ of the project you are in, else ./decks)",
        show_default=False)] = None,
) -> None:
    """Make a new game folder: a 12-card starter deck that checks and builds, or a copy of a shipped game.

    The files' "$schema" point at this installation's schemas, so an editor checks them as you type.

    Example: fudaya new mygame --title "わたしのゲーム"; fudaya new karuta --template tategaki;
    fudaya new myvariant --from gogyo"""
    from .commands.new import new as new_game

    new_game(name, source=source, title=title, decks=decks, template=template)


@app.command("import")
def import_(
    name: Annotated[str, typer.Argument(help="the game to import into", metavar="NAME")],
    source: Annotated[Path, typer.Argument(parser=_path, help="a spreadsheet: one row a card",
                                           metavar="FILE.csv|FILE.xlsx")],
    component: Annotated[str | None, typer.Option(help="the deck or sheet component (default: the first)")] = None,
    decks: Annotated[Path | None, typer.Option(
        "--decks", parser=_path, metavar="PATH",
        help="where the game is (default: the decks/ of the project you are in, else ./decks; never the "
        "shipped games)", show_default=False)] = None,
) -> None:
    """Replace a component's cards with a spreadsheet's rows: columns id, face, back, qty and the fields.

    The first row names the columns; a blank cell leaves its field out; composition and total in the
    existing cards.json are kept, so `fudaya check` compares the new cards with them. A bad cell is
    one "file:row:column: what" line, and nothing is written.

    Example: fudaya import mygame cards.xlsx"""
    from .commands.import_cards import import_cards

    import_cards(name, source, component=component, decks=decks)


@app.command()
def export(
    name: Annotated[str, typer.Argument(help="the game, built already", metavar="NAME")],
    format_: Annotated[ExportFormat, typer.Option(
        "--format", help="png: one image per card side; tts: Tabletop Simulator deck sheets and a saved object",
    )] = ExportFormat.png,
    dpi: Annotated[int, typer.Option(help="resolution of the png images (72-1200)")] = 300,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", metavar="URL", help="tts: the web address you will upload export/tts/ to; the saved object "
        "loads its images from there (any machine)")] = None,
    local: Annotated[bool, typer.Option("--local", help="tts: file:// image addresses of this machine instead "
                                        "(this machine only)")] = False,
    output: OutputOption = None,
    decks: DecksOption = None,
) -> None:
    """Card images cut from the game's own print files (so they are what prints), into OUTPUT/NAME/export/.
    Each later build of the game makes them again, in the same place, from its new print files.

    Example: fudaya export gogyo --format tts --base-url https://example.com/gogyo/ (upload export/tts/
    there, then copy export/tts/gogyo.json into Tabletop Simulator's Saved Objects folder)"""
    from .commands.export import export as export_game

    _settled()
    export_game(name, format_=format_, dpi=dpi, base_url=base_url, local=local,
                output=output or working_output_dir(), decks=decks)


@app.command()
def proof(
    name: Annotated[str, typer.Argument(help="the game, built already", metavar="NAME")],
    output: OutputOption = None,
    decks: DecksOption = None,
) -> None:
    """A static HTML proof gallery, OUTPUT/NAME/proof/index.html: every card front and back as printed,
    its fields and count, the check's findings beside it, filters by field, links to the PDFs.

    Example: fudaya build gogyo && fudaya proof gogyo"""
    from .commands.proof import proof as write_gallery

    _settled()
    write_gallery(name, output=output or working_output_dir(), decks=decks)


@app.command()
def watch(
    name: Annotated[str, typer.Argument(help="the game to watch", metavar="NAME")],
    output: OutputOption = None,
    decks: DecksOption = None,
    max_rebuilds: Annotated[int | None, typer.Option(hidden=True)] = None,  # tests stop after this many
) -> None:
    """Build the game, then rebuild what each change of its files affects, saying what and how long.

    A change that breaks the game prints its problems and keeps the last good output. The
    simulation report is not rebuilt (fudaya build makes it). Example: fudaya watch mygame"""
    from .commands.watch import watch as watch_game

    _settled()
    watch_game(name, output=output or working_output_dir(), decks=decks, max_rebuilds=max_rebuilds)


@app.callback(invoke_without_command=True)
def _main(show_version: Annotated[bool, typer.Option("--version", help="print the version and exit")] = False,
          ) -> None:
    """fudaya: JSON game definitions to print-ready PDFs, checked before printing."""
    if show_version:
        from validator.version import fudaya_version

        typer.echo(f"fudaya {fudaya_version()}")
        raise typer.Exit(0)


@app.command()
def doctor() -> None:
    """Say what this installation has: Python, fudaya's data (schemas, fonts, shipped games), the
    optional tools the checks and CI use, and where the commands read and write from here.

    Exit 1 when something fudaya itself needs is missing. Example: fudaya doctor"""
    from .commands.doctor import doctor as report_installation

    report_installation(decks=working_decks_dir(), output=working_output_dir())


def main() -> None:  # pragma: no cover - console entry used by `python -m generator.cli`
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
