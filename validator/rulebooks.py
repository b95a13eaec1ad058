"""Build the typed Rulebook from a schema-checked rulebook.json, and read its inline markup. No I/O here."""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from string import Formatter
from typing import Any

from .binding import BindingError, Color, TypesetNumber, bind_text, fields_used, parse_color
from .issues import Location
from .jsonsource import SourcedJson
from .model import (
    Callout,
    Card,
    CardFigure,
    CardTable,
    ClarificationItem,
    Clarifications,
    Game,
    HandExample,
    Heading,
    ListBlock,
    PageBreak,
    Paragraph,
    Rulebook,
    RulebookBlock,
    RulebookFonts,
    TableBlock,
)
from .ruby import RubyError, parse_ruby
from .wording import japanese_range

STRONG = "**"
YES_NO = "|"  # {part:YES|NO} in an answer line prints a part the engine answers 1 or 0 as a word
DEFAULT_PAGE_SIZE = "a5"
DEFAULT_MARGIN_MM = 14.0
DEFAULT_TEXT_SIZE_PT = 9.0
DEFAULT_COLORS = {"ink": "#000000", "accent": "#404040", "tint": "#EEEEEE", "on_accent": "#FFFFFF"}


class MarkupError(ValueError):
    """Inline markup that cannot be read, e.g. an unclosed **."""


def split_emphasis(text: str) -> list[tuple[str, bool]]:
    """'a **b** c' -> [('a ', False), ('b', True), (' c', False)]; MarkupError if a ** is left open."""
    parts = text.split(STRONG)
    if len(parts) % 2 == 0:
        column = text.rfind(STRONG) + 1
        raise MarkupError(f"'**' at character {column} opens strong emphasis that is never closed")
    return [(part, n % 2 == 1) for n, part in enumerate(parts) if part]


def plain_text(text: str) -> str:
    """The text as printed, without markup: no emphasis marks, ruby reduced to its base (a running head
    or a search names 閥, not 閥《ばつ》). Markup that cannot be read stays as written (the check reports it)."""
    text = text.replace(STRONG, "")
    try:
        return parse_ruby(text).text
    except RubyError:
        return text


def placeholders(template: str) -> list[str]:
    """The {names} a format string uses, in order; MarkupError if it is malformed."""
    try:
        return [name for _, name, _, _ in Formatter().parse(template) if name is not None]
    except ValueError as exc:
        raise MarkupError(f"{template!r} is not a valid format: {exc}") from None


def fill(template: str, values: Mapping[str, object], *, source: str) -> str:
    """`template` with its {names} replaced; MarkupError naming a name `values` (from `source`) lacks."""
    for name in placeholders(template):
        if name not in values or values[name] is None:
            known = ", ".join(k for k, v in values.items() if v is not None)
            raise MarkupError(f"{{{name}}} is not known from {source} (known: {known})")
    return template.format_map(values)


class UnclaimedPart(MarkupError):
    """An answer placeholder naming a part the example does not claim."""

    def __init__(self, part: str, claimed: Iterable[str]) -> None:
        self.part = part
        super().__init__(f"{{{part}}} is not a part this example claims (claimed: {', '.join(claimed)})")


NO_BREAK_SPACE = "\u00a0"


def answer_template(example: HandExample, labels: Mapping[str, str]) -> str:
    """The template of an example's answer line: its own `answer`, else the rulebook's
    example_labels.points, else every claimed part as `part value`."""
    return example.answer or labels.get("points") or " / ".join(f"{part} {{{part}}}" for part in example.points)


def answer_text(template: str, points: Mapping[str, int]) -> str:
    """The answer line as printed, every placeholder filled from `points` (an example's claimed parts).

    `{part}` prints the number (a true minus, ±0 under a `+` spec); `{part:+d}` any integer format;
    `{part:YES|NO}` a yes/no part — one the engine answers 1 (yes) or 0 (no) — as the first word for 1,
    the second for 0 (either may be empty). UnclaimedPart for a part `points` lacks, MarkupError for
    anything else that cannot be printed (a yes/no part that is neither 1 nor 0, a bad format).
    """
    try:
        fields = list(Formatter().parse(template))
    except ValueError as exc:
        raise MarkupError(f"{template!r} is not a valid format: {exc}") from None
    out: list[str] = []
    for literal, name, spec, conversion in fields:
        if name is not None and literal.endswith(" "):
            literal = literal[:-1] + NO_BREAK_SPACE  # a label stays on the line of its value
        out.append(literal)
        if name is None:
            continue
        shown = f"{{{name}{':' + spec if spec else ''}}}"
        if conversion or not name:
            raise MarkupError(f"{shown or '{}'}: a placeholder is a part name, e.g. {{total}}")
        if name not in points:
            raise UnclaimedPart(name, points)
        out.append(_answer_value(shown, name, points[name], spec or ""))
    return "".join(out)


def _answer_value(shown: str, name: str, value: int, spec: str) -> str:
    if YES_NO in spec:
        words = spec.split(YES_NO)
        if len(words) != 2:
            raise MarkupError(f"{shown}: a yes/no part takes two words, YES|NO")
        if value not in (0, 1):
            raise MarkupError(f"{shown} prints a yes/no part, but {name} is {value}, not 1 or 0")
        return words[0] if value == 1 else words[1]
    try:
        return format(TypesetNumber(value), spec)
    except ValueError as exc:
        raise MarkupError(f"{shown}: {exc}") from None


def resolve_color(spec: str, palette: Mapping[str, str]) -> Color:
    """A colour literal or palette name as a Color; MarkupError if it is neither."""
    try:
        found = parse_color(spec)
        if found is None and spec in palette:
            found = parse_color(palette[spec])
    except BindingError as exc:
        raise MarkupError(str(exc)) from None
    if found is None:
        raise MarkupError(f"unknown colour {spec!r} (not #RRGGBB, cmyk(...) or a game.json palette name)")
    return found


def cover_values(game: Game) -> dict[str, object]:
    """What a cover line may show, from game.json."""
    return {"title": game.title, "title_en": game.title_en, "players": japanese_range(*game.players),
            "minutes": japanese_range(*game.play_minutes), "min_age": game.min_age}


_FACT_NAMES = {"players": "プレイ人数", "minutes": "プレイ時間", "min_age": "対象年齢"}


def recommended_note(game: Game, line_template: str) -> str | None:
    """The cover's note under a line showing box facts that game.json lists as `recommended`
    (ours, not the source's), e.g. 「※プレイ人数・プレイ時間は推奨値です。」; None when it shows none."""
    shown = [key for key in _FACT_NAMES if key in game.recommended and "{" + key + "}" in line_template]
    if not shown:
        return None
    return "※" + "・".join(_FACT_NAMES[key] for key in shown) + "は推奨値です。"


def build_rulebook(doc: SourcedJson, component: Mapping[str, Any], where: Location) -> Rulebook:
    """The typed rulebook of a schema-valid rulebook.json; `where` is its component in game.json."""
    data = doc.data
    page = data.get("page", {})
    fonts = data["fonts"]
    heading = fonts["heading"]
    return Rulebook(
        id=component["id"],
        title=component.get("title", component["id"]),
        page_size=page.get("size", DEFAULT_PAGE_SIZE),
        margin=float(page.get("margin", DEFAULT_MARGIN_MM)),
        text_size=float(page.get("text_size", DEFAULT_TEXT_SIZE_PT)),
        fonts=RulebookFonts(body=fonts["body"], heading=heading, strong=fonts.get("strong", heading),
                            label=fonts.get("label", heading)),
        colors={**DEFAULT_COLORS, **data.get("colors", {})},
        cover=dict(data.get("cover", {})),
        example_labels=dict(data.get("example_labels", {})),
        blocks=tuple(_build_block(raw, doc.location(f"/blocks/{n}")) for n, raw in enumerate(data["blocks"])),
        location=where,
        source=doc.location(),
    )


def _build_block(raw: Mapping[str, Any], where: Location) -> RulebookBlock:
    kind = raw["type"]
    if kind == "heading":
        return Heading(raw["level"], raw["text"], where)
    if kind == "paragraph":
        return Paragraph(raw["text"], where, raw.get("style", "body"))
    if kind == "list":
        return ListBlock(tuple(raw["items"]), raw.get("ordered", False), where, raw.get("start", 1))
    if kind == "table":
        widths = raw.get("widths")
        return TableBlock(tuple(raw["header"]), tuple(tuple(row) for row in raw["rows"]),
                          tuple(widths) if widths else None, raw.get("caption"), where)
    if kind == "card_table":
        widths = raw.get("widths")
        cells = tuple((cell,) if isinstance(cell, str) else tuple(cell) for cell in raw["cells"])
        return CardTable(raw.get("deck"), tuple(raw["header"]), cells, tuple(widths) if widths else None,
                         raw.get("caption"), where)
    if kind == "figure":
        callouts = tuple(Callout(c["card"], c["at"], c["text"], where.child("callouts").child(n))
                         for n, c in enumerate(raw.get("callouts", ())))
        return CardFigure(tuple(raw["cards"]), raw.get("deck"), raw.get("side", "front"), raw.get("card_width"),
                          raw.get("caption"), where, callouts)
    if kind == "example":
        arrangement = raw.get("arrangement")
        return HandExample(raw["title"], tuple(raw["hand"]), raw["order"],
                           tuple(arrangement) if arrangement else None, dict(raw["points"]), raw.get("text"),
                           raw.get("show_cards", True), where, raw.get("deck"), raw.get("answer"))
    if kind == "clarifications":
        items = tuple(ClarificationItem(item.get("id"), item["text"], where.child("items").child(n))
                      for n, item in enumerate(raw["items"]))
        return Clarifications(raw.get("title"), raw.get("intro"), items, where, raw.get("audience", "players"))
    if kind == "page_break":
        return PageBreak(where)
    raise ValueError(f"unknown rulebook block type {kind!r} (the schema should have refused it)")


def card_table_rows(table: CardTable, cards: Iterable[Card]) -> list[list[str]]:
    """The table's body: per card, each column's parts written from its fields, a part that names a
    field the card lacks or leaves empty left out. A malformed part raises BindingError."""
    return [[_cell(parts, card.bindings) for parts in table.cells] for card in cards]


def _cell(parts: tuple[str, ...], fields: Mapping[str, Any]) -> str:
    out = []
    for part in parts:
        names = [name.split("[", 1)[0] for name in fields_used(part)]
        if all(fields.get(name) not in (None, "") for name in names):
            out.append(bind_text(part, fields))
    return "".join(out)


def iter_texts(book: Rulebook) -> Iterator[tuple[str, str, Location]]:
    """Every printed text of the rulebook with its font role (body, heading, label) and location."""
    for key in ("subtitle", "meta"):
        if key in book.cover:
            yield book.cover[key], "heading", book.source.child("cover").child(key)
    if "lead" in book.cover:
        yield book.cover["lead"], "body", book.source.child("cover").child("lead")
    for key, label in book.example_labels.items():
        yield label, "label", book.source.child("example_labels").child(key)
    for block in book.blocks:
        yield from _block_texts(block)


def _block_texts(block: RulebookBlock) -> Iterator[tuple[str, str, Location]]:
    where = block.location
    if isinstance(block, Heading):
        yield block.text, "heading", where.child("text")
    elif isinstance(block, Paragraph):
        yield block.text, "body", where.child("text")
    elif isinstance(block, ListBlock):
        for n, entry in enumerate(block.items):
            yield entry, "body", where.child("items").child(n)
    elif isinstance(block, TableBlock):
        for n, cell in enumerate(block.header):
            yield cell, "label", where.child("header").child(n)
        for r, row in enumerate(block.rows):
            for n, cell in enumerate(row):
                yield cell, "label", where.child("rows").child(r).child(n)
        if block.caption:
            yield block.caption, "label", where.child("caption")
    elif isinstance(block, CardTable):  # the cells' text is the cards': card_table_rows, checked with the deck
        for n, cell in enumerate(block.header):
            yield cell, "label", where.child("header").child(n)
        if block.caption:
            yield block.caption, "label", where.child("caption")
    elif isinstance(block, CardFigure):
        if block.caption:
            yield block.caption, "label", where.child("caption")
        for callout in block.callouts:
            yield callout.text, "label", callout.location.child("text")
    elif isinstance(block, HandExample):
        yield block.title, "label", where.child("title")
        for n, token in enumerate(block.hand):
            yield token, "label", where.child("hand").child(n)
        if block.text:
            yield block.text, "body", where.child("text")
        if block.answer:
            yield _printed_answer(block.answer, block.points), "label", where.child("answer")
    elif isinstance(block, Clarifications):
        if block.title:
            yield block.title, "heading", where.child("title")
        if block.intro:
            yield block.intro, "body", where.child("intro")
        for item in block.items:
            yield item.text, "body", item.location.child("text")


def _printed_answer(template: str, points: Mapping[str, int]) -> str:
    """What an example's own answer line prints (its template when it cannot be filled: the check says why)."""
    try:
        return answer_text(template, points)
    except MarkupError:
        return template
