"""Reports are cached by what they depend on (validator.study): a rebuild after a layout or rulebook edit
reads the report back instead of simulating again; new card data or rules simulate again; an entry that is
not a report of today's shape is refused with a one-line reason and simulated again."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import validator.study as study
from reports import report_of
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_result import Ladder, SimulationReport, Studies


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """A copy of gogyo without its ladder (the tests here add the studies they need)."""
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", tmp_path / "decks" / "gogyo")
    manifest_path = tmp_path / "decks" / "gogyo" / "game.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["simulation"].pop("ladder", None)
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    return tmp_path / "decks"


_summary = report_of  # a real report, renamed to say how many matches it holds


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """study.simulate_main replaced by a count of its calls, each giving a report of as many matches."""
    played: list[int] = []

    def simulate(game: Any, plan: Any, workers: Any, cluster: Any) -> SimulationReport:
        played.append(1)
        return _summary(len(played), game.id)

    monkeypatch.setattr(study, "simulate_main", simulate)
    return played


def _key(decks: Path) -> str:
    return study.report_key(load_game(decks, "gogyo"))


def _touch(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_key_ignores_layout_and_rulebook_edits_but_not_data(decks: Path) -> None:
    game = decks / "gogyo"
    first = _key(decks)
    _touch(game / "layout.json", '"size": 22', '"size": 21')
    _touch(game / "rulebook.json", "ゲームの概要", "ゲームのあらまし")
    assert _key(decks) == first  # drawn only: the simulation never reads them
    _touch(game / "game.json", '"declare_threshold": 30', '"declare_threshold": 31')
    second = _key(decks)
    assert second != first
    _touch(game / "cards.json", '"reading": "か"', '"reading": "かあ"')  # card data: the engine reads cards
    assert _key(decks) != second


def test_a_cached_report_is_read_back_instead_of_simulated(decks: Path, tmp_path: Path, runs: list[int]) -> None:
    cache = tmp_path / "output" / study.REPORT_CACHE
    first = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    _touch(decks / "gogyo" / "layout.json", '"size": 22', '"size": 21')
    again = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    assert again == first and len(runs) == 1
    _touch(decks / "gogyo" / "game.json", '"declare_threshold": 30', '"declare_threshold": 31')
    changed = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    assert changed == _summary(2) and len(list(cache.glob("gogyo-*.json"))) == 1
    assert study.simulation_report(load_game(decks, "gogyo"), cache=None) == _summary(3)


def test_studies_are_played_only_when_asked_and_kept_like_reports(decks: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder takes minutes to hours: a plain build says it was not played; `--studies` plays it,
    and later plain builds show what it found while the data and code stay the same."""
    played: list[int] = []

    def studies(game: Any, plan: Any, summary: Any, workers: Any, cluster: Any) -> Studies:
        played.append(1)
        return Studies(ladder=Ladder(2, len(played), ("random", "greedy"), 10, (0, 0), False, (), (), True, "-",
                                     "-", None))

    monkeypatch.setattr(study, "simulate_main", lambda game, plan, workers, cluster: _summary(1, game.id))
    monkeypatch.setattr(study, "play_studies", studies)
    _touch(decks / "gogyo" / "game.json", '"seed": 1', '"seed": 1, "ladder": {"rungs": ["random", "greedy"], '
           '"matches": 10}')
    cache = tmp_path / "output" / study.REPORT_CACHE
    plain = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    assert plain == dataclasses.replace(_summary(1), studies_not_run=("ladder",)) and not played
    asked = study.simulation_report(load_game(decks, "gogyo"), cache=cache, studies=True)
    assert asked is not None and asked.ladder is not None and asked.ladder.seed == 1
    assert asked.studies_not_run is None
    later = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    assert later == asked and played == [1]  # read back: not played again
    assert len(list(cache.glob("gogyo-*.json"))) == 1 and len(list((cache / study.STUDIES).iterdir())) == 1
    _touch(decks / "gogyo" / "game.json", '"matches": 10}', '"matches": 12}')  # another ladder: another key
    again = study.simulation_report(load_game(decks, "gogyo"), cache=cache)
    assert again is not None and again.studies_not_run == ("ladder",)


def test_another_games_engine_is_not_part_of_the_key(decks: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit to sanguosha's engine leaves gogyo's report (and its hour of studies) valid; gogyo's own
    engine and the shared search are part of its key."""
    code = tmp_path / "validator"
    shutil.copytree(Path(str(study.CODE)), code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(study, "CODE", code)
    first = _key(decks)
    (code / "games" / "sanguosha" / "rules.py").write_text("# edited\n", encoding="utf-8")
    assert _key(decks) == first
    for own in ("games/gogyo/rules.py", "engine/search.py"):
        (code / own).write_text((code / own).read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        assert _key(decks) != first, own
        first = _key(decks)


def test_no_game_package_imports_another() -> None:
    """What the report key relies on: a game's simulation reads no other game's code."""
    import re

    root = Path(str(study.CODE))
    games = [p.name for p in (root / "games").iterdir() if (p / "__init__.py").is_file()]
    for game in games:
        others = "|".join(re.escape(g) for g in games if g != game)
        pattern = re.compile(rf"(games\.({others})\b|from \.\.({others})\b)")
        for path in (root / "games" / game).glob("*.py"):
            assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_a_games_new_entry_replaces_only_its_own(tmp_path: Path) -> None:
    """Game "a" writing its entry leaves game "a-b"'s alone (both match the pattern a-*.json)."""
    study.keep_entry(tmp_path / "a-b-0123.json", {"game": "a-b"}, "summary")
    study.keep_entry(tmp_path / "a-4567.json", {"game": "a"}, "summary")
    study.keep_entry(tmp_path / "a-89ab.json", {"game": "a", "newer": True}, "summary")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-89ab.json", "a-b-0123.json"]


@pytest.mark.parametrize("forge", ["not json {", "a list", "another key", "another game", "a wrong type",
                                   "a link to /dev/zero", "a FIFO", "oversized", "studies as summary"])
def test_a_forged_or_damaged_cache_entry_is_ignored_and_simulated_again(
        decks: Path, tmp_path: Path, runs: list[int], forge: str) -> None:
    """Caches are data, not trust: whatever lies in the cache folder, an entry is used only when it is of
    the cache schema, for this game, key and kind; otherwise the game is simulated again, no traceback."""
    cache = tmp_path / "output" / study.REPORT_CACHE
    game = load_game(decks, "gogyo")
    study.simulation_report(game, cache=cache)
    entry = next(cache.glob("gogyo-*.json"))
    good = json.loads(entry.read_text(encoding="utf-8"))
    forged = json.loads(json.dumps(good))
    entry.unlink()
    if forge == "not json {":
        entry.write_text("{", encoding="utf-8")
    elif forge == "a link to /dev/zero":
        entry.symlink_to("/dev/zero")
    elif forge == "a FIFO":
        os.mkfifo(entry)
    elif forge == "oversized":
        entry.write_text(json.dumps({**good, "pad": " " * 3_000_000}), encoding="utf-8")
    else:
        if forge == "a list":
            forged = [good]
        elif forge == "another key":
            forged["key"] = "0" * 32
        elif forge == "another game":
            forged["game"] = "jinzai"
        elif forge == "a wrong type":
            forged["data"]["seats"][0]["rate"] = "half"
        elif forge == "studies as summary":
            forged["kind"] = "studies"
        entry.write_text(json.dumps(forged), encoding="utf-8")
    assert study.simulation_report(game, cache=cache) == _summary(2)
    assert runs == [1, 1]
    assert study.simulation_report(game, cache=cache) == _summary(2) and runs == [1, 1]  # the new entry is kept


def test_a_cached_summary_that_cannot_be_drawn_is_simulated_again(decks: Path, tmp_path: Path, runs: list[int],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import generator.report as report

    def write(game: Any, summary: SimulationReport, out_dir: Path) -> list[Any]:
        if summary.matches == 1:  # what the cache held: of the report's types, yet not drawable
            raise ZeroDivisionError("no finished match")
        return []

    monkeypatch.setattr(report, "write_report", write)
    cache = tmp_path / "output" / study.REPORT_CACHE
    game = load_game(decks, "gogyo")
    study.simulation_report(game, cache=cache)
    reported = report.report_files(game, tmp_path, workers=None, cache=cache)
    assert reported is not None and reported[0] == _summary(2) and runs == [1, 1]
    with pytest.raises(ZeroDivisionError):  # without a cache the report was just simulated: a real bug, not hidden
        monkeypatch.setattr(study, "simulate_main", lambda game, plan, workers, cluster: _summary(1))
        report.report_files(game, tmp_path, workers=None, cache=None)


def test_the_key_reads_a_bounded_total(decks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """10,000 files of 2 MiB each would be 20 GB to hash: the deck's JSON files together are bounded first."""
    import validator.simulated_files as simulated
    from validator.issues import DeckError

    monkeypatch.setattr(simulated, "MAX_DECK_JSON_BYTES", 200_000)
    game = load_game(decks, "gogyo")
    study.report_key(game)
    (decks / "gogyo" / "padding.json").write_text(" " * 200_000, encoding="utf-8")
    with pytest.raises(DeckError, match="over the 200,000 a deck may"):
        study.report_key(game)
    from validator.checks import check_game

    assert any("over the 200,000 a deck may" in issue.message for issue in check_game(game).issues)


def _damage(entry: Path, how: str) -> None:
    text = entry.read_text(encoding="utf-8")
    data = json.loads(text)
    if how == "wrong type":
        data["data"]["seats"][0]["rate"] = "half"
    elif how == "missing field":
        del data["data"]["ludii"]["Balance"]
    elif how == "field of an older format":
        data["data"]["retired"] = 1
    elif how == "NaN":
        data["data"]["seats"][0]["rate"] = 0.125  # written as a number, then made NaN in the text
    entry.write_text(json.dumps(data).replace("0.125", "NaN"), encoding="utf-8")


@pytest.mark.parametrize("how, says", [
    ("wrong type", "$.data.seats[0].rate: expected a number, found a string"),
    ("missing field", "$.data.ludii: missing 'Balance'"),
    ("field of an older format", "$.data: unexpected 'retired'"),
    ("NaN", "NaN"),
])
def test_a_damaged_entry_is_refused_with_a_one_line_reason_and_simulated_again(
        decks: Path, tmp_path: Path, runs: list[int], how: str, says: str) -> None:
    cache = tmp_path / "output" / study.REPORT_CACHE
    game = load_game(decks, "gogyo")
    study.simulation_report(game, cache=cache)
    _damage(next(cache.glob("gogyo-*.json")), how)
    refusals: list[str] = []
    assert study.simulation_report(game, cache=cache, refused=refusals.append) == _summary(2) and runs == [1, 1]
    [line] = refusals
    assert says in line and "simulating again" in line and "\n" not in line, line
    assert study.simulation_report(game, cache=cache, refused=refusals.append) == _summary(2)
    assert runs == [1, 1] and len(refusals) == 1  # the new entry is read back, nothing refused


def test_check_says_in_one_line_which_cached_report_it_did_not_use(decks: Path, tmp_path: Path,
                                                                    runs: list[int]) -> None:
    """The refusal reaches the designer: `fudaya check` prints it on stderr and simulates again."""
    from typer.testing import CliRunner

    from generator.cli import app

    output = tmp_path / "output"
    args = ["check", "gogyo", "--decks", str(decks), "--output", str(output), "--workers", "1"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    _damage(next((output / study.REPORT_CACHE).glob("gogyo-*.json")), "missing field")
    again = CliRunner().invoke(app, args)
    notes = [line for line in again.stderr.splitlines() if "note:" in line]
    assert again.exit_code == 0 and runs == [1, 1]
    assert len(notes) == 1 and notes[0].startswith("gogyo: note: gogyo-") and "simulating again" in notes[0], notes


@pytest.mark.parametrize("linked", [".cache", ".cache/reports"])
def test_a_linked_cache_folder_is_neither_written_nor_emptied(decks: Path, tmp_path: Path, runs: list[int],
                                                            linked: str) -> None:
    """An output folder shared with a project is data: its .cache (or a folder in it) may be a link anywhere.
    The cache deletes the game's old `<game>-*.json` entries and writes the new one: through such a link it
    deleted gogyo-lock.json in the folder linked to and wrote there. Now nothing is cached: simulated each time.
    (A linked .cache holds the build lock too, which refuses it: the report is not written, in one line.)"""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "gogyo-lock.json").write_text('{"precious": 1}\n', encoding="utf-8")
    output = tmp_path / "output"
    (output / linked).parent.mkdir(parents=True)
    (output / linked).symlink_to(elsewhere, target_is_directory=True)
    args = ["check", "gogyo", "--decks", str(decks), "--output", str(output), "--workers", "1"]
    from typer.testing import CliRunner

    from generator.cli import app

    for _ in range(2):
        result = CliRunner().invoke(app, args)
        if linked == ".cache":
            assert result.exit_code == 1 and "/.cache is a link or a file, not a folder" in result.stderr, result.output
        else:
            assert result.exit_code == 0, result.output
    assert sorted(p.name for p in elsewhere.iterdir()) == ["gogyo-lock.json"]
    assert (elsewhere / "gogyo-lock.json").read_text(encoding="utf-8") == '{"precious": 1}\n'
    assert runs == [1, 1]  # nothing read back from the linked folder either
