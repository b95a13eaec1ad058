"""`fudaya simulate`: seeded matches per player count, within the budget, summarised as text or JSON."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.paths import DeckFolders

from .common import _cluster, _cluster_exits, _engine, _err, _model, _sim_budget, _within_budget


def simulate(game_id: str, *, players: str | None, games: int, precision: float, policy: str, seed: int, workers: int,
             cluster: str | None, seconds_per_turn: float | None, step_cap: int | None, as_json: bool,
             sim_budget: str | None, decks: Path | None) -> None:
    """Play and print the summaries; exit 2 for a plan that cannot be played or costs too much, 1 for a
    cluster that cannot be used."""
    import json

    from validator.sim_cost import match_costs, plan_parts
    from validator.sim_plan import SimulationPlan, run_plan
    from validator.sim_report import render_text
    from validator.simulate import DEFAULT_STEP_CAP
    from validator.stats import DEFAULT_SECONDS_PER_TURN

    budget = _sim_budget(sim_budget)
    address = _cluster(cluster)
    model = _model(game_id, DeckFolders.for_command(decks))
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
        with _cluster_exits():
            summaries = [run_plan(engine, plan, workers=workers, cluster=address) for plan in plans]
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
