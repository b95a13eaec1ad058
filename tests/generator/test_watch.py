"""`fudaya watch`: a change rebuilds only what it affects and says so; a change that breaks the game
says why and leaves the last good output as it was."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.watch import ALL, affected, watched_folders

pytestmark = pytest.mark.slow


@pytest.fixture
def game(tmp_path: Path) -> Path:
    assert CliRunner().invoke(app, ["new", "mygame", "--decks", str(tmp_path / "decks")]).exit_code == 0
    return tmp_path / "decks" / "mygame"


def test_what_a_change_affects(game: Path) -> None:
    assert affected(game, [game / "layout.json"]) == ("cards",)
    assert affected(game, [game / "cards.json", game / "layout.json"]) == ("cards",)
    assert affected(game, [game / "game.json"]) == ALL
    assert affected(game, [game / "assets" / "new.png"]) == ALL


@pytest.mark.parametrize("content", ["[]", "{", '{"components": 3}', '{"components": [1, null, {"cards": 5}]}',
                                     '{"components": [{"id": "x", "kind": "deck", "cards": "/etc/passwd"}]}'])
def test_whatever_game_json_holds_a_change_rebuilds_everything_without_a_traceback(game: Path, content: str) -> None:
    (game / "game.json").write_text(content, encoding="utf-8")
    assert affected(game, [game / "cards.json"]) == ALL


def test_a_link_in_the_deck_is_not_watched_into(game: Path, tmp_path: Path) -> None:
    (game / "art").mkdir()
    (game / "art" / "nested").mkdir()
    (game / "usr").symlink_to("/usr")
    (game / "art" / "up").symlink_to(tmp_path)
    (game / "loop").symlink_to(game / "loop")
    assert watched_folders(game) == (game, game / "art", game / "art" / "nested")
    assert affected(game, [game / "loop"]) == ALL


def _line(process: subprocess.Popen[str], containing: str, seconds: float = 60) -> str:
    deadline = time.monotonic() + seconds
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if containing in line:
            return line
        if not line and process.poll() is not None:
            break
    raise AssertionError(f"no line with {containing!r}")


def test_a_change_rebuilds_and_a_breaking_change_keeps_the_last_good_output(game: Path, tmp_path: Path) -> None:
    output = tmp_path / "output"
    process = subprocess.Popen(
        [sys.executable, "-m", "generator.cli", "watch", "mygame", "--decks", str(game.parent),
         "--output", str(output), "--max-rebuilds", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        assert "built mygame" in _line(process, "built mygame")
        _line(process, "watching")
        time.sleep(0.5)
        layout = game / "layout.json"
        layout.write_text(layout.read_text(encoding="utf-8").replace('"size": 28', '"size": 26'), encoding="utf-8")
        line = _line(process, "rebuilt")
        assert line.startswith("rebuilt: cards after layout.json changed, ")
        good = {p.name: p.read_bytes() for p in (output / "mygame").glob("*.pdf")}
        assert "cards.pdf" in good
        (game / "cards.json").write_text('{"oops": ', encoding="utf-8")
        problem = _line(process, "cards.json")
        assert "invalid JSON" in problem
        assert _line(process, "not rebuilt").startswith("not rebuilt (last good output kept): cards after cards.json")
        assert process.wait(timeout=30) == 0
        assert {p.name: p.read_bytes() for p in (output / "mygame").glob("*.pdf")} == good
    finally:
        process.kill()
