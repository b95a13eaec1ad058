"""Test support: the lines of a built PDF read back, and what a publisher would object to in them.

Glyph positions come from poppler's `pdftotext -bbox`, which places glyphs as the PDF specification
says: a justified line is drawn with character spacing (Tc), added after every glyph. pdfminer (and so
pdfplumber) leaves that spacing out at the end of each string shown, and a line in a TrueType font is
several strings, one per font subset: it reads a flush line as short.

Card text is compared with the layout `fudaya check` measured (validator.textbox.layout_text_element):
the same lines, and each justified one flush with both sides of its box to 0.1 mm. Rulebook text is
read from its page alone: consecutive lines of one size exactly one justified style's leading apart are
lines of one paragraph, so the upper one must reach its frame's right edge, where the longest line
starting at its left edge ends.
"""
from __future__ import annotations

import html
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.enums import TA_JUSTIFY

from generator.rulebook import make_styles
from validator.binding import BindingError, bind_text
from validator.compose import NO_START
from validator.faces import drawn_elements, iter_leaf_elements, sides
from validator.geometry import mm_to_pt
from validator.model import Game, Rulebook
from validator.textbox import layout_text_element
from validator.typeset import load_metrics

TOLERANCE = mm_to_pt(0.1)  # flush means within a tenth of a millimetre
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')


@dataclass(frozen=True)
class TextLine:
    """One line of text on a page (top-left origin, points): its words joined without their spaces."""

    x0: float
    x1: float
    top: float
    bottom: float
    text: str

    @property
    def size(self) -> float:
        return self.bottom - self.top  # BIZ UD's ascent and descent make one em


@dataclass
class Findings:
    """What a check saw: how much it looked at, and every problem (empty when the text is set well)."""

    lines: int = 0
    justified: int = 0
    paragraph_ends: int = 0
    problems: list[str] = field(default_factory=list)


def page_words(pdf: Path) -> list[tuple[float, list[TextLine]]]:
    """Each page's height and its words (poppler's: runs of glyphs between spaces and wide gaps)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for chunk in out.split("<page ")[1:]:
        height = float(_PAGE.match("<page " + chunk).group(2))  # type: ignore[union-attr]
        pages.append((height, [TextLine(float(x0), float(x1), float(top), float(bottom), html.unescape(text))
                               for x0, top, x1, bottom, text in _WORD.findall(chunk)]))
    return pages


def lines_of(words: Iterable[TextLine], gap: float = 2.0) -> list[TextLine]:
    """Words on one baseline at one size joined into lines, parted where more than `gap` ems lie
    between two of them (table columns, cards side by side); top to bottom, left to right."""
    rows: dict[tuple[float, float], list[TextLine]] = defaultdict(list)
    for word in words:
        rows[(round(word.bottom, 1), round(word.size, 1))].append(word)
    lines = []
    for row in rows.values():
        row.sort(key=lambda w: w.x0)
        run = [row[0]]
        for word in row[1:]:
            if word.x0 - run[-1].x1 > gap * word.size:
                lines.append(_joined(run))
                run = []
            run.append(word)
        lines.append(_joined(run))
    return sorted(lines, key=lambda line: (line.top, line.x0))


def _joined(words: list[TextLine]) -> TextLine:
    return TextLine(words[0].x0, words[-1].x1, min(w.top for w in words), max(w.bottom for w in words),
                    "".join(w.text for w in words))


def _meaningful(text: str) -> int:
    """Characters of a line that are not punctuation a line may not start with (す。 has one)."""
    return sum(1 for c in text if c not in NO_START)


def card_text(game: Game, manifest: Mapping[str, Any], out_dir: Path, name: str) -> Findings:
    """Every wrapped horizontal text of every card placed unrotated in the built file `name`
    (e.g. "cards.pdf") against the layout the text check measured."""
    found = Findings()
    by_id = {card.id: (deck, card) for deck in game.decks for card in deck.cards}
    pages = page_words(out_dir / name)
    for placed in manifest["placements"]:
        if placed["file"] != f"{game.id}/{name}":
            continue
        deck, card = by_id[placed["card"]]
        size = deck.layout.size
        if (placed["width"], placed["height"]) != (size.width, size.height):
            continue  # turned on the sheet
        side = next(s for s in sides(card, has_backs=deck.has_backs) if s.name == placed["side"])
        height, words = pages[placed["page"] - 1]
        for element in iter_leaf_elements(drawn_elements(card, side.template, deck.layout), card.bindings):
            p = element.props
            if element.type != "text" or p.get("vertical") or p.get("rotate", 0) or not p.get("wrap", True):
                continue
            try:
                text = bind_text(p["text"], card.bindings)
            except BindingError:
                continue
            where = f"{name} p{placed['page']} {card.id} {element.location.pointer}"
            _check_box(found, where, element, text, game, placed, height, words)
    return found


def _check_box(found: Findings, where: str, element: Any, text: str, game: Game, placed: Mapping[str, Any],
               page_height: float, words: Iterable[TextLine]) -> None:
    p = element.props
    laid = layout_text_element(element, text, load_metrics(game.fonts[p["font"]].path))
    assert laid is not None, where  # the build refused texts that do not fit
    left = mm_to_pt(placed["x"] + p["x"])
    right = left + mm_to_pt(p["w"])
    top = page_height - mm_to_pt(placed["y"] + placed["height"] - p["y"])
    bottom = top + mm_to_pt(p["h"])
    drawn = lines_of([word for word in words if left - 0.5 <= word.x0 and word.x1 <= right + 0.5
                      and top - 0.5 <= word.top and word.bottom <= bottom + 0.5 and abs(word.size - laid.size) < 0.05],
                     gap=float("inf"))
    expected = [(n, "".join(line.split())) for n, line in enumerate(laid.lines) if line.strip()]  # as poppler reads
    if [line.text for line in drawn] != [line for _, line in expected]:
        found.problems.append(f"{where}: drawn {[line.text for line in drawn]} but measured {laid.lines}")
        return
    ends = _paragraph_last_lines(text, laid.lines)
    for (n, _), line in zip(expected, drawn):
        found.lines += 1
        if n and n - 1 not in ends and line.text[0] in NO_START:
            found.problems.append(f"{where}: line {line.text!r} starts with {line.text[0]!r}")
        if n in ends and n - 1 >= 0 and n - 1 not in ends and _meaningful(line.text) < 2:
            found.problems.append(f"{where}: paragraph ends in a one-character line {line.text!r}")
        found.paragraph_ends += n in ends
        if laid.spacing and laid.spacing[n]:
            found.justified += 1
            if abs(line.x0 - left) > TOLERANCE or abs(line.x1 - right) > TOLERANCE:
                found.problems.append(f"{where}: justified line {line.text!r} spans {line.x0:.2f}–{line.x1:.2f}, "
                                      f"box {left:.2f}–{right:.2f}")


def _paragraph_last_lines(text: str, lines: tuple[str, ...]) -> set[int]:
    """Indexes of the lines that end a paragraph of `text` ("\\n" parts it)."""
    ends, n = set(), 0
    for paragraph in text.replace("\r\n", "\n").split("\n"):
        remaining = "".join(paragraph.split())
        while n < len(lines):
            remaining = remaining[len("".join(lines[n].split())):]
            n += 1
            if not remaining:
                ends.add(n - 1)
                break
    return ends


def rulebook_text(pdf: Path, book: Rulebook) -> Findings:
    """Kinsoku, runts and flush edges in a typeset rulebook, from its pages alone."""
    styles = make_styles(defaultdict(str), defaultdict(lambda: None), book.text_size)
    leadings = {(round(s.fontSize, 1), round(s.leading, 2)) for s in styles.values() if s.alignment == TA_JUSTIFY}
    sizes = {size for size, _ in leadings}
    found = Findings()
    for number, (_, words) in enumerate(page_words(pdf), 1):
        body = [line for line in lines_of(words) if round(line.size, 1) in sizes]
        if not body:
            continue
        # the right edge of a line's frame: the longest line on the page that starts where it does (the
        # column, a paragraph's indented first lines, the narrower box of an example)
        right = [max(other.x1 for other in body if abs(other.x0 - line.x0) < 0.5) for line in body]
        below = [_next_of(body, k) for k in range(len(body))]
        same = [n is not None and any(abs(body[n].bottom - body[k].bottom - leading) < 0.03
                                      for size, leading in leadings if size == round(body[k].size, 1))
                for k, n in enumerate(below)]  # the line below belongs to this line's paragraph
        continuing = {n for k, n in enumerate(below) if same[k]}
        for k, line in enumerate(body):
            found.lines += 1
            if k in continuing and line.text[0] in NO_START:
                found.problems.append(f"page {number}: line {line.text!r} starts with {line.text[0]!r}")
            if same[k]:
                found.justified += 1
                if abs(line.x1 - right[k]) > TOLERANCE:
                    found.problems.append(f"page {number}: line {line.text!r} ends at {line.x1:.2f}, "
                                          f"short of its frame's {right[k]:.2f}")
            elif k in continuing and below[k] is not None:  # a paragraph's last line, more text below it
                found.paragraph_ends += 1
                if _meaningful(line.text) < 2:
                    found.problems.append(f"page {number}: paragraph ends in a one-character line {line.text!r}")
    return found


def _next_of(body: list[TextLine], j: int) -> int | None:
    """Index of the first line below body[j] of its size that overlaps it across."""
    line = body[j]
    for k in range(j + 1, len(body)):
        other = body[k]
        if other.top > line.top + 0.1 and abs(other.size - line.size) < 0.05 and other.x0 < line.x1 \
                and line.x0 < other.x1:
            return k
    return None


def assert_set_well(found: Findings, *, justified: int) -> None:
    """No problem, and at least `justified` justified lines looked at (a check that saw nothing passes
    nothing)."""
    assert found.problems == [], "\n".join(found.problems[:20])
    assert found.justified >= justified and found.paragraph_ends > 0, found


def reading_beside(words: Iterable[TextLine], name: str, reading: str, size: float, ruby: float) -> list[str]:
    """What is wrong with vertical `name` (set at `size` pt) and its `reading` (at `ruby` pt) as read back
    from a page: the name's glyphs one column, the reading's right of it set solid (within 0.3 pt), top to
    bottom as written, within the name's length (nothing to overhang beside a lone name)."""
    words = list(words)
    column = [w for w in words if w.text and set(w.text) <= set(name) and abs(w.x1 - w.x0 - size) < 0.2]
    beside = [w for w in words if w.text and set(w.text) <= set(reading) and abs(w.x1 - w.x0 - ruby) < 0.2]
    if "".join(w.text for w in sorted(column, key=lambda w: w.top)) != name:
        return [f"{name}: its column reads {[w.text for w in column]}"]
    right, top, bottom = column[0].x1, min(w.top for w in column), max(w.bottom for w in column)
    beside = [w for w in beside if abs(w.x0 - right) < 5]
    problems = []
    if "".join(w.text for w in sorted(beside, key=lambda w: w.top)) != reading:
        problems.append(f"{name}: the reading right of it reads {[w.text for w in beside]}, not {reading}")
    problems += [f"{name}: {w.text} {w.x0 - right:+.2f} pt from the name's right edge" for w in beside
                 if abs(w.x0 - right) > 0.3]
    problems += [f"{name}: {w.text} runs past the name" for w in beside if w.top < top - 0.2 or w.bottom > bottom + 0.2]
    return problems
