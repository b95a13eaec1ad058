"""Write a rulebook PDF: page setup, styles, running header and page numbers around the block story.

Pages are A5 by default (rulebook.json page.size): the size of most doujin card-game rulebooks,
printed two-up on A4 and folded into the box, with a comfortable line of about 37 characters
at 9 pt. The text column is a whole number of em wide, so full-width Japanese lines end flush
without justification.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, NextPageTemplate, PageBreak, PageTemplate, Spacer

from validator.engine.registry import find_oracle
from validator.geometry import mm_to_pt
from validator.model import Game, HandExample, Rulebook
from validator.presets import RULEBOOK_PAGE_SIZES
from validator.rulebooks import resolve_color

from .card_face import FaceRenderer
from .colors import to_reportlab
from .deck_pdf import WrittenFile
from .pdfdoc import atomic_path
from .rulebook_story import StorySettings, build_story

_HEADER_MM = 8.5  # header baseline below the page top
_FOOTER_MM = 7.5  # page number baseline above the page bottom


def write_rulebook(path: Path, name: str, game: Game, book: Rulebook, *, fonts: Mapping[str, str],
                   renderers: dict[str, FaceRenderer], pdfx: str | None) -> WrittenFile:
    """Typeset `book` into `path` (written atomically); `fonts` maps game font keys to registered names."""
    page_mm = RULEBOOK_PAGE_SIZES[book.page_size]
    page = (mm_to_pt(page_mm[0]), mm_to_pt(page_mm[1]))
    size = book.text_size
    column = int((page[0] - 2 * mm_to_pt(book.margin)) // size) * size  # a whole number of em
    colors = {role: to_reportlab(resolve_color(spec, game.palette)) for role, spec in book.colors.items()}
    names = {role: fonts[getattr(book.fonts, role)] for role in ("body", "heading", "strong", "label")}
    settings = StorySettings(
        styles=make_styles(names, colors, size), colors=colors, strong_font=names["strong"],
        label_font=names["label"], width=column, height=page[1] - 2 * mm_to_pt(book.margin), renderers=renderers,
        resolve_hand=_hand_resolver(game, book), example_labels=book.example_labels,
    )
    with atomic_path(path) as temporary:
        doc = _RulebookDoc(temporary, game=game, book=book, page=page, column=column, names=names, colors=colors,
                           pdfx=pdfx)
        doc.build([NextPageTemplate("later"), *build_story(game, book, settings)])
        blank = -doc.page % PAGES_PER_SIGNATURE
        if blank:  # typeset again (a story is used up by a build) with blank pages to fill the last sheet
            doc = _RulebookDoc(temporary, game=game, book=book, page=page, column=column, names=names,
                               colors=colors, pdfx=pdfx)
            padding: list[Flowable] = [NextPageTemplate("blank")]
            for _ in range(blank):
                padding += [PageBreak(), Spacer(1, 1)]
            doc.build([NextPageTemplate("later"), *build_story(game, book, settings), *padding])
    return WrittenFile(path, name, doc.page, page_mm)


# A folded booklet is sheets of four pages; a shop binds nothing else (saddle stitch or not).
PAGES_PER_SIGNATURE = 4
MEMO = "メモ"  # the pages left over on the last sheet become ruled notes pages
MEMO_LINE_MM = 8.0
MEMO_RULE_PT = 0.4  # 0.14 mm: above the 0.1 mm a press holds


def _hand_resolver(game: Game, book: Rulebook) -> Callable[[Sequence[str]], tuple[tuple[str, ...], ...]]:
    """Hand tokens -> card-id stacks through the game's rules engine (asked only if an example shows cards)."""
    if not any(isinstance(b, HandExample) and b.show_cards for b in book.blocks):
        return lambda tokens: ()
    oracle = find_oracle(game)
    assert oracle is not None  # the rulebook check refuses examples without one
    return oracle.card_stacks


def make_styles(fonts: Mapping[str, str], colors: Mapping[str, Color], size: float) -> dict[str, ParagraphStyle]:
    """Every paragraph style of the rulebook, scaled from the body text size."""
    ink, accent = colors["ink"], colors["accent"]

    def style(name: str, font: str, scale: float, leading: float = 1.7, **more: Any) -> ParagraphStyle:
        options: dict[str, Any] = {"textColor": ink, "alignment": TA_LEFT, **more}
        return ParagraphStyle(name, fontName=fonts[font], fontSize=size * scale,
                              leading=size * scale * leading, wordWrap="CJK", **options)

    justified = {"alignment": TA_JUSTIFY}  # running text is flush at both edges (validator.compose)
    return {
        "body": style("body", "body", 1.0, 1.75, firstLineIndent=size, spaceAfter=size * 0.4, **justified),
        "lead": style("lead", "body", 1.05, 1.8, spaceAfter=size * 0.8, **justified),
        "note": style("note", "label", 0.88, 1.65, spaceBefore=size * 0.2, spaceAfter=size * 0.6, **justified),
        "item": style("item", "body", 1.0, 1.65, spaceAfter=size * 0.15, **justified),
        "h1": style("h1", "heading", 1.4, 1.35, textColor=colors["on_accent"], backColor=accent,
                    borderPadding=(size * 0.45, size * 0.6, size * 0.3, size * 0.6),
                    leftIndent=size * 0.6, rightIndent=size * 0.6,  # the padded band spans the column
                    spaceBefore=size * 1.8, spaceAfter=size * 1.0, keepWithNext=1),
        "h2": style("h2", "heading", 1.15, 1.4, textColor=accent, spaceBefore=size * 0.9,
                    spaceAfter=size * 0.35, keepWithNext=1),
        "h3": style("h3", "heading", 1.0, 1.4, spaceBefore=size * 0.6, spaceAfter=size * 0.2, keepWithNext=1),
        "caption": style("caption", "label", 0.85, 1.5, alignment=TA_CENTER, spaceBefore=size * 0.35,
                         spaceAfter=size * 0.9),
        "table_head": style("table_head", "label", 0.92, 1.35, alignment=TA_CENTER, textColor=colors["on_accent"]),
        "table_cell": style("table_cell", "label", 0.92, 1.45),
        "table_cell_center": style("table_cell_center", "label", 0.92, 1.45, alignment=TA_CENTER),
        "example_title": style("example_title", "heading", 1.0, 1.5, textColor=accent, spaceAfter=size * 0.2),
        "example_hand": style("example_hand", "label", 0.92, 1.55),
        "example_text": style("example_text", "body", 0.9, 1.6, spaceBefore=size * 0.1, **justified),
        "example_points": style("example_points", "label", 1.0, 1.5, spaceBefore=size * 0.3),
        "cover_title": style("cover_title", "heading", 2.3, 1.3, alignment=TA_CENTER, spaceAfter=size * 0.5),
        "cover_subtitle": style("cover_subtitle", "label", 1.25, 1.4, alignment=TA_CENTER, textColor=accent,
                                spaceAfter=size * 0.4),
        "cover_meta": style("cover_meta", "label", 0.95, 1.5, alignment=TA_CENTER),
    }


class _RulebookDoc(BaseDocTemplate):  # type: ignore[misc]  # ReportLab is untyped
    """Invariant, compressed, starting on an embedded font; page 1 has no running header."""

    def __init__(self, path: Path, *, game: Game, book: Rulebook, page: tuple[float, float], column: float,
                 names: Mapping[str, str], colors: Mapping[str, Color], pdfx: str | None) -> None:
        margin = mm_to_pt(book.margin)
        left = (page[0] - column) / 2
        super().__init__(
            str(path), pagesize=page, leftMargin=left, rightMargin=left, topMargin=margin, bottomMargin=margin,
            title=f"{game.title} {book.title}", author=", ".join(game.credits.values()), creator="fudaya",
            producer="fudaya (ReportLab)", invariant=1, pageCompression=1,
            initialFontName=names["body"], initialFontSize=book.text_size,
        )
        self.game, self.book, self.names, self.colors, self.pdfx = game, book, names, colors, pdfx
        self.chapter = ""  # the chapter whose heading came last
        self._top_chapter = ""  # the chapter the running header names on this page
        self._page_fresh = True
        frame = Frame(left, margin, column, page[1] - 2 * margin, id="text",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("first", [frame], onPageEnd=self._decorate),
                               PageTemplate("later", [frame], onPageEnd=self._decorate),
                               PageTemplate("blank", [frame], onPageEnd=self._memo)])  # the last sheet's rest

    def beforeDocument(self) -> None:  # ReportLab's name; runs on each pass's new canvas
        if self.pdfx is not None:
            from .pdfx import declare

            declare(self.canv, self.pdfx)  # pages have no bleed: trim and bleed are the page

    def handle_pageBegin(self) -> None:  # ReportLab's name
        self._top_chapter = self.chapter
        self._page_fresh = True
        super().handle_pageBegin()

    def afterFlowable(self, flowable: Flowable) -> None:  # ReportLab's name
        """The header names the chapter running at the top of the page, or the one opening it."""
        chapter = getattr(flowable, "chapter", None)
        if chapter is not None:
            if self._page_fresh:
                self._top_chapter = chapter
            self.chapter = chapter
        if getattr(flowable, "height", 0) or chapter is not None:
            self._page_fresh = False

    def _memo(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        """A page the story leaves over on the last sheet of four: a ruled notes page (メモ), as Japanese
        rulebooks end, rather than a blank page a reader takes for a printing fault."""
        self._top_chapter = MEMO
        self._decorate(canvas, doc)
        width, height = self.pagesize
        left, right = self.leftMargin, width - self.rightMargin
        top, bottom = height - self.topMargin, self.bottomMargin
        canvas.saveState()
        canvas.setFillColor(self.colors["accent"])
        canvas.setFont(self.names["heading"], self.book.text_size * 1.4)
        canvas.drawString(left, top - self.book.text_size * 1.4, MEMO)
        canvas.setStrokeColor(self.colors["accent"])
        canvas.setLineWidth(MEMO_RULE_PT)
        y = top - self.book.text_size * 1.4 - mm_to_pt(MEMO_LINE_MM)
        while y >= bottom:
            canvas.line(left, y, right, y)
            y -= mm_to_pt(MEMO_LINE_MM)
        canvas.restoreState()

    def _decorate(self, canvas: Canvas, doc: BaseDocTemplate) -> None:
        width, height = self.pagesize
        left, right = self.leftMargin, width - self.rightMargin
        size = self.book.text_size * 0.8
        canvas.saveState()
        canvas.setFillColor(self.colors["ink"])
        canvas.setFont(self.names["label"], size)
        canvas.drawCentredString(width / 2, mm_to_pt(_FOOTER_MM), str(doc.page))
        if doc.page > 1:
            baseline = height - mm_to_pt(_HEADER_MM)
            canvas.drawString(left, baseline, self.game.title)
            if self._top_chapter:
                canvas.drawRightString(right, baseline, self._top_chapter)
            canvas.setStrokeColor(self.colors["accent"])
            canvas.setLineWidth(0.5)
            canvas.line(left, baseline - size * 0.6, right, baseline - size * 0.6)
        canvas.restoreState()


__all__ = ["make_styles", "write_rulebook"]
