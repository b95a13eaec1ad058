"""Where commands read and write from where they run: the project's decks/ and output/ found from inside it,
the shipped games found from any project that lacks a game of that name, and never an output/ inside a deck."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator.paths import DEFAULT_DECKS_DIR, DeckFolders, deck_folder_of, project_root, working_output_dir


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project made as a designer makes one: `fudaya new mygame` in an empty folder."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["new", "mygame"]).exit_code == 0
    return tmp_path


def test_the_project_is_found_from_inside_its_decks_and_output(project: Path) -> None:
    (project / "output" / "gogyo").mkdir(parents=True)
    for where in (project, project / "decks", project / "decks" / "mygame", project / "output" / "gogyo"):
        assert project_root(where) == project, where
        assert working_output_dir(where) == project / "output"
    elsewhere = project / "notes"
    elsewhere.mkdir()
    assert project_root(elsewhere) is None  # a sibling folder is not inside the project's decks or output
    assert working_output_dir(elsewhere) == elsewhere / "output"


def test_a_game_the_project_lacks_comes_from_the_shipped_games_and_its_own_wins(project: Path) -> None:
    folders = DeckFolders.for_command(None, project)
    assert folders.main == project / "decks" and folders.shipped == DEFAULT_DECKS_DIR
    assert folders.folder_for("mygame") == project / "decks"
    assert folders.folder_for("gogyo") == DEFAULT_DECKS_DIR and folders.uses_shipped("gogyo")
    assert folders.folder_for("nosuch") == project / "decks"  # found nowhere: the error names the project's
    (project / "decks" / "gogyo").mkdir()
    (project / "decks" / "gogyo" / "game.json").write_text("{}", encoding="utf-8")
    assert folders.folder_for("gogyo") == project / "decks"
    assert DeckFolders.for_command(project / "decks").shipped is None  # --decks given: only that folder


def test_check_of_a_shipped_game_inside_a_project_says_which_it_used(project: Path) -> None:
    result = CliRunner().invoke(app, ["check", "gogyo", "--no-simulate"])
    assert result.exit_code == 0, result.output
    assert f"note: gogyo: not in {project / 'decks'}; using the shipped game in {DEFAULT_DECKS_DIR}" in result.stderr
    assert "gogyo: ok" in result.stdout


def test_a_name_found_nowhere_names_the_folders_and_decks_option(project: Path) -> None:
    result = CliRunner().invoke(app, ["check", "nosuch", "--no-simulate"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"nosuch: no such game in {project / 'decks'} nor among the shipped games (games there: mygame); "
        "--decks FOLDER reads the games of another folder"]


def test_build_from_inside_a_deck_writes_the_projects_output(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = project / "decks" / "mygame"
    monkeypatch.chdir(deck)
    before = sorted(p.name for p in deck.iterdir())
    result = CliRunner().invoke(app, ["build", "mygame", "--no-report"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in deck.iterdir()) == before  # nothing written into the deck
    manifest = json.loads((project / "output" / "mygame" / "build.json").read_text(encoding="utf-8"))
    assert manifest["game"] == "mygame"


def test_an_output_inside_a_deck_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck folder on its own (downloaded, no project around it): ./output would be inside the deck."""
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["new", "lone", "--decks", str(tmp_path)]).exit_code == 0
    deck = tmp_path / "lone"
    monkeypatch.chdir(deck)
    assert deck_folder_of(deck / "output") == deck
    result = CliRunner().invoke(app, ["build", "gogyo", "--no-report"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{deck / 'output'}: lies inside the deck folder {deck} (a build would write into the deck); run fudaya "
        "from the project folder (the one holding decks/) or pass --output"]
    assert not (deck / "output").exists()


def test_import_never_writes_into_a_shipped_game(project: Path) -> None:
    sheet = project / "cards.csv"
    sheet.write_text("id,face,back,qty\nx,front,back,1\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["import", "gogyo", str(sheet)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"gogyo: no such game in {project / 'decks'} (games there: mygame)")
