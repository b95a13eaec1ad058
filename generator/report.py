"""Simulate a game as its game.json asks and write report.json and report.pdf beside its print files."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from validator.engine.registry import engine_for, engine_name, find_spec
from validator.ladder import LadderPlan, climb
from validator.model import Game
from validator.sim_plan import SimulationPlan, at_count, default_workers, play_plan, run_plan, summarize_plan
from validator.stats import table_size_digest
from validator.variants import VariantStudy, run_study

from .deck_pdf import WrittenFile
from .pdfdoc import atomic_path, register_fonts
from .report_pdf import write_report_pdf

A4_MM = (210.0, 297.0)
VALIDATOR_DIR = Path(__file__).resolve().parent.parent / "validator"
REPORT_CACHE = ".cache/reports"  # under the output folder, beside the games' folders


def report_key(game: Game) -> str:
    """What a report depends on, hashed: the game's data files (game.json, card lists, maps: every JSON
    file but the layouts and rulebooks, which the simulation never reads) and the simulator's code (all
    of validator/, engines included). A rebuild after a layout or rulebook edit reuses the report."""
    manifest = json.loads((game.directory / "game.json").read_text(encoding="utf-8"))
    drawn_only = {(game.directory / str(c[key])).resolve() for c in manifest.get("components", [])
                  for key in ("layout", "source") if isinstance(c.get(key), str)}
    digest = hashlib.sha256(b"fudaya report v1\0")
    files = [(game.directory, p) for p in game.directory.rglob("*.json") if p.resolve() not in drawn_only]
    files += [(VALIDATOR_DIR, p) for p in VALIDATOR_DIR.rglob("*.py") if "__pycache__" not in p.parts]
    for root, path in sorted(files, key=lambda item: (str(item[0]), item[1].relative_to(item[0]).as_posix())):
        relative = path.relative_to(root).as_posix()
        if not relative.startswith("."):
            digest.update(relative.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def simulate_for_report(game: Game, *, workers: int | None = None, cache: Path | None = None,
                        ) -> dict[str, Any] | None:
    """The summary of the game's configured simulation; None when it has no engine or no plan.

    With `cache` (a folder), a summary simulated before for the same report_key is read back instead
    of simulating again; results do not depend on `workers`, so the key leaves them out."""
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return None
    cached = cache / f"{game.id}-{report_key(game)}.json" if cache is not None else None
    try:
        if cached is not None and cached.is_file():
            stored: dict[str, Any] = json.loads(cached.read_text(encoding="utf-8"))
            return stored
    except (OSError, ValueError):
        pass  # an unreadable or damaged entry: simulate again
    summary = _simulate(game, plan, workers)
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            for old in cached.parent.glob(f"{game.id}-*.json"):  # one entry a game: the newest
                old.unlink(missing_ok=True)
            with atomic_path(cached) as temporary:
                temporary.write_text(json.dumps(summary, ensure_ascii=False) + "\n", encoding="utf-8")
        except OSError:
            pass  # the cache is a convenience: where it cannot be written, the next build simulates again
    return summary


def _simulate(game: Game, plan: SimulationPlan, workers: int | None) -> dict[str, Any]:
    engine = engine_for(game)
    records, config = play_plan(engine, plan, workers=workers)
    summary = summarize_plan(records, engine, plan, config)
    if plan.other_counts:
        # The same study at every table size the deck asks about, main size included, smallest first.
        counts = sorted({plan.players, *plan.other_counts})
        summary["by_players"] = [table_size_digest(summary if count == plan.players else
                                                   run_plan(engine, at_count(plan, count), workers=workers))
                                 for count in counts]
    study = VariantStudy.from_game(game)
    if study is not None:
        summary["variants"] = run_study(game, study, plan, workers=workers or default_workers(), shipped=records)
    ladder = LadderPlan.from_game(game)
    if ladder is not None:
        summary["ladder"] = climb(engine, plan, ladder, workers=workers)
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
