"""The command line's presentation: findings grouped by file, one self-contained line each, and the
list and check tables (rich), readable in a CI log (no colour, one row a line)."""
from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from generator.cli import app
from generator.console import grouped, print_findings
from validator.issues import Issue, Location


def _issue(file: str, pointer: str, message: str, line: int) -> Issue:
    return Issue(Location(Path(file), pointer, line, 3), "test", message)


def test_findings_come_grouped_by_file_in_first_seen_order_keeping_check_order(capsys) -> None:
    issues = [_issue("b.json", "/x", "first in b", 9), _issue("a.json", "/y", "first in a", 2),
              _issue("b.json", "/z", "second in b", 1), _issue("a.json", "/w", "[bold]second in a[/bold]", 7)]
    assert list(grouped(issues)) == [Path("b.json"), Path("a.json")]
    print_findings(issues, Path.cwd())
    assert capsys.readouterr().err.splitlines() == [  # no heading or colour outside a terminal
        "b.json:9:3: $.x: first in b", "b.json:1:3: $.z: second in b",
        "a.json:2:3: $.y: first in a", "a.json:7:3: $.w: [bold]second in a[/bold]"]  # deck text is not markup


def test_list_is_a_table_a_row_a_component() -> None:
    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("gogyo "))
    assert "2–4 players, 20–30 min" in lines[title]
    assert lines[title + 1].split() == ["component", "kind", "contents", "size"]
    rows = [line.split() for line in lines[title + 3:title + 6]]
    assert rows == [["cards", "deck", "66", "cards", "63×88", "mm,", "bleed", "3", "mm"],
                    ["score-sheet", "sheet", "4", "sheets", "99×140", "mm,", "bleed", "0", "mm"],
                    ["rulebook", "rulebook", "58", "blocks", "A5"]]
    assert all(len(line) <= 120 for line in lines)


def test_check_of_several_games_closes_with_a_table(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["check", "gogyo", "jinzai", "--no-simulate", "--output", str(tmp_path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("fudaya check")))
    assert lines[start + 1].split() == ["game", "result", "warnings", "notes", "prints", "simulation"]
    assert lines[start + 3].split() == ["gogyo", "ok", "0", "warnings", "0", "notes", "66", "cards,", "4", "sheets"]
    assert lines[start + 4].split()[:2] == ["jinzai", "ok"]


def test_list_json_gives_the_same_listing_as_data(tmp_path: Path) -> None:
    import json
    import shutil

    from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR

    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", decks / "gogyo")
    shutil.copytree(DEFAULT_DECKS_DIR / "sangokushi", decks / "sangokushi")
    (tmp_path / "schema").symlink_to(SCHEMA_DIR, target_is_directory=True)
    (decks / "broken").mkdir()
    (decks / "broken" / "game.json").write_text("{", encoding="utf-8")
    result = CliRunner().invoke(app, ["list", "--json", "--decks", str(decks)])
    assert result.exit_code == 1, result.output  # the whole listing, and an exit that says a game is broken
    listing = {entry["id"]: entry for entry in json.loads(result.stdout)}
    assert sorted(listing) == ["broken", "gogyo", "sangokushi"]
    assert "invalid JSON" in listing["broken"]["error"]
    gogyo = listing["gogyo"]
    assert (gogyo["players"], gogyo["minutes"]) == ([2, 4], [20, 30])
    assert [(c["id"], c["kind"], c.get("count")) for c in gogyo["components"]] == [
        ("cards", "deck", 66), ("score-sheet", "sheet", 4), ("rulebook", "rulebook", None)]
    board = next(c for c in listing["sangokushi"]["components"] if c["kind"] == "map")
    assert (board["areas"], board["routes"], board["points"], board["size_mm"]) == (29, 51, 45, [420, 297])
