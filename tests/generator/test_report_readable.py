"""The report speaks the designer's language: Japanese names for every ending and counted event an
engine reports, variant options by their labels, no chart that can show nothing, axes fitted to the
data and histograms with even bins."""
from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from generator.charts import _axis
from generator.report_pdf import Bin, _flat
from reports import cut_whole_report
from validator.engine.registry import engine_for, find_spec, known_games
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, run_plan
from validator.stats import distribution

GAMES = known_games()  # every rules engine, each simulated on its shipped deck


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ending_and_event_a_simulation_reports_has_a_japanese_name(game_id: str) -> None:
    game = load_game(DEFAULT_DECKS_DIR, game_id)
    plan = SimulationPlan.from_game(game)
    assert plan is not None
    summary = run_plan(engine_for(game), replace(plan, matches=40, other_counts=()), workers=1)
    spec = find_spec(game_id)
    assert set(summary.ended_by) - {"cap"} <= set(spec.endings)
    assert set(summary.counters) <= set(spec.events)
    for name in [*spec.endings.values(), *spec.events.values()]:
        assert any("\u3040" <= ch <= "\u9fff" for ch in name), name  # written in Japanese


def test_a_flat_histogram_is_told_in_words() -> None:
    """sengoku's rank points: every game gives 0, 1, 2 and 3 once, so the four bars are equal."""
    assert _flat([Bin(0, 0, 1000), Bin(1, 1, 1002), Bin(2, 2, 999), Bin(3, 3, 999)])
    assert not _flat([Bin(0, 0, 57), Bin(1, 1, 95), Bin(2, 2, 1353)])
    assert not _flat([Bin(0, 0, 10)])


@pytest.mark.parametrize(("low", "high"), [(0.2, 0.3), (0.0, 0.62), (0.41, 0.43), (1.5, 14.0)])
def test_an_interval_axis_fits_its_data(low: float, high: float) -> None:
    start, stop, ticks = _axis(low, high)
    assert start <= low and stop >= high and start >= 0
    assert (stop - start) <= 3 * (high - low) + 0.05  # the data fill a good part of the axis
    assert 2 <= len(ticks) <= 9 and ticks[0] == start and ticks[-1] == pytest.approx(stop)
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1


@pytest.mark.parametrize("values", [[16, 32, 48, 64], [3, 4, 4, 9], list(range(0, 200, 7)), [0.5, 1.5, 2.25]])
def test_histogram_bins_are_even(values: list[float]) -> None:
    bins = distribution(values).histogram
    widths = {b.high - b.low for b in bins}
    assert len(widths) == 1
    assert all(b.low == a.high + 1 for a, b in zip(bins, bins[1:]))
    assert sum(b.count for b in bins) == len(values)


@pytest.mark.slow
def test_every_key_number_stays_inside_the_page(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """sanguosha's three endings, named in Japanese, ran past the A4 page's right edge in one line."""
    import shutil

    from pypdf import PdfReader
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.pdfdoc import register_fonts
    from generator.report import write_report

    decks = tmp_path / "decks"
    shutil.copytree(DEFAULT_DECKS_DIR / "sanguosha", decks / "sanguosha")
    game = load_game(decks, "sanguosha")
    summary = cut_whole_report(game, 60, monkeypatch)  # the page's lines, not the figures, are tested
    assert len(summary.ended_by) == 3
    [pdf] = write_report(game, summary, tmp_path)
    font = register_fonts(game.fonts)["gothic"]  # the report's body font, to measure each run as set
    right_edges: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], _: object, size: float) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            right_edges.append(x + stringWidth(text.rstrip(), font, size))

    PdfReader(pdf.path).pages[0].extract_text(visitor_text=visit)
    assert right_edges and max(right_edges) <= 595.28 - 18 * 72 / 25.4 + 1  # inside the right margin


@pytest.mark.parametrize(("note", "matches", "says"), [
    ({"target": 0.02, "reached": 0.0195, "cap": 2000, "stopped_early": True}, 1900,
     "最大 ±1.95 ポイント（目標 ±2.0 ポイント に達したため 1900 試合で終了。上限 2000）"),
    ({"target": 0.02, "reached": 0.0488, "cap": 400, "stopped_early": False}, 400,
     "最大 ±4.88 ポイント（目標 ±2.0 ポイント には届かず、上限の 400 試合を実施）"),
    ({"target": 0.02, "reached": 0.0199, "cap": 2000, "stopped_early": False}, 2000,
     "最大 ±1.99 ポイント（上限の 2000 試合で目標 ±2.0 ポイント に達した）"),
    ({"target": 0, "reached": 0.03, "cap": 500, "stopped_early": False}, 500,
     "最大 ±3.00 ポイント（精度の目標なし、500 試合すべてを実施）"),
])
def test_the_key_numbers_say_how_precise_the_seats_are_and_why_play_stopped(note, matches, says) -> None:
    from generator.report_pdf import _precision
    from reports import small_report
    from validator.sim_result import PrecisionNote

    report = dataclasses.replace(small_report(), precision=PrecisionNote(**note), matches=matches)
    assert _precision(report) == says


def test_report_paragraphs_keep_kinsoku() -> None:
    """sanguosha's table-size note broke before "、" at the A4 text width: the report's paragraphs are
    set like the rulebook's, no line opening with 、。） nor closing with （."""
    from reportlab.lib.units import mm

    from generator.pdfdoc import register_font
    from generator.report_pdf import _para, _styles
    from validator.paths import FONTS_DIR

    font = register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf")
    note = ("各人数で同じ方針・シード・精度の目標と試合数の上限（目標に届いた人数は早く終わる）。"
            "身分ごとの勝率（勝った側の全員を1勝と数える）、下段は95%信頼区間。")
    for quarter_mm in range(480, 720):  # 120–180 mm; plain ReportLab opened a line with 、 at 168.25–170.5
        para = _para(note, _styles(font, font)["small"])
        para.wrap(quarter_mm / 4 * mm, 1000)
        lines = ["".join(line[1]) if isinstance(line, tuple) else "".join(frag.text for frag in line.words)
                 for line in para.blPara.lines]  # ReportLab keeps one-style lines as (width, words)
        assert "".join(lines) == note
        assert [line for line in lines if line[0] in "、。）"] == [], quarter_mm
        assert [line for line in lines if line[-1] in "（"] == [], quarter_mm


@pytest.mark.parametrize("seats", [2, 4, 8, 10])
def test_the_design_comparison_keeps_within_the_text_width(seats: int) -> None:
    """sanguosha's 8 seats pushed the table 41 mm past the right margin (its last columns were cut)."""
    from reportlab.lib.units import mm
    from reportlab.platypus import Table

    from generator.report_pdf import TEXT_WIDTH_MM, _styles, _variant_section
    from validator.sim_result import SeatRate, VariantComparison, VariantRow

    seat = SeatRate(1, 200, 0.5, (0.45, 0.55))
    row = VariantRow("standard", "標準（反賊4・内奸1）", True, 400, 0.05, 0.77, (seat,) * seats, (), 0.0, 0.5, 0.05,
                     0.0, 0.0, 30.0, 27)
    study = VariantComparison("?", "standard", "-", 400, seats, ("greedy",), 1, (row,), 1, "standard", False, "-",
                              "-")
    (table,) = [part for part in _variant_section(study, _styles("Helvetica", "Helvetica"), "Helvetica", "Helvetica")
                if isinstance(part, Table)]
    assert sum(table._colWidths) <= TEXT_WIDTH_MM * mm + 0.01


@pytest.mark.parametrize("seats", [2, 5, 10])
def test_the_ladder_keeps_within_the_text_width(seats: int) -> None:
    from reportlab.lib.units import mm
    from reportlab.platypus import KeepTogether, Table

    from generator.report_pdf import TEXT_WIDTH_MM, _ladder_section, _styles
    from validator.sim_result import Ladder, LadderPair, SeatRate, StrengthRow

    seat = SeatRate(1, 50, 0.5, (0.4, 0.6))
    pair = LadderPair("greedy", "random", 40, 40, 0.7, (0.6, 0.8), 0.4, (0.3, 0.5), True)
    strength = StrengthRow("random", 100, 100, 0.9, 0.5, 1.0, 0.9, (seat,) * seats, seat, 30.0, 10.0, ())
    ladder = Ladder(seats, 1, ("random", "greedy"), 40, (100, 0), True, (pair,), (strength,), True, "-", "-", None)
    parts = _ladder_section(ladder, _styles("Helvetica", "Helvetica"), "Helvetica", "Helvetica")
    tables = [p for p in parts if isinstance(p, Table)]
    tables += [inner for p in parts if isinstance(p, KeepTogether) for inner in p._content if isinstance(inner, Table)]
    assert len(tables) == 2
    for table in tables:
        assert sum(table._colWidths) <= TEXT_WIDTH_MM * mm + 0.01
