"""Rulebooks: fonts, markup, glyphs, tables and card figures resolve.

Examples and clarifications agree with the rules engine.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping

from ..binding import BindingError, fields_used
from ..engine.claims import TOTAL, RulebookOracle
from ..engine.registry import engine_name, find_oracle
from ..faces import part_box
from ..issues import DeckError, Issue, Location
from ..model import CardFigure, CardTable, Clarifications, Game, HandExample, Rulebook, TableBlock
from ..ruby import RubyError, parse_ruby
from ..rulebooks import (
    MarkupError,
    UnclaimedPart,
    answer_template,
    answer_text,
    card_table_rows,
    cover_values,
    fill,
    iter_texts,
    resolve_color,
    split_emphasis,
)
from ..typeset import load_metrics
from ..wording import counted


def check(game: Game) -> Iterator[Issue]:
    for book in game.rulebooks:
        yield from _check_fonts(game, book)
        yield from _check_texts(game, book)
        yield from _check_cover(game, book)
        yield from _check_colors(game, book)
        for block in book.blocks:
            if isinstance(block, TableBlock):
                yield from _check_table(block)
            elif isinstance(block, CardFigure):
                yield from _check_figure(game, block)
            elif isinstance(block, CardTable):
                yield from _check_card_table(game, book, block)
        yield from _check_claims(game, book)


def _check_fonts(game: Game, book: Rulebook) -> Iterator[Issue]:
    for role in ("body", "heading", "strong", "label"):
        key = getattr(book.fonts, role)
        if key not in game.fonts:
            known = ", ".join(sorted(game.fonts))
            yield Issue(book.source.child("fonts").child(role), "reference",
                        f"{role} font {key!r} is not declared in game.json (fonts: {known})")


def _check_texts(game: Game, book: Rulebook) -> Iterator[Issue]:
    """Emphasis markup is balanced and every character has a glyph in the font that prints it."""
    for text, role, where in iter_texts(book):
        yield from _text_issues(game, book, text, role, where)


def _text_issues(game: Game, book: Rulebook, text: str, role: str, where: Location,
                 whose: str = "") -> Iterator[Issue]:
    """One printed text's markup and glyphs; `whose` opens each message (a card table's card)."""
    role_font = {"body": book.fonts.body, "heading": book.fonts.heading, "label": book.fonts.label}
    try:
        runs = split_emphasis(text)
    except MarkupError as exc:
        yield Issue(where, "markup", whose + str(exc))
        return
    plain = "".join(run for run, _ in runs)  # ruby is read across emphasis, as the paragraph reads it
    try:
        parse_ruby(plain)
    except RubyError as exc:
        uncounted = " (** not counted)" if plain != text else ""
        yield Issue(where, "ruby-markup", f"{whose}{exc}{uncounted}")
        return
    missing: dict[str, list[str]] = {}
    for run, strong in runs:
        key = book.fonts.strong if strong else role_font[role]
        if key in game.fonts:
            font = game.fonts[key]
            missing.setdefault(font.path.name, []).extend(load_metrics(font.path).missing_glyphs(run))
    for font_name, chars in missing.items():
        if chars:
            shown = " ".join(f"{c!r} (U+{ord(c):04X})" for c in dict.fromkeys(chars))
            yield Issue(where, "missing-glyph", f"{whose}font {font_name} has no glyph for {shown}")


def _check_card_table(game: Game, book: Rulebook, table: CardTable) -> Iterator[Issue]:
    """The deck exists, a cell per header, every field a part names is some card's, and what the cards
    write prints (markup, glyphs)."""
    deck = game.find_deck(table.deck)
    if deck is None:
        known = ", ".join(d.id for d in game.decks) or "none"
        yield Issue(table.location.child("deck"), "reference", f"no deck component {table.deck!r} (decks: {known})")
        return
    if len(table.cells) != len(table.header):
        yield Issue(table.location.child("cells"), "table-shape",
                    f"{counted(len(table.cells), 'cell')} for {counted(len(table.header), 'column')}")
    if table.widths is not None and len(table.widths) != len(table.header):
        yield Issue(table.location.child("widths"), "table-shape",
                    f"{counted(len(table.widths), 'column width')} for {counted(len(table.header), 'column')}")
    known_fields = {name for card in deck.cards for name in card.bindings}
    bad = False
    for column, parts in enumerate(table.cells):
        for n, part in enumerate(parts):
            where = table.location.child("cells").child(column)
            where = where.child(n) if len(parts) > 1 else where
            try:
                names = [name.split("[", 1)[0] for name in fields_used(part)]
            except BindingError as exc:
                yield Issue(where, "reference", str(exc))
                bad = True
                continue
            for name in names:
                if name not in known_fields:
                    yield Issue(where, "reference", f"no card of {deck.id!r} has a field {name!r}")
                    bad = True
    if bad:
        return
    try:
        rows = card_table_rows(table, deck.cards)
    except BindingError as exc:
        yield Issue(table.location.child("cells"), "reference", str(exc))
        return
    for card, row in zip(deck.cards, rows):
        for column, text in enumerate(row):
            yield from _text_issues(game, book, text, "label", table.location.child("cells").child(column),
                                    f"card {card.id!r}: ")


def _check_cover(game: Game, book: Rulebook) -> Iterator[Issue]:
    for key in ("subtitle", "meta"):
        if key in book.cover:
            try:
                fill(book.cover[key], cover_values(game), source="game.json")
            except MarkupError as exc:
                yield Issue(book.source.child("cover").child(key), "reference", str(exc))


def _check_colors(game: Game, book: Rulebook) -> Iterator[Issue]:
    for role, spec in book.colors.items():
        try:
            resolve_color(spec, game.palette)
        except MarkupError as exc:
            yield Issue(book.source.child("colors").child(role), "unknown-color", str(exc))


def _check_table(table: TableBlock) -> Iterator[Issue]:
    columns = len(table.header)
    for n, row in enumerate(table.rows):
        if len(row) != columns:
            yield Issue(table.location.child("rows").child(n), "table-shape",
                        f"row {n + 1} has {len(row)} cells but the header has {columns}")
    if table.widths is not None and len(table.widths) != columns:
        yield Issue(table.location.child("widths"), "table-shape",
                    f"{counted(len(table.widths), 'column width')} for {counted(columns, 'column')}")


def _check_figure(game: Game, figure: CardFigure) -> Iterator[Issue]:
    deck = game.find_deck(figure.deck)
    if deck is None:
        known = ", ".join(d.id for d in game.decks) or "none"
        yield Issue(figure.location.child("deck"), "reference", f"no deck component {figure.deck!r} (decks: {known})")
        return
    if figure.side == "back" and not deck.has_backs:
        yield Issue(figure.location.child("side"), "reference", f"{deck.kind} {deck.id!r} has no backs")
    ids = [card.id for card in deck.cards]
    if len(set(ids)) != len(ids):
        return  # ids that are not unique cannot be resolved; the references check names the duplicate
    for n, card_id in enumerate(figure.cards):
        if card_id not in ids:
            yield Issue(figure.location.child("cards").child(n), "unknown-card",
                        f"figure shows card {card_id!r}, which is not in {deck.id!r} ({_near(card_id, ids)})")
    by_id = {card.id: card for card in deck.cards}
    ends = {figure.cards[0], figure.cards[-1]}
    for callout in figure.callouts:
        if callout.card not in ends:
            yield Issue(callout.location.child("card"), "reference",
                        f"a callout stands beside the figure's first or last card ({' or '.join(sorted(ends))}), "
                        f"not {callout.card!r}")
            continue
        card = by_id.get(callout.card)
        template = None if card is None else (card.face if figure.side == "front" else card.back)
        if card is not None and template is not None and part_box(card, template, deck.layout, callout.at) is None:
            yield Issue(callout.location.child("at"), "reference",
                        f"card {callout.card!r} draws no text element written {callout.at!r} on its {figure.side} "
                        f"(template {template!r})")


def _near(wanted: str, ids: list[str]) -> str:
    """A hint: ids sharing the wanted id's first part, else how many cards there are."""
    stem = wanted.split("-")[0]
    close = [i for i in ids if i.split("-")[0] == stem][:6]
    return f"similar: {', '.join(close)}" if close else f"{counted(len(ids), 'card')}, e.g. {', '.join(ids[:3])}"


# --- claims the rules engine vouches for ----------------------------------------------------------


def _check_claims(game: Game, book: Rulebook) -> Iterator[Issue]:
    examples = [b for b in book.blocks if isinstance(b, HandExample)]
    try:
        oracle = find_oracle(game)
    except DeckError as exc:  # the engine found card data its rules cannot play, and says where
        yield from exc.issues
        return
    except ValueError as exc:
        yield Issue(game.location.child("rules"), "rules-engine", f"the rules engine cannot be built: {exc}")
        return
    if oracle is None:
        for example in examples:
            yield Issue(example.location, "no-rules-engine",
                        f"example “{example.title}”: no rules engine {engine_name(game)!r} can check its points")
        return
    for example in examples:
        yield from _check_answer(example, book.example_labels, oracle)
        yield from _check_example(example, oracle)
        if example.show_cards:
            yield from _check_example_cards(game, example, oracle)
    yield from _check_clarifications(game, book, oracle)


def _check_answer(example: HandExample, labels: Mapping[str, str], oracle: RulebookOracle) -> Iterator[Issue]:
    """The answer line prints only claimed parts (which _check_example holds to the engine), and can be set."""
    try:
        answer_text(answer_template(example, labels), example.points)
        return
    except UnclaimedPart as exc:
        problem = f"{exc}; {_given(example, oracle, exc.part)}"
    except MarkupError as exc:
        problem = str(exc)
    if example.answer:
        yield Issue(example.location.child("answer"), "answer-line",
                    f"example “{example.title}”: the answer line cannot be printed: {problem}")
    else:
        yield Issue(example.location.child("points"), "reference", f"example “{example.title}”: the points line "
                    f"(example_labels.points) cannot be filled: {problem}")


def _given(example: HandExample, oracle: RulebookOracle, part: str) -> str:
    """What the engine says of a part an answer prints but the example does not claim."""
    try:
        given = oracle.score(example.shown, ordered=example.order == "as-written" or bool(example.arrangement)).points
    except ValueError:
        return f"the rules engine scores the parts {', '.join(oracle.parts)}"
    if part in given:
        return f"claim it in points (the rules engine gives {part} {given[part]} here)"
    return f"the rules engine gives this example no {part!r} (it gives: {', '.join(given)})"


def _check_example(example: HandExample, oracle: RulebookOracle) -> Iterator[Issue]:
    where, title = example.location, example.title
    hand = " ".join(example.hand)
    try:
        best = oracle.score(example.hand, ordered=False)
    except ValueError as exc:
        yield Issue(where.child("hand"), "example-hand", f"example “{title}”: {exc}")
        return
    if example.order == "as-written":
        if example.arrangement is not None:
            yield Issue(where.child("arrangement"), "example-order",
                        f"example “{title}”: an arrangement belongs to a best-order example; this one is as written")
        actual, how = oracle.score(example.hand, ordered=True), "as written"
    elif example.arrangement is None:
        actual, how = best, f"best order {' '.join(best.order)}"
    else:
        if Counter(example.arrangement) != Counter(example.hand):
            yield Issue(where.child("arrangement"), "example-order",
                        f"example “{title}”: arrangement {' '.join(example.arrangement)} is not an order of {hand}")
            return
        actual, how = oracle.score(example.arrangement, ordered=True), f"arranged {' '.join(example.arrangement)}"
        if actual.points[TOTAL] < best.points[TOTAL]:
            yield Issue(where.child("arrangement"), "example-claim",
                        f"example “{title}”: arrangement scores {TOTAL} {actual.points[TOTAL]} but the best order "
                        f"({' '.join(best.order)}) scores {best.points[TOTAL]}")
    for part, claimed in example.points.items():
        if part not in actual.points:
            scope = "for this example" if part in oracle.parts else "at all"
            yield Issue(where.child("points").child(part), "example-part",
                        f"example “{title}”: the rules engine gives no part {part!r} {scope} "
                        f"(it gives: {', '.join(actual.points)})")
        elif actual.points[part] != claimed:
            yield Issue(where.child("points").child(part), "example-claim",
                        f"example “{title}”: claims {part} {claimed} but the rules engine scores "
                        f"{actual.points[part]} ({hand}, {how})")


def _check_example_cards(game: Game, example: HandExample, oracle: RulebookOracle) -> Iterator[Issue]:
    """The cards the engine says a shown example draws are cards of its deck."""
    deck = game.find_deck(example.deck)
    if deck is None:
        known = ", ".join(d.id for d in game.decks) or "none"
        yield Issue(example.location.child("deck"), "reference",
                    f"example “{example.title}”: no deck component {example.deck!r} (decks: {known})")
        return
    try:
        stacks = oracle.card_stacks(example.shown)
    except ValueError:
        return  # the bad token is reported by _check_example
    ids = {card.id for card in deck.cards}
    for n, stack in enumerate(stacks):
        for card_id in stack:
            if card_id not in ids:
                yield Issue(example.location.child("deck"), "unknown-card",
                            f"example “{example.title}”: token {example.shown[n]!r} shows card {card_id!r}, which "
                            f"is not in {deck.id!r} (set the example's deck to the deck holding it)")


def _check_clarifications(game: Game, book: Rulebook, oracle: RulebookOracle) -> Iterator[Issue]:
    sections = [b for b in book.blocks if isinstance(b, Clarifications)]
    listed: dict[str, Location] = {}
    for section in sections:
        for item in section.items:
            if item.id is None:
                continue  # a designers' note, no engine decision
            if item.id in listed:
                yield Issue(item.location.child("id"), "duplicate-clarification",
                            f"clarification {item.id!r} is listed twice")
            listed.setdefault(item.id, item.location)
    missing_at = sections[0].location.child("items") if sections else book.source.child("blocks")
    engine = engine_name(game)
    known = {ref.id for ref in oracle.clarifications}
    for ref in oracle.clarifications:
        if ref.id not in listed:
            yield Issue(missing_at, "clarification-missing",
                        f"the {engine} rules engine decides {ref.id!r}, which the rulebook does not state "
                        f"(add a clarifications item with id {ref.id!r}: {ref.text})")
    for item_id, where in listed.items():
        if item_id not in known:
            yield Issue(where.child("id"), "unknown-clarification",
                        f"the {engine} rules engine has no clarification {item_id!r} "
                        f"(known: {', '.join(sorted(known))})", severity="warning")

