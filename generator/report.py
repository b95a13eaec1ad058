"""Draw a game's simulation report (validator.study plans and plays it) as report.json and report.pdf."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from validator.model import Game
from validator.sim_result import SimulationReport
from validator.study import Refused, simulation_report

from .deck_pdf import WrittenFile
from .file_use import SCREEN
from .pdfdoc import atomic_path, register_fonts
from .report_pdf import write_report_pdf

A4_MM = (210.0, 297.0)
REPORT_JSON = "report.json"
# What drawing a report raises when a cached report, though of the report's types, holds figures no
# writer expected: it is simulated again (from_json refuses the wrong shapes before it comes to this).
UNDRAWABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError)


def report_files(game: Game, out_dir: Path, *, workers: int | None, cache: Path | None,
                 studies: bool = False, refused: Refused | None = None, cluster: str | None = None,
                 ) -> tuple[SimulationReport, list[WrittenFile]] | None:
    """Ask validator.study for the report (simulated, or read from the cache) and write it; None when
    the game asks for no simulation. `refused` hears why a cached report was not used."""
    report = simulation_report(game, workers=workers, cluster=cluster, cache=cache, studies=studies,
                               refused=refused)
    if report is None:
        return None
    return draw_report(game, report, out_dir, again=None if cache is None else lambda: simulation_report(
        game, workers=workers, cluster=cluster, cache=cache, studies=studies, fresh=True))


def draw_report(game: Game, report: SimulationReport, out_dir: Path, *,
                again: Callable[[], SimulationReport | None] | None) -> tuple[SimulationReport, list[WrittenFile]]:
    """Write the report; when it cannot be drawn and came from a cache, `again` simulates it afresh
    and that is drawn (without a cache the report was just simulated: a real bug, raised)."""
    try:
        return report, write_report(game, report, out_dir)
    except UNDRAWABLE:
        if again is None:
            raise
    fresh = again()
    assert fresh is not None  # it was a moment ago: the plan is the game's
    return fresh, write_report(game, fresh, out_dir)


def write_report(game: Game, report: SimulationReport, out_dir: Path) -> list[WrittenFile]:
    """report.json (the whole report) and report.pdf (key numbers and charts); returns the PDF."""
    json_path, pdf_path = out_dir / REPORT_JSON, out_dir / "report.pdf"
    with atomic_path(json_path) as temporary:
        temporary.write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    fonts = register_fonts(game.fonts)
    body = fonts.get("gothic", next(iter(fonts.values())))
    pages = write_report_pdf(pdf_path, report, title=game.title, font=body, bold=fonts.get("gothic_bold", body))
    return [WrittenFile(pdf_path, f"{game.id}/report.pdf", pages, A4_MM, SCREEN)]
