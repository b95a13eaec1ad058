"""`fudaya ladder`: the strength ladder planned from the options and game.json, climbed within the budget."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.paths import DeckFolders

from .common import _cluster, _cluster_exits, _engine, _err, _model, _sim_budget, _within_budget


def ladder(game_id: str, *, rungs: str | None, matches: int | None, self_play: str | None, players: int | None,
           precision: float, seed: int | None, workers: int, cluster: str | None, as_json: bool,
           sim_budget: str | None, decks: Path | None) -> None:
    """Climb and print the ladder; exit 2 for a ladder that cannot be played or costs too much, 1 for a
    cluster that cannot be used."""
    import json
    from dataclasses import replace

    from validator.ladder import LadderPlan, climb, per_rung
    from validator.sim_cost import ladder_parts, match_costs
    from validator.sim_plan import SimulationPlan
    from validator.sim_report import ladder_lines

    budget = _sim_budget(sim_budget)
    address = _cluster(cluster)
    model = _model(game_id, DeckFolders.for_command(decks))
    engine = _engine(model)
    base = SimulationPlan.from_game(model) or SimulationPlan(engine.max_players, 100, ("greedy",))
    given = LadderPlan.from_game(model) or LadderPlan(("random", "greedy", "mcts:100", "mcts:1000"), 100,
                                                       (100,) * 4, base.players)
    count = matches if matches is not None else given.matches
    names = tuple(name.strip() for name in rungs.split(",")) if rungs else given.rungs
    base = replace(base, precision=precision, seed=base.seed if seed is None else seed)
    try:
        if self_play is None and matches is None and names == given.rungs:
            played = given.self_play
        else:
            played = per_rung(count if self_play is None else _counts(self_play), len(names))
        plan = LadderPlan(names, count, played, players if players is not None else given.players)
        plan.check()
        _within_budget(model, ladder_parts(plan, base, match_costs(model)), budget,
                       "lower --matches, --self-play or the rungs' mcts budgets, or raise --sim-budget")
        with _cluster_exits():
            result = climb(engine, base, plan, workers=workers, cluster=address)
    except ValueError as exc:
        _err(f"{game_id}: {exc}")
        raise typer.Exit(2) from None
    typer.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1) if as_json
               else "\n".join(ladder_lines(result)))


def _counts(text: str) -> int | tuple[int, ...]:
    """--self-play: one whole number, or one per rung separated by commas; ValueError naming what is wrong."""
    parts = [part.strip() for part in text.split(",")]
    bad = next((part for part in parts if not (part.isascii() and part.isdigit()) or len(part) > 7), None)
    if bad is not None:
        raise ValueError(f"--self-play takes whole numbers of matches, one or one per rung (e.g. 1000,0), not {bad!r}")
    counts = tuple(int(part) for part in parts)
    return counts[0] if len(counts) == 1 else counts
