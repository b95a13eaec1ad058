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
    (["new", "copy", "--template", "yokogaki"], "--template 'yokogaki': no such starter (starters: basic, tategaki)"),
    (["new", "copy", "--template", "tategaki", "--from", "gogyo"], "--template and --from: give one"),
])
def test_refusals_are_one_line_and_exit_1(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "decks" / "taken").mkdir(parents=True)
    result = CliRunner().invoke(app, [*args, "--decks", str(tmp_path / "decks")])
    assert result.exit_code == 1 and message in result.output and len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("title", ['A "quoted" title', "back\\slash", "閉じ」と\"開き\"", "tab\there"])
def test_a_title_is_written_as_json_whatever_it_holds(tmp_path: Path, title: str) -> None:
    result = CliRunner().invoke(app, ["new", "mygame", "--title", title, "--decks", str(tmp_path)])
    if not title.isprintable():
        assert result.exit_code == 1 and "printable" in result.output
        return
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "mygame" / "game.json").read_text(encoding="utf-8"))["title"] == title
    copied = CliRunner().invoke(app, ["new", "other", "--from", "gogyo", "--title", title, "--decks", str(tmp_path)])
    assert copied.exit_code == 0, copied.output
    assert json.loads((tmp_path / "other" / "game.json").read_text(encoding="utf-8"))["title"] == title


@pytest.mark.parametrize("source", ["../../etc", "/etc", "gogyo/../jinzai", "."])
def test_from_names_a_shipped_game_never_a_path(tmp_path: Path, source: str) -> None:
    result = CliRunner().invoke(app, ["new", "mygame", "--from", source, "--decks", str(tmp_path)])
    assert result.exit_code == 1 and "no such shipped game" in result.output
    assert not (tmp_path / "mygame").exists()


def test_a_copy_follows_no_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.new_game as new_game
    from validator.paths import DEFAULT_DECKS_DIR

    shipped = tmp_path / "shipped"
    for name in ("game.json", "cards.json", "layout.json", "rulebook.json"):
        source = DEFAULT_DECKS_DIR / "gogyo" / name
        if source.exists():
            (shipped / "gogyo").mkdir(parents=True, exist_ok=True)
            (shipped / "gogyo" / name).write_bytes(source.read_bytes())
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (shipped / "gogyo" / "notes.txt").symlink_to(secret)
    (shipped / "gogyo" / "etc").symlink_to("/etc")
    monkeypatch.setattr(new_game, "DEFAULT_DECKS_DIR", shipped)
    result = CliRunner().invoke(app, ["new", "mine", "--from", "gogyo", "--decks", str(tmp_path / "decks")])
    assert result.exit_code == 0, result.output
    made = tmp_path / "decks" / "mine"
    assert not (made / "notes.txt").exists() and not (made / "etc").exists()
    assert not any(p.is_symlink() for p in made.rglob("*"))
