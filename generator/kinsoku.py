"""A ReportLab paragraph whose lines validator.compose breaks and justifies: the rulebook and the report.

Only ReportLab glue lives here: every break (kinsoku, numbers with their units, kept words, no
one-character last line) is the composer's, the same the cards are set with. A justified line's
slack goes between its characters as the composer spreads it, drawn with the PDF's character
spacing (Tc) switched by an onDraw callback where the spacing changes. The ideographic space
survives ReportLab's white-space folding.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.abag import ABag
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.platypus.paragraph import (
    FragLine,
    Paragraph,
    ParaLines,
    _handleBulletWidth,
    cjkU,
    makeCJKParaLine,
    sameFrag,
)

from validator.compose import SPACES, Line, Measured, compose, justify, measured

_IDEOGRAPHIC_SPACE = "\u3000"
_KEPT_SPACE = "\ue000"  # a private-use stand-in the parser leaves alone
_CHAR_SPACE = "fudaya-char-space"  # the onDraw callback that sets the text object's character spacing


def measure(frags: Sequence[Any]) -> list[Any]:
    """One measured glyph (ReportLab's cjkU: the character, its fragment and width) per character."""
    return [cjkU(ch, f, "utf8") for f in frags for ch in (f.text or [""])]


def as_text(glyphs: Sequence[Any]) -> Measured:
    """The glyphs as the composer reads them: a <br/> is "\\n"; another empty fragment (an anchor)
    a zero-width space."""
    chars = "".join("\n" if hasattr(g.frag, "lineBreak") else (str(g) or "\u200b") for g in glyphs)
    return measured(chars, [g.width for g in glyphs])


def kinsoku_lines(glyphs: Sequence[Any], text: Measured, max_widths: Sequence[float], calc_bounds: bool, *,
                  start: int = 0, max_lines: int | None = None,
                  justified: bool = False) -> tuple[ParaLines, list[int]]:
    """ReportLab lines of the glyphs from `start`, as validator.compose breaks them (at most
    `max_lines`: a page's worth, see KinsokuParagraph). With `justified`, each line keeps its
    composer Line (`composed`) for KinsokuParagraph.draw to spread. Also returns each line's first
    glyph index, then the index where breaking stopped."""
    composition = compose(text, max_widths, start=start, max_lines=max_lines)
    lines: list[FragLine] = []
    starts: list[int] = []
    for line in composition.lines:
        brk = _explicit_break(text.chars, line.end)
        if brk is None and line.start == line.end and line.end == len(glyphs):
            continue  # the empty line after a closing <br/>: ReportLab ends the paragraph there
        end = line.end if brk is None else brk + 1  # the <br/> glyph moves ReportLab to the next line
        made = makeCJKParaLine(glyphs[line.start:end], line.measure, line.width, line.measure - line.width,
                               brk is not None, calc_bounds)
        if justified:
            made.composed = line  # spaced when drawn (a paragraph is wrapped more often than drawn)
            made.extraSpace = 0.0  # ReportLab's own justification only knows word spaces: keep it out
        lines.append(made)
        starts.append(line.start)
    return ParaLines(kind=1, lines=lines), [*starts, composition.stop]


def _explicit_break(chars: str, end: int) -> int | None:
    """The index of the "\\n" that ended a line at `end` (past its trailing spaces), if one did."""
    while end < len(chars) and chars[end] in SPACES:
        end += 1
    return end if end < len(chars) and chars[end] == "\n" else None


def _spaced_words(glyphs: Sequence[Any], spacing: Sequence[float]) -> list[Any]:
    """The line's fragments, a character-spacing callback before each run whose spacing differs (the
    PDF adds Tc after every glyph shown, so a run is the glyphs followed by the same space)."""
    words: list[Any] = []
    run: list[str] = []
    frag: Any = None
    current = 0.0

    def flush() -> None:
        if run:
            words.append(frag.clone(text="".join(run)))
            run.clear()

    for glyph, extra in zip(glyphs, spacing):
        if extra != current:
            flush()
            words.append(glyph.frag.clone(text="", cbDefn=ABag(kind="onDraw", name=_CHAR_SPACE, label=extra)))
            current = extra
        if run and not sameFrag(frag, glyph.frag):
            flush()
        if not run:
            frag = glyph.frag
        run.append(str(glyph))
    flush()
    return words


def _set_char_space(canvas: Any, kind: str, label: float) -> None:
    """onDraw callback: the spacing after each glyph from here on (ReportLab hands over its text object)."""
    canvas._curr_tx_info["tx"].setCharSpace(label)


class KinsokuParagraph(Paragraph):  # type: ignore[misc]  # ReportLab is untyped
    """A Paragraph (wordWrap 'CJK') set by validator.compose: kinsoku, 分離禁止, no one-character last
    line, and with alignment TA_JUSTIFY every line but a paragraph's last flush with both edges.

    It also keeps the ideographic space U+3000, which ReportLab's parser would collapse into one
    Latin space like any other run of white space.

    Layout is linear in the text's length. ReportLab breaks a whole paragraph into lines on every
    wrap and gives the part split onto the next page to a new paragraph that measures and breaks
    all of its text again, so a paragraph of many pages cost time quadratic in its length (a
    200,000-character one took four minutes). Here the glyphs are measured once and shared with
    every split-off part (which starts at an offset into them), and a wrap breaks only the lines
    its frame can hold plus two: enough for the frame to see that the text does not fit and split.
    """

    _glyphs: list[Any] | None = None
    _text: Measured | None = None  # the glyphs as the composer reads them, shared like _glyphs
    _start = 0  # where this part's text begins in _glyphs
    _line_budget: int | None = None  # lines to break on this wrap; None: all of them
    _line_starts: list[int]

    def __init__(self, text: str | None, style: Any, **options: Any) -> None:
        if text is not None:  # None: a split-off part built from already parsed fragments
            text = text.replace(_IDEOGRAPHIC_SPACE, _KEPT_SPACE)
        super().__init__(text, style, **options)
        for frag in self.frags:
            if isinstance(getattr(frag, "text", None), str):
                frag.text = frag.text.replace(_KEPT_SPACE, _IDEOGRAPHIC_SPACE)

    def _fixed_leading(self) -> bool:
        auto_leading = getattr(self, "autoLeading", getattr(self.style, "autoLeading", ""))
        return auto_leading in ("", "off") and self.style.leading > 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # ReportLab's names
        fits = availHeight / self.style.leading if self._fixed_leading() else None
        self._line_budget = int(fits) + 2 if fits is not None and fits < 100_000 else None
        return super().wrap(availWidth, availHeight)  # type: ignore[no-any-return]

    def breakLinesCJK(self, maxWidths: Any) -> Any:  # ReportLab's names
        widths = list(maxWidths) if isinstance(maxWidths, (list, tuple)) else [maxWidths]
        style = self.style
        self.height = 0
        _handleBulletWidth(self.bulletText, style, widths)
        if hasattr(self, "blPara") and getattr(self, "_splitpara", False):
            return self.blPara
        if not self.frags:
            return ParaLines(kind=0, fontSize=style.fontSize, fontName=style.fontName, textColor=style.textColor,
                             lines=[], ascent=style.fontSize, descent=-0.2 * style.fontSize)
        if self._glyphs is None or self._text is None:  # measured once: a paragraph is often wrapped again
            self._glyphs = measure(self.frags)
            self._text = as_text(self._glyphs)
        auto_leading = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
        lines, self._line_starts = kinsoku_lines(self._glyphs, self._text, widths, auto_leading not in ("", "off"),
                                                 start=self._start, max_lines=self._line_budget,
                                                 justified=style.alignment == TA_JUSTIFY)
        return lines

    def draw(self) -> None:
        if self._glyphs is not None and self._text is not None:
            for line in self.blPara.lines:
                composed: Line | None = getattr(line, "composed", None)
                if composed is None:
                    continue
                spacing = justify(self._text, composed)
                if spacing:
                    line.words = _spaced_words(self._glyphs[composed.start:composed.end], spacing)
                line.composed = None
            self.canv.setNamedCB(_CHAR_SPACE, _set_char_space)  # justified lines switch spacing through it
        super().draw()

    def split(self, availWidth: float, availHeight: float) -> list[Any]:  # ReportLab's names
        if not hasattr(self, "blPara"):
            self.wrap(availWidth, availHeight)
        unbroken = self._glyphs is not None and self._line_starts[-1] < len(self._glyphs)
        parts: list[Any] = super().split(availWidth, availHeight)
        if len(parts) == 1 and unbroken:  # every line broken so far fits: cannot happen with fixed leading
            raise RuntimeError("a paragraph part fitted though lines past the frame were left unbroken")
        if len(parts) == 2 and self._glyphs is not None:
            first, rest = parts
            first._glyphs, first._text = rest._glyphs, rest._text = self._glyphs, self._text
            rest._start = self._line_starts[len(first.blPara.lines)]
        return parts
