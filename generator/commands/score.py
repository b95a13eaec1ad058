"""`fudaya score`: a hand scored by the game's hand scorer, as lines or JSON."""
from __future__ import annotations

from pathlib import Path

import typer

from validator.engine.scoring import HandScorer
from validator.model import Game
from validator.paths import DeckFolders

from .common import _err, _model, _unplayable_exits


def _scorer(model: Game) -> HandScorer:
    """The game's hand scorer; exit 2 if its engine has none (or does not exist), 1 if its data is bad."""
    from validator.engine.registry import engine_name, find_spec

    with _unplayable_exits(model):
        spec = find_spec(engine_name(model))
        if spec.scorer is None:
            _err(f"{model.id}: the {spec.name} rules engine has no hand scorer, so its hands cannot be scored")
            raise typer.Exit(2)
        return spec.scorer(model)


def score(game_id: str, cards: list[str], *, as_json: bool, decks: Path | None) -> None:
    """Print the hand's total, parts and best order; exit 2 for a hand or game that cannot be scored."""
    import json

    from validator.engine.scoring import score_fields

    scorer = _scorer(_model(game_id, DeckFolders.for_command(decks)))
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
        if part != "total" and part in fields:
            typer.echo(f"{scorer.label(part)}: {fields[part]}")
