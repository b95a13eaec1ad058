"""Paginate a deck: n-up duplex sheets (fronts, then mirrored backs) and one-card-per-page print-shop files."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from validator.geometry import mm_to_pt
from validator.model import CardCopy, Deck

from .card_face import Bleed, FaceRenderer
from .imposition import SheetPlan
from .marks import draw_marks
from .pdfdoc import atomic_path, new_canvas

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Placement:
    """Where one side of one physical card was printed (trim box, mm, origin bottom-left of the page)."""

    card: str
    copy: int
    file: str
    page: int
    side: str
    x: float
    y: float
    width: float
    height: float

    def as_json(self) -> dict[str, object]:
        return {"card": self.card, "copy": self.copy, "file": self.file, "page": self.page, "side": self.side,
                "x": round(self.x, 3), "y": round(self.y, 3),
                "width": round(self.width, 3), "height": round(self.height, 3)}


@dataclass(frozen=True)
class WrittenFile:
    path: Path
    name: str  # as listed in build.json, relative to the output folder
    pages: int
    page_size: tuple[float, float]  # mm


def write_sheets(path: Path, name: str, deck: Deck, renderer: FaceRenderer, plan: SheetPlan, *,
                 marks: str, title: str, initial_font: str, progress: Progress,
                 pdfx: str | None) -> tuple[WrittenFile, list[Placement]]:
    """Page 1 fronts, page 2 their backs mirrored for a long-edge flip, and so on (fronts only for sheets).

    The TrimBox is the card block and the BleedBox the block with its edge bleed: a shop that cuts the
    sheet sees where the cards are; each card's own cut lines are the crop marks."""
    copies = deck.copies()
    placements: list[Placement] = []
    pages = 0
    size = deck.layout.size
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (mm_to_pt(plan.paper[0]), mm_to_pt(plan.paper[1])), initial_font, title=title,
                            pdfx=pdfx)
        (left, bottom), (width, height), (edge_x, edge_y) = plan.origin, plan.block, plan.edge
        canvas.setTrimBox(tuple(mm_to_pt(v) for v in (left, bottom, left + width, bottom + height)))
        canvas.setBleedBox(tuple(mm_to_pt(v) for v in (left - edge_x, bottom - edge_y,
                                                        left + width + edge_x, bottom + height + edge_y)))
        for start in range(0, len(copies), plan.per_page):
            batch = copies[start:start + plan.per_page]
            for side in ("front", "back") if deck.has_backs else ("front",):
                pages += 1
                for index, copy in enumerate(batch):
                    slot = plan.slot(index) if side == "front" else plan.back_slot(index)
                    bleed = plan.bleed(plan.slot(index))
                    template = copy.card.face if side == "front" else copy.card.back
                    renderer.draw(canvas, copy.card, template, slot.x, slot.y,
                                  bleed if side == "front" else bleed.mirrored())
                    placements.append(Placement(copy.card.id, copy.copy, name, pages, side, slot.x, slot.y,
                                                size.width, size.height))
                    progress(1)
                draw_marks(canvas, plan, marks)
                canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, pages, plan.paper), placements


def write_printshop(path: Path, name: str, deck: Deck, renderer: FaceRenderer, *,
                    title: str, initial_font: str, progress: Progress,
                    pdfx: str | None) -> tuple[WrittenFile, list[Placement]]:
    """One page per side, exactly trim + bleed, with TrimBox and BleedBox set: front, back, front, back…"""
    size = deck.layout.size
    page = (size.bleed_width, size.bleed_height)
    full = Bleed(size.bleed, size.bleed, size.bleed, size.bleed)
    trim_box = (mm_to_pt(size.bleed), mm_to_pt(size.bleed),
                mm_to_pt(size.bleed + size.width), mm_to_pt(size.bleed + size.height))
    bleed_box = (0, 0, mm_to_pt(page[0]), mm_to_pt(page[1]))
    placements: list[Placement] = []
    pages = 0
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (mm_to_pt(page[0]), mm_to_pt(page[1])), initial_font, title=title,
                            pdfx=pdfx)
        for copy in deck.copies():
            for side, template in (("front", copy.card.face), ("back", copy.card.back)):
                pages += 1
                canvas.setTrimBox(trim_box)
                canvas.setBleedBox(bleed_box)
                renderer.draw(canvas, copy.card, template, size.bleed, size.bleed, full)
                placements.append(Placement(copy.card.id, copy.copy, name, pages, side, size.bleed, size.bleed,
                                            size.width, size.height))
                progress(1)
                canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, pages, page), placements


def count_sides(deck: Deck) -> int:
    return (2 if deck.has_backs else 1) * len(deck.copies())


__all__ = ["CardCopy", "Placement", "WrittenFile", "count_sides", "write_printshop", "write_sheets"]
