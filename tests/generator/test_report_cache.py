"""Reports are cached by what they depend on: a rebuild after a layout or rulebook edit reads the
report back instead of simulating again; new card data or rules simulate again."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import generator.report as report
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    """A copy of gogyo without its ladder (the tests here add the studies they need)."""
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", tmp_path / "decks" / "gogyo")
    manifest_path = tmp_path / "decks" / "gogyo" / "game.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["simulation"].pop("ladder", None)
    manifest_path.write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
    return tmp_path / "decks"


def _summary(matches: int, game: str = "gogyo") -> dict[str, Any]:
    """The smallest summary of the shape the report cache keeps (schema/report-cache.schema.json)."""
    spread = {"n": 0}
    return {"game": game, "players": 2, "policies": ["greedy"], "seed": 1, "matches": matches, "games": matches,
            "games_per_match": 1, "finished": {"matches": matches, "games": matches, "timeouts": 0,
                                                "all_finished": True},
            "ended_by": {}, "turns": {"per_game": spread, "per_match": spread}, "scores": {},
            "seats": [{"seat": 0, "wins": 1, "rate": 0.5, "ci95": [0.1, 0.9]}], "policy_seats": [],
            "actions": {}, "actions_per_game": {}, "counters": {}, "counters_per_game": {},
            "play_time": {"seconds_per_turn": 30, "box_minutes": [10, 20], "turn_band": [1, 2],
                          "minutes_per_match": spread}, "ludii": {}}


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """report._simulate replaced by a count of its calls, each giving a summary of as many matches."""
    played: list[int] = []

    def simulate(game: Any, plan: Any, workers: Any) -> dict[str, Any]:
        played.append(1)
        return _summary(len(played), game.id)

    monkeypatch.setattr(report, "_simulate", simulate)
    return played


def _key(decks: Path) -> str:
    return report.report_key(load_game(decks, "gogyo"))


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
    cache = tmp_path / "output" / report.REPORT_CACHE
    first = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    _touch(decks / "gogyo" / "layout.json", '"size": 22', '"size": 21')
    again = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert again == first and len(runs) == 1
    _touch(decks / "gogyo" / "game.json", '"declare_threshold": 30', '"declare_threshold": 31')
    changed = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert changed == _summary(2) and len(list(cache.glob("gogyo-*.json"))) == 1
    assert report.simulate_for_report(load_game(decks, "gogyo"), cache=None) == _summary(3)


def test_studies_are_played_only_when_asked_and_kept_like_reports(decks: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The ladder takes minutes to hours: a plain build says it was not played; `--studies` plays it,
    and later plain builds show what it found while the data and code stay the same."""
    played: list[int] = []

    def studies(game: Any, plan: Any, summary: Any, workers: Any) -> dict[str, Any]:
        played.append(1)
        return {"ladder": {"rungs": ["random", "greedy"], "run": len(played)}}

    monkeypatch.setattr(report, "_simulate", lambda game, plan, workers: _summary(1, game.id))
    monkeypatch.setattr(report, "_play_studies", studies)
    _touch(decks / "gogyo" / "game.json", '"seed": 1', '"seed": 1, "ladder": {"rungs": ["random", "greedy"], '
           '"matches": 10}')
    cache = tmp_path / "output" / report.REPORT_CACHE
    plain = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert plain == {**_summary(1), "studies_not_run": ["ladder"]} and not played
    asked = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache, studies=True)
    assert asked["ladder"]["run"] == 1 and "studies_not_run" not in asked
    later = report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)
    assert later == asked and played == [1]  # read back: not played again
    assert len(list(cache.glob("gogyo-*.json"))) == 1 and len(list((cache / report.STUDIES).iterdir())) == 1
    _touch(decks / "gogyo" / "game.json", '"matches": 10}', '"matches": 12}')  # another ladder: another key
    assert report.simulate_for_report(load_game(decks, "gogyo"), cache=cache)["studies_not_run"] == ["ladder"]


def test_another_games_engine_is_not_part_of_the_key(decks: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit to sanguosha's engine leaves gogyo's report (and its hour of studies) valid; gogyo's own
    engine and the shared search are part of its key."""
    code = tmp_path / "validator"
    shutil.copytree(report.VALIDATOR_DIR, code, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(report, "VALIDATOR_DIR", code)
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

    games = [p.name for p in (report.VALIDATOR_DIR / "games").iterdir() if (p / "__init__.py").is_file()]
    for game in games:
        others = "|".join(re.escape(g) for g in games if g != game)
        pattern = re.compile(rf"(games\.({others})\b|from \.\.({others})\b)")
        for path in (report.VALIDATOR_DIR / "games" / game).glob("*.py"):
            assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_a_games_new_entry_replaces_only_its_own(tmp_path: Path) -> None:
    """Game "a" writing its entry leaves game "a-b"'s alone (both match the pattern a-*.json)."""
    report._keep(tmp_path / "a-b-0123.json", {"game": "a-b"}, "summary")
    report._keep(tmp_path / "a-4567.json", {"game": "a"}, "summary")
    report._keep(tmp_path / "a-89ab.json", {"game": "a", "newer": True}, "summary")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-89ab.json", "a-b-0123.json"]


@pytest.mark.parametrize("forge", ["not json {", "a list", "another key", "another game", "a wrong type",
                                   "a link to /dev/zero", "a FIFO", "oversized", "studies as summary"])
def test_a_forged_or_damaged_cache_entry_is_ignored_and_simulated_again(
        decks: Path, tmp_path: Path, runs: list[int], forge: str) -> None:
    """Caches are data, not trust: whatever lies in the cache folder, an entry is used only when it is of
    the cache schema, for this game, key and kind; otherwise the game is simulated again, no traceback."""
    cache = tmp_path / "output" / report.REPORT_CACHE
    game = load_game(decks, "gogyo")
    report.simulate_for_report(game, cache=cache)
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
    assert report.simulate_for_report(game, cache=cache) == _summary(2)
    assert runs == [1, 1]
    assert report.simulate_for_report(game, cache=cache) == _summary(2) and runs == [1, 1]  # the new entry is kept


def test_a_cached_summary_that_cannot_be_drawn_is_simulated_again(decks: Path, tmp_path: Path, runs: list[int],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def write(game: Any, summary: dict[str, Any], out_dir: Path) -> list[Any]:
        if summary["matches"] == 1:  # what the cache held: of the schema's shape, yet not drawable
            raise KeyError("names_ja")
        return []

    monkeypatch.setattr(report, "write_report", write)
    cache = tmp_path / "output" / report.REPORT_CACHE
    game = load_game(decks, "gogyo")
    report.simulate_for_report(game, cache=cache)
    reported = report.report_files(game, tmp_path, workers=None, cache=cache)
    assert reported is not None and reported[0] == _summary(2) and runs == [1, 1]
    with pytest.raises(KeyError):  # without a cache the summary was just simulated: a real bug, not hidden
        monkeypatch.setattr(report, "_simulate", lambda game, plan, workers: _summary(1))
        report.report_files(game, tmp_path, workers=None, cache=None)


def test_the_key_reads_a_bounded_total(decks: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """10,000 files of 2 MiB each would be 20 GB to hash: the deck's JSON files together are bounded first."""
    import validator.simulated_files as simulated
    from validator.issues import DeckError

    monkeypatch.setattr(simulated, "MAX_DECK_JSON_BYTES", 200_000)
    game = load_game(decks, "gogyo")
    report.report_key(game)
    (decks / "gogyo" / "padding.json").write_text(" " * 200_000, encoding="utf-8")
    with pytest.raises(DeckError, match="over the 200,000 a deck may"):
        report.report_key(game)
    from validator.checks import check_game

    assert any("over the 200,000 a deck may" in issue.message for issue in check_game(game).issues)
