"""A team game's report asks its real balance question: each side's and identity's win rate against its
fair share on page 1, every chart's dashed line at the fair share the report data gives, and no chart
that cannot vary (sanguosha's 0/1 points)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.graphics.shapes import Drawing, Line

from generator.charts import FAIR, Estimate, _axis, intervals
from generator.report import write_report
from generator.report_pdf import Bin, _bins, _histogram_or_words, _label_chart, _styles, no_variation
from reports import small_report
from validator.engine.api import Side
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_parts import Distribution, HistogramBin, LabelRate
from validator.simulate import GameRecord, MatchRecord
from validator.teams import teams_of

WIDTH = 440  # intervals' default width: the axis runs from x 70 to WIDTH - 20


def _fair_lines(drawing: Drawing) -> list[Line]:
    return [shape for shape in drawing.contents if isinstance(shape, Line) and shape.strokeColor == FAIR]


def _x_of(value: float, marks: list[float]) -> float:
    start, stop, _ = _axis(min(marks), max(marks))
    return 70 + (value - start) * (WIDTH - 20 - 70) / (stop - start)


@pytest.fixture(scope="module")
def sanguosha_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path]:
    report = small_report("sanguosha", 24)
    out = tmp_path_factory.mktemp("report")
    [pdf] = write_report(load_game(DEFAULT_DECKS_DIR, "sanguosha"), report, out)
    return report, pdf.path


def test_sanguosha_sides_and_fair_shares_come_from_the_engine(sanguosha_report) -> None:  # type: ignore[no-untyped-def]
    """8 seats: 主公側 (lord + 2 loyalists), 4 rebels, 1 renegade: three sides, each fair share 1/3; the rates
    of the sides add up to one win a game, and every seat and identity carries the fair share 1/3."""
    report, _ = sanguosha_report
    teams = report.teams
    assert teams is not None and teams.kind == "身分"
    sides = {side.side: side for side in teams.sides}
    assert list(sides) == ["主公側", "反賊", "内奸"]
    assert sides["主公側"].roles == ("主公", "忠臣") and sides["主公側"].seats == 3
    assert sides["反賊"].seats == 4 and sides["内奸"].alone and sides["内奸"].seats == 1
    finished = report.finished.games
    assert all(side.games == finished for side in teams.sides)
    assert sum(side.wins for side in teams.sides) == finished  # one side wins each game
    assert all(side.fair_share == pytest.approx(1 / 3) for side in teams.sides)
    assert [row.fair_share for row in report.seats] == pytest.approx([1 / 3] * 8)
    identities = next(g for g in report.labels if g.kind == "身分")
    assert {row.label: row.fair_share for row in identities.rows} == pytest.approx(
        {"主公": 1 / 3, "忠臣": 1 / 3, "反賊": 1 / 3, "内奸": 1 / 3})


def test_the_report_pdf_opens_with_the_identities_win_rates(sanguosha_report) -> None:  # type: ignore[no-untyped-def]
    report, pdf = sanguosha_report
    first = PdfReader(pdf).pages[0].extract_text()
    assert "陣営と身分ごとの勝率" in first and "公平な取り分" in first
    for side in report.teams.sides:
        assert side.side in first and f"{side.rate * 100:.1f}%" in first
    assert f"{report.teams.sides[0].fair_share * 100:.1f}%" in first  # 33.3%
    for identity in ("主公", "忠臣", "反賊", "内奸"):
        assert identity in first
    assert first.index("陣営と身分ごとの勝率") < first.index("試合数")  # before the key numbers
    whole = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "12.5%" not in whole  # 1/8 is no fair share in a game of sides
    assert "とる値は2通りだけ" in whole  # the 0/1 points are said, not charted


def test_the_identity_chart_draws_each_sides_fair_share_where_the_data_puts_it(sanguosha_report) -> None:  # type: ignore[no-untyped-def]
    report, _ = sanguosha_report
    identities = next(g for g in report.labels if g.kind == "身分")
    drawing = _label_chart("身分", identities.rows, "Helvetica", None)
    marks = [v for row in identities.rows for v in row.ci95] + [1 / 3]
    [line] = _fair_lines(drawing)  # every side's share is 1/3: one line across the rows
    assert line.x1 == line.x2 == pytest.approx(_x_of(1 / 3, marks))


def test_unequal_fair_shares_get_a_line_per_row() -> None:
    """A table where the sides' shares differ (one side missing from some games): each row its own line."""
    rows = [LabelRate("甲", 10, 5, 0.5, (0.3, 0.7), 0.5), LabelRate("乙", 10, 2, 0.2, (0.1, 0.4), 0.25),
            LabelRate("丙", 10, 3, 0.3, (0.1, 0.5), 1 / 3)]
    drawing = _label_chart("役", rows, "Helvetica", None)
    lines = _fair_lines(drawing)
    marks = [v for row in rows for v in row.ci95] + [0.5, 0.25, 1 / 3]
    assert [line.x1 for line in lines] == pytest.approx([_x_of(share, marks) for share in (0.5, 0.25, 1 / 3)])
    spans = [(min(line.y1, line.y2), max(line.y1, line.y2)) for line in lines]
    assert all(a[0] >= b[1] - 1e-9 for a, b in zip(spans, spans[1:]))  # top to bottom, one row each, no overlap
    with pytest.raises(ValueError, match="2 references for 3 rows"):
        intervals([Estimate(r.label, r.rate, *r.ci95) for r in rows], title="x", font="Helvetica",
                  references=[0.5, 0.25])


def _game(labels: tuple[str, ...], winners: tuple[int, ...], first: int = 0) -> MatchRecord:
    record = GameRecord(10, 10, "end", tuple(int(s in winners) for s in range(len(labels))), winners, first,
                        (), 1, 1, (), (("役", labels), ("将", tuple(f"将{n}" for n in range(len(labels))))))
    return MatchRecord(0, (record,), record.scores, winners, first, False)


def test_teams_of_counts_a_side_played_alone_once_per_seat() -> None:
    """Two renegades are two sides: with the lord side and the rebels, four, so every fair share is 1/4;
    a table without renegades has two sides, 1/2: a seat's and a label's share average their games."""

    @dataclasses.dataclass(frozen=True)
    class Sided:
        side_kind: str = "役"
        sides: tuple[Side, ...] = (Side("主側", ("主", "忠")), Side("反", ("反",)), Side("奸", ("奸",), alone=True))

    matches = [_game(("主", "忠", "反", "反", "奸", "奸"), (4,)),
               _game(("主", "反", "反", "忠", "反", "反"), (0, 3), first=1)]
    found = teams_of(Sided(), matches, 6)
    assert found is not None
    sides = {side.side: side for side in found.teams.sides}
    assert (sides["奸"].games, sides["奸"].wins, sides["奸"].rate) == (2, 1, 0.5)  # two renegade sides, one won
    assert sides["奸"].fair_share == pytest.approx(1 / 4)
    assert (sides["主側"].games, sides["主側"].wins, sides["主側"].seats) == (2, 1, 2)
    assert sides["主側"].fair_share == pytest.approx((1 / 4 + 1 / 2) / 2)
    assert sides["反"].rate == 0 and sides["反"].seats == 3
    assert found.label_fair["役"]["奸"] == pytest.approx(1 / 4)
    assert found.label_fair["将"]["将5"] == pytest.approx((1 / 4 + 1 / 2) / 2)
    assert found.seat_fair == pytest.approx([(1 / 4 + 1 / 2) / 2] * 6)  # every seat sat in both games
    assert teams_of(object(), matches, 6) is None


def _values(*counts: tuple[int, int]) -> Distribution:
    return Distribution(sum(c for _, c in counts), histogram=tuple(HistogramBin(v, v, c) for v, c in counts))


@pytest.mark.parametrize(("bins", "says"), [
    ([Bin(0, 0, 1782), Bin(1, 1, 1418)], "とる値は2通りだけ（0 が 1782 回、1 が 1418 回）"),
    ([Bin(3, 3, 50)], "とる値は1通りだけ（3 が 50 回）"),
    ([Bin(0, 0, 9), Bin(1, 1, 0), Bin(2, 2, 7)], "とる値は2通りだけ（0 が 9 回、2 が 7 回）"),
    ([Bin(0, 0, 1000), Bin(1, 1, 1002), Bin(2, 2, 999), Bin(3, 3, 999)], "のどの値もほぼ同じ回数"),
    ([Bin(0, 0, 57), Bin(1, 1, 95), Bin(2, 2, 1353)], None),
    ([Bin(0, 9, 5), Bin(10, 19, 7)], None),  # two wide bins: values of many kinds
])
def test_a_histogram_that_cannot_vary_is_a_sentence(bins: list[Bin], says: str | None) -> None:
    why = no_variation(bins)
    assert (why is None) == (says is None)
    if says is not None:
        assert says in why  # type: ignore[operator]


def test_a_synthetic_report_of_win_or_lose_points_draws_no_points_chart(tmp_path: Path) -> None:
    """gogyo's report with its points replaced by a 0/1 win indicator: the points are told in words, not
    drawn; with its real points, the chart is there."""
    real = small_report("gogyo", 6)
    win_or_lose = dataclasses.replace(real, scores=dataclasses.replace(real.scores, per_game=_values((0, 18), (1, 6))))
    styles = _styles("Helvetica", "Helvetica")
    flowables = {name: _histogram_or_words(_bins(report.scores.per_game), styles, title="得点", x_label="得点",
                                           font="Helvetica") for name, report in (("real", real), ("0/1", win_or_lose))}
    assert isinstance(flowables["real"], Drawing) and not isinstance(flowables["0/1"], Drawing)
    [pdf] = write_report(load_game(DEFAULT_DECKS_DIR, "gogyo"), win_or_lose, tmp_path)
    text = "".join(page.extract_text() for page in PdfReader(pdf.path).pages)
    assert "1ゲームの得点（全プレイヤー）：とる値は2通りだけ（0 が 18 回、1 が 6 回）" in text.replace("\n", "")
