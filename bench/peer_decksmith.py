"""decksmith (PyPI 0.9.9), the peer issue 28 measures fudaya against: a text deck built and exported to PDF.

decksmith runs from its own venv in a cache folder outside the repository ($FUDAYA_BENCH_PEERS, else the
user's cache folder), made once by pip and reused. Its deck is the one in
shared/reference/anchors-print-tools.md section 3: a 750×1050 px card (63.5×88.9 mm at 300 dpi) with a border
rectangle, a name and a number, one CSV row a card (the CSV separator must be ';'), checked here against
decksmith 0.9.9's own source (validate.py, deck_builder.py, main.py).

What one decksmith run includes: two cold processes, `decksmith build` (imports pandas and the Flask GUI,
rasterises every card to an RGBA PNG with Pillow) then `decksmith export` (ReportLab places the PNGs 9 to an
A4 page; no crop marks, bleed or backs). fudaya's figure beside it is one cold process writing vector PDF
sheets and the print-shop file (bleed, marks, backs) and preflighting both.

No figure is ever made up: if the install or a run fails, or the PDF does not hold every card,
NotMeasured says why and the caller prints that instead.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

VERSION = "0.9.9"
INSTALL_TIMEOUT = 900  # seconds: pip resolves pandas, Flask, Pillow and ReportLab on a first install

# bench_main_job's timer: (wall, CPU) seconds of one command run in a folder
Timer = Callable[[list[str], Path], tuple[float, float]]

DECK_YAML = """\
id: canvas
width: 750
height: 1050
background_color: [255, 255, 255]
elements:
  - id: border
    type: rectangle
    size: [710, 1010]
    position: [20, 20]
    outline_color: [0, 0, 0]
    outline_width: 8
  - id: name
    type: text
    text: "%name%"
    position: [0, 120]
    relative_to: [canvas, top-center]
    anchor: top-center
    color: [0, 0, 0]
    font_size: 64
    align: center
  - id: number
    type: text
    text: "%number%"
    position: [0, 0]
    relative_to: [canvas, center]
    anchor: center
    color: [0, 0, 0]
    font_size: 160
    align: center
"""


class NotMeasured(Exception):
    """Why decksmith was not measured (no network for pip, a failed run, a PDF short of cards)."""


def peer_folder() -> Path:
    """Where decksmith's venv lives: $FUDAYA_BENCH_PEERS, else the user's cache folder, outside the repo."""
    from platformdirs import user_cache_path

    root = os.environ.get("FUDAYA_BENCH_PEERS")
    return (Path(root).resolve() if root else user_cache_path("fudaya-bench")) / f"decksmith-{VERSION}"


def why(error: Exception) -> str:
    """The last line a failed command wrote to stderr (pip's warnings aside), else the error itself."""
    stderr = getattr(error, "stderr", None) or ""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else str(stderr)
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("WARNING")]
    return lines[-1].strip() if lines else str(error)


def install(folder: Path) -> Path:
    """decksmith's command, from the venv in `folder`, made by pip the first time (a half-made venv is redone)."""
    command, stamp = folder / "bin" / "decksmith", folder / ".installed"
    if command.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == VERSION:
        return command
    shutil.rmtree(folder, ignore_errors=True)
    steps = [[sys.executable, "-m", "venv", str(folder)],
             [str(folder / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
              f"decksmith=={VERSION}"]]
    for step in steps:
        try:
            subprocess.run(step, check=True, capture_output=True, text=True, timeout=INSTALL_TIMEOUT)
        except (OSError, subprocess.SubprocessError) as error:
            raise NotMeasured(f"installing decksmith {VERSION} failed: {why(error)}") from error
    stamp.write_text(VERSION, encoding="utf-8")
    return command


def write_deck(folder: Path, cards: int) -> None:
    """deck.yaml and deck.csv for `cards` text cards ("Card 1;1" ...) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text(DECK_YAML, encoding="utf-8")
    rows = [f"Card {n};{n}" for n in range(1, cards + 1)]
    (folder / "deck.csv").write_text("\n".join(["name;number", *rows]) + "\n", encoding="utf-8")


def cards_in_pdf(pdf: Path) -> int:
    """How many card images decksmith's PDF places, summed over its pages (each card is one PNG image)."""
    from pypdf import PdfReader

    return sum(len(page.images) for page in PdfReader(pdf).pages)


def run(command: Path, deck: Path, timed: Timer) -> tuple[float, float]:
    """(wall, CPU) of one build + export from a clean output: one figure, the two processes summed."""
    shutil.rmtree(deck / "out", ignore_errors=True)
    (deck / "deck.pdf").unlink(missing_ok=True)
    build = timed([str(command), "build", "--output", "out"], deck)
    export = timed([str(command), "export", "out", "--output", "deck.pdf"], deck)
    return build[0] + export[0], build[1] + export[1]


def ready(deck: Path, cards: int, timed: Timer) -> Callable[[], tuple[float, float]]:
    """One timed decksmith build + export of `cards` text cards in `deck`, to call once a run: installed, the
    deck written and one warm-up run made (.pyc in decksmith's venv, the OS file cache). The caller alternates
    it with fudaya's runs, so both see the same load."""
    command = install(peer_folder())
    write_deck(deck, cards)

    def once() -> tuple[float, float]:
        try:
            return run(command, deck, timed)
        except (OSError, subprocess.SubprocessError) as error:
            raise NotMeasured(f"decksmith {VERSION} failed: {why(error)}") from error

    once()
    return once


def verify(deck: Path, cards: int) -> None:
    """The last run wrote every card and placed every card in its PDF, else the figure compares nothing."""
    pngs, placed = len(list((deck / "out").glob("*.png"))), cards_in_pdf(deck / "deck.pdf")
    if pngs != cards or placed != cards:
        raise NotMeasured(f"decksmith wrote {pngs} PNGs and placed {placed} cards in its PDF, not {cards}")
