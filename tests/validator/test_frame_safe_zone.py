"""Outlines between the trim and the safe line are reported (a small miscut shows them uneven);
backgrounds through the bleed and unstroked shapes are not; the shipped games have none, and no text
touching an outline either (tests/validator/test_text_near_frame.py)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from validator.checks import check_game
from validator.loader import find_games, load_game
from validator.paths import DEFAULT_DECKS_DIR

GAMES = find_games(DEFAULT_DECKS_DIR)  # every shipped game


def _sengoku_with(tmp_path: Path, old: str, new: str) -> list[str]:
    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "sengoku", decks / "sengoku")
    layout = decks / "sengoku" / "layout.json"
    text = layout.read_text(encoding="utf-8")
    assert text.count(old) >= 1
    layout.write_text(text.replace(old, new), encoding="utf-8")
    result = check_game(load_game(decks, "sengoku"))
    return [issue.render() for issue in result.issues if issue.code == "frame-near-trim"]


def test_a_frame_inside_the_safe_zone_is_reported_with_its_distance(tmp_path: Path) -> None:
    # the surname frame as it was: x 3.2 with a 0.9 mm stroke, 2.75 mm from the trim
    found = _sengoku_with(tmp_path, '"x": 3.45,\n     "y": 3.45,\n     "w": 56.1,\n     "h": 81.1',
                          '"x": 3.2,\n     "y": 3.2,\n     "w": 56.6,\n     "h": 81.6')
    assert len(found) == 2  # the surname and given-name templates each own one
    assert all("rect outline 2.75 mm from the trim, inside the 3 mm safe zone" in line for line in found)
    assert all("$.templates." in line and "elements[0]" in line for line in found)


def test_a_background_through_the_bleed_or_a_fill_without_stroke_is_not_a_frame(tmp_path: Path) -> None:
    assert _sengoku_with(tmp_path, '"stroke": "shu",\n     "stroke_width": 0.9', '"fill": "shu"') == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_shipped_games_keep_their_frames_in_the_safe_zone(game_id: str) -> None:
    result = check_game(load_game(DEFAULT_DECKS_DIR, game_id))
    assert [i.render() for i in result.issues
            if i.code in ("frame-near-trim", "outside-safe-zone", "text-near-frame")] == []


def _quickref_table_at(tmp_path: Path, y: str) -> list[tuple[str, str]]:
    """sanguosha's quick reference with its last table (人数と身分, 5 rows of 3.3 mm) moved to `y`."""
    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "sanguosha", decks / "sanguosha")
    layout = decks / "sanguosha" / "quickref-layout.json"
    text = layout.read_text(encoding="utf-8")
    assert text.count('"y": 106.4,') == 1
    layout.write_text(text.replace('"y": 106.4,', f'"y": {y},'), encoding="utf-8")
    result = check_game(load_game(decks, "sanguosha"))
    return [(issue.severity, issue.render()) for issue in result.issues
            if issue.code in ("outside-trim", "outside-safe-zone")]


def test_a_table_past_the_trim_is_an_error_and_one_past_the_safe_line_a_warning(tmp_path: Path) -> None:
    """The quick reference's table once ran 1.9 mm past the trim, and no check looked at tables."""
    [(severity, line)] = _quickref_table_at(tmp_path / "past", "111.4")
    assert severity == "error" and "$.templates.quickref-back.elements[32]: table box 4.5, 111.4, 80×16.5 mm " \
                                   "reaches past the 89×127 mm trim: its text is cut off" in line
    [(severity, line)] = _quickref_table_at(tmp_path / "near", "108")
    assert severity == "warning" and "table box 4.5, 108, 80×16.5 mm reaches outside the 4 mm safe zone" in line
    assert _quickref_table_at(tmp_path / "inside", "106.4") == []
