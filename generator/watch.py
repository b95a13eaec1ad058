"""`fudaya watch`: rebuild a game's print files whenever its files change, only the parts a change affects.

A deck's cards or layout file rebuilds that deck and the rulebooks (their figures draw its cards);
a rulebook's file only that rulebook; a map file only that map; game.json, an asset or anything else
in the folder rebuilds every component. The simulation report is left out (`fudaya build` makes it).
A change that breaks the game prints its problems and keeps the last good output: builds replace
their files only when they complete.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from validator.model import Game

ALL = ("*",)


def affected(game_dir: Path, changed: Iterable[Path]) -> tuple[str, ...]:
    """The component ids a change to `changed` files rebuilds; ALL for a change that touches everything."""
    try:
        manifest = json.loads((game_dir / "game.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ALL
    owners: dict[Path, set[str]] = {}
    rulebooks = [str(c["id"]) for c in manifest.get("components", []) if c.get("kind") == "rulebook"]
    for component in manifest.get("components", []):
        cid, kind = str(component.get("id")), component.get("kind")
        for key in ("cards", "layout", "source", "map"):
            if isinstance(component.get(key), str):
                extra = rulebooks if kind in ("deck", "sheet") else []
                owners.setdefault((game_dir / component[key]).resolve(), set()).update([cid, *extra])
    found: set[str] = set()
    for path in changed:
        owner = owners.get(path.resolve())
        if owner is None:
            return ALL  # game.json, an asset, a font: anything may draw it
        found |= owner
    return tuple(sorted(found))


def watch_game(game_dir: Path, rebuild: Callable[[tuple[str, ...]], tuple[bool, str]], *,
               echo: Callable[[str], None], max_rebuilds: int | None = None,
               stop: Callable[[], bool] | None = None) -> int:
    """Watch `game_dir`; after each batch of changes call rebuild(components) -> (ok, what it says).
    Returns the number of rebuilds (stops after `max_rebuilds`, for tests)."""
    from watchfiles import watch  # only for watch

    done = 0
    echo(f"watching {game_dir} (Ctrl-C to stop)")
    for changes in watch(game_dir, stop_event=None, rust_timeout=500, yield_on_timeout=False,
                         watch_filter=lambda _, path: not Path(path).name.startswith(".")):
        changed = sorted({Path(path) for _, path in changes})
        components = affected(game_dir, changed)
        started = time.perf_counter()
        ok, said = rebuild(components)
        seconds = time.perf_counter() - started
        names = "everything" if components == ALL else ", ".join(components)
        files = ", ".join(p.name for p in changed[:3]) + (" …" if len(changed) > 3 else "")
        if said:
            echo(said)
        echo(f"{'rebuilt' if ok else 'not rebuilt (last good output kept)'}: {names} after {files} "
             f"changed, {seconds:.1f} s")
        done += 1
        if (max_rebuilds is not None and done >= max_rebuilds) or (stop is not None and stop()):
            break
    return done


def only_for(game: Game, components: tuple[str, ...]) -> tuple[str, ...]:
    """BuildOptions.only for these components: () (everything) for ALL, else the ones the game has."""
    if components == ALL:
        return ()
    known = {d.id for d in game.decks} | {b.id for b in game.rulebooks} | {m.id for m in game.maps}
    return tuple(c for c in components if c in known)


__all__ = ["ALL", "affected", "only_for", "watch_game"]
