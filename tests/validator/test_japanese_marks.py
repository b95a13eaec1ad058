"""Japanese text in every shipped game writes its marks as Japanese typesetting does: 《君主》 with
double angle brackets (not the maths signs ≪≫, U+226A/U+226B), and straight after a kanji only as ruby
(青空文庫 notation reads 漢字《かんじ》 as a reading: every reading in the data is kana, so no bracketed
term is read as one by accident), and ranges of players, minutes or ages with 〜 (2〜6人,
not 2-6人), in the data and in what the code writes from it (cover lines, map labels, the report)."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from validator.loader import load_game
from validator.maplayout import players_text
from validator.paths import DEFAULT_DECKS_DIR
from validator.ruby import parse_ruby
from validator.rulebooks import cover_values

GAMES = ["gogyo", "jinzai", "sangokushi", "sanguosha", "sengoku"]
RANGE_WITH_A_DASH = re.compile(r"\d\s*[-‐‑–—−~～]\s*\d+\s*(人|分|才|歳)")
KANA = re.compile(r"[\u3041-\u309f\u30a0-\u30ff]+|\{\w+\}")  # kana, or a template's field of readings


def _strings(value: object, path: str = "$") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _strings(item, f"{path}[{n}]")


def _deck_strings() -> Iterator[tuple[str, str]]:
    for game in GAMES:
        for file in sorted((DEFAULT_DECKS_DIR / game).glob("*.json")):
            for path, text in _strings(json.loads(file.read_text(encoding="utf-8"))):
                yield f"{game}/{file.name}:{path}", text


def test_no_maths_angle_brackets_and_no_bracket_after_a_kanji() -> None:
    found = [(where, text) for where, text in _deck_strings() if "≪" in text or "≫" in text]
    assert found == []
    read = 0
    for where, text in _deck_strings():
        for ruby in parse_ruby(text).rubies:  # a RubyError names the string
            read += 1
            assert all(KANA.fullmatch(reading) for reading in ruby.readings), (where, ruby)
    assert read >= 10  # the generals' names, the rulebooks' readings, the tategaki starter aside
    generals = json.loads((DEFAULT_DECKS_DIR / "sangokushi" / "reference-layout.json").read_text(encoding="utf-8"))
    assert "《君主》" in json.dumps(generals, ensure_ascii=False)


def test_no_range_of_players_minutes_or_ages_is_written_with_a_dash() -> None:
    assert [(where, text) for where, text in _deck_strings() if RANGE_WITH_A_DASH.search(text)] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_cover_lines_write_ranges_with_a_wave_dash(game_id: str) -> None:
    values = cover_values(load_game(DEFAULT_DECKS_DIR, game_id))
    for key in ("players", "minutes"):
        assert re.fullmatch(r"\d+(〜\d+)?", str(values[key])), values[key]


def test_map_start_labels_write_ranges_with_a_wave_dash() -> None:
    """sangokushi's map printed 2–6人 beside its start areas."""
    assert players_text((2, 3, 4, 5, 6)) == "2〜6" and players_text((3, 5)) == "3・5"


def test_the_report_compares_with_the_box_time_as_a_range() -> None:
    from generator.report_pdf import _key_numbers
    from reports import small_report

    report = small_report("gogyo", 6)
    low, high = report.play_time.box_minutes
    [row] = [row for row in _key_numbers(report) if row[0].startswith("1試合の推定時間")]
    assert f"箱の {low:g}〜{high:g} 分" in row[0]
