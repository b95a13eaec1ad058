"""Build one game: load and check its model, then write every print file and build.json to output/<game>/."""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.checks import check_game
from validator.issues import DeckError, Issue
from validator.jsonsource import load_json
from validator.limits import MAX_MANIFEST_BYTES, SIM_BUDGET_SECONDS
from validator.loader import load_game
from validator.model import Deck, Game
from validator.paths import DEFAULT_DECKS_DIR, DEFAULT_OUTPUT_DIR, DeckFolders
from validator.presets import DEFAULT_PAPER, PAPER_SIZES
from validator.shopfiles import deck_has_shop_file

from .card_face import FaceRenderer
from .deck_pdf import Placement, WrittenFile, count_sides, write_gang, write_printshop, write_sheets
from .derived import carry_over, refresh
from .file_use import HOME, SCREEN, USES
from .imposition import ImpositionError, SheetPlan, plan_sheet
from .output_set import output_set
from .pdfdoc import atomic_path, register_fonts
from .pdfx import DEFAULT_STANDARD, STANDARDS

if TYPE_CHECKING:
    from .preflight import Finding

MODES = ("sheets", "printshop", "both")


@dataclass(frozen=True)
class BuildOptions:
    paper: str = DEFAULT_PAPER
    marks: str = "tombo"
    mode: str = "both"
    proof: bool = False
    gutter: float | None = None
    decks_dir: Path = DEFAULT_DECKS_DIR
    shipped_dir: Path | None = None  # where a game decks_dir lacks is looked up (validator.paths.DeckFolders)
    output_dir: Path = DEFAULT_OUTPUT_DIR
    report: bool = True  # also simulate the game (game.json "simulation") and write report.json/.pdf
    only: tuple[str, ...] = ()  # component ids to write (and "report"); empty: everything
    workers: int | None = None  # simulation worker processes; results do not depend on it
    cluster: str | None = None  # or a Dask scheduler's address, whose workers simulate (validator/cluster.py)
    booklet: bool = True  # also each rulebook imposed 2-up in saddle-stitch order (<id>-booklet.pdf), for home
    pdfx: str = DEFAULT_STANDARD  # the PDF/X standard print files declare (generator.pdfx.STANDARDS)
    report_cache: bool = True  # reuse a report simulated before for the same data and code (report.report_key)
    studies: bool = False  # also play the studies game.json asks for (ladder, strong play): slow, cached
    sim_budget: float = SIM_BUDGET_SECONDS  # seconds the simulation may cost, estimated (validator/sim_cost.py)

    def decks_for(self, game_id: str) -> Path:
        """The folder holding the game: decks_dir, or the shipped games when decks_dir lacks it."""
        return DeckFolders(self.decks_dir, self.shipped_dir).folder_for(game_id)


@dataclass
class BuildResult:
    game: str
    files: list[WrittenFile] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    data_files: list[str] = field(default_factory=list)  # non-PDF outputs, e.g. the simulation report
    maps: list[dict[str, Any]] = field(default_factory=list)  # build.json's tiled-map records
    findings: list[tuple[Path, list[Finding]]] = field(default_factory=list)  # preflight of the print files
    notes: list[str] = field(default_factory=list)  # one line each, for the designer (a cached report not used)


class BuildError(Exception):
    """The game cannot be built; `issues` says why, one located line each."""

    def __init__(self, issues: list[Issue]):
        super().__init__(issues[0].message)
        self.issues = issues


def load_checked(game_id: str, decks_dir: Path, *, sim_budget: float = SIM_BUDGET_SECONDS,
                 paper: str = DEFAULT_PAPER) -> Game:
    """Load a game and refuse it unless every check passes, its cards fitting `paper`: nothing is drawn
    from bad data."""
    try:
        game = load_game(decks_dir, game_id)
    except DeckError as exc:
        raise BuildError(exc.issues) from None
    result = check_game(game, sim_budget=sim_budget, paper=paper)
    if not result.ok:
        raise BuildError(result.errors)
    return game


def _plans(game: Game, options: BuildOptions) -> dict[str, SheetPlan]:
    plans = {}
    for deck in game.decks:
        try:
            plans[deck.id] = plan_sheet(PAPER_SIZES[options.paper], deck.layout.size,
                                       gutter=options.gutter if options.gutter is not None else deck.layout.gutter,
                                       ).fitted_to(len(deck.copies()))
        except ImpositionError as exc:
            raise BuildError([Issue(deck.layout.location.child("card"), "imposition", str(exc))]) from None
    return plans


def _wanted(options: BuildOptions, component: str) -> bool:
    return not options.only or component in options.only


def _gangs(game: Game, options: BuildOptions) -> dict[str, list[Deck]]:
    """Gang name -> its member decks in game.json order, for the gangs this build writes: whole, when any
    member is wanted; in --mode printshop only when a member has no print-shop file of its own."""
    gangs: dict[str, list[Deck]] = {}
    for deck in game.decks:
        if deck.gang is not None:
            gangs.setdefault(deck.gang, []).append(deck)
    return {gang: members for gang, members in gangs.items() if any(_wanted(options, d.id) for d in members)
            and (options.mode != "printshop" or not all(deck_has_shop_file(d) for d in members))}


def total_steps(game: Game, options: BuildOptions) -> int:
    shop, home = options.mode != "sheets", options.mode != "printshop"
    cards = 0
    for deck in game.decks:
        if not _wanted(options, deck.id):
            continue
        if deck.gang is None:  # n-up sheets of cards (home modes), of single-sided sheets (always) and fillable
            cards += count_sides(deck) * (home if deck.has_backs else 1 + deck.fillable)
        if shop and deck_has_shop_file(deck):
            cards += count_sides(deck)
    cards += sum(count_sides(deck) for members in _gangs(game, options).values() for deck in members)
    maps = sum((1 + (m.tiles is not None)) * (1 + shop) for m in game.maps if _wanted(options, m.id))
    return cards + sum(_wanted(options, book.id) for book in game.rulebooks) + maps


def _check_only(game: Game, options: BuildOptions) -> None:
    known = {deck.id for deck in game.decks} | {book.id for book in game.rulebooks} | {"report"}
    known |= {game_map.id for game_map in game.maps}
    unknown = sorted(set(options.only) - known)
    if unknown:
        raise BuildError([Issue(game.location.child("components"), "unknown-component",
                                f"--only names {', '.join(map(repr, unknown))}, not a component of "
                                f"{game.id} (components: {', '.join(sorted(known))})")])


def _refuse_false_claims(game: Game, findings: list[tuple[Path, list[Finding]]]) -> None:
    """A file may not claim PDF/X-1a and hold transparency (soft-masked art, opacity): the build fails,
    naming where, and the previous output set stays. (Preflight reports transparency only in a file
    claiming X-1a; X-4 allows it.)"""
    problems = []
    for path, found in findings:
        blending = [f for f in found if f.what.startswith("transparency")]
        if blending:
            pages = ", ".join(str(f.page) for f in blending[:5]) + (" …" if len(blending) > 5 else "")
            problems.append(Issue(game.location, "pdfx-transparency",
                                  f"{game.id}/{path.name}: page {pages} holds transparency (art with an alpha "
                                  "channel or an opacity), which PDF/X-1a does not allow; build --pdfx x-4 or "
                                  "give the art none"))
    if problems:
        raise BuildError(problems)


def build_game(game: Game, options: BuildOptions, progress: Callable[[int], None] = lambda n: None, *,
               preflight_workers: int | None = None) -> BuildResult:
    """Write the game's files; output/<game>/ is replaced as a whole once all of them are complete.

    A partial build (--only, --no-report, --proof, one --mode) keeps the files it does not rewrite,
    and build.json keeps their entries. Exports and the proof gallery made from an earlier set are made
    again from the new one, in the same place (generator/derived.py). With `preflight_workers` the print
    files are preflighted (that many at once) and the findings returned; an X-1a build preflights them in
    any case, once, to refuse transparency before the new set replaces the old.
    """
    from .preflight import check_print_files

    _check_only(game, options)
    plans = _plans(game, options)
    some_files = bool(options.only) or not options.report or options.proof or options.mode != "both"
    final = options.output_dir / game.id
    with output_set(options.output_dir, game.id, keep_previous=some_files) as staging:
        result = _write_files(game, options, plans, staging, progress, processes=preflight_workers or 1)
        carry_over(final, staging)
        x1a = not STANDARDS[options.pdfx].transparency
        if preflight_workers is not None or x1a:
            result.findings = check_print_files(result.files, workers=preflight_workers or 1)
        if x1a:
            _refuse_false_claims(game, result.findings)
        _write_manifest(staging / "build.json", game, options, result, merge=some_files)
    result.notes += refresh(game, options.output_dir, lambda: check_game(game).issues)
    result.files = [replace(f, path=final / f.path.relative_to(staging)) for f in result.files]
    result.findings = [(final / path.relative_to(staging), found) for path, found in result.findings
                       if preflight_workers is not None]
    return result


def _write_files(game: Game, options: BuildOptions, plans: dict[str, SheetPlan], out_dir: Path,
                 progress: Callable[[int], None], processes: int = 1) -> BuildResult:
    font_names = register_fonts(game.fonts)
    fonts = {key: (font_names[key], ref.path) for key, ref in game.fonts.items()}
    initial_font = font_names.get("gothic", next(iter(font_names.values())))
    suffix = "-proof" if options.proof else ""
    result = BuildResult(game.id)
    renderers = {deck.id: FaceRenderer(deck.layout, game.directory, fonts, initial_font, proof=options.proof)
                 for deck in game.decks}  # all of them: rulebook figures draw any deck's cards
    jobs: list[_FileJob] = []  # the card files: each drawn on its own, so they may be drawn side by side
    for deck in game.decks:
        if not _wanted(options, deck.id):
            continue
        renderer = renderers[deck.id]
        title = f"{game.title} — {deck.title}"
        sides = count_sides(deck)
        if deck.gang is not None:  # its pieces go on the gang's shared sheets (below)
            pass
        elif not deck.has_backs:  # single-sided sheets: always n-up, plus the on-screen fillable variant
            for fillable in (False, True) if deck.fillable else (False,):
                name = f"{deck.id}{'-fillable' if fillable else ''}{suffix}.pdf"
                # the fillable variant is typed into on screen: one sheet a page, no cut marks
                plan = replace(plans[deck.id], columns=1, rows=1) if fillable else plans[deck.id]
                jobs.append(_FileJob(sides, partial(
                    _sheets_file, out_dir / name, f"{game.id}/{name}", deck, replace(renderer, fillable=fillable),
                    plan, marks="none" if fillable else options.marks, title=title, initial_font=initial_font,
                    pdfx=None if fillable else options.pdfx, use=SCREEN if fillable else HOME,
                    fillable=fillable)))
        elif options.mode in ("sheets", "both"):
            name = f"{deck.id}{suffix}.pdf"
            jobs.append(_FileJob(sides, partial(
                _sheets_file, out_dir / name, f"{game.id}/{name}", deck, renderer, plans[deck.id],
                marks=options.marks, title=title, initial_font=initial_font, pdfx=options.pdfx, use=HOME)))
        if deck_has_shop_file(deck) and options.mode in ("printshop", "both"):
            name = f"{deck.id}-printshop{suffix}.pdf"
            jobs.append(_FileJob(sides, partial(write_printshop, out_dir / name, f"{game.id}/{name}", deck, renderer,
                                                title=title, initial_font=initial_font, pdfx=options.pdfx)))
    for gang, members in _gangs(game, options).items():
        name = f"{gang}{suffix}.pdf"
        jobs.append(_FileJob(sum(count_sides(deck) for deck in members), partial(
            write_gang, out_dir / name, f"{game.id}/{name}", members, renderers, PAPER_SIZES[options.paper],
            title=f"{game.title} — {gang}", initial_font=initial_font, pdfx=options.pdfx)))
    for written, placements in _drawn(jobs, progress, processes):
        result.files.append(written)
        result.placements.extend(placements)
    for book in game.rulebooks:  # every mode (its print-shop file is made from it); the booklet for home
        if not _wanted(options, book.id):
            continue
        name = f"{book.id}{suffix}.pdf"
        from .rulebook import write_rulebook  # platypus is only loaded when a rulebook is written

        result.files.append(write_rulebook(out_dir / name, f"{game.id}/{name}", game, book, fonts=font_names,
                                           renderers=renderers, pdfx=options.pdfx))
        if options.mode in ("printshop", "both"):
            from .shop_pages import write_with_bleed

            shop = f"{book.id}-printshop{suffix}.pdf"
            result.files.append(write_with_bleed(out_dir / name, out_dir / shop, f"{game.id}/{shop}"))
        if options.booklet and options.mode in ("sheets", "both"):
            from .booklet import write_booklet

            imposed = f"{book.id}-booklet{suffix}.pdf"
            result.files.append(write_booklet(out_dir / name, out_dir / imposed, f"{game.id}/{imposed}"))
        progress(1)
    for game_map in game.maps:  # every mode: one large sheet and the same map tiled on small paper; their shop files
        if not _wanted(options, game_map.id):
            continue
        from .map_pdf import write_map_files

        files, records = write_map_files(out_dir, game, game_map, font_names, suffix=suffix,
                                         initial_font=initial_font, progress=progress, pdfx=options.pdfx,
                                         shop=options.mode in ("printshop", "both"))
        result.files.extend(files)
        result.maps.extend(records)
    if options.report and not options.proof and _wanted(options, "report"):
        from validator.study import report_cache

        from .report import REPORT_JSON, report_files

        cache = report_cache(options.output_dir) if options.report_cache else None
        reported = report_files(game, out_dir, workers=options.workers, cluster=options.cluster, cache=cache,
                                studies=options.studies,
                                refused=lambda why: result.notes.append(f"note: {game.id}: {why}"))
        if reported is not None:
            result.files.extend(reported[1])
            result.data_files.append(f"{game.id}/{REPORT_JSON}")
    return result


Drawn = tuple[WrittenFile, list[Placement]]


@dataclass(frozen=True)
class _FileJob:
    """One card file to draw: `write(progress=...)` draws it; `sides`, the card sides it holds, weighs it."""

    sides: int
    write: Callable[..., Drawn]


def _sheets_file(path: Path, name: str, deck: Deck, renderer: FaceRenderer, plan: SheetPlan, *, fillable: bool = False,
                 **options: Any) -> Drawn:
    drawn = write_sheets(path, name, deck, renderer, plan, **options)
    if fillable:
        from .fillable import finish_fillable

        finish_fillable(drawn[0].path, deck)
    return drawn


def _drawn(jobs: list[_FileJob], progress: Callable[[int], None], processes: int) -> list[Drawn]:
    """Every job's file, in the jobs' order, drawn in up to `processes` processes (generator/forked.py) once
    there are enough sides to pay for a fork: gogyo's two card files, 0.13 s in one process, 0.09 s in two.
    A file drawn in a child advances the progress here when it is done (a child cannot draw the bar)."""
    from .forked import forked_map

    here = os.getpid()

    def draw(job: _FileJob) -> tuple[Drawn, int]:
        """The file, and the progress its drawing made in a child (0 here, where it advanced as it went)."""
        steps = 0

        def step(count: int) -> None:
            nonlocal steps
            if os.getpid() == here:
                progress(count)
            else:
                steps += count
        return job.write(progress=step), steps

    drawn = forked_map(draw, jobs, lambda job: job.sides, processes, worth=FORK_SIDES)
    in_children = sum(steps for _, steps in drawn)
    if in_children:
        progress(in_children)
    return [file for file, _ in drawn]


# From this many card sides a build draws its card files in several processes (a fork costs milliseconds).
FORK_SIDES = 40


def _write_manifest(path: Path, game: Game, options: BuildOptions, result: BuildResult, *, merge: bool) -> None:
    manifest: dict[str, Any] = {
        "game": game.id,
        "title": game.title,
        "units": "mm",
        "origin": "bottom-left of the page; x, y give the trim box's bottom-left corner",
        "options": {"paper": options.paper, "marks": options.marks, "mode": options.mode,
                    "proof": options.proof, "gutter": options.gutter},
        "uses": USES,
        "files": [{"file": f.name, "pages": f.pages,
                   "page_size": [round(f.page_size[0], 3), round(f.page_size[1], 3)], "use": f.use}
                  for f in result.files],
        "data_files": result.data_files,
        "placements": [p.as_json() for p in result.placements],
    }
    if result.maps:
        manifest["maps"] = result.maps
    if merge:
        manifest = _merged(_previous_manifest(path), manifest)
    with atomic_path(path) as temporary:
        temporary.write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _previous_manifest(path: Path) -> dict[str, Any]:
    """The build.json a partial build merges with: read with the deck files' limits (the output folder may
    hold anything a previous run or a copy left); unreadable or not an object, it is ignored."""
    if not path.is_file():
        return {}
    try:
        previous = load_json(path, limit=MAX_MANIFEST_BYTES, what="a build manifest", located=False).data
    except DeckError:
        return {}
    return previous if isinstance(previous, dict) else {}


def _listed(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    return value if isinstance(value, list) else []


def _merged(previous: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """`current` plus the entries of `previous` for files this build did not rewrite.

    Each list entry names its file ("file"); data_files are names. "options" are this build's.
    """
    rebuilt = {entry["file"] for entry in current["files"]} | set(current["data_files"])
    merged = dict(current)
    for key in ("files", "placements", "maps"):
        kept = [entry for entry in _listed(previous, key)
                if isinstance(entry, dict) and entry.get("file") not in rebuilt]
        if kept or key in current:
            merged[key] = kept + current.get(key, [])
    merged["data_files"] = [name for name in _listed(previous, "data_files")
                            if isinstance(name, str) and name not in rebuilt] + current["data_files"]
    return merged
