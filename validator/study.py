"""Plan and play every simulation a game's report holds (main run, table sizes, variants, ladder), cached by key.

game.json "simulation" asks for a main run (SimulationPlan), maybe further table sizes, a variant study
and the studies that take minutes to hours (the strength ladder, the variant study played again by
stronger policies). simulation_report plays what is asked, or reads it back from the report cache,
and returns one frozen SimulationReport; the generator only draws it, and `fudaya check` asks here too.

The cache key hashes what a report depends on: the deck files a simulation reads (simulated_files)
and the simulator's code, read from the installed validator package itself (importlib.resources),
other games' packages left out. A cache entry is data, not trust: it is used only when it passes the
cache schema and SimulationReport.from_json; otherwise it is refused with a one-line reason and the
game is simulated again.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeVar

from . import schema
from .deckfs import ConfinedError, real_folder, write_bytes
from .engine.registry import engine_for, engine_name, find_spec
from .issues import DeckError, json_path, one_line
from .jsonread import Fields, JsonObject, ReportFormatError
from .jsonsource import load_json
from .ladder import LadderPlan, climb
from .model import Game
from .sim_plan import SimulationPlan, at_count, default_workers, play_plan, run_plan, summarize_plan
from .sim_result import NamesJa, SimulationReport, Studies
from .simulated_files import simulated_files
from .stats import table_size_digest
from .variants import VariantStudy, replay_strong, run_study

REPORT_CACHE = ".cache/reports"  # under the output folder, beside the games' folders
STUDIES = "studies"  # the studies' entries, in a folder of the report cache
CACHE_SCHEMA = "report-cache.schema.json"
CACHE_FORMAT = 1
CODE: Traversable = files("validator")  # the simulator's code, as imported

T = TypeVar("T")
Refused = Callable[[str], None]  # told why a cache entry found was not used


def report_key(game: Game) -> str:
    """What a report depends on, hashed: the game's data files (game.json, card lists, maps: every JSON
    file but the layouts and rulebooks, which the simulation never reads) and the simulator's code (all
    of validator/ but the other games' packages). A rebuild after a layout or rulebook edit reuses the report."""
    digest = hashlib.sha256(b"fudaya report v1\0")
    entries = [(f"deck/{name}", data) for name, data in simulated_files(game)]
    entries += [(f"code/{name}", data) for name, data in code_files(CODE, engine_name(game))]
    for name, data in sorted(entries):
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:32]


def code_files(root: Traversable, engine: str, parts: tuple[str, ...] = ()) -> list[tuple[str, bytes]]:
    """(path under the package, bytes) of every Python file of the package but other games' packages
    (games never import each other, so another engine's code cannot change this game's simulation)."""
    found = []
    for entry in root.iterdir():
        here = (*parts, entry.name)
        if entry.is_dir():
            if entry.name != "__pycache__" and not _other_engine(here, engine):
                found += code_files(entry, engine, here)
        elif entry.name.endswith(".py") and not _other_engine(here, engine):
            found.append(("/".join(here), entry.read_bytes()))
    return found


def _other_engine(parts: tuple[str, ...], engine: str) -> bool:
    return len(parts) >= 2 and parts[0] == "games" and parts[1] != engine and not parts[1].endswith(".py")


def report_cache(output: Path) -> Path | None:
    """The report cache folder under the output folder (made if missing), or None when a part of it is a link
    or a file: then nothing is cached and the game is simulated (a shared output/ whose .cache pointed
    elsewhere had reports written, and other `<game>-*.json` files deleted, there)."""
    try:
        output.mkdir(parents=True, exist_ok=True)  # the folder the user named: made as the build would
        return real_folder(output, REPORT_CACHE)
    except (OSError, ConfinedError):
        return None


def simulation_report(game: Game, *, workers: int | None = None, cluster: str | None = None,
                      cache: Path | None = None, studies: bool = False, fresh: bool = False,
                      refused: Refused | None = None) -> SimulationReport | None:
    """The report of the game's configured simulation; None when it asks for none.

    With `cache` (a folder), a report simulated before for the same report_key is read back instead
    of simulating again; results do not depend on `workers` (or a `cluster` playing instead, the address
    of a Dask scheduler), so the key leaves them out. The studies
    (the strength ladder, a variant study played again by stronger policies) take minutes to hours,
    so they are played only when `studies` is asked; once played they are kept in the cache like the
    report and shown by every later report for the same data and code. `fresh` ignores (and replaces)
    what the cache holds. `refused` is told, in one line, why an entry found in the cache was not used."""
    plan = SimulationPlan.from_game(game)
    if plan is None:
        return None
    key = report_key(game)
    cached = cache / f"{game.id}-{key}.json" if cache is not None else None
    report = None if fresh else read_entry(cached, "summary", SimulationReport.from_json, refused)
    if report is None:
        report = simulate_main(game, plan, workers, cluster)
        keep_entry(cached, report.to_json(), "summary")
    wanted = studies_wanted(game)
    if not wanted:
        return report
    studies_folder = _inner_folder(cache, STUDIES)
    kept = studies_folder / f"{game.id}-{key}.json" if studies_folder is not None else None
    found = None if fresh else read_entry(kept, "studies", Studies.from_json, refused)
    if found is None and studies:
        found = play_studies(game, plan, report, workers, cluster)
        keep_entry(kept, found.to_json(), "studies")
    if found is None:
        return replace(report, studies_not_run=wanted)
    return report.with_studies(found)


def simulate_main(game: Game, plan: SimulationPlan, workers: int | None, cluster: str | None = None,
                  ) -> SimulationReport:
    """The main run, the same study at every other table size asked, the variant study, the names."""
    engine = engine_for(game)
    records, config = play_plan(engine, plan, workers=workers, cluster=cluster)
    report = summarize_plan(records, engine, plan, config)
    by_players = None
    if plan.other_counts:
        # The same study at every table size the deck asks about, main size included, smallest first.
        counts = sorted({plan.players, *plan.other_counts})
        by_players = tuple(table_size_digest(report if count == plan.players else
                                             run_plan(engine, at_count(plan, count), workers=workers,
                                                      cluster=cluster))
                           for count in counts)
    study = VariantStudy.from_game(game)
    variants = None if study is None else run_study(game, study, plan, workers=workers or default_workers(),
                                                    cluster=cluster, shipped=records)
    spec = find_spec(engine_name(game))
    return replace(report, by_players=by_players, variants=variants,
                   names_ja=NamesJa(dict(spec.endings), dict(spec.events)))


def studies_wanted(game: Game) -> tuple[str, ...]:
    """The studies game.json asks for: "ladder", "strong_play"."""
    study = VariantStudy.from_game(game)
    return tuple(name for name, asked in (("ladder", LadderPlan.from_game(game) is not None),
                                          ("strong_play", study is not None and bool(study.strong_policies)))
                 if asked)


def play_studies(game: Game, plan: SimulationPlan, report: SimulationReport, workers: int | None,
                 cluster: str | None = None) -> Studies:
    """The studies game.json asks for, played: minutes to hours."""
    ladder = LadderPlan.from_game(game)
    climbed = None if ladder is None else climb(engine_for(game), plan, ladder, workers=workers, cluster=cluster)
    study = VariantStudy.from_game(game)
    strong = None
    if study is not None and study.strong_policies:
        if report.variants is None:
            raise ValueError(f"{game.id}: the variant study's strong play needs the study's own results")
        strong = replay_strong(game, study, plan, report.variants, workers=workers or default_workers(),
                               cluster=cluster)
    return Studies(climbed, strong)


def _inner_folder(cache: Path | None, name: str) -> Path | None:
    if cache is None:
        return None
    try:
        return real_folder(cache, name)
    except ConfinedError:
        return None  # a link or a file there: nothing read or kept


def read_entry(path: Path | None, kind: str, parse: Callable[[Fields], T], refused: Refused | None = None,
               ) -> T | None:
    """The cached entry at `path` when it is one: read like deck data (bounded, confined to the cache
    folder, no link followed), of the cache schema, for this game, key and kind, and its data of the
    report's shape. Anything else (a damaged, forged, oversized, foreign or stale entry) is refused:
    None, `refused` told why in one line, and the caller simulates again."""
    if path is None or not path.is_file():
        return None
    try:
        return parse(_envelope(path, kind).obj("data"))
    except ReportFormatError as exc:
        reason = str(exc)
    if refused is not None:
        refused(one_line(f"{path.name}: not used ({reason}); simulating again"))
    return None


def _envelope(path: Path, kind: str) -> Fields:
    """The cache entry at `path` when it is one for its name's game and key, of this kind; else
    ReportFormatError saying why not."""
    game_id, _, key = path.stem.rpartition("-")
    try:
        entry = load_json(path, root=path.parent)
    except DeckError as exc:
        raise ReportFormatError(exc.issues[0].message) from None
    problems = schema.validate(entry, CACHE_SCHEMA)
    if problems:
        raise ReportFormatError(f"{json_path(problems[0].location.pointer)}: {problems[0].message}")
    data: object = entry.data
    envelope = Fields(data)
    found = (envelope.text("game"), envelope.text("key"), envelope.text("kind"))
    if found != (game_id, key, kind):
        raise ReportFormatError(f"it is the {found[2]} entry of {found[0]}, key {found[1]}")
    return envelope


def keep_entry(path: Path | None, data: JsonObject, kind: str) -> None:
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
        write_bytes(path.parent, path.name, (json.dumps(entry, ensure_ascii=False) + "\n").encode())
    except (OSError, ConfinedError):
        pass  # the cache is a convenience: where it cannot be written, the next build simulates again
