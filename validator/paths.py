"""Where the project's data lives: the bundled schemas, fonts and shipped games, and the user's folders.

In a source checkout they are the checkout's own folders. Installed from a wheel, the same files are
data files under <prefix>/share/fudaya (setup.py lists them), found here without the checkout.
The commands read decks/ and write output/ of the project they run in (project_root: the folder
holding decks/, found from inside it too); a folder without one gets the shipped games, and a project
finds a shipped game it has no game of that name for (DeckFolders).
"""
from __future__ import annotations

import os
import site
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHARE = Path("share") / "fudaya"


def _installed_data() -> Path | None:
    """The data folder of an installed fudaya (a virtual environment's, the user's or the system's)."""
    for base in (sysconfig.get_path("data"), site.USER_BASE or "", sys.prefix):
        candidate = Path(base) / SHARE
        if base and (candidate / "schema").is_dir():
            return candidate
    return None


IN_CHECKOUT = (PROJECT_ROOT / "schema").is_dir() and (PROJECT_ROOT / "pyproject.toml").is_file()
DATA_ROOT = PROJECT_ROOT if IN_CHECKOUT else (_installed_data() or PROJECT_ROOT)
SCHEMA_DIR = DATA_ROOT / "schema"
FONTS_DIR = DATA_ROOT / "fonts"
DEFAULT_DECKS_DIR = DATA_ROOT / "decks"  # the shipped games
DEFAULT_OUTPUT_DIR = PROJECT_ROOT / "output" if IN_CHECKOUT else Path("output")


GAME_FILE = "game.json"


def project_root(cwd: Path | None = None) -> Path | None:
    """The project a command runs in: the nearest folder (this one or above) holding a decks/ folder,
    when the command runs in that folder itself or anywhere inside its decks/ or output/. None elsewhere.

    So `fudaya build` run inside decks/mygame reads and writes the project's folders instead of
    writing an output/ folder into the deck."""
    here = (cwd or Path.cwd()).absolute()
    for folder in (here, *here.parents):
        if (folder / "decks").is_dir() and (folder == here or here.is_relative_to(folder / "decks")
                                              or here.is_relative_to(folder / "output")):
            return folder
    return None


def working_decks_dir(cwd: Path | None = None) -> Path:
    """The project's decks/ folder (see project_root); else the shipped games."""
    root = project_root(cwd)
    return root / "decks" if root is not None else DEFAULT_DECKS_DIR


def working_output_dir(cwd: Path | None = None) -> Path:
    """The project's output/ folder (see project_root); else ./output of the folder a command runs in."""
    root = project_root(cwd)
    return (root if root is not None else (cwd or Path.cwd())) / "output"


def new_decks_dir(cwd: Path | None = None) -> Path:
    """Where `fudaya new` and `fudaya import` work without --decks: the project's decks/, else ./decks."""
    root = project_root(cwd)
    return (root if root is not None else (cwd or Path.cwd())) / "decks"


def deck_folder_of(path: Path) -> Path | None:
    """The deck folder (a folder holding game.json) that `path` is or lies in, if any."""
    for folder in (path, *path.parents):
        if (folder / GAME_FILE).is_file():
            return folder
    return None


@dataclass(frozen=True)
class DeckFolders:
    """Where game names are looked up: `main` (--decks, or the project's decks/), then `shipped` (the shipped
    games, when --decks was not given): a project finds gogyo without copying it, and its own game of the
    same name wins."""

    main: Path
    shipped: Path | None = None

    @classmethod
    def for_command(cls, decks: Path | None, cwd: Path | None = None) -> DeckFolders:
        """--decks alone when given; else the working folder, falling back to the shipped games."""
        if decks is not None:
            return cls(decks)
        main = working_decks_dir(cwd)
        return cls(main, None if main == DEFAULT_DECKS_DIR else DEFAULT_DECKS_DIR)

    def has(self, folder: Path, game_id: str) -> bool:
        """Whether `folder` holds something by that name: a game, or a broken one the loader will describe."""
        return os.path.lexists(folder / game_id)

    def folder_for(self, game_id: str) -> Path:
        """The folder holding the game: `main` when it has it (or nobody has), else the shipped games."""
        if self.shipped is not None and not self.has(self.main, game_id) and self.has(self.shipped, game_id):
            return self.shipped
        return self.main

    def uses_shipped(self, game_id: str) -> bool:
        return self.folder_for(game_id) != self.main
