"""The area map component: sangokushi's map passes every check; each kind of bad map data is one located line,
exit 1 and no file written."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks, edit_json
from generator.cli import app
from validator.checks import check_game
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR

runner = CliRunner()
GAME = "sangokushi"


def area(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in data["areas"] if a["name"] == name)


def drop_route(data: dict[str, Any], name: str, to: str) -> None:
    routes = area(data, name)["routes"]
    routes[:] = [r for r in routes if r["to"] != to]


def one_way(data: dict[str, Any]) -> None:
    drop_route(data, "建業", "会稽")  # 会稽 still lists 建業


def island(data: dict[str, Any]) -> None:
    drop_route(data, "建業", "会稽")
    drop_route(data, "柴桑", "会稽")
    area(data, "会稽")["routes"] = []


def unknown_start(data: dict[str, Any]) -> None:
    data["start_areas"]["6"][5] = "洛陽城"


def crossing(data: dict[str, Any]) -> None:
    moved = area(data, "零陵")  # south-west, under the 南中–交州 road
    moved["x"], moved["y"] = moved["x"] - 40, moved["y"] + 30


def adjacent_starts(data: dict[str, Any]) -> None:
    data["start_areas"]["6"][5] = "襄陽"  # next to 江陵, the 5th start


def shared_target(data: dict[str, Any]) -> None:
    data["victory_points"]["2"] = 22  # 2 × 22 = 44 of 45 points: both players could hold 22


def ruby_in_a_label(data: dict[str, Any]) -> None:
    data["route_kinds"]["land"]["label"] = "陸路《りくろ》"


CASES: dict[str, tuple[Callable[[dict[str, Any]], None], str, str]] = {
    "one-way route": (one_way, "$.areas[27].routes[1]", "route 会稽→建業 (land) is listed on 会稽 only"),
    "island": (island, "$.areas[27].routes", "area 会稽 is cut off from the rest of the map"),
    "unknown start area": (unknown_start, "$.start_areas[6][5]", "start area '洛陽城' for 6 players is not an area"),
    "routes cross": (crossing, "$.areas[23].routes[2]", "route 長沙–零陵 crosses route 南中–交州 as drawn"),
    "adjacent start areas": (adjacent_starts, "$.start_areas[6][5]", "江陵 and 襄陽 (6 players) are adjacent"),
    "target two could reach": (shared_target, "$.victory_points[2]", "2 × 22 ≤ 45"),
    "ruby in a label": (ruby_in_a_label, "$.route_kinds.land.label", "the map sets no ruby"),
}


def test_the_shipped_map_passes_every_check() -> None:
    game = load_game(DEFAULT_DECKS_DIR, GAME)
    assert len(game.maps) == 1
    game_map = game.maps[0]
    assert (len(game_map.areas), len(game_map.routes), game_map.total_points) == (29, 51, 45)
    found = [i for i in check_game(game).issues if i.location.file.name == "map.json" or i.code.startswith("map-")]
    assert found == [], [i.render() for i in found]


def test_the_map_holds_the_seed_numbers() -> None:
    game_map = load_game(DEFAULT_DECKS_DIR, GAME).maps[0]
    starts = ("成都", "建業", "幽州", "西涼", "江陵", "許昌")  # seed 2.4
    assert dict(game_map.start_areas) == {n: starts[:n] for n in range(2, 7)}
    assert dict(game_map.victory_points) == {2: 23, 3: 17, 4: 14, 5: 12, 6: 11}  # seed 11.1
    assert {r.kind for r in game_map.routes} == set(game_map.route_kinds) == {"land", "river", "pass", "sea"}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_map_is_one_located_line_and_nothing_written(tmp_path: Path, case: str) -> None:
    change, path, message = CASES[case]
    decks = copy_decks(tmp_path, GAME)
    edit_json(decks / GAME / "map.json", change)
    out = tmp_path / "out"

    result = runner.invoke(app, ["build", GAME, "--decks", str(decks), "--output", str(out), "--only", "map",
                                 "--no-report"])

    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if ".json:" in line]
    assert len(lines) == 1, result.stderr
    found = assert_located(lines[0])
    assert found["file"].endswith("map.json") and found["path"] == path, lines[0]
    assert message in found["message"], lines[0]
    assert f"{GAME}: not built (1 problem)" in result.stderr
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
