"""`fudaya new`: a game folder to start from, the starter deck or a copy of a shipped game.

Every JSON file's "$schema" is rewritten to the path, relative to the file, of the schema this
installation has, so an editor completes and checks the files wherever the folder lives.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR

STARTER = Path(__file__).with_name("starter")
_SCHEMA_LINE = re.compile(r'("\$schema"\s*:\s*")([^"]*)(")')


class NewGameError(ValueError):
    """The folder cannot be made: it exists, or the game to copy does not."""


def schema_reference(file: Path) -> str:
    """The "$schema" value for `file`: its schema's path relative to the file's folder."""
    declared = json.loads(file.read_text(encoding="utf-8")).get("$schema", "")
    name = str(declared).replace("\\", "/").rsplit("/", 1)[-1]
    return Path(os.path.relpath(SCHEMA_DIR / name, file.parent)).as_posix()


def _replacement(reference: str) -> Callable[[re.Match[str]], str]:
    return lambda match: match.group(1) + reference + match.group(3)


def _point_schemas(folder: Path) -> None:
    for file in sorted(folder.rglob("*.json")):
        text = file.read_text(encoding="utf-8")
        if '"$schema"' in text:
            file.write_text(_SCHEMA_LINE.sub(_replacement(schema_reference(file)), text, count=1), encoding="utf-8")


def new_game(decks: Path, name: str, *, title: str | None = None, source: str | None = None) -> Path:
    """Make decks/name from the starter (titled `title`) or from shipped game `source`; returns the folder."""
    target = decks / name
    if target.exists():
        raise NewGameError(f"{target} exists already: choose another name, or delete it first")
    if source is None:
        target.mkdir(parents=True)
        for template in sorted(STARTER.glob("*.json")):
            text = template.read_text(encoding="utf-8")
            text = text.replace("GAME_ID", name).replace("GAME_TITLE", title or name)
            (target / template.name).write_text(text, encoding="utf-8")
    else:
        origin = DEFAULT_DECKS_DIR / source
        if not (origin / "game.json").is_file():
            shipped = sorted(p.name for p in DEFAULT_DECKS_DIR.iterdir() if (p / "game.json").is_file())
            raise NewGameError(f"--from {source!r}: no such shipped game (shipped: {', '.join(shipped)})")
        shutil.copytree(origin, target, ignore=shutil.ignore_patterns("sources", "__pycache__"))
        manifest = target / "game.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        text = manifest.read_text(encoding="utf-8")
        text = re.sub(r'("id"\s*:\s*")' + re.escape(data["id"]) + '"', lambda m: m.group(1) + name + '"', text,
                      count=1)
        if isinstance(data.get("rules"), dict) and "engine" not in data["rules"]:
            text = text.replace('"rules": {', f'"rules": {{"engine": "{source}", ', 1)  # its rules stay the copy's
        if title:
            text = re.sub(r'("title"\s*:\s*")[^"]*"', lambda m: m.group(1) + title.replace('"', "") + '"', text,
                          count=1)
        manifest.write_text(text, encoding="utf-8")
    _point_schemas(target)
    return target


__all__ = ["NewGameError", "new_game", "schema_reference"]
