"""`fudaya new`: a starter deck that checks and builds, or a copy of a shipped game under a new id;
"$schema" paths that resolve from the new files; a clear refusal for a taken or bad name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator.paths import SCHEMA_DIR


def _schemas_resolve(folder: Path) -> None:
    for file in folder.rglob("*.json"):
        declared = json.loads(file.read_text(encoding="utf-8")).get("$schema")
        if declared is not None:
            assert (file.parent / declared).resolve() == (SCHEMA_DIR / Path(declared).name).resolve(), file


def test_the_starter_deck_checks_and_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(app, ["new", "mygame", "--title", "わたしのゲーム"])
    assert made.exit_code == 0, made.output
    folder = tmp_path / "decks" / "mygame"
    assert sorted(p.name for p in folder.iterdir()) == ["cards.json", "game.json", "layout.json"]
    assert json.loads((folder / "game.json").read_text(encoding="utf-8"))["title"] == "わたしのゲーム"
    _schemas_resolve(folder)
    decks = ["--decks", str(tmp_path / "decks")]
    assert runner.invoke(app, ["check", "mygame", "--no-simulate", *decks]).exit_code == 0
    built = runner.invoke(app, ["build", "mygame", "--no-report", *decks, "--output", str(tmp_path / "output")])
    assert built.exit_code == 0, built.output
    manifest = json.loads((tmp_path / "output" / "mygame" / "build.json").read_text(encoding="utf-8"))
    assert len([p for p in manifest["placements"] if p["file"] == "mygame/cards.pdf"]) == 24  # 12 fronts, 12 backs


def test_a_copy_of_a_shipped_game_is_the_same_game_under_a_new_id(tmp_path: Path) -> None:
    runner = CliRunner()
    decks = tmp_path / "decks"
    made = runner.invoke(app, ["new", "myvariant", "--from", "sengoku", "--decks", str(decks)])
    assert made.exit_code == 0, made.output
    game = json.loads((decks / "myvariant" / "game.json").read_text(encoding="utf-8"))
    assert game["id"] == "myvariant" and game["rules"]["engine"] == "sengoku"
    assert not (decks / "myvariant" / "sources").exists()  # developers' scripts stay behind
    _schemas_resolve(decks / "myvariant")
    checked = runner.invoke(app, ["check", "myvariant", "--no-simulate", "--decks", str(decks)])
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize(("args", "message"), [
    (["new", "taken"], "exists already"),
    (["new", "Bad Name"], "not a game name"),
    (["new", "copy", "--from", "chess"], "--from 'chess': no such shipped game (shipped: gogyo, jinzai"),
])
def test_refusals_are_one_line_and_exit_1(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "decks" / "taken").mkdir(parents=True)
    result = CliRunner().invoke(app, [*args, "--decks", str(tmp_path / "decks")])
    assert result.exit_code == 1 and message in result.output and len(result.output.strip().splitlines()) == 1
