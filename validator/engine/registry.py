"""GAMES: rules-engine name -> factory building the engine from a loaded deck model; find_game."""
from __future__ import annotations

from collections.abc import Callable

from ..games import gogyo, jinzai, sengoku
from ..model import Game
from .api import RulesGame

GameFactory = Callable[[Game], RulesGame]

GAMES: dict[str, GameFactory] = {
    "gogyo": gogyo.GogyoGame.from_model,
    "jinzai": jinzai.JinzaiGame.from_model,
    "sengoku": sengoku.SengokuGame.from_model,
}


def find_game(name: str) -> GameFactory:
    """The engine factory registered as `name`; ValueError naming it and the known ones otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"no rules engine {name!r} (known: {', '.join(sorted(GAMES))})") from None


def engine_for(model: Game) -> RulesGame:
    """Build the rules engine a loaded game names in game.json rules.engine (default: its id)."""
    return find_game(str(model.rules.get("engine", model.id)))(model)
