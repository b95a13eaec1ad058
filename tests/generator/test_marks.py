"""Cut marks: centre crosses (センタートンボ) never touch the crop marks, whatever the column count."""
from __future__ import annotations

import pytest

from generator.imposition import plan_sheet
from generator.marks import draw_marks
from validator.geometry import mm_to_pt
from validator.model import CardSize
from validator.presets import PAPER_SIZES

Segment = tuple[float, float, float, float]  # x1, y1, x2, y2 in mm


class Recorder:
    """Just enough of a ReportLab canvas to record the lines drawn, in mm."""

    def __init__(self) -> None:
        self.lines: list[Segment] = []

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        self.lines.append(tuple(v / mm_to_pt(1) for v in (x1, y1, x2, y2)))  # type: ignore[arg-type]

    def saveState(self) -> None: ...  # noqa: N802 - ReportLab's names
    def restoreState(self) -> None: ...  # noqa: N802
    def setStrokeColor(self, colour: object) -> None: ...  # noqa: N802
    def setLineWidth(self, width: float) -> None: ...  # noqa: N802


def _gap(a: Segment, b: Segment) -> float:
    """Distance between two axis-aligned segments (0 when they touch or cross)."""
    dx = max(0.0, min(b[0], b[2]) - max(a[0], a[2]), min(a[0], a[2]) - max(b[0], b[2]))
    dy = max(0.0, min(b[1], b[3]) - max(a[1], a[3]), min(a[1], a[3]) - max(b[1], b[3]))
    return max(dx, dy)


@pytest.mark.parametrize(("card", "paper", "gutter"), [
    (CardSize(63, 88, 3, 3, 3), "a4", None),      # 3 columns: a cut-free middle
    (CardSize(15, 15, 3, 1.2, 2.5), "a4", 4.0),   # sangokushi's area markers: 10 columns, cuts at the middle
    (CardSize(22, 22, 3, 2, 3), "a4", 4.0),       # jinzai's order markers
    (CardSize(63, 88, 3, 3, 3), "a3", None),      # 4 columns and 4 rows
])
def test_centre_crosses_keep_clear_of_the_crop_marks(card: CardSize, paper: str, gutter: float | None) -> None:
    plan = plan_sheet(PAPER_SIZES[paper], card, gutter=gutter)
    recorder = Recorder()
    draw_marks(recorder, plan, "tombo")  # type: ignore[arg-type]
    xs, ys = plan.cut_lines()
    (left, bottom), (width, height) = plan.origin, plan.block
    bleed_lines = {round(left - card.bleed, 3), round(left + width + card.bleed, 3)}
    bleed_rows = {round(bottom - card.bleed, 3), round(bottom + height + card.bleed, 3)}

    def is_crop(s: Segment) -> bool:
        vertical = s[0] == s[2]
        at = round(s[0] if vertical else s[1], 3)
        return at in ({round(x, 3) for x in xs} | bleed_lines if vertical else {round(y, 3) for y in ys} | bleed_rows)

    crop = [s for s in recorder.lines if is_crop(s)]
    centre = [s for s in recorder.lines if not is_crop(s)]
    assert crop
    assert all(_gap(c, s) >= 0.5 for c in centre for s in crop), "a centre cross touches a crop mark"
    middle_x = left + width / 2
    if not any(abs(x - middle_x) < 6 for x in xs):
        assert any(s[0] == s[2] == pytest.approx(middle_x) for s in centre), "a clear middle keeps its cross"
