"""Rulebook blocks -> platypus flowables: FLOWABLES_BY_TYPE maps each block type to its builder."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib.colors import CMYKColor, Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    HRFlowable,
    KeepTogether,
    ListItem,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)

from validator.faces import part_box
from validator.geometry import mm_to_pt
from validator.model import (
    Callout,
    Card,
    CardFigure,
    CardTable,
    Clarifications,
    Game,
    HandExample,
    Heading,
    Layout,
    ListBlock,
    Rulebook,
    RulebookBlock,
    TableBlock,
)
from validator.model import PageBreak as PageBreakBlock
from validator.model import Paragraph as ParagraphBlock
from validator.rulebooks import (
    answer_template,
    answer_text,
    card_table_rows,
    cover_values,
    fill,
    plain_text,
    recommended_note,
    split_emphasis,
)

from .card_face import FaceRenderer
from .kinsoku import KinsokuParagraph
from .rulebook_flowables import CalloutStyle, CardRow, FirstLineList, Pointer

_LONG_CELL = 8  # a column holding a cell longer than this many characters is set flush left
PAPER_WHITE = CMYKColor(0, 0, 0, 0)  # a callout's leader line is drawn over a halo of it
_CALLOUT_INSET, _CALLOUT_INSET_MM = 0.15, 3.0  # how far inside its part's box a leader line ends
_FIGURE_SLACK_MM = 2.0  # a card figure is at most the column's height less this (the spacer above it)
_EXAMPLE_STACK_MM = 46.0  # the tallest stack of cards an example draws (a single 16 mm poker card is 22 mm)


@dataclass(frozen=True)
class StorySettings:
    """What every builder needs: styles by name, colours, fonts, the column width and card drawing."""

    styles: dict[str, ParagraphStyle]
    colors: dict[str, Color]
    strong_font: str
    label_font: str
    width: float  # column width, pt
    height: float  # column (frame) height, pt: no figure may be taller
    renderers: dict[str, FaceRenderer]  # deck id -> renderer
    resolve_hand: Callable[[Sequence[str]], tuple[tuple[str, ...], ...]]  # hand tokens -> card-id stacks (the engine's)
    example_labels: Mapping[str, str]

    def para(self, text: str, style: str) -> KinsokuParagraph:
        """A paragraph of rulebook text, **strong** runs set in the strong font."""
        return KinsokuParagraph(self.markup(text), self.styles[style])

    def lines(self, text: str, style: str) -> KinsokuParagraph:
        """Like para, each "\n" a line break (a table cell's name over its reading)."""
        return KinsokuParagraph("<br/>".join(self.markup(line) for line in text.split("\n")), self.styles[style])

    @property
    def cell_font(self) -> tuple[str, tuple[int, int], tuple[int, int], str]:
        """Table style command: cells start on an embedded font (ReportLab's default is Helvetica)."""
        return ("FONTNAME", (0, 0), (-1, -1), self.label_font)

    @property
    def cell_ink(self) -> tuple[str, tuple[int, int], tuple[int, int], Color]:
        """Table style command: cells start on the deck's ink (ReportLab's default is RGB black)."""
        return ("TEXTCOLOR", (0, 0), (-1, -1), self.colors["ink"])

    def markup(self, text: str) -> str:
        parts = []
        for run, strong in split_emphasis(text):
            run = escape(run)
            parts.append(f'<font face="{self.strong_font}">{run}</font>' if strong else run)
        return "".join(parts)


Builder = Callable[[RulebookBlock, Game, StorySettings], list[Flowable]]


def build_story(game: Game, book: Rulebook, settings: StorySettings) -> list[Flowable]:
    """The cover, then every block in order."""
    story = cover(game, book, settings)
    for block in book.blocks:
        _append_keeping_headings(story, FLOWABLES_BY_TYPE[type(block)](block, game, settings))
    return story


def _append_keeping_headings(story: list[Flowable], new: list[Flowable]) -> None:
    """Append `new`; a heading just before a kept-together block joins it, so it never ends a page alone
    (ReportLab's keepWithNext does not reach into a KeepTogether)."""
    if new and isinstance(new[0], KeepTogether):
        headings: list[Flowable] = []
        while story and isinstance(story[-1], KinsokuParagraph) and story[-1].getKeepWithNext():
            headings.insert(0, story.pop())
        if headings:
            new = [KeepTogether(headings + list(new[0]._content)), *new[1:]]
    story.extend(new)


def cover(game: Game, book: Rulebook, settings: StorySettings) -> list[Flowable]:
    """Title, subtitle, players/time/age line and lead on top of page 1."""
    values = cover_values(game)
    out: list[Flowable] = [KinsokuParagraph(escape(game.title), settings.styles["cover_title"])]
    for key, style in (("subtitle", "cover_subtitle"), ("meta", "cover_meta")):
        if key in book.cover:
            out.append(KinsokuParagraph(escape(fill(book.cover[key], values, source="game.json")),
                                        settings.styles[style]))
            note = recommended_note(game, book.cover[key]) if key == "meta" else None
            if note:
                out.append(KinsokuParagraph(escape(note), settings.styles["cover_meta"]))
    out.append(HRFlowable(width="100%", thickness=0.8, color=settings.colors["accent"],
                          spaceBefore=4, spaceAfter=8))
    if "lead" in book.cover:
        out.append(settings.para(book.cover["lead"], "lead"))
    return out


def _heading(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, Heading)
    return _heading_flowables(block.text, block.level, settings)


def _heading_flowables(text: str, level: int, settings: StorySettings) -> list[Flowable]:
    para = settings.para(text, f"h{level}")
    if level == 1:
        para.chapter = plain_text(text)  # read by the running header
        return [CondPageBreak(mm_to_pt(40)), para]
    return [para]


def _paragraph(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, ParagraphBlock)
    return [settings.para(block.text, block.style)]


def _list(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, ListBlock)
    return [_list_flowable(block.items, block.ordered, settings, start=block.start)]


def _list_flowable(items: Sequence[str], ordered: bool, settings: StorySettings, *, start: int = 1) -> FirstLineList:
    size = settings.styles["body"].fontSize
    entries = [ListItem(settings.para(item, "item")) for item in items]
    common = {"leftIndent": size * 2, "bulletColor": settings.colors["accent"], "spaceAfter": size * 0.5}
    if ordered:
        return FirstLineList(entries, bulletType="1", start=start, bulletFormat="%s.",
                            bulletFontName=settings.strong_font, bulletFontSize=size * 0.95, **common)
    return FirstLineList(entries, bulletType="bullet", start="●", bulletFontName=settings.label_font,
                        bulletFontSize=size * 0.55, bulletOffsetY=-size * 0.2, **common)


def _table(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, TableBlock)
    return _table_flowables(block.header, block.rows, block.widths, block.caption, settings)


def _card_table(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    """A table of a deck's cards, a row each, written from their fields (the rulebook check has bound them)."""
    assert isinstance(block, CardTable)
    deck = game.find_deck(block.deck)
    assert deck is not None  # the rulebook check has resolved it
    rows = card_table_rows(block, deck.cards)
    return _table_flowables(block.header, rows, block.widths, block.caption, settings, keep_together=False)


def _table_flowables(header: Sequence[str], rows: Sequence[Sequence[str]], weights_given: Sequence[float] | None,
                     caption: str | None, settings: StorySettings, *, keep_together: bool = True) -> list[Flowable]:
    """A table whose cells are rulebook text ("\n" breaks a line), its header repeated on each page it
    runs onto; a written table is kept whole on one page, a deck's (keep_together false) may split."""
    columns = len(header)
    weights = weights_given or (1.0,) * columns
    widths = [settings.width * w / sum(weights) for w in weights]
    long_columns = {n for row in rows for n, cell in enumerate(row) if len(cell) > _LONG_CELL}

    def cell(text: str, column: int, head: bool) -> KinsokuParagraph:
        style = "table_head" if head else ("table_cell" if column in long_columns else "table_cell_center")
        return settings.lines(text, style)

    data = [[cell(t, n, True) for n, t in enumerate(header)]]
    data += [[cell(t, n, False) for n, t in enumerate(row)] for row in rows]
    colors = settings.colors
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="CENTER", style=TableStyle([
        settings.cell_font, settings.cell_ink,
        ("BACKGROUND", (0, 0), (-1, 0), colors["accent"]),
        ("BACKGROUND", (0, 1), (-1, -1), colors["tint"]),
        ("GRID", (0, 0), (-1, -1), 0.5, colors["accent"]),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        # about 1.5 mm beside the text and 1.2 mm above and below: text never runs up to a rule
        ("TOPPADDING", (0, 0), (-1, -1), 3.4), ("BOTTOMPADDING", (0, 0), (-1, -1), 4.2),
        ("LEFTPADDING", (0, 0), (-1, -1), 4.3), ("RIGHTPADDING", (0, 0), (-1, -1), 4.3),
    ]))
    out: list[Flowable] = [Spacer(1, 2), table]
    if caption:
        out.append(settings.para(caption, "caption"))
    else:
        out.append(Spacer(1, settings.styles["body"].fontSize * 0.8))
    return [KeepTogether(out)] if keep_together else out


def _figure(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, CardFigure)
    deck = game.find_deck(block.deck)
    assert deck is not None  # the rulebook check has resolved it
    by_id = {card.id: card for card in deck.cards}
    cards = [(by_id[i], by_id[i].face if block.side == "front" else by_id[i].back) for i in block.cards]
    pointers = [_pointer(callout, cards, deck.layout) for callout in block.callouts]
    style = CalloutStyle(settings.label_font, settings.colors["ink"], PAPER_WHITE)
    # a tall narrow card drawn at the figure's width could outgrow the page (a LayoutError mid-build)
    row = CardRow(settings.renderers[deck.id], [[card] for card in cards], card_width_mm=block.card_width,
                  max_height_mm=settings.height / mm_to_pt(1) - _FIGURE_SLACK_MM, outline=settings.colors["ink"],
                  callouts=pointers, callout_style=style)
    out: list[Flowable] = [Spacer(1, 3), row]
    out.append(settings.para(block.caption, "caption") if block.caption else Spacer(1, 6))
    return [KeepTogether(out)]


def _pointer(callout: Callout, cards: Sequence[tuple[Card, str]], layout: Layout) -> Pointer:
    """Where a callout points (the rulebook check has found its card at an end of the row and its part):
    the first card's callouts stand to the left, the last card's to the right, a lone card's on the
    side nearer the part; the leader ends just inside the part's box, on the label's side."""
    slot = 0 if callout.card == cards[0][0].id else len(cards) - 1
    card, template = cards[slot]
    box = part_box(card, template, layout, callout.at)
    assert box is not None
    x, y, width, height = box
    if len(cards) == 1:
        side = "left" if x + width / 2 < layout.size.width / 2 else "right"
    else:
        side = "left" if slot == 0 else "right"
    # the line ends just inside the box's edge on the label's side: at the part, not across its print
    inset = min(width * _CALLOUT_INSET, _CALLOUT_INSET_MM)
    return Pointer(callout.text, slot, x + inset if side == "left" else x + width - inset, y + height / 2, side)


def _example(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, HandExample)
    labels = settings.example_labels
    inner: list[Flowable] = [settings.para(block.title, "example_title")]
    hand = "　".join(block.hand)
    note = labels.get(block.order, "")
    inner.append(settings.para(f"{labels.get('hand', '')}　{hand}" + (f"（{note}）" if note else ""), "example_hand"))
    if block.arrangement:
        inner.append(settings.para(f"{labels.get('arrangement', '')}　" + " → ".join(block.arrangement),
                                   "example_hand"))
    if block.show_cards:
        deck = game.find_deck(block.deck)
        assert deck is not None  # the rulebook check has resolved it
        by_id = {card.id: card for card in deck.cards}
        stacks = [[(by_id[i], by_id[i].face) for i in stack] for stack in settings.resolve_hand(block.shown)]
        inner += [Spacer(1, 3), CardRow(settings.renderers[deck.id], stacks, card_width_mm=None,
                                        max_width_mm=16, max_height_mm=_EXAMPLE_STACK_MM,
                                        outline=settings.colors["ink"]), Spacer(1, 3)]
    if block.text:
        inner.append(settings.para(block.text, "example_text"))
    inner.append(settings.para(answer_text(answer_template(block, labels), block.points), "example_points"))
    box = Table([[inner]], colWidths=[settings.width], style=TableStyle([
        settings.cell_font, settings.cell_ink,
        ("BACKGROUND", (0, 0), (-1, -1), settings.colors["tint"]),
        ("LINEBEFORE", (0, 0), (0, -1), 2.5, settings.colors["accent"]),
        ("BOX", (0, 0), (-1, -1), 0.5, settings.colors["accent"]),
        ("LEFTPADDING", (0, 0), (-1, -1), 8), ("RIGHTPADDING", (0, 0), (-1, -1), 6),
        ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
    ]))
    return [KeepTogether([box, Spacer(1, 6)])]


def _clarifications(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    assert isinstance(block, Clarifications)
    out = _heading_flowables(block.title, 1, settings) if block.title else []
    if block.audience == "designers":  # an appendix in the smaller note style, after what players read
        if block.intro:
            out.append(settings.para(block.intro, "note"))
        out += [settings.para(f"・{item.text}", "note") for item in block.items]
        return out
    if block.intro:
        out.append(settings.para(block.intro, "body"))
    out.append(_list_flowable([item.text for item in block.items], True, settings))
    return out


def _page_break(block: RulebookBlock, game: Game, settings: StorySettings) -> list[Flowable]:
    return [PageBreak()]


FLOWABLES_BY_TYPE: dict[type, Builder] = {
    Heading: _heading,
    ParagraphBlock: _paragraph,
    ListBlock: _list,
    TableBlock: _table,
    CardTable: _card_table,
    CardFigure: _figure,
    HandExample: _example,
    Clarifications: _clarifications,
    PageBreakBlock: _page_break,
}
