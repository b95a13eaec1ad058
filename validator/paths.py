"""Where the project's data lives: decks, schemas and the bundled fonts."""
from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = PROJECT_ROOT / "schema"
FONTS_DIR = PROJECT_ROOT / "fonts"
DEFAULT_DECKS_DIR = PROJECT_ROOT / "decks"
DEFAULT_OUTPUT_DIR = PROJECT_ROOT / "output"
