"""A ReportLab paragraph whose lines validator.compose breaks and justifies: the rulebook and the report.

Only ReportLab glue lives here: every break (kinsoku, numbers with their units, kept words, no
one-character last line) is the composer's, the same the cards are set with. A justified line's
slack goes between its characters as the composer spreads it, drawn with the PDF's character
spacing (Tc) switched by an onDraw callback where the spacing changes. The ideographic space
survives ReportLab's white-space folding.

Marks side by side are squeezed (validator.compose.squeezed) and ruby markup (validator.ruby) is set
by the same ruby layout as card text: the markup's glyphs are dropped, the readings placed by
validator.ruby_layout at half the text's size (never under the print minimum), drawn by an onDraw
callback at the start of their line, and a first line with readings moves the paragraph down by their
size.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab import rl_config
from reportlab.lib.abag import ABag
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.platypus.paragraph import (
    FragLine,
    Paragraph,
    ParaLines,
    _handleBulletWidth,
    cjkU,
    makeCJKParaLine,
    sameFrag,
)

from validator.compose import SPACES, Line, Measured, compose, justify, measured, squeezed
from validator.presets import PRINT_MIN_TEXT_PT
from validator.ruby import Ruby, has_markup, parse_ruby_indexed
from validator.ruby_layout import RUBY_SCALE, RubySetting, reading_rise, set_ruby
from validator.typeset import PlacedReading, place_readings

_IDEOGRAPHIC_SPACE = "\u3000"
_KEPT_SPACE = "\ue000"  # a private-use stand-in the parser leaves alone
_CHAR_SPACE = "fudaya-char-space"  # the onDraw callback that sets the text object's character spacing
_SHIFT = "fudaya-shift"  # the onDraw callback that moves the rest of a line along it
_READINGS = "fudaya-readings"  # the onDraw callback that draws a line's readings


def measure(frags: Sequence[Any]) -> list[Any]:
    """One measured glyph (ReportLab's cjkU: the character, its fragment and width) per character."""
    return [cjkU(ch, f, "utf8") for f in frags for ch in (f.text or [""])]


def as_text(glyphs: Sequence[Any]) -> Measured:
    """The glyphs as the composer reads them: a <br/> is "\\n"; another empty fragment (an anchor)
    a zero-width space."""
    chars = "".join("\n" if hasattr(g.frag, "lineBreak") else (str(g) or "\u200b") for g in glyphs)
    return measured(chars, [g.width for g in glyphs])


def with_ruby(glyphs: list[Any], text: Measured) -> tuple[list[Any], Measured, RubySetting | None, float]:
    """The glyphs less the ruby markup's, as the composer reads them with marks side by side squeezed and
    readings set; the setting and the readings' size (None and 0 when there is neither). RubyError for
    markup that cannot be read (the rulebook check reports it first)."""
    kept, chars = glyphs, text.chars
    rubies: tuple[Ruby, ...] = ()
    if has_markup(chars):
        marked, origin = parse_ruby_indexed(chars)
        kept, chars, rubies = [glyphs[i] for i in origin], marked.text, marked.rubies
    widths = [g.width for g in kept]
    squeeze = squeezed(chars, widths, [g.frag.fontSize for g in kept])
    if squeeze is None and not rubies:
        return kept, (text if kept is glyphs else measured(chars, widths)), None, 0.0
    ruby = 0.0
    if rubies:
        ruby = max(max(g.frag.fontSize for g in kept[r.start:r.end]) * RUBY_SCALE for r in rubies)
        ruby = max(ruby, PRINT_MIN_TEXT_PT)
    setting = set_ruby(chars, widths, rubies, lambda reading, start: stringWidth(reading, kept[start].frag.fontName,
                                                                                  ruby), ruby, squeeze)
    return kept, setting.measured, setting, ruby


def kinsoku_lines(glyphs: Sequence[Any], text: Measured, max_widths: Sequence[float], calc_bounds: bool, *,
                  start: int = 0, max_lines: int | None = None, justified: bool = False,
                  keep: bool = False) -> tuple[ParaLines, list[int]]:
    """ReportLab lines of the glyphs from `start`, as validator.compose breaks them (at most
    `max_lines`: a page's worth, see KinsokuParagraph). With `justified` (or `keep`: ruby to
    place), each line keeps its composer Line (`composed`) for KinsokuParagraph.draw to spread. Also
    returns each line's first glyph index, then the index where breaking stopped."""
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
        if justified or keep:
            made.composed = line  # spaced when drawn (a paragraph is wrapped more often than drawn)
        if justified:
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


def _shift(canvas: Any, kind: str, label: float) -> None:
    """onDraw callback: the glyphs from here on `label` pt further along the line (a reading's overhang or
    a spread base at the line's start), undone by the same callback at its end before the next line."""
    canvas._curr_tx_info["tx"].setXPos(label)


_Shown = tuple[PlacedReading, str, float, float, Any]  # a reading, its font, size, rise over the baseline, colour


def _draw_readings(canvas: Any, kind: str, label: tuple[_Shown, ...]) -> None:
    """onDraw callback at a line's start (ReportLab gives the line's start and baseline): each reading,
    placed from the line's start, set solid on its base's em box."""
    info = canvas._curr_tx_info
    canvas.saveState()
    for reading, font, size, rise, color in label:
        canvas.setFillColor(color)
        text = canvas.beginText(info["cur_x"] + reading.offset, info["cur_y"] + rise)
        text.setFont(font, size)
        if reading.gap:
            text.setCharSpace(reading.gap)
        text.textOut(reading.text)
        canvas.drawText(text)
    canvas.restoreState()


def _ascent(font: str) -> float:
    """The part of the em above the baseline (the font's ascent and descent taken as one em)."""
    face = getFont(font).face
    return float(face.ascent) / float(face.ascent - face.descent)


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
    _ruby: RubySetting | None = None  # the readings set over _text, shared like it
    _ruby_size = 0.0
    _room = 0.0  # how far readings over the first line move the paragraph down
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

    @property
    def first_line_drop(self) -> float:
        """How far below the top a line without readings would start the first line is set (pt): the room
        readings over it take. Whatever is set beside the first line (a list's marker) moves down with it."""
        return self._room

    def _fixed_leading(self) -> bool:
        auto_leading = getattr(self, "autoLeading", getattr(self.style, "autoLeading", ""))
        return auto_leading in ("", "off") and self.style.leading > 0

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # ReportLab's names
        fits = availHeight / self.style.leading if self._fixed_leading() else None
        self._line_budget = int(fits) + 2 if fits is not None and fits < 100_000 else None
        width, height = super().wrap(availWidth, availHeight)
        if self._room:
            self.height = height = height + self._room  # draw() moves the lines down into it
        return width, height

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
            glyphs = measure(self.frags)
            self._glyphs, self._text, self._ruby, self._ruby_size = with_ruby(glyphs, as_text(glyphs))
        auto_leading = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
        lines, self._line_starts = kinsoku_lines(self._glyphs, self._text, widths, auto_leading not in ("", "off"),
                                                 start=self._start, max_lines=self._line_budget,
                                                 justified=style.alignment == TA_JUSTIFY, keep=self._ruby is not None)
        self._room = 0.0
        if self._ruby is not None and lines.lines:
            first = lines.lines[0]
            starts = [r.start for r in self._ruby.readings if first.composed.start <= r.start < first.composed.end]
            if starts:  # the readings' top over the baseline, less what ReportLab leaves above it
                frag = self._glyphs[starts[0]].frag
                share = _ascent(frag.fontName)
                top = reading_rise(share, frag.fontSize, self._ruby_size) + share * self._ruby_size
                above = first.fontSize if rl_config.paraFontSizeHeightOffset else first.ascent
                self._room = max(0.0, top - above)
        return lines

    def draw(self) -> None:
        if self._glyphs is not None and self._text is not None:
            justified = self.style.alignment == TA_JUSTIFY
            for line in self.blPara.lines:
                composed: Line | None = getattr(line, "composed", None)
                if composed is None:
                    continue
                spacing = justify(self._text, composed) if justified else ()
                glyphs = self._glyphs[composed.start:composed.end]
                if self._ruby is not None:
                    line.words = self._ruby_words(composed, glyphs, spacing)
                elif spacing:
                    line.words = _spaced_words(glyphs, spacing)
                line.composed = None
            self.canv.setNamedCB(_CHAR_SPACE, _set_char_space)  # justified lines switch spacing through it
            self.canv.setNamedCB(_SHIFT, _shift)
            self.canv.setNamedCB(_READINGS, _draw_readings)
        if not self._room:
            super().draw()
            return
        self.canv.saveState()
        self.canv.translate(0, -self._room)  # ReportLab sets the first line from the top: below the readings
        super().draw()
        self.canv.restoreState()

    def _ruby_words(self, line: Line, glyphs: Sequence[Any], spacing: Sequence[float]) -> list[Any]:
        """A line of a paragraph with ruby: its readings drawn from its start, its glyphs moved by the lead
        and spaced by the bases' spreading (and justification), the move undone at its end."""
        assert self._ruby is not None
        cells, starts = self._ruby.measured.widths, self._ruby.shifts
        count = line.end - line.start
        gaps = [(spacing[k] if spacing else 0.0) + cells[line.start + k] - glyphs[k].width
                - starts[line.start + k] + starts[line.start + k + 1]
                for k in range(count - 1)] + [0.0]  # nothing after the last: the next line starts afresh
        shift = line.lead + (starts[line.start] if count else 0.0)
        words: list[Any] = []
        if not glyphs:
            return words
        frag = glyphs[0].frag
        [readings] = place_readings([line], self._ruby, [spacing], 1.0, None)[1]
        if readings:
            bases = sorted(r.start for r in self._ruby.readings if line.start <= r.start < line.end)
            shown = []
            for reading, start in zip(readings, bases):
                base = glyphs[start - line.start].frag  # the reading takes its base's font and colour
                shown.append((reading, base.fontName, self._ruby_size,
                              reading_rise(_ascent(base.fontName), base.fontSize, self._ruby_size), base.textColor))
            words.append(frag.clone(text="", cbDefn=ABag(kind="onDraw", name=_READINGS, label=tuple(shown))))
        if shift:
            words.append(frag.clone(text="", cbDefn=ABag(kind="onDraw", name=_SHIFT, label=shift)))
        words += _spaced_words(glyphs, gaps)
        if shift:
            words.append(frag.clone(text="", cbDefn=ABag(kind="onDraw", name=_SHIFT, label=-shift)))
        return words

    def split(self, availWidth: float, availHeight: float) -> list[Any]:  # ReportLab's names
        if not hasattr(self, "blPara"):
            self.wrap(availWidth, availHeight)
        unbroken = self._glyphs is not None and self._line_starts[-1] < len(self._glyphs)
        parts: list[Any] = super().split(availWidth, availHeight - self._room)
        if len(parts) == 1 and unbroken:  # every line broken so far fits: cannot happen with fixed leading
            raise RuntimeError("a paragraph part fitted though lines past the frame were left unbroken")
        if len(parts) == 2 and self._glyphs is not None:
            first, rest = parts
            first._glyphs, first._text = rest._glyphs, rest._text = self._glyphs, self._text
            first._ruby, first._ruby_size = rest._ruby, rest._ruby_size = self._ruby, self._ruby_size
            rest._start = self._line_starts[len(first.blPara.lines)]
        return parts
