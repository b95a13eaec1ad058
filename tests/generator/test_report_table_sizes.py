"""A simulation block with player_counts: the report compares every table size (length, completion, label rates)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator.report import write_report
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.study import simulation_report


@pytest.mark.slow
def test_each_table_size_gets_its_row(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "sangokushi", decks / "sangokushi")
    game_json = decks / "sangokushi" / "game.json"
    data = json.loads(game_json.read_text(encoding="utf-8"))
    simulation = data["simulation"]
    simulation.pop("variants")
    simulation.update(players=4, matches=12, player_counts=[3, 4, 5])
    game_json.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    game = load_game(decks, "sangokushi")
    summary = simulation_report(game, workers=1)
    assert summary is not None and summary.by_players is not None
    sizes = summary.by_players
    assert [size.players for size in sizes] == [3, 4, 5]
    assert all(size.matches == 12 for size in sizes)
    four = sizes[1]
    assert four.turns_mean == summary.turns.per_game.mean  # the main study is the 4-player row
    for size in sizes:
        [group] = size.labels
        assert group.kind == "開始エリア"
        assert len(group.rows) == size.players  # one start area per seat (seed 2.4)
    out = tmp_path / "out"
    out.mkdir()
    [pdf] = write_report(game, summary, out)
    text = subprocess.run(["pdftotext", str(pdf.path), "-"], capture_output=True, text=True, check=True).stdout
    assert "人数ごとの結果" in text
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [size["players"] for size in report["by_players"]] == [3, 4, 5]
