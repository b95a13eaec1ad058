"""Where the project's data lives: the bundled schemas, fonts and shipped games, and the user's folders.

In a source checkout they are the checkout's own folders. Installed from a wheel, the same files are
data files under <prefix>/share/fudaya (setup.py lists them), found here without the checkout.
The commands read ./decks and write ./output of the folder they run in (working_decks_dir); a folder
without decks of its own gets the shipped games.
"""
from __future__ import annotations

import site
import sys
import sysconfig
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


def working_decks_dir(cwd: Path | None = None) -> Path:
    """./decks of the folder a command runs in, when it has one; else the shipped games."""
    here = (cwd or Path.cwd()) / "decks"
    return here if here.is_dir() else DEFAULT_DECKS_DIR


def working_output_dir(cwd: Path | None = None) -> Path:
    """./output of the folder a command runs in."""
    return (cwd or Path.cwd()) / "output"
