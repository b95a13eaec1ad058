"""jinzai's tile data: a wrong number, type or count is one located line naming tiles.json, exit 1, nothing written.

The tile vocabulary (number 0-7, type 文/武/*) is the "fields" schema inside tiles.json, so these are
ordinary schema errors at the tile's own JSON path; the 文/武 assignment must also agree with game.json
rules.type_of_number, which the rules engine checks and reports at the tile.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckcopies import copy_decks
from generator.cli import app

ROOT = Path(__file__).resolve().parents[3]
JINZAI = ROOT / "decks" / "jinzai"
BUN_1 = 0       # {"id": "bun-1", "qty": 4, "fields": {"use": "block", "number": 1, "type": "文", ...}}
TRICKSTER = 7   # {"id": "trickster", "qty": 4, "fields": {"number": 0, "type": "*", ...}}

runner = CliRunner()


def tile_edit(change: Callable[[list[dict[str, Any]]], None]) -> Callable[[Path], None]:
    def mutate(game: Path) -> None:
        path = game / "tiles.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data["cards"])
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return mutate


def set_tile(index: int, key: str, value: Any) -> Callable[[Path], None]:
    return tile_edit(lambda cards: cards[index]["fields"].__setitem__(key, value))


CASES: dict[str, tuple[Callable[[Path], None], list[tuple[str, ...]]]] = {
    "number-outside-1-7": (
        set_tile(BUN_1, "number", 8),
        [("tiles.json:", f"$.cards[{BUN_1}].fields.number:", "8 is out of range (must be <= 7)")]),
    "type-not-bun-or-bu": (
        set_tile(BUN_1, "type", "官"),
        [("tiles.json:", f"$.cards[{BUN_1}].fields.type:", '"官" is not one of "文", "武"')]),
    "trickster-with-a-number": (
        set_tile(TRICKSTER, "number", 3),
        [("tiles.json:", f"$.cards[{TRICKSTER}].fields.type:", '"*" is not one of "文", "武"')]),
    "numbered-tile-typed-as-trickster": (
        set_tile(BUN_1, "type", "*"),
        [("tiles.json:", f"$.cards[{BUN_1}].fields.type:", '"*" is not one of "文", "武"')]),
    "type-disagrees-with-the-rules": (
        set_tile(BUN_1, "type", "武"),
        [("tiles.json:", f"$.cards[{BUN_1}].fields.type:", "tile 'bun-1' is 武",
          "rules.type_of_number makes 1 文")]),
    "counts-do-not-add-up-to-32": (
        tile_edit(lambda cards: cards[BUN_1].__setitem__("qty", 3)),
        [("tiles.json:", "$.composition[0]:", "declared 32 cards", "found 31"),
         ("tiles.json:", "$.composition[1]:", "declared 4 cards", "'number': 1", "found 3"),
         ("tiles.json:", "$.total:", "declares 40 cards but defines 39")]),
}


@pytest.mark.parametrize("command", ["check", "build"])
@pytest.mark.parametrize("name", list(CASES))
def test_bad_tile_data_is_one_located_line(tmp_path: Path, name: str, command: str) -> None:
    mutate, expected = CASES[name]
    decks = copy_decks(tmp_path, "jinzai")
    mutate(decks / "jinzai")
    out = tmp_path / "out"
    args = [command, "jinzai", "--decks", str(decks)] + (["--output", str(out)] if command == "build" else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output + result.stderr
    issue_lines = [line for line in result.stderr.splitlines() if ": $" in line]
    assert len(issue_lines) == len(expected), result.stderr
    for fragments in expected:
        assert any(all(f in line for f in fragments) for line in issue_lines), (fragments, result.stderr)
    assert not out.exists() or not any(out.rglob("*.*")), "nothing may be written"


def test_the_unchanged_copy_is_clean(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "jinzai", "--decks", str(copy_decks(tmp_path, "jinzai")), "--no-simulate"])
    assert result.exit_code == 0, result.output + result.stderr
