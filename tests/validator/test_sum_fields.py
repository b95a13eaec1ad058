"""A total (`sum`) names write-in fields of its own table; a mistyped name is a located error."""
from __future__ import annotations

import shutil
from pathlib import Path

from validator.checks import check_game
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


def _gogyo_with(tmp_path: Path, old: str, new: str) -> list[str]:
    shutil.copytree(DEFAULT_DECKS_DIR / "gogyo", tmp_path / "gogyo")
    layout = tmp_path / "gogyo" / "score-sheet-layout.json"
    text = layout.read_text(encoding="utf-8")
    assert old in text
    layout.write_text(text.replace(old, new), encoding="utf-8")
    return [f"{i.code}: {i.render()}" for i in check_game(load_game(tmp_path, "gogyo")).issues
            if i.code in ("unknown-sum-field", "sum-without-field")]


def test_the_shipped_totals_name_real_fields(tmp_path: Path) -> None:
    assert _gogyo_with(tmp_path, "score-sheet", "score-sheet") == []


def test_a_mistyped_part_is_reported_once_per_sheet_with_the_fields_it_could_be(tmp_path: Path) -> None:
    found = _gogyo_with(tmp_path, '"sum": ["p{player}_g1_dynasty", "p{player}_g1_element"]',
                        '"sum": ["p{player}_g1_dynastee", "p{player}_g1_element"]')
    assert len(found) == 4  # one per player's sheet
    assert all("score-sheet-layout.json" in line and "$.templates.score-sheet.elements[5].rows[3]" in line
               for line in found)
    assert "`sum` names 'p1_g1_dynastee', which is not another write-in field of this table" in found[0]
    assert "p1_g1_dynasty" in found[0]


def test_a_total_cannot_count_itself(tmp_path: Path) -> None:
    found = _gogyo_with(tmp_path, '"sum": ["p{player}_g1_total", "p{player}_g2_total"]',
                        '"sum": ["p{player}_grand_total", "p{player}_g2_total"]')
    assert len(found) == 4 and "'p1_grand_total'" in found[0]
