"""`fudaya check`: each game loaded and checked, then simulated and its report written; a closing table."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.checks import check_game
from validator.issues import DeckError
from validator.loader import load_game
from validator.model import Game
from validator.paths import DeckFolders
from validator.wording import counted

from ..output_set import interruptible, output_set
from .common import _cluster, _cluster_exits, _err, _games, _problems, _refuse_bad_folders, _report, _sim_budget
from .options import Paper


def _contents(game: Game) -> str:
    """'66 cards, 4 sheets': what the game prints, counted by kind."""
    counts: dict[str, int] = {}
    for deck in game.decks:
        noun = "card" if deck.has_backs else "sheet"
        counts[noun] = counts.get(noun, 0) + sum(card.qty for card in deck.cards)
    return ", ".join(counted(n, noun) for noun, n in counts.items())


def check(games: list[str] | None, *, simulate: bool, output: Path, workers: int | None, cluster: str | None,
          sim_budget: str | None, paper: Paper, decks: Path | None) -> None:
    """Check (and simulate) each game; exit 1 on findings (or a cluster that cannot be used), 130 when
    interrupted."""
    folders = DeckFolders.for_command(decks)
    game_ids = _games(games, folders)
    for folder in {folders.folder_for(game_id) for game_id in game_ids} | {folders.main}:
        _refuse_bad_folders(folder, output)
    address = _cluster(cluster) if simulate else None
    budget = _sim_budget(sim_budget)
    findings = 0
    rows: list[list[str]] = []  # the closing table: one row a game
    for game_id in game_ids:
        try:
            game = load_game(folders.folder_for(game_id), game_id)
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
                with interruptible(), _cluster_exits():
                    simulated, row[5] = _simulation_summary(game, output, workers, address)
                    findings += simulated
            except KeyboardInterrupt:  # the report files are written as a set: the earlier ones stay
                _err(f"{game_id}: interrupted; {output / game_id} is as it was before this check")
                raise typer.Exit(130) from None
    if len(rows) > 1:
        from ..console import console, table

        console().print(table("fudaya check", ["game", "result", "warnings", "notes", "prints", "simulation"], rows))
    if findings:
        raise typer.Exit(1)


def _simulation_summary(game: Game, output: Path, workers: int | None, cluster: str | None) -> tuple[int, str]:
    """Print the headline numbers of the configured simulation, write the report; count findings,
    and say in a few words what was simulated (for the closing table)."""
    from validator.sim_report import box_time_warning, render_headline
    from validator.study import report_cache, simulation_report

    from ..report import draw_report

    cache = report_cache(output)
    summary = simulation_report(game, workers=workers, cluster=cluster, cache=cache,
                                refused=lambda why: _err(f"{game.id}: note: {why}"))
    if summary is None:
        return 0, "none asked"
    try:
        with output_set(output, game.id, keep_previous=True) as staging:
            summary, _ = draw_report(game, summary, staging, again=lambda: simulation_report(
                game, workers=workers, cluster=cluster, cache=cache, fresh=True))
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
