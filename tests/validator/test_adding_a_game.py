"""docs/adding-a-game.md works as written: its files, copied out of the page, make a game the tool knows.

Every fenced block with `file=PATH` is written to a temporary tree; the package goes onto
validator.games' search path (the registry looks there and nowhere else), no central file is
edited, and the toy game is checked, simulated and played with its greedy policy.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import validator.games
from generator.cli import app
from validator.engine import registry
from validator.paths import PROJECT_ROOT

GUIDE = PROJECT_ROOT / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"^```(?:json|python) file=(\S+)\n(.*?)^```$", re.M | re.S)


def guide_files() -> dict[str, str]:
    return {path: body for path, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8"))}


@pytest.fixture
def toy_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The guide's files under tmp_path; returns the decks folder. validator.games also searches tmp_path."""
    for relative, body in guide_files().items():
        target = tmp_path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    monkeypatch.setattr(validator.games, "__path__", [*validator.games.__path__, str(tmp_path / "validator/games")])
    registry.find_spec.cache_clear()
    yield tmp_path / "decks"
    registry.find_spec.cache_clear()
    for name in [m for m in sys.modules if m.startswith("validator.games.highcard")]:
        del sys.modules[name]


def test_the_guide_shows_every_file_of_a_package_and_a_deck() -> None:
    files = guide_files()
    assert {"decks/highcard/game.json", "decks/highcard/cards.json", "decks/highcard/layout.json"} <= set(files)
    assert {f"validator/games/highcard/{n}.py" for n in ("__init__", "rules", "state", "policies")} <= set(files)


def test_the_registry_finds_the_new_package_without_any_central_edit(toy_game: Path) -> None:
    assert "highcard" in registry.known_games()
    spec = registry.find_spec("highcard")
    assert spec.name == "highcard" and spec.greedy is not None and spec.oracle is None


def test_the_toy_game_checks_and_simulates(toy_game: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    checked = runner.invoke(app, ["check", "highcard", "--decks", str(toy_game)])
    assert checked.exit_code == 0, checked.output
    done = runner.invoke(app, ["simulate", "highcard", "--players", "4", "--games", "400", "--policy", "greedy",
                               "--seed", "3", "--json", "--decks", str(toy_game)])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.output)
    assert summary["matches"] == 400 and summary["finished"]["all_finished"]
    # Greedy keeps 5 and above, so every game ends with the four cards held; nobody can hold a card twice.
    first = runner.invoke(app, ["simulate", "highcard", "--players", "4", "--games", "400", "--policy", "greedy",
                                "--seed", "3", "--json", "--decks", str(toy_game)])
    assert json.loads(first.output) == summary  # seeded: the same run twice gives the same summary


def test_the_package_files_pass_the_type_checker(toy_game: Path, tmp_path: Path) -> None:
    """The guide's code is held to the project's own bar (mypy --strict), so nobody copies a sloppy example."""
    mypy = Path(sys.executable).with_name("mypy")
    if not mypy.exists():
        pytest.skip("mypy is not installed in this environment")
    mirror = tmp_path / "mirror"  # the project's validator/ with the guide's package in it, so imports resolve
    shutil.copytree(PROJECT_ROOT / "validator", mirror / "validator", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(tmp_path / "validator/games/highcard", mirror / "validator/games/highcard")
    files = sorted(str(p.relative_to(mirror)) for p in (mirror / "validator/games/highcard").glob("*.py"))
    done = subprocess.run([str(mypy), "--strict", "--follow-imports=silent", "--no-incremental", *files],
                          cwd=mirror, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
