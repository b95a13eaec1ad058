"""Simulate a game as its game.json asks and write report.json and report.pdf beside its print files."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from validator.engine.registry import engine_for, engine_name, find_spec
from validator.model import Game
from validator.sim_plan import SimulationPlan, at_count, default_workers, run_plan
from validator.stats import table_size_digest
from validator.variants import VariantStudy, run_study

from .deck_pdf import WrittenFile
from .pdfdoc import atomic_path, register_fonts
from .report_pdf import write_report_pdf

A4_MM = (210.0, 297.0)


def simulate_for_report(game: Game, *, workers: int | None = None) -> dict[str, Any] | None:
    """The summary of the game's configured simulation; None when it has no engine or no plan."""
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return None
    engine = engine_for(game)
    summary = run_plan(engine, plan, workers=workers)
    if plan.other_counts:
        # The same study at every table size the deck asks about, main size included, smallest first.
        counts = sorted({plan.players, *plan.other_counts})
        summary["by_players"] = [table_size_digest(summary if count == plan.players else
                                                   run_plan(engine, at_count(plan, count), workers=workers))
                                 for count in counts]
    study = VariantStudy.from_game(game)
    if study is not None:
        summary["variants"] = run_study(game, study, plan, workers=workers or default_workers())
    spec = find_spec(engine_name(game))
    summary["names_ja"] = {"endings": dict(spec.endings), "events": dict(spec.events)}
    return summary


REPORT_JSON = "report.json"


def write_report(game: Game, summary: dict[str, Any], out_dir: Path) -> list[WrittenFile]:
    """report.json (the whole summary) and report.pdf (key numbers and charts); returns the PDF."""
    json_path, pdf_path = out_dir / REPORT_JSON, out_dir / "report.pdf"
    with atomic_path(json_path) as temporary:
        temporary.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    fonts = register_fonts(game.fonts)
    body = fonts.get("gothic", next(iter(fonts.values())))
    pages = write_report_pdf(pdf_path, summary, title=game.title, font=body, bold=fonts.get("gothic_bold", body))
    return [WrittenFile(pdf_path, f"{game.id}/report.pdf", pages, A4_MM)]
