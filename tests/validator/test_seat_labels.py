"""Engines that label their seats (sangokushi: start areas) get a win rate per label with intervals in the report."""
from __future__ import annotations

import pytest

from validator.engine.registry import engine_for
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_report import render_headline, render_text
from validator.simulate import SimConfig, simulate
from validator.stats import summarize


@pytest.mark.slow
def test_start_areas_are_compared_over_the_games_that_dealt_them() -> None:
    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "sangokushi"))
    config = SimConfig(4, ("greedy",) * 4, 120, seed=4, step_cap=4000)
    records = simulate(engine, config)
    summary = summarize(records, engine, config)
    [group] = summary.labels
    assert group.kind == "開始エリア"
    rows = {row.label: row for row in group.rows}
    assert set(rows) == {"成都", "建業", "幽州", "西涼"}  # seed 2.4's four start areas for 4 players
    finished = [g for m in records for g in m.games if g.end != "cap"]
    assert all(row.games == len(finished) for row in rows.values())  # every area is dealt in every game
    assert sum(row.wins for row in rows.values()) == pytest.approx(len(finished))  # shared wins split
    for row in rows.values():
        low, high = row.ci95
        assert low <= row.rate <= high
    assert any("成都" in line for line in render_headline(summary))
    assert "win rates by 開始エリア" in render_text(summary)


def test_games_without_labels_report_none() -> None:
    engine = engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))
    config = SimConfig(3, ("random",) * 3, 20, seed=1)
    summary = summarize(simulate(engine, config), engine, config)
    assert summary.labels == ()
    by_label = [line for line in render_headline(summary)
                if line.startswith("win rate by") and not line.startswith("win rate by turn order")]
    assert by_label == []
