"""A design study may change what map areas are worth; the engine plays the changed map, the deck stays as is."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from deckcopies import assert_located, copy_decks, edit_json
from validator.checks import check_game
from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.variants import VariantStudy, apply_option


def test_an_area_points_option_changes_the_map_the_engine_plays() -> None:
    game = load_game(DEFAULT_DECKS_DIR, "sangokushi")
    study = VariantStudy.from_game(game)
    assert study is not None
    option = next(o for o in study.options if o.area_points)
    changed = apply_option(game, option)
    (name, points), = option.area_points.items()
    assert changed.maps[0].area[name].points == points != game.maps[0].area[name].points
    assert changed.maps[0].total_points == game.maps[0].total_points + points - game.maps[0].area[name].points
    board = engine_for(changed).board  # type: ignore[attr-defined]
    assert board.points[board.names.index(name)] == points
    default = next(o for o in study.options if o.id == study.default)
    assert apply_option(game, default) == game


def test_an_unknown_area_in_an_option_is_one_located_line(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "sangokushi")

    def misname(data: Any) -> None:
        data["simulation"]["variants"]["options"][1]["areas"][0]["name"] = "成都府"

    edit_json(decks / "sangokushi" / "game.json", misname)
    issues = [i for i in check_game(load_game(decks, "sangokushi")).issues if i.code == "variants"]
    assert len(issues) == 1 and "no map area is named '成都府'" in issues[0].message
    assert issues[0].location.pointer.endswith("/options/1/areas/0/name")
    assert_located(issues[0].render())
