"""`fudaya doctor` and `--version`: what this installation has and where the commands read and write."""
from __future__ import annotations

import sys
from pathlib import Path

import typer

from validator.loader import find_games
from validator.version import distribution_version, fudaya_version


def doctor(*, decks: Path, output: Path) -> None:
    """A line per requirement and optional tool, then the folders read and written; exit 1 if one needed is absent."""
    import platform
    import shutil

    from validator.paths import DATA_ROOT, DEFAULT_DECKS_DIR, FONTS_DIR, IN_CHECKOUT, SCHEMA_DIR

    missing = 0

    def line(ok: bool, what: str, detail: str, *, needed: bool = True) -> None:
        nonlocal missing
        missing += int(needed and not ok)
        mark = "ok" if ok else ("MISSING" if needed else "absent")
        typer.echo(f"{mark:8} {what:14} {detail}")

    line(sys.version_info >= (3, 11), "python", f"{platform.python_version()} ({sys.executable})")
    installed = "source checkout" if IN_CHECKOUT else "installed"
    line(True, "fudaya", f"{fudaya_version()} ({installed}, data in {DATA_ROOT})")
    schemas = sorted(SCHEMA_DIR.glob("*.schema.json"))
    line(len(schemas) > 0, "schemas", f"{len(schemas)} in {SCHEMA_DIR}")
    fonts = sorted(p.name for p in FONTS_DIR.glob("*.ttf"))
    line(len(fonts) > 0, "fonts", ", ".join(fonts) or f"none in {FONTS_DIR}")
    games = find_games(DEFAULT_DECKS_DIR) if DEFAULT_DECKS_DIR.is_dir() else []
    line(len(games) > 0, "shipped games", ", ".join(games) or f"none in {DEFAULT_DECKS_DIR}")
    for tool, use in (("qpdf", "PDF structure check (CI)"), ("pdffonts", "font embedding check (CI)"),
                      ("pdftoppm", "render pages to look at"), ("gcc", "make fast (compiled gogyo engine)"),
                      ("node", "test of the fillable sheet's totals")):
        found = shutil.which(tool)
        line(found is not None, tool, found or f"not found: {use}", needed=False)
    cluster = distribution_version("distributed")  # asked of the metadata: nothing imports distributed here
    line(cluster is not None, "distributed", f"{cluster} (--cluster)" if cluster else
         "not installed: --cluster, simulations on a Dask cluster (pip install 'fudaya[cluster]')", needed=False)
    fallback = "" if decks == DEFAULT_DECKS_DIR else f" (a game not there: the shipped one in {DEFAULT_DECKS_DIR})"
    typer.echo(f"{'':8} {'reads':14} {decks}{fallback}")
    typer.echo(f"{'':8} {'writes':14} {output}")
    if missing:
        raise typer.Exit(1)
