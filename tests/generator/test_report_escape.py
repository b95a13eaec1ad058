"""Data strings reach report.pdf as text, never as ReportLab markup (a shared deck is untrusted input)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from generator.pdfdoc import register_fonts
from generator.report_pdf import write_report_pdf
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate
from validator.stats import summarize

HOSTILE = 'R&D <Deluxe> <img src="/etc/hostname" width="50" height="50"/> A<B'


def test_a_title_with_markup_prints_as_written(tmp_path: Path) -> None:
    game = load_game(DEFAULT_DECKS_DIR, "gogyo")
    engine = engine_for(game)
    config = SimConfig(2, ("random", "random"), 4, seed=1)
    summary = summarize(simulate(engine, config), engine, config)
    fonts = register_fonts(game.fonts)
    pdf = tmp_path / "report.pdf"
    write_report_pdf(pdf, summary, title=HOSTILE, font=fonts["gothic"], bold=fonts["gothic_bold"])
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "R&D <Deluxe>" in text
    assert "A<B" in text
    images = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert len(images.strip().splitlines()) == 2  # the header lines only: no image was embedded
