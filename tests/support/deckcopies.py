"""Test support: throw-away copies of a deck folder, edits to their JSON, and checks that an error line's
file:line:col really is where its JSON path starts (so a located message cannot point at the wrong line)."""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from validator.issues import Issue
from validator.jsonsource import load_json
from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR

LOCATED = re.compile(r"^(?P<file>\S+\.json):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): (?P<message>.+)$")


def copy_decks(tmp_path: Path, game_id: str) -> Path:
    """tmp/decks/<game> (a copy) and tmp/schema (a link to the real schemas); returns tmp/decks."""
    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / game_id, decks / game_id)
    (tmp_path / "schema").symlink_to(SCHEMA_DIR, target_is_directory=True)
    return decks


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    """Load `path`, let `change` edit the data in place, save it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def json_pointer(path: str) -> str:
    """'$.templates.back.elements[17].src' -> '/templates/back/elements/17/src'."""
    return "".join(f"/{a or b}" for a, b in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path))


def assert_located(line: str | Issue) -> re.Match[str]:
    """file:line:col: $.path: message, the position being where the path (or its nearest parent) starts."""
    text = line.render() if isinstance(line, Issue) else line
    found = LOCATED.match(text)
    assert found, text
    doc = load_json(Path(found["file"]))
    pointer = json_pointer(found["path"])
    while pointer and pointer not in doc.positions:
        pointer = pointer.rsplit("/", 1)[0]
    assert doc.positions[pointer] == (int(found["line"]), int(found["col"])), text
    return found


def edit_rulebook(decks: Path, game_id: str, change: Callable[[Any], None]) -> None:
    edit_json(decks / game_id / "rulebook.json", change)


def example_index(data: dict[str, Any], n: int = 0) -> int:
    """Index in "blocks" of the rulebook's n-th example block."""
    return [i for i, b in enumerate(data["blocks"]) if b["type"] == "example"][n]


def rulebook_issues(decks: Path, game_id: str) -> list[Issue]:
    """What `fudaya check` finds in a copied game's rulebook.json."""
    from validator.checks import check_game
    from validator.loader import load_game

    found = check_game(load_game(decks, game_id)).issues
    return [i for i in found if i.location.file.name == "rulebook.json"]
