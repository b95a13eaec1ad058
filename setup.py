"""The wheel's data files: schemas, fonts and the shipped games, under <prefix>/share/fudaya.

pyproject.toml holds everything else; setuptools reads data files from here because the fixed shape
keeps schema/, fonts/ and decks/ at the top of the checkout, outside the Python packages, and every
folder of them has to be listed (validator/paths.py finds them again). Deck `sources/` folders hold
developers' scripts and stay out.
"""
from __future__ import annotations

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
SHARE = Path("share") / "fudaya"


def data_files() -> list[tuple[str, list[str]]]:
    found: dict[str, list[str]] = {}
    for top in ("schema", "fonts", "decks"):
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT)
            if path.is_file() and not {"sources", "__pycache__"} & set(relative.parts):
                found.setdefault(str(SHARE / relative.parent), []).append(str(relative))
    return sorted(found.items())


setup(data_files=data_files())
