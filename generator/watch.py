"""`fudaya watch`: rebuild a game's print files whenever its files change, only the parts a change affects.

A deck's cards or layout file rebuilds that deck and the rulebooks (their figures draw its cards);
a rulebook's file only that rulebook; a map file only that map; game.json, an asset or anything else
in the folder rebuilds every component. The simulation report is left out (`fudaya build` makes it).
A change that breaks the game prints its problems and keeps the last good output: builds replace
their files only when they complete.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from validator.deckfs import deck_root, inside_or_none
from validator.issues import DeckError
from validator.jsonsource import load_json
from validator.model import Game

ALL = ("*",)
MAX_WATCHED_FOLDERS = 1_000  # a deck is a few folders; the OS limits watches per user (often 8,192)


def affected(game_dir: Path, changed: Iterable[Path]) -> tuple[str, ...]:
    """The component ids a change to `changed` files rebuilds; ALL for a change that touches everything.

    game.json is read like any deck file (confined, bounded); whatever it holds, even garbage, the
    answer is ALL and the rebuild that follows reports its problems.
    """
    try:
        manifest = load_json(game_dir / "game.json", root=game_dir, located=False).data
    except DeckError:
        return ALL
    components = manifest.get("components") if isinstance(manifest, dict) else None
    if not isinstance(components, list):
        return ALL
    components = [c for c in components if isinstance(c, dict)]
    owners: dict[Path, set[str]] = {}
    rulebooks = [str(c.get("id")) for c in components if c.get("kind") == "rulebook"]
    for component in components:
        cid, kind = str(component.get("id")), component.get("kind")
        for key in ("cards", "layout", "source", "map"):
            owned = inside_or_none(game_dir, component.get(key), must_exist=False)
            if owned is not None:
                extra = rulebooks if kind in ("deck", "sheet") else []
                owners.setdefault(owned, set()).update([cid, *extra])
    found: set[str] = set()
    for path in changed:
        owner = owners.get(inside_or_none(game_dir, path, must_exist=False) or path)
        if owner is None:
            return ALL  # game.json, an asset, a font: anything may draw it
        found |= owner
    return tuple(sorted(found))


def watched_folders(game_dir: Path) -> tuple[Path, ...]:
    """The deck folder and its real subfolders: a link is never followed out of the deck (a link to /usr
    would otherwise have the OS watch every file under it)."""
    folders = [game_dir]
    for folder, names, _ in os.walk(game_dir, followlinks=False):
        names[:] = sorted(n for n in names if not n.startswith(".") and not (Path(folder) / n).is_symlink())
        folders.extend(Path(folder) / n for n in names)
        if len(folders) > MAX_WATCHED_FOLDERS:
            break
    return tuple(folders[:MAX_WATCHED_FOLDERS])


def watch_game(game_dir: Path, rebuild: Callable[[tuple[str, ...]], tuple[bool, str]], *,
               echo: Callable[[str], None], max_rebuilds: int | None = None,
               stop: Callable[[], bool] | None = None) -> int:
    """Watch `game_dir`; after each batch of changes call rebuild(components) -> (ok, what it says).
    Returns the number of rebuilds (stops after `max_rebuilds`, for tests). Each folder is watched on
    its own, not recursively; when the deck's folders change the watch starts again on the new set."""
    from watchfiles import watch  # only for watch

    deck_root(game_dir)  # ConfinedError when it is no folder (a link loop, say): nothing to watch
    done = 0
    echo(f"watching {game_dir} (Ctrl-C to stop)")
    while True:
        folders = watched_folders(game_dir)
        for changes in watch(*folders, recursive=False, stop_event=None, rust_timeout=500,
                             yield_on_timeout=False, watch_filter=lambda _, path: not Path(path).name.startswith(".")):
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
                return done
            if watched_folders(game_dir) != folders:
                break  # a folder came or went: watch the new set


def only_for(game: Game, components: tuple[str, ...]) -> tuple[str, ...]:
    """BuildOptions.only for these components: () (everything) for ALL, else the ones the game has."""
    if components == ALL:
        return ()
    known = {d.id for d in game.decks} | {b.id for b in game.rulebooks} | {m.id for m in game.maps}
    return tuple(c for c in components if c in known)


__all__ = ["ALL", "affected", "only_for", "watch_game"]
