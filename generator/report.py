"""Simulate a game as its game.json asks and write report.json and report.pdf beside its print files."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from validator import schema
from validator.engine.registry import engine_for, engine_name, find_spec
from validator.issues import DeckError
from validator.jsonsource import load_json
from validator.ladder import LadderPlan, climb
from validator.model import Game
from validator.sim_plan import SimulationPlan, at_count, default_workers, play_plan, run_plan, summarize_plan
from validator.simulated_files import simulated_files
from validator.stats import table_size_digest
from validator.variants import VariantStudy, replay_strong, run_study

from .deck_pdf import WrittenFile
from .pdfdoc import atomic_path, register_fonts
from .report_pdf import write_report_pdf

A4_MM = (210.0, 297.0)
VALIDATOR_DIR = Path(__file__).resolve().parent.parent / "validator"
REPORT_CACHE = ".cache/reports"  # under the output folder, beside the games' folders
STUDIES = "studies"  # the studies' entries, in a folder of the report cache
CACHE_SCHEMA = "report-cache.schema.json"
CACHE_FORMAT = 1


def report_key(game: Game) -> str:
    """What a report depends on, hashed: the game's data files (game.json, card lists, maps: every JSON
    file but the layouts and rulebooks, which the simulation never reads) and the simulator's code (all
    of validator/ but the other games' packages). A rebuild after a layout or rulebook edit reuses the report."""
    digest = hashlib.sha256(b"fudaya report v1\0")
    entries = [(f"deck/{name}", data) for name, data in simulated_files(game)]
    entries += [(f"code/{p.relative_to(VALIDATOR_DIR).as_posix()}", p.read_bytes())
                for p in VALIDATOR_DIR.rglob("*.py") if "__pycache__" not in p.parts
                and not _other_engine(p.relative_to(VALIDATOR_DIR).parts, engine_name(game))]
    for name, data in sorted(entries):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:32]


def _other_engine(parts: tuple[str, ...], engine: str) -> bool:
    """Whether a file of validator/ belongs to another game's package (games never import each other,
    so another engine's code cannot change this game's simulation)."""
    return len(parts) > 2 and parts[0] == "games" and parts[1] != engine


def simulate_for_report(game: Game, *, workers: int | None = None, cache: Path | None = None,
                        studies: bool = False, fresh: bool = False) -> dict[str, Any] | None:
    """The summary of the game's configured simulation; None when it has no engine or no plan.

    With `cache` (a folder), a summary simulated before for the same report_key is read back instead
    of simulating again; results do not depend on `workers`, so the key leaves them out. The studies
    (the strength ladder, a variant study played again by stronger policies) take minutes to hours,
    so they are played only when `studies` is asked; once played they are kept in the cache like the
    summary and shown by every later report for the same data and code. `fresh` ignores (and replaces)
    what the cache holds: a report that could not be drawn from a cached summary is simulated again."""
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return None
    key = report_key(game)
    cached = cache / f"{game.id}-{key}.json" if cache is not None else None
    summary = None if fresh else _read(cached, "summary")
    if summary is None:
        summary = _simulate(game, plan, workers)
        _keep(cached, summary, "summary")
    wanted = _studies_wanted(game)
    if not wanted:
        return summary
    kept = cache / STUDIES / f"{game.id}-{key}.json" if cache is not None else None
    found = None if fresh else _read(kept, "studies")
    if found is None and studies:
        found = _play_studies(game, plan, summary, workers)
        _keep(kept, found, "studies")
    return _with_studies(summary, found, wanted)


def _read(path: Path | None, kind: str) -> dict[str, Any] | None:
    """The cached entry at `path` when it is one: read like deck data (bounded, confined to the cache
    folder, no link followed), of the cache schema, for this game, key and kind. Anything else (a
    damaged, forged, oversized or foreign entry) is ignored, and the caller simulates again."""
    if path is None or not path.is_file():
        return None
    game_id, _, key = path.stem.rpartition("-")
    try:
        entry = load_json(path, root=path.parent)
    except DeckError:
        return None
    if schema.validate(entry, CACHE_SCHEMA):
        return None
    if (entry.data["game"], entry.data["key"], entry.data["kind"]) != (game_id, key, kind):
        return None
    found: dict[str, Any] = entry.data["data"]
    return found


def _keep(path: Path | None, data: dict[str, Any], kind: str) -> None:
    """Store `data` as the game's one cache entry in `path`'s folder (the newest replaces the rest)."""
    if path is None:
        return
    game_id, _, key = path.stem.rpartition("-")
    entry = {"$schema": f"../../../schema/{CACHE_SCHEMA}", "format": CACHE_FORMAT, "game": game_id, "key": key,
             "kind": kind, "data": data}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(f"{game_id}-*.json"):
            if old.name.rsplit("-", 1)[0] == game_id:  # not game "a-b"'s entries when this is game "a"
                old.unlink(missing_ok=True)
        with atomic_path(path) as temporary:
            temporary.write_text(json.dumps(entry, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError:
        pass  # the cache is a convenience: where it cannot be written, the next build simulates again


def _studies_wanted(game: Game) -> tuple[str, ...]:
    """The studies game.json asks for: "ladder", "strong_play"."""
    study = VariantStudy.from_game(game)
    return tuple(name for name, asked in (("ladder", LadderPlan.from_game(game) is not None),
                                          ("strong_play", study is not None and bool(study.strong_policies)))
                 if asked)


def _play_studies(game: Game, plan: SimulationPlan, summary: dict[str, Any], workers: int | None,
                  ) -> dict[str, Any]:
    found: dict[str, Any] = {}
    ladder = LadderPlan.from_game(game)
    if ladder is not None:
        found["ladder"] = climb(engine_for(game), plan, ladder, workers=workers)
    study = VariantStudy.from_game(game)
    if study is not None and study.strong_policies:
        found["strong_play"] = replay_strong(game, study, plan, summary["variants"],
                                             workers=workers or default_workers())
    return found


def _with_studies(summary: dict[str, Any], found: dict[str, Any] | None, wanted: tuple[str, ...],
                  ) -> dict[str, Any]:
    """The summary with the studies played, or a note of those asked for but not played in this build."""
    if found is None:
        return {**summary, "studies_not_run": list(wanted)}
    merged = dict(summary)
    if "ladder" in found:
        merged["ladder"] = found["ladder"]
    if "strong_play" in found:
        merged["variants"] = {**summary["variants"], "strong_play": found["strong_play"]}
    return merged


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
    spec = find_spec(engine_name(game))
    summary["names_ja"] = {"endings": dict(spec.endings), "events": dict(spec.events)}
    return summary


REPORT_JSON = "report.json"
# What drawing a report from a summary of the wrong shape raises: a cached summary that passed the cache
# schema but still cannot be drawn is simulated again (the schema pins the shape the writers read most).
UNDRAWABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError, ZeroDivisionError)


def report_files(game: Game, out_dir: Path, *, workers: int | None, cache: Path | None,
                 studies: bool = False) -> tuple[dict[str, Any], list[WrittenFile]] | None:
    """Simulate (or read the cache) and write the report; None when the game asks for no simulation."""
    summary = simulate_for_report(game, workers=workers, cache=cache, studies=studies)
    if summary is None:
        return None
    try:
        return summary, write_report(game, summary, out_dir)
    except UNDRAWABLE:
        if cache is None:
            raise
    summary = simulate_for_report(game, workers=workers, cache=cache, studies=studies, fresh=True)
    assert summary is not None  # it was a moment ago: the plan is the game's
    return summary, write_report(game, summary, out_dir)


def write_report(game: Game, summary: dict[str, Any], out_dir: Path) -> list[WrittenFile]:
    """report.json (the whole summary) and report.pdf (key numbers and charts); returns the PDF."""
    json_path, pdf_path = out_dir / REPORT_JSON, out_dir / "report.pdf"
    with atomic_path(json_path) as temporary:
        temporary.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    fonts = register_fonts(game.fonts)
    body = fonts.get("gothic", next(iter(fonts.values())))
    pages = write_report_pdf(pdf_path, summary, title=game.title, font=body, bold=fonts.get("gothic_bold", body))
    return [WrittenFile(pdf_path, f"{game.id}/report.pdf", pages, A4_MM)]
