"""`fudaya list`: the games found and their components, as tables or JSON."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from validator.issues import DeckError
from validator.loader import load_game
from validator.model import Game
from validator.paths import DeckFolders
from validator.wording import counted

from .common import _games, _report


def list_games(*, as_json: bool, decks: Path | None) -> None:
    """Print a table per game (a game that cannot be loaded: its first problem), or the JSON listing;
    exit 1 when any game could not be loaded, after listing every one that could."""
    import json

    from ..console import console, table

    out = console()
    listing = []
    folders = DeckFolders.for_command(decks)
    for game_id in _games(None, folders):
        try:
            game = load_game(folders.main, game_id)
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
    if any("error" in entry for entry in listing):
        raise typer.Exit(1)


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
