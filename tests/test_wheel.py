"""A real wheel, installed into a fresh virtual environment outside the checkout, is a working fudaya:
schemas, fonts and the shipped games come with it, and it reads ./decks and writes ./output of the
folder it runs in (issue 14)."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from validator.loader import find_games
from validator.paths import DEFAULT_DECKS_DIR, PROJECT_ROOT

pytestmark = pytest.mark.slow


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A venv with only the wheel in its own site-packages; the dependencies come from this test run's
    environment through a .pth file (no download), which never makes the checkout importable: the
    editable install's finder is itself a .pth file there, and .pth files in a .pth-added folder are
    not read."""
    root = tmp_path_factory.mktemp("wheel")
    wheels = root / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", str(PROJECT_ROOT), "--no-deps", "--no-build-isolation",
                  "-q", "-w", str(wheels)], cwd=root)
    assert built.returncode == 0, built.stderr
    [wheel] = wheels.glob("fudaya-*.whl")
    venv = root / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], cwd=root).returncode == 0
    python = venv / "bin" / "python"
    site_packages = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              cwd=root).stdout.strip())
    (site_packages / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n", encoding="utf-8")
    install = _run([str(python), "-m", "pip", "install", "--no-deps", "-q", str(wheel)], cwd=root)
    assert install.returncode == 0, install.stderr
    env = {**os.environ, "PATH": f"{venv / 'bin'}:{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    return venv, env


def test_the_installed_code_is_the_wheel_s_not_the_checkout_s(installed: tuple[Path, dict[str, str]],
                                                             tmp_path: Path) -> None:
    venv, env = installed
    where = _run([str(venv / "bin" / "python"), "-c",
                  "import generator, validator.paths as p; print(generator.__file__); print(p.DATA_ROOT)"],
                 cwd=tmp_path, env=env)
    code, data = where.stdout.split()
    assert code.startswith(str(venv)) and data.startswith(str(venv)), where.stdout
    assert not code.startswith(str(PROJECT_ROOT))


def test_an_empty_folder_gets_the_shipped_games_and_its_own_output(installed: tuple[Path, dict[str, str]],
                                                                  tmp_path: Path) -> None:
    venv, env = installed
    fudaya = str(venv / "bin" / "fudaya")
    assert _run([fudaya, "--version"], cwd=tmp_path, env=env).stdout.startswith("fudaya 0.")
    doctor = _run([fudaya, "doctor"], cwd=tmp_path, env=env)
    assert doctor.returncode == 0 and "installed" in doctor.stdout and "MISSING" not in doctor.stdout
    listed = _run([fudaya, "list"], cwd=tmp_path, env=env)
    assert all(game in listed.stdout for game in find_games(DEFAULT_DECKS_DIR))
    checked = _run([fudaya, "check", "--no-simulate"], cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout + checked.stderr  # every schema, font and asset is there
    built = _run([fudaya, "build", "gogyo", "--no-report"], cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    assert sorted(p.name for p in (tmp_path / "output" / "gogyo").glob("*.pdf")) == [
        "cards-printshop.pdf", "cards.pdf", "rulebook-booklet.pdf", "rulebook-printshop.pdf", "rulebook.pdf",
        "score-sheet-fillable.pdf", "score-sheet.pdf"]


def test_a_folder_with_its_own_decks_is_read_instead(installed: tuple[Path, dict[str, str]],
                                                     tmp_path: Path) -> None:
    import shutil

    venv, env = installed
    shutil.copytree(PROJECT_ROOT / "decks" / "gogyo", tmp_path / "decks" / "mygame")
    manifest = tmp_path / "decks" / "mygame" / "game.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('"id": "gogyo"', '"id": "mygame"', 1),
                        encoding="utf-8")
    listed = _run([str(venv / "bin" / "fudaya"), "list"], cwd=tmp_path, env=env)
    assert listed.returncode == 0 and listed.stdout.startswith("mygame") and "sengoku" not in listed.stdout
