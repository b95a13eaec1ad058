"""Ganged sheets: pieces of several components packed on shared paper, each with its own bleed and
corner marks that never reach into another piece's bleed; backs registered for a long-edge flip."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from generator.gang import MARGIN_MM, GangError, Piece, Placed, corner_marks, pack
from validator.checks import check_game
from validator.loader import load_game
from validator.model import CardSize
from validator.paths import DEFAULT_DECKS_DIR

A4 = (210.0, 297.0)


def _pieces(count: int, size: CardSize, deck: str = "d", two_sided: bool = True) -> list[Piece]:
    return [Piece(deck, f"c{n}", 1, size, two_sided) for n in range(count)]


def _bleed_box(p: Placed) -> tuple[float, float, float, float]:
    b, s = p.piece.size.bleed, p.piece.size
    return p.x - b, p.y - b, p.x + s.width + b, p.y + s.height + b


def _inside(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    return box[0] + 1e-9 < x < box[2] - 1e-9 and box[1] + 1e-9 < y < box[3] - 1e-9


def test_jinzai_card_stock_fits_one_sheet_in_game_json_order() -> None:
    pieces = (_pieces(1, CardSize(180, 110, 3, 5, 4), "zaiya", False) + _pieces(4, CardSize(22, 22, 3, 2, 3), "order")
              + _pieces(4, CardSize(13, 13, 3, 1.2, 2.5), "vp"))
    placed = pack(A4, pieces)
    assert {p.sheet for p in placed} == {0}
    assert [p.piece.deck for p in placed] == ["zaiya"] + ["order"] * 4 + ["vp"] * 4


@pytest.mark.parametrize("size", [CardSize(63, 88, 3, 3, 3), CardSize(22, 22, 3, 2, 3), CardSize(13, 13, 3, 1, 2)])
def test_pieces_stay_on_the_paper_apart_and_their_marks_stay_out_of_every_bleed(size: CardSize) -> None:
    placed = pack(A4, _pieces(40, size))
    for sheet in {p.sheet for p in placed}:
        here = [p for p in placed if p.sheet == sheet]
        boxes = [_bleed_box(p) for p in here]
        for n, a in enumerate(boxes):
            assert a[0] >= MARGIN_MM and a[1] >= MARGIN_MM and a[2] <= A4[0] - MARGIN_MM and a[3] <= A4[1] - MARGIN_MM
            for b in boxes[n + 1:]:  # bleeds never overlap: each piece keeps its own
                assert a[2] <= b[0] + 1e-9 or b[2] <= a[0] + 1e-9 or a[3] <= b[1] + 1e-9 or b[3] <= a[1] + 1e-9
        for p in here:
            marks = corner_marks(p)
            assert len(marks) == 8
            for x1, y1, x2, y2 in marks:
                for box in boxes:
                    assert not _inside(x1, y1, box) and not _inside(x2, y2, box)
                assert 0 < min(x1, x2) and max(x1, x2) < A4[0] and 0 < min(y1, y2) and max(y1, y2) < A4[1]


def test_a_full_sheet_continues_on_the_next_and_backs_mirror() -> None:
    placed = pack(A4, _pieces(12, CardSize(63, 88, 3, 3, 3)))
    # a poker card takes 75 × 100 mm with bleed and mark lanes: 2 × 2 on A4, so three sheets
    assert [p.sheet for p in placed] == [0] * 4 + [1] * 4 + [2] * 4
    for p in placed:
        assert A4[0] - (p.back_x(A4[0]) + 63) == pytest.approx(p.x)


def test_a_piece_larger_than_the_paper_is_refused() -> None:
    with pytest.raises(GangError, match="takes 217×112 mm and does not fit the 200×287 mm inside the 5 mm margins "
                                         "of 210×297 mm paper"):
        pack(A4, _pieces(1, CardSize(205, 100, 3, 3, 3)))


def _jinzai_with_gang(tmp_path: Path, component: str, gang: str) -> list[str]:
    shutil.copytree(DEFAULT_DECKS_DIR / "jinzai", tmp_path / "jinzai")
    path = tmp_path / "jinzai" / "game.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    next(c for c in data["components"] if c["id"] == component)["gang"] = gang
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return [i.render() for i in check_game(load_game(tmp_path, "jinzai")).issues if i.code == "output-collision"]


def test_a_gang_may_not_write_over_another_component_s_file(tmp_path: Path) -> None:
    found = _jinzai_with_gang(tmp_path, "summary-cards", "stickers")
    assert len(found) == 1 and "would write stickers.pdf, which component 'stickers' writes too" in found[0]


def test_members_of_one_gang_share_its_file(tmp_path: Path) -> None:
    assert _jinzai_with_gang(tmp_path, "summary-cards", "card-stock") == []
