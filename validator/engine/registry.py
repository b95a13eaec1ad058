"""Find a game's spec by name: `validator.games.<name>` is imported on first use, never all at once.

Adding a game is adding a package; nothing here changes. game.json names its rules engine in
rules.engine (default: the game's id); the name is checked before it becomes a module path.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from .spec import GameSpec

if TYPE_CHECKING:
    from ..model import Game
    from .api import RulesGame
    from .claims import RulebookOracle

GAMES_PACKAGE = "validator.games"
_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")


def known_games() -> tuple[str, ...]:
    """Names of every game package, found on disk without importing them."""
    package = importlib.import_module(GAMES_PACKAGE)
    return tuple(sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg))


@cache
def find_spec(name: str) -> GameSpec:
    """The spec of game package `name`; ValueError naming it and the known ones otherwise."""
    if not _NAME.fullmatch(name) or name not in known_games():
        raise ValueError(f"no rules engine {name!r} (known: {', '.join(known_games())})")
    module = importlib.import_module(f"{GAMES_PACKAGE}.{name}")
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise TypeError(f"{GAMES_PACKAGE}.{name} must export SPEC, a GameSpec named {name!r}")
    return spec


def engine_name(model: Game) -> str:
    """The rules engine a game names in game.json rules.engine (default: its id)."""
    return str(model.rules.get("engine", model.id))


def engine_for(model: Game) -> RulesGame:
    """Build the rules engine a loaded game names; ValueError if there is none, DeckError for bad data."""
    name = engine_name(model)
    return read_by_rules(name, lambda: find_spec(name).engine(model))


def find_oracle(model: Game) -> RulebookOracle | None:
    """The rulebook oracle of the game's rules engine, or None when the engine (or its oracle) does not exist."""
    try:
        spec = find_spec(engine_name(model))
    except ValueError:
        return None
    oracle = spec.oracle
    return None if oracle is None else read_by_rules(spec.name, lambda: oracle(model))


# What a game's rules code raises when card data lacks a field or holds the wrong type of value
# that the generic schema cannot require (a deck's own "fields" schema may leave it out).
DATA_SHAPE_ERRORS = (KeyError, TypeError, IndexError, AttributeError)

T = TypeVar("T")


def read_by_rules(name: str, build: Callable[[], T]) -> T:
    """Run `build` (a game's code reading the deck); a data-shape error becomes a ValueError that says so.

    A shared deck is untrusted: a card without the field the rules read must give one line, not a
    traceback. The engines check what they know; this is the net under them.
    """
    try:
        return build()
    except DATA_SHAPE_ERRORS as exc:
        raise ValueError(f"the {name} rules cannot read the card data ({data_shape_problem(exc)})") from None


def data_shape_problem(exc: BaseException) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r} where the rules need one" if exc.args else "a value the rules need is missing"
    return f"{exc.__class__.__name__}: {str(exc)[:80]}"
