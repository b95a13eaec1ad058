"""Paginate a deck: n-up duplex sheets (fronts, then mirrored backs) and one-card-per-page print-shop files."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from validator.geometry import mm_to_pt
from validator.model import CardCopy, Deck
from validator.shopfiles import shop_bleed

from .card_face import Bleed, FaceRenderer
from .file_use import HOME, SHOP
from .gang import Piece, Placed, corner_marks, pack
from .imposition import SheetPlan
from .marks import draw_marks, draw_segments
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
    use: str = HOME  # a USES key


def write_sheets(path: Path, name: str, deck: Deck, renderer: FaceRenderer, plan: SheetPlan, *,
                 marks: str, title: str, initial_font: str, progress: Progress,
                 pdfx: str | None, use: str = HOME) -> tuple[WrittenFile, list[Placement]]:
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
    return WrittenFile(path, name, pages, plan.paper, use), placements


def write_printshop(path: Path, name: str, deck: Deck, renderer: FaceRenderer, *,
                    title: str, initial_font: str, progress: Progress,
                    pdfx: str | None) -> tuple[WrittenFile, list[Placement]]:
    """One page per side, exactly trim + bleed, with TrimBox and BleedBox set: front, back, front, back…
    (fronts only for a sheet). The bleed is the shop's (validator/shopfiles.py): a layout keeping less
    for its home sheets has its bleeding art stretched to it here."""
    layout = deck.layout
    bleed = shop_bleed(layout.size.bleed)
    if bleed != layout.size.bleed:
        renderer = replace(renderer, layout=replace(layout, size=replace(layout.size, bleed=bleed)), _forms={})
    size = renderer.layout.size
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
            sides = (("front", copy.card.face), ("back", copy.card.back))
            for side, template in sides if deck.has_backs else sides[:1]:
                pages += 1
                canvas.setTrimBox(trim_box)
                canvas.setBleedBox(bleed_box)
                renderer.draw(canvas, copy.card, template, size.bleed, size.bleed, full)
                placements.append(Placement(copy.card.id, copy.copy, name, pages, side, size.bleed, size.bleed,
                                            size.width, size.height))
                progress(1)
                canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, pages, page, SHOP), placements


def write_gang(path: Path, name: str, decks: Sequence[Deck], renderers: Mapping[str, FaceRenderer],
               paper: tuple[float, float], *, title: str, initial_font: str, progress: Progress,
               pdfx: str | None) -> tuple[WrittenFile, list[Placement]]:
    """The decks' pieces packed together (gang.pack): a page of fronts with each piece's corner marks,
    then, when any piece there has a back, a page of backs mirrored for a long-edge flip."""
    pieces = [Piece(deck.id, copy.card.id, copy.copy, deck.layout.size, deck.has_backs)
              for deck in decks for copy in deck.copies()]
    placed = pack(paper, pieces)
    cards = {(deck.id, card.id): card for deck in decks for card in deck.cards}
    placements: list[Placement] = []
    pages = 0
    with atomic_path(path) as temporary:
        canvas = new_canvas(temporary, (mm_to_pt(paper[0]), mm_to_pt(paper[1])), initial_font, title=title, pdfx=pdfx)
        for sheet in range(placed[-1].sheet + 1 if placed else 0):
            here = [p for p in placed if p.sheet == sheet]
            for side in ("front", "back"):
                shown = [p for p in here if side == "front" or p.piece.two_sided]
                if not shown:
                    continue
                pages += 1
                _gang_boxes(canvas, shown, paper, mirrored=side == "back")
                for item in shown:
                    piece, card = item.piece, cards[(item.piece.deck, item.piece.card)]
                    size = piece.size
                    full = Bleed(size.bleed, size.bleed, size.bleed, size.bleed)
                    x = item.x if side == "front" else item.back_x(paper[0])
                    template = card.face if side == "front" else card.back
                    renderers[piece.deck].draw(canvas, card, template, x, item.y, full)
                    placements.append(Placement(card.id, piece.copy, name, pages, side, x, item.y,
                                                size.width, size.height))
                    progress(1)
                if side == "front":
                    draw_segments(canvas, [line for item in shown for line in corner_marks(item)])
                canvas.showPage()
        canvas.save()
    return WrittenFile(path, name, pages, paper), placements


def _gang_boxes(canvas: Canvas, shown: Sequence[Placed], paper: tuple[float, float], *, mirrored: bool) -> None:
    """TrimBox around every piece on the page, BleedBox around their bleeds (PDF/X asks for both)."""
    def left(p: Placed) -> float:
        return p.back_x(paper[0]) if mirrored else p.x
    bleed = max(p.piece.size.bleed for p in shown)
    low_x, low_y = min(left(p) for p in shown), min(p.y for p in shown)
    high_x = max(left(p) + p.piece.size.width for p in shown)
    high_y = max(p.y + p.piece.size.height for p in shown)
    canvas.setTrimBox(tuple(mm_to_pt(v) for v in (low_x, low_y, high_x, high_y)))
    canvas.setBleedBox(tuple(mm_to_pt(v) for v in (low_x - bleed, low_y - bleed, high_x + bleed, high_y + bleed)))


def count_sides(deck: Deck) -> int:
    return (2 if deck.has_backs else 1) * len(deck.copies())


__all__ = ["CardCopy", "Placement", "WrittenFile", "count_sides", "write_gang", "write_printshop", "write_sheets"]
