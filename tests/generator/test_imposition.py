"""Sheet geometry: counts from paper and card size, margins, mirrored backs, bleed between cards."""
from __future__ import annotations

import pytest

from generator.imposition import MIN_MARGIN_MM, SHEET_MARGIN_MM, ImpositionError, plan_sheet
from validator.model import CardSize
from validator.presets import CARD_SIZES, PAPER_SIZES

POKER = CardSize(63, 88, 3, 3, 3)


@pytest.mark.parametrize(("paper", "columns", "rows", "gutters", "edge"), [
    # 189 × 264 mm of cards on 210 × 297: 1 mm of bleed between columns still leaves 6.5 mm for marks;
    # rows have room for the full 3 mm
    ("a4", 3, 3, (2.0, 6.0), (2.0, 3.0)),
    # 215.9 × 279.4: rows have 4.7 mm for marks even edge to edge; 1 mm between rows keeps that
    ("letter", 3, 3, (4.0, 2.0), (2.95, 1.0)),
    ("a3", 4, 4, (6.0, 6.0), (3.0, 3.0)),      # A3 has room for full-bleed gutters at the same count
])
def test_poker_counts(paper: str, columns: int, rows: int, gutters: tuple[float, float],
                      edge: tuple[float, float]) -> None:
    plan = plan_sheet(PAPER_SIZES[paper], POKER)
    assert (plan.columns, plan.rows, plan.gutter, plan.gutter_y) == (columns, rows, *gutters)
    assert plan.edge == pytest.approx(edge)


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES))
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_the_chosen_gutters_never_cost_a_card_or_the_room_for_marks(paper: str, size: str) -> None:
    """Bleed between cards is bought with margin only: the count is that of cards edge to edge, and the
    margin outside the bleed is SHEET_MARGIN_MM or, on papers too tight for that, no less than before."""
    card = CardSize(*CARD_SIZES[size], 3, 3, 3)
    plan, shared = plan_sheet(PAPER_SIZES[paper], card), plan_sheet(PAPER_SIZES[paper], card, gutter=0)
    assert (plan.columns, plan.rows) == (shared.columns, shared.rows)
    assert plan.mark_room >= min(SHEET_MARGIN_MM, shared.mark_room) - 1e-9
    inner = plan.bleed(plan.slot(plan.per_page - 1))
    assert min(inner.left, inner.top) >= 0.5 or plan.gutter == 0 or plan.gutter_y == 0


def test_a4_poker_keeps_nine_cards_with_bleed_on_every_side_of_every_card() -> None:
    plan = plan_sheet(PAPER_SIZES["a4"], POKER)
    assert plan.per_page == 9
    for index in range(9):
        bleed = plan.bleed(plan.slot(index))
        assert min(bleed.left, bleed.right, bleed.top, bleed.bottom) >= 1.0
    # neighbours' trims are a gutter apart, so a 1 mm miscut shows the card's own bleed
    assert plan.slot(1).x - (plan.slot(0).x + POKER.width) == pytest.approx(2.0)
    assert plan.slot(0).y - (plan.slot(3).y + POKER.height) == pytest.approx(6.0)


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES))
@pytest.mark.parametrize("size", sorted(CARD_SIZES))
def test_every_slot_is_on_the_paper_with_margin(paper: str, size: str) -> None:
    card = CardSize(*CARD_SIZES[size], 3, 3, 3)
    plan = plan_sheet(PAPER_SIZES[paper], card)
    width, height = PAPER_SIZES[paper]
    boxes = []
    for index in range(plan.per_page):
        slot = plan.slot(index)
        edge_x, edge_y = plan.edge
        assert slot.x - edge_x >= MIN_MARGIN_MM - 1e-9
        assert slot.y - edge_y >= MIN_MARGIN_MM - 1e-9
        assert slot.x + card.width + edge_x <= width - MIN_MARGIN_MM + 1e-9
        assert slot.y + card.height + edge_y <= height - MIN_MARGIN_MM + 1e-9
        boxes.append((slot.x, slot.y, slot.x + card.width, slot.y + card.height))
    for n, a in enumerate(boxes):  # trim boxes never overlap
        for b in boxes[n + 1:]:
            assert a[2] <= b[0] + 1e-9 or b[2] <= a[0] + 1e-9 or a[3] <= b[1] + 1e-9 or b[3] <= a[1] + 1e-9


def test_no_wasted_row_or_column() -> None:
    """One more column or row would not fit within the margins."""
    plan = plan_sheet(PAPER_SIZES["a4"], POKER, gutter=0)
    width, height = PAPER_SIZES["a4"]
    assert (plan.columns + 1) * POKER.width + plan.columns * plan.gutter + 2 * (MIN_MARGIN_MM + 3) > width
    assert (plan.rows + 1) * POKER.height + plan.rows * plan.gutter + 2 * (MIN_MARGIN_MM + 3) > height


def test_slots_read_left_to_right_top_to_bottom() -> None:
    plan = plan_sheet(PAPER_SIZES["a4"], POKER)
    first, second, fourth = plan.slot(0), plan.slot(1), plan.slot(3)
    assert second.x > first.x and second.y == first.y
    assert fourth.y < first.y and fourth.x == first.x


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES))
def test_back_registers_behind_front_after_long_edge_flip(paper: str) -> None:
    plan = plan_sheet(PAPER_SIZES[paper], POKER)
    width = PAPER_SIZES[paper][0]
    for index in range(plan.per_page):
        front, back = plan.slot(index), plan.back_slot(index)
        # flipping the sheet about its vertical axis maps x to width - x
        assert width - (back.x + POKER.width) == pytest.approx(front.x)
        assert back.y == pytest.approx(front.y)


def test_bleed_is_full_outside_and_shared_between_cards() -> None:
    plan = plan_sheet(PAPER_SIZES["a4"], POKER, gutter=0)  # --gutter 0: neighbours share a cut
    corner, middle = plan.bleed(plan.slot(0)), plan.bleed(plan.slot(4))
    assert (corner.left, corner.top) == (3, 3)
    assert (corner.right, corner.bottom) == (0, 0)
    assert (middle.left, middle.right, middle.top, middle.bottom) == (0, 0, 0, 0)
    roomy = plan_sheet(PAPER_SIZES["a3"], POKER)  # gutter 6: every card keeps its 3 mm bleed
    inner = roomy.bleed(roomy.slot(5))
    assert (inner.left, inner.right, inner.top, inner.bottom) == (3, 3, 3, 3)


def test_explicit_gutter_is_used() -> None:
    plan = plan_sheet(PAPER_SIZES["a4"], CardSize(44, 63, 3, 3, 3), gutter=2)
    assert plan.gutter == 2
    assert plan.slot(1).x - plan.slot(0).x == pytest.approx(46)


def test_card_too_large_for_paper() -> None:
    with pytest.raises(ImpositionError, match="does not fit"):
        plan_sheet(PAPER_SIZES["a4"], CardSize(250, 280, 3, 3, 3))


def test_cut_lines_follow_card_edges() -> None:
    plan = plan_sheet(PAPER_SIZES["a4"], POKER, gutter=0)
    xs, ys = plan.cut_lines()
    assert len(xs) == 4 and len(ys) == 4  # gutter 0: neighbours share a cut
    assert xs[1] - xs[0] == pytest.approx(63)
    assert ys[1] - ys[0] == pytest.approx(88)


def test_a_layout_gutter_keeps_kiss_cut_stickers_apart():
    """jinzai's 17 mm stickers: the planner alone packs them edge to edge; the layout's gutter separates them."""
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR
    stickers = next(d for d in load_game(DEFAULT_DECKS_DIR, "jinzai").decks if d.id == "stickers")
    layout = stickers.layout
    assert plan_sheet((210.0, 297.0), layout.size).gutter < 2 * layout.size.bleed
    plan = plan_sheet((210.0, 297.0), layout.size, gutter=layout.gutter)
    assert plan.gutter == 2 * layout.size.bleed and plan.per_page >= 40


def test_a_deck_smaller_than_one_page_gets_a_grid_of_its_own_size() -> None:
    """A lone card (or a few) is centred with cut marks around it, not around empty slots."""
    plan = plan_sheet(PAPER_SIZES["a4"], POKER)
    assert plan.fitted_to(plan.per_page) is plan and plan.fitted_to(100) is plan
    one = plan.fitted_to(1)
    assert (one.columns, one.rows) == (1, 1)
    assert one.slot(0).x == pytest.approx((210 - 63) / 2) and one.slot(0).y == pytest.approx((297 - 88) / 2)
    xs, ys = one.cut_lines()
    assert len(xs) == 2 and len(ys) == 2
    four = plan.fitted_to(4)
    assert (four.columns, four.rows) == (3, 2)
    assert four.back_slot(0).x == pytest.approx(210 - four.slot(0).x - 63)  # backs still register
