"""The `fudaya` command: parse arguments, call the library, print results, map them to exit codes."""
from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from validator.checks import check_game
from validator.engine.api import RulesGame
from validator.engine.scoring import HandScorer
from validator.issues import DeckError, Issue
from validator.loader import GAME_ID, find_games, load_game
from validator.model import Game
from validator.paths import working_decks_dir, working_output_dir
from validator.wording import counted

from .build import BuildError, BuildOptions, build_game, load_checked
from .build_many import GameOutcome, build_one, build_side_by_side, default_game_workers
from .elements import DrawError
from .output_set import interruptible, output_set

if TYPE_CHECKING:
    from validator.sim_cost import CostPart

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="fudaya: JSON game definitions to print-ready PDFs, checked before printing.")


class Paper(StrEnum):
    a4 = "a4"
    letter = "letter"
    a3 = "a3"


class Marks(StrEnum):
    tombo = "tombo"
    western = "western"
    none = "none"


class Pdfx(StrEnum):
    x4 = "x-4"
    x1a = "x-1a"


class Mode(StrEnum):
    both = "both"
    sheets = "sheets"
    printshop = "printshop"


# Read where the command runs: ./decks (else the shipped games) and ./output.
WORKING_DECKS = working_decks_dir()
WORKING_OUTPUT = working_output_dir()
DecksOption = Annotated[Path, typer.Option("--decks", help="folder holding one sub-folder per game "
                                                           "(default: ./decks, else the shipped games)")]
SimBudgetOption = Annotated[str | None, typer.Option(
    "--sim-budget", metavar="DURATION", help="the most the simulation may cost, estimated before playing: seconds "
    "or a duration such as 45m, 6h, 2d (default: 2h on 2 cores; see docs/security.md)")]


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


def _report(issues: list[Issue]) -> None:
    from .console import print_findings

    print_findings(issues, Path.cwd())


def _problems(count: int) -> str:
    return counted(count, "problem")


def _contents(game: Game) -> str:
    """'66 cards, 4 sheets': what the game prints, counted by kind."""
    counts: dict[str, int] = {}
    for deck in game.decks:
        noun = "card" if deck.has_backs else "sheet"
        counts[noun] = counts.get(noun, 0) + sum(card.qty for card in deck.cards)
    return ", ".join(counted(n, noun) for noun, n in counts.items())


GAME_NAME = GAME_ID  # a folder name, never a path (the loader's own test)


def _games(requested: list[str] | None, decks: Path) -> list[str]:
    if requested:
        for name in requested:
            if not GAME_NAME.fullmatch(name):
                _err(f"{name!r}: not a game name (lower-case letters, digits, - and _: a folder in {decks})")
                raise typer.Exit(1)
        return requested
    found = find_games(decks)
    if not found:
        _err(f"{decks}: no games found (each game is a folder with a game.json)")
        raise typer.Exit(1)
    return found


def _refuse_bad_folders(decks: Path, output: Path) -> None:
    """One line and exit 1 for folder arguments that cannot work or would write into a deck.

    (A NUL character in a path is refused by Click already, as a usage error with exit 2.)"""
    if output.exists() and not output.is_dir():
        _err(f"{output}: --output names a file, not a folder")
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
    output: Annotated[Path, typer.Option("--output", "-o", help="output folder")] = WORKING_OUTPUT,
    only: Annotated[list[str] | None, typer.Option(
        help="write only this component (repeatable; 'report' for the simulation report)", metavar="COMPONENT",
    )] = None,
    report: Annotated[bool, typer.Option("--report/--no-report", help="simulate and write report.json/.pdf")] = True,
    booklet: Annotated[bool, typer.Option("--booklet",
        help="also write each rulebook as a saddle-stitch booklet, 2-up (A5 on A4), duplex on the short edge")]
        = False,
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
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Build print files, rulebook and simulation report for each game into OUTPUT/<game>/.

    Example: fudaya build gogyo --paper a3 --marks western; fudaya build gogyo --studies"""
    _refuse_bad_folders(decks, output)
    options = BuildOptions(paper=paper.value, marks=marks.value, mode=mode.value, proof=proof,
                           gutter=gutter, decks_dir=decks, output_dir=output, report=report,
                           only=tuple(only or ()), workers=workers, booklet=booklet, pdfx=pdfx.value,
                           report_cache=cache, studies=studies, sim_budget=_sim_budget(sim_budget))
    game_ids = _games(games, decks)
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
    if outcome.write_error is not None:
        _err(outcome.write_error)
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


@app.command()
def preflight(
    files: Annotated[list[Path], typer.Argument(help="PDF files to check (any tool's)", metavar="FILE.pdf")],
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
    from functools import partial

    from .preflight import Limits, refusal
    from .preflight import preflight as check_pdf
    from .preflight_budget import run_bounded

    limits = Limits(min_bleed_mm=min_bleed, min_image_dpi=min_dpi, max_ink_percent=max_ink)
    total = 0
    for path in files:  # each in a child process held to a memory and time limit: the file is untrusted
        findings = run_bounded(partial(check_pdf, path, limits, boxes=not sheets, pdfx=pdfx),
                               refused=lambda why: [refusal(why)])
        for finding in findings:
            typer.echo(finding.line(str(path)), err=finding.refused)
        total += len(findings)
        if not findings:
            typer.echo(f"{path}: ok")
    if total:
        raise typer.Exit(1)


@app.command()
def check(
    games: Annotated[list[str] | None, typer.Argument(help="games to check (default: all)", metavar="[GAME]...")]
        = None,
    simulate: Annotated[bool, typer.Option("--simulate/--no-simulate",
        help="also play the game.json simulation and write report.json/.pdf")] = True,
    output: Annotated[Path, typer.Option("--output", "-o", help="where report files go")] = WORKING_OUTPUT,
    workers: Annotated[int | None, typer.Option(
        help="simulation worker processes (results do not depend on it)")] = None,
    sim_budget: SimBudgetOption = None,
    paper: Annotated[Paper, typer.Option(help="the paper the cards must fit, as build --paper")] = Paper.a4,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Check schema, composition, references, artwork, glyphs, text fit, rulebook claims; then simulate.

    Exit 1 on findings. Example: fudaya check gogyo --no-simulate"""
    _refuse_bad_folders(decks, output)
    budget = _sim_budget(sim_budget)
    findings = 0
    rows: list[list[str]] = []  # the closing table: one row a game
    for game_id in _games(games, decks):
        try:
            game = load_game(decks, game_id)
        except DeckError as exc:
            _report(exc.issues)
            findings += len(exc.issues)
            typer.echo(f"{game_id}: {_problems(len(exc.issues))} (cannot be loaded)")
            rows.append([game_id, f"{_problems(len(exc.issues))} (cannot be loaded)", "", "", "", ""])
            continue
        result = check_game(game, sim_budget=budget, paper=paper.value)
        _report(result.issues)
        findings += len(result.errors)
        state = "ok" if result.ok else _problems(len(result.errors))
        typer.echo(f"{game_id}: {state} ({_contents(game)})")
        severities = [issue.severity for issue in result.issues]
        row = [game_id, state, counted(severities.count("warning"), "warning"),
               counted(severities.count("info"), "note"), _contents(game), ""]
        rows.append(row)
        if simulate and result.ok:
            try:
                with interruptible():
                    simulated, row[5] = _simulation_summary(game, output, workers)
                    findings += simulated
            except KeyboardInterrupt:  # the report files are written as a set: the earlier ones stay
                _err(f"{game_id}: interrupted; {output / game_id} is as it was before this check")
                raise typer.Exit(130) from None
    if len(rows) > 1:
        from .console import console, table

        console().print(table("fudaya check", ["game", "result", "warnings", "notes", "prints", "simulation"], rows))
    if findings:
        raise typer.Exit(1)


def _simulation_summary(game: Game, output: Path, workers: int | None) -> tuple[int, str]:
    """Print the headline numbers of the configured simulation, write the report; count findings,
    and say in a few words what was simulated (for the closing table)."""
    from validator.sim_report import box_time_warning, render_headline
    from validator.study import REPORT_CACHE, simulation_report

    from .report import draw_report

    cache = output / REPORT_CACHE
    summary = simulation_report(game, workers=workers, cache=cache)
    if summary is None:
        return 0, "none asked"
    try:
        with output_set(output, game.id, keep_previous=True) as staging:
            summary, _ = draw_report(game, summary, staging, again=lambda: simulation_report(
                game, workers=workers, cache=cache, fresh=True))
    except OSError as exc:
        _err(f"{exc.filename or output}: cannot write the report ({exc.strerror or exc})")
        return 1, "not written"
    precision = summary.precision.reached if summary.precision else None
    said = counted(summary.matches, "match") + (f", seats ±{precision * 100:.1f} points" if precision else "")
    for line in render_headline(summary):
        typer.echo(f"  {line}")
    warning = box_time_warning(summary)
    if warning:
        _err(f"{game.id}: warning: {warning}")
    typer.echo(f"  wrote {output / game.id / 'report.json'} and {output / game.id / 'report.pdf'}")
    if not summary.finished.all_finished:
        _err(f"{game.id}: {counted(summary.finished.timeouts, 'simulated match')} hit the step cap "
             "(endless games?)")
        return 1, said
    return 0, said


@app.command("list")
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="print the listing as JSON (for scripts)")] = False,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """List the games found and their components: a table per game, or JSON.

    Example: fudaya list --decks ~/games/decks"""
    import json

    from .console import console, table

    out = console()
    listing = []
    for game_id in _games(None, decks):
        try:
            game = load_game(decks, game_id)
        except DeckError as exc:
            listing.append({"id": game_id, "error": exc.issues[0].render(Path.cwd())})
            if not as_json:
                typer.echo(f"{game_id}: cannot be loaded")
                _report(exc.issues[:1])
            continue
        entry = _listing(game)
        listing.append(entry)
        if not as_json:
            rows = [[c["id"], c["kind"], _listed_contents(c), _listed_size(c)] for c in entry["components"]]
            (low, high), minutes = entry["players"], entry["minutes"]
            out.print(table(f"{game_id}  {game.title}  {low}–{high} players, {minutes[0]}–{minutes[1]} min",
                            ["component", "kind", "contents", "size"], rows))
            out.print()
    if as_json:
        typer.echo(json.dumps(listing, ensure_ascii=False, indent=1))


def _listing(game: Game) -> dict[str, Any]:
    """What `list` says of a game, as data: its components with their counts and sizes in mm."""
    components: list[dict[str, Any]] = []
    for deck in game.decks:
        size = deck.layout.size
        components.append({"id": deck.id, "kind": "deck" if deck.has_backs else "sheet",
                           "count": sum(card.qty for card in deck.cards), "size_mm": [size.width, size.height],
                           "bleed_mm": size.bleed, **({"gang": deck.gang} if deck.gang else {})})
    for book in game.rulebooks:
        components.append({"id": book.id, "kind": "rulebook", "blocks": len(book.blocks), "page": book.page_size})
    for board in game.maps:
        components.append({"id": board.id, "kind": "map", "areas": len(board.areas), "routes": len(board.routes),
                           "points": board.total_points, "size_mm": [board.width, board.height]})
    return {"id": game.id, "title": game.title, "players": list(game.players), "minutes": list(game.play_minutes),
            "components": components}


def _listed_contents(component: dict[str, Any]) -> str:
    kind = component["kind"]
    if kind in ("deck", "sheet"):
        return counted(component["count"], "card" if kind == "deck" else "sheet")
    if kind == "rulebook":
        return counted(component["blocks"], "block")
    return ", ".join([counted(component["areas"], "area"), counted(component["routes"], "route"),
                      counted(component["points"], "point")])


def _listed_size(component: dict[str, Any]) -> str:
    if component["kind"] == "rulebook":
        return str(component["page"]).upper()
    width, height = component["size_mm"]
    size = f"{width:g}×{height:g} mm"
    if "bleed_mm" in component:
        size += f", bleed {component['bleed_mm']:g} mm"
    return size + (f", gang {component['gang']}" if "gang" in component else "")


# --- rules engines: score a hand, simulate matches --------------------------------------------


def _model(game_id: str, decks: Path) -> Game:
    """The loaded game of a deck folder; exit 1 (its problems reported) if it cannot be loaded."""
    try:
        return load_game(decks, game_id)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None


def _engine(model: Game) -> RulesGame:
    """The game's rules engine; exit 1 if its data cannot be played, 2 if it has no engine."""
    from validator.engine.registry import engine_for

    try:
        return engine_for(model)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except ValueError as exc:
        _err(f"{model.id}: {exc}")
        raise typer.Exit(2) from None


def _scorer(model: Game) -> HandScorer:
    """The game's hand scorer; exit 2 if its engine has none (or does not exist), 1 if its data is bad."""
    from validator.engine.registry import engine_name, find_spec

    try:
        spec = find_spec(engine_name(model))
        if spec.scorer is None:
            _err(f"{model.id}: the {spec.name} rules engine has no hand scorer, so its hands cannot be scored")
            raise typer.Exit(2)
        return spec.scorer(model)
    except DeckError as exc:
        _report(exc.issues)
        raise typer.Exit(1) from None
    except ValueError as exc:
        _err(f"{model.id}: {exc}")
        raise typer.Exit(2) from None


@app.command()
def score(
    game_id: Annotated[str, typer.Argument(metavar="GAME",
                                           help="game whose scoring rules apply: gogyo, jinzai, sengoku")],
    cards: Annotated[list[str], typer.Argument(
        metavar="TOKEN...",
        help="the hand: gogyo 唐火 漢土 閥 天 隋金; jinzai one column per token, bottom to top: 文7 武3・武3 文4・＊; "
             "sengoku one card per token: 武田 信 玄")],
    as_json: Annotated[bool, typer.Option("--json", help='print {"total", the other parts, "order"} as JSON')] = False,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Score a hand by the game's rules: total, parts and, where order matters, the best order. Exit 2 if bad.

    Example: fudaya score gogyo 唐火 漢土 閥 天 隋金"""
    import json

    from validator.engine.scoring import score_fields

    scorer = _scorer(_model(game_id, decks))
    tokens = [token for card in cards for token in card.split()]
    try:
        claim = scorer.score(tokens)
    except ValueError as exc:
        _err(f"{game_id}: {exc}")
        raise typer.Exit(2) from None
    fields = score_fields(scorer, claim)
    if as_json:
        typer.echo(json.dumps(fields, ensure_ascii=False))
        return
    total = scorer.label("total")
    typer.echo(f"total: {fields['total']}" + ("" if total == "total" else f" ({total})"))
    if scorer.order_matters:
        typer.echo(f"order: {' '.join(claim.order)}")
    for part in scorer.parts:
        if part != "total":
            typer.echo(f"{scorer.label(part)}: {fields[part]}")


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
             "decision")] = "greedy",
    seed: Annotated[int, typer.Option(help="base seed; match i uses seeds derived from (seed, i)")] = 1,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")] = 1,
    seconds_per_turn: Annotated[float | None, typer.Option(
        help="assumed seconds per turn for the play-time estimate (default: game.json simulation, else 30)")] = None,
    step_cap: Annotated[int | None, typer.Option(
        help="decisions per game before it is stopped as a timeout (default: game.json simulation, else 1000)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Play seeded matches with the real rules: length, endings, scores, seat balance, play time, Ludii metrics.

    Example: fudaya simulate gogyo --players 4 --games 10000 --policy greedy --seed 1 --precision 0.02"""
    import json

    from validator.sim_cost import match_costs, plan_parts
    from validator.sim_plan import SimulationPlan, run_plan
    from validator.sim_report import render_text
    from validator.simulate import DEFAULT_STEP_CAP
    from validator.stats import DEFAULT_SECONDS_PER_TURN

    budget = _sim_budget(sim_budget)
    model = _model(game_id, decks)
    engine = _engine(model)
    configured = SimulationPlan.from_game(model)
    if seconds_per_turn is None:
        seconds_per_turn = configured.seconds_per_turn if configured else DEFAULT_SECONDS_PER_TURN
    if step_cap is None:
        step_cap = configured.step_cap if configured else DEFAULT_STEP_CAP
    try:
        counts = player_counts(players, engine.max_players)
        policies = tuple(name.strip() for name in policy.split(","))
        plans = [SimulationPlan(count, games, policies, seed, seconds_per_turn, step_cap, precision=precision)
                 for count in counts]
        for plan in plans:
            plan.config(engine, 1)  # a bad plan is refused for what it is before it is costed
        _within_budget(model, [part for plan in plans for part in plan_parts(plan, match_costs(model))], budget,
                       "lower --games or the policies' mcts budgets, or raise --sim-budget")
        summaries = [run_plan(engine, plan, workers=workers) for plan in plans]
    except ValueError as exc:
        _err(f"{game_id}: {exc}")
        raise typer.Exit(2) from None
    if as_json:
        # One count: its summary, as always; a range: {"game", "by_players": [summary per count]}.
        ranged = players is not None and ".." in players
        doc = ({"game": engine.name, "by_players": [summary.to_json() for summary in summaries]} if ranged
               else summaries[0].to_json())
        typer.echo(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        typer.echo("\n".join(render_text(summary) for summary in summaries))


@app.command()
def ladder(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="game to climb, e.g. gogyo")],
    rungs: Annotated[str | None, typer.Option(
        help="policies from weakest to strongest (default: game.json simulation.ladder, else "
             "random,greedy,mcts:100,mcts:1000)")] = None,
    matches: Annotated[int | None, typer.Option(
        help="the most matches each adjacent pair plays head to head (default: game.json, else 100)")] = None,
    self_play: Annotated[int | None, typer.Option(
        help="the most matches each rung plays against itself for its balance metrics (0: none; default: matches)")]
        = None,
    players: Annotated[int | None, typer.Option(help="seats at the table (default: game.json simulation)")] = None,
    precision: Annotated[float, typer.Option(
        help="stop a pair or a rung once its 95% intervals are within this on either side (0: play every match)")]
        = 0.0,
    seed: Annotated[int | None, typer.Option(help="base seed (default: game.json simulation, else 1)")] = None,
    workers: Annotated[int, typer.Option(help="worker processes (results do not depend on it)")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print the ladder as JSON")] = False,
    sim_budget: SimBudgetOption = None,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Climb the strength ladder: each adjacent pair of policies head to head (the stronger in one seat),
    and the seats' win rates with every seat at each strength, with 95% intervals.

    Example: fudaya ladder gogyo --players 2 --rungs random,greedy,mcts:100 --matches 100 --workers 2"""
    import json
    from dataclasses import replace

    from validator.ladder import LadderPlan, climb, per_rung
    from validator.sim_cost import ladder_parts, match_costs
    from validator.sim_plan import SimulationPlan
    from validator.sim_report import ladder_lines

    budget = _sim_budget(sim_budget)
    model = _model(game_id, decks)
    engine = _engine(model)
    base = SimulationPlan.from_game(model) or SimulationPlan(engine.max_players, 100, ("greedy",))
    given = LadderPlan.from_game(model) or LadderPlan(("random", "greedy", "mcts:100", "mcts:1000"), 100,
                                                       (100,) * 4, base.players)
    count = matches if matches is not None else given.matches
    names = tuple(name.strip() for name in rungs.split(",")) if rungs else given.rungs
    if self_play is None and matches is None and names == given.rungs:
        played = given.self_play
    else:
        played = per_rung(count if self_play is None else self_play, len(names))
    plan = LadderPlan(names, count, played, players if players is not None else given.players)
    base = replace(base, precision=precision, seed=base.seed if seed is None else seed)
    try:
        plan.check()
        _within_budget(model, ladder_parts(plan, base, match_costs(model)), budget,
                       "lower --matches, --self-play or the rungs' mcts budgets, or raise --sim-budget")
        result = climb(engine, base, plan, workers=workers)
    except ValueError as exc:
        _err(f"{game_id}: {exc}")
        raise typer.Exit(2) from None
    typer.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1) if as_json
               else "\n".join(ladder_lines(result)))


def _within_budget(model: Game, parts: list[CostPart], budget: float, advice: str) -> None:
    """Exit 2 with one line when a run asked for on the command line would cost more than the budget."""
    from validator.sim_cost import over_budget

    found = over_budget(parts, budget, advice)
    if found is not None:
        _err(f"{model.id}: {found[1]}")
        raise typer.Exit(2)


def player_counts(text: str | None, default: int) -> list[int]:
    """`--players`: one count ("5") or an inclusive range ("5..8"); ValueError with the reason otherwise."""
    if text is None:
        return [default]
    low, dots, high = text.strip().partition("..")
    if not low.isdigit() or dots and not high.isdigit() or len(text) > 9:
        raise ValueError(f"--players {text!r} is neither a number nor a range such as 5..8")
    counts = list(range(int(low), int(high or low) + 1))
    if not counts:
        raise ValueError(f"--players {text!r} is an empty range")
    return counts


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="the new game's id: its folder name", metavar="NAME")],
    source: Annotated[str | None, typer.Option("--from", help="copy this shipped game instead of the starter deck",
                                               metavar="GAME")] = None,
    title: Annotated[str | None, typer.Option(help="the game's title (default: NAME)")] = None,
    decks: Annotated[Path | None, typer.Option("--decks", help="where to make it (default: ./decks)")] = None,
) -> None:
    """Make a new game folder: a 12-card starter deck that checks and builds, or a copy of a shipped game.

    The files' "$schema" point at this installation's schemas, so an editor checks them as you type.

    Example: fudaya new mygame --title "わたしのゲーム"; fudaya new myvariant --from gogyo"""
    from .new_game import NewGameError, new_game

    if not GAME_NAME.fullmatch(name):
        _err(f"{name!r}: not a game name (lower-case letters, digits, - and _)")
        raise typer.Exit(1)
    try:
        folder = new_game(decks if decks is not None else Path.cwd() / "decks", name, title=title, source=source)
    except (NewGameError, OSError) as exc:
        _err(str(exc))
        raise typer.Exit(1) from None
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    typer.echo(f"made {folder}: {counted(len(files), 'file')}")
    where = "" if decks is None else f" --decks {decks}"
    typer.echo(f"next: fudaya check {name}{where} --no-simulate; fudaya build {name}{where}")


@app.command("import")
def import_(
    name: Annotated[str, typer.Argument(help="the game to import into", metavar="NAME")],
    source: Annotated[Path, typer.Argument(help="a spreadsheet: one row a card", metavar="FILE.csv|FILE.xlsx")],
    component: Annotated[str | None, typer.Option(help="the deck or sheet component (default: the first)")] = None,
    decks: Annotated[Path | None, typer.Option("--decks", help="where the game is (default: ./decks)")] = None,
) -> None:
    """Replace a component's cards with a spreadsheet's rows: columns id, face, back, qty and the fields.

    The first row names the columns; a blank cell leaves its field out; composition and total in the
    existing cards.json are kept, so `fudaya check` compares the new cards with them. A bad cell is
    one "file:row:column: what" line, and nothing is written.

    Example: fudaya import mygame cards.xlsx"""
    from validator.deckfs import ConfinedError

    from .spreadsheet import RowError, import_into_game

    decks_dir = decks if decks is not None else Path.cwd() / "decks"
    folder = decks_dir / _games([name], decks_dir)[0]
    try:
        cards_file, count = import_into_game(folder, source, component)
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
    typer.echo(f"wrote {cards_file}: {counted(count, 'card')} from {source}")
    typer.echo(f"next: fudaya check {name}" + (f" --decks {decks}" if decks is not None else "") + " --no-simulate")


class ExportFormat(StrEnum):
    png = "png"
    tts = "tts"


@app.command()
def export(
    name: Annotated[str, typer.Argument(help="the game, built already", metavar="NAME")],
    format_: Annotated[ExportFormat, typer.Option(
        "--format", help="png: one image per card side; tts: Tabletop Simulator deck sheets and a saved object",
    )] = ExportFormat.png,
    dpi: Annotated[int, typer.Option(help="resolution of the png images (72-1200)")] = 300,
    output: Annotated[Path, typer.Option("--output", "-o", help="the build's output folder")] = WORKING_OUTPUT,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """Card images cut from the game's own print files (so they are what prints), into OUTPUT/NAME/export/.

    Example: fudaya export gogyo --format tts (then copy export/tts/gogyo.json into Tabletop
    Simulator's Saved Objects folder)"""
    from .export import ExportError, export_png, export_tts

    game_id = _games([name], decks)[0]
    try:
        game = load_checked(game_id, decks)
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


@app.command()
def proof(
    name: Annotated[str, typer.Argument(help="the game, built already", metavar="NAME")],
    output: Annotated[Path, typer.Option("--output", "-o", help="the build's output folder")] = WORKING_OUTPUT,
    decks: DecksOption = WORKING_DECKS,
) -> None:
    """A static HTML proof gallery, OUTPUT/NAME/proof/index.html: every card front and back as printed,
    its fields and count, the check's findings beside it, filters by field, links to the PDFs.

    Example: fudaya build gogyo && fudaya proof gogyo"""
    from validator.checks import check_game

    from .export import ExportError
    from .proof import write_proof

    game_id = _games([name], decks)[0]
    try:
        game = load_game(decks, game_id)
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


@app.command()
def watch(
    name: Annotated[str, typer.Argument(help="the game to watch", metavar="NAME")],
    output: Annotated[Path, typer.Option("--output", "-o", help="output folder")] = WORKING_OUTPUT,
    decks: DecksOption = WORKING_DECKS,
    max_rebuilds: Annotated[int | None, typer.Option(hidden=True)] = None,  # tests stop after this many
) -> None:
    """Build the game, then rebuild what each change of its files affects, saying what and how long.

    A change that breaks the game prints its problems and keeps the last good output. The
    simulation report is not rebuilt (fudaya build makes it). Example: fudaya watch mygame"""
    import time

    from validator.deckfs import ConfinedError

    from .watch import ALL, only_for, watch_game

    game_id = _games([name], decks)[0]
    _refuse_bad_folders(decks, output)

    def rebuild(components: tuple[str, ...]) -> tuple[bool, str]:
        try:
            game = load_checked(game_id, decks)
            build_game(game, BuildOptions(decks_dir=decks, output_dir=output, report=False,
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
            watch_game(decks / game_id, rebuild, echo=typer.echo, max_rebuilds=max_rebuilds)
    except ConfinedError as exc:
        _err(f"{decks / game_id}: cannot be watched ({exc})")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("stopped watching")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fudaya")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


@app.callback(invoke_without_command=True)
def _main(show_version: Annotated[bool, typer.Option("--version", help="print the version and exit")] = False,
          ) -> None:
    """fudaya: JSON game definitions to print-ready PDFs, checked before printing."""
    if show_version:
        typer.echo(f"fudaya {_version()}")
        raise typer.Exit(0)


@app.command()
def doctor() -> None:
    """Say what this installation has: Python, fudaya's data (schemas, fonts, shipped games), the
    optional tools the checks and CI use, and where the commands read and write from here.

    Exit 1 when something fudaya itself needs is missing. Example: fudaya doctor"""
    import platform
    import shutil

    from validator.paths import DATA_ROOT, DEFAULT_DECKS_DIR, FONTS_DIR, IN_CHECKOUT, SCHEMA_DIR

    missing = 0

    def line(ok: bool, what: str, detail: str, *, needed: bool = True) -> None:
        nonlocal missing
        missing += int(needed and not ok)
        mark = "ok" if ok else ("MISSING" if needed else "absent")
        typer.echo(f"{mark:8} {what:14} {detail}")

    line(sys.version_info >= (3, 11), "python", f"{platform.python_version()} ({sys.executable})")
    line(True, "fudaya", f"{_version()} ({'source checkout' if IN_CHECKOUT else 'installed'}, data in {DATA_ROOT})")
    schemas = sorted(SCHEMA_DIR.glob("*.schema.json"))
    line(len(schemas) > 0, "schemas", f"{len(schemas)} in {SCHEMA_DIR}")
    fonts = sorted(p.name for p in FONTS_DIR.glob("*.ttf"))
    line(len(fonts) > 0, "fonts", ", ".join(fonts) or f"none in {FONTS_DIR}")
    games = find_games(DEFAULT_DECKS_DIR) if DEFAULT_DECKS_DIR.is_dir() else []
    line(len(games) > 0, "shipped games", ", ".join(games) or f"none in {DEFAULT_DECKS_DIR}")
    for tool, use in (("qpdf", "PDF structure check (CI)"), ("pdffonts", "font embedding check (CI)"),
                      ("pdftoppm", "render pages to look at"), ("gcc", "make fast (compiled gogyo engine)"),
                      ("node", "test of the fillable sheet's totals")):
        found = shutil.which(tool)
        line(found is not None, tool, found or f"not found: {use}", needed=False)
    typer.echo(f"{'':8} {'reads':14} {WORKING_DECKS}")
    typer.echo(f"{'':8} {'writes':14} {WORKING_OUTPUT}")
    if missing:
        raise typer.Exit(1)


def main() -> None:  # pragma: no cover - console entry used by `python -m generator.cli`
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
