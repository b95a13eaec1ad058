"""`fudaya new`: a game folder to start from, a starter template or a copy of a shipped game.

Every JSON file's "$schema" is rewritten to the path, relative to the file, of the schema this
installation has, so an editor completes and checks the files wherever the folder lives.
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

from validator.deckfs import read_bytes, regular_files, write_bytes
from validator.limits import MAX_JSON_BYTES
from validator.loader import find_games
from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR

STARTERS = Path(__file__).with_name("starter")  # one folder a template: basic (the default), tategaki
DEFAULT_TEMPLATE = "basic"
MAX_TITLE_CHARS = 200
MAX_COPIED_BYTES = 64 * 1024 * 1024  # a shipped game's largest file is its font or art, far below
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
    for found in regular_files(folder, ".json"):
        text = read_bytes(folder, found.name, MAX_JSON_BYTES).decode("utf-8")
        if '"$schema"' in text:
            text = _SCHEMA_LINE.sub(_replacement(schema_reference(found.path)), text, count=1)
            write_bytes(folder, found.name, text.encode("utf-8"))


def _json_text(value: str) -> str:
    """`value` as it stands between the quotes of a JSON string (a title with " or \\ stays JSON)."""
    return json.dumps(value, ensure_ascii=False)[1:-1]


def _copy_regular_files(origin: Path, target: Path) -> None:
    """Every regular file of the shipped game, links not followed, the sources/ notes left out."""
    target.mkdir(parents=True)
    for found in regular_files(origin):
        if found.name.split("/", 1)[0] in ("sources", "__pycache__"):
            continue
        (target / found.name).parent.mkdir(parents=True, exist_ok=True)
        write_bytes(target, found.name, read_bytes(origin, found.name, MAX_COPIED_BYTES))


def templates() -> list[str]:
    """The starter templates this installation has."""
    return sorted(p.name for p in STARTERS.iterdir() if p.is_dir() and any(p.glob("*.json")))


def new_game(decks: Path, name: str, *, title: str | None = None, source: str | None = None,
             template: str | None = None) -> Path:
    """Make decks/name from a starter template (titled `title`) or from shipped game `source`; returns the folder."""
    if title is not None and (len(title) > MAX_TITLE_CHARS or not title.isprintable()):
        raise NewGameError(f"--title: at most {MAX_TITLE_CHARS} printable characters")
    if source is not None and template is not None:
        raise NewGameError("--template and --from: give one (a starter template, or a shipped game to copy)")
    known = templates()
    if template is not None and template not in known:
        raise NewGameError(f"--template {template!r}: no such starter (starters: {', '.join(known)})")
    target = decks / name
    if target.exists() or target.is_symlink():
        raise NewGameError(f"{target} exists already: choose another name, or delete it first")
    if source is None:
        target.mkdir(parents=True)
        for starter_file in sorted((STARTERS / (template or DEFAULT_TEMPLATE)).glob("*.json")):
            text = starter_file.read_text(encoding="utf-8")
            text = text.replace("GAME_ID", name).replace("GAME_TITLE", _json_text(title or name))
            write_bytes(target, starter_file.name, text.encode("utf-8"))
    else:
        shipped = find_games(DEFAULT_DECKS_DIR)
        if source not in shipped:
            raise NewGameError(f"--from {source!r}: no such shipped game (shipped: {', '.join(shipped)})")
        origin = DEFAULT_DECKS_DIR / source
        _copy_regular_files(origin, target)
        manifest = target / "game.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        text = manifest.read_text(encoding="utf-8")
        text = re.sub(r'("id"\s*:\s*")' + re.escape(data["id"]) + '"', lambda m: m.group(1) + name + '"', text,
                      count=1)
        if isinstance(data.get("rules"), dict) and "engine" not in data["rules"]:
            text = text.replace('"rules": {', f'"rules": {{"engine": "{source}", ', 1)  # its rules stay the copy's
        if title:
            text = re.sub(r'("title"\s*:\s*")[^"]*"', lambda m: m.group(1) + _json_text(title) + '"', text, count=1)
        json.loads(text)  # still JSON: every inserted value was escaped
        write_bytes(target, "game.json", text.encode("utf-8"))
    _point_schemas(target)
    return target


__all__ = ["NewGameError", "new_game", "schema_reference", "templates"]
