"""A ReportLab paragraph that keeps Japanese line-breaking rules (kinsoku), for every PDF we set.

Lines never start with 、。」） and the like nor end with 「（; a label joined to its value by a
no-break space stays whole; a last line of one or two characters takes more from above; the
ideographic space survives ReportLab's white-space folding. The rulebook and the report use it.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.platypus.paragraph import (
    FragLine,
    Paragraph,
    ParaLines,
    _handleBulletWidth,
    cjkU,
    makeCJKParaLine,
)

from validator.typeset import NO_END, NO_START

_FUZZ = 1e-6
# JIS X 4051 also keeps hyphens and dashes (class 2) off the start of a line: "1〜12" stays whole.
_NO_START = NO_START | frozenset("‐〜゠–～")
_IDEOGRAPHIC_SPACE = "\u3000"
_NO_BREAK_SPACE = "\u00a0"  # joins a label to its value ("勝利点\u00a0±0"): no line ends or starts there
RUNT = 2  # a paragraph's last line of this many characters or fewer ("ん。", "±0") takes more from above
_KEPT_SPACE = "\ue000"  # a private-use stand-in the parser leaves alone


def can_break(before: str, after: str) -> bool:
    """May a line end between these two characters? Never before a NO_START character (、。」）…),
    never after a NO_END one (「（…), and never inside a run of Latin letters and digits."""
    if not before or not after:
        return True  # an empty fragment (an explicit line break) is no character
    if after in _NO_START or before in NO_END or _NO_BREAK_SPACE in (before, after):
        return False
    latin = ord(before) < 0x3000 and ord(after) < 0x3000
    return not latin or before.isspace() or after.isspace()


def measure(frags: Sequence[Any]) -> list[Any]:
    """One measured glyph (ReportLab's cjkU: the character, its fragment and width) per character."""
    return [cjkU(ch, f, "utf8") for f in frags for ch in (f.text or [""])]


def kinsoku_lines(glyphs: Sequence[Any], max_widths: Sequence[float], calc_bounds: bool, *,
                  start: int = 0, max_lines: int | None = None) -> tuple[ParaLines, list[int]]:
    """Break measured glyphs from `start` into lines no wider than `max_widths`, honouring kinsoku.

    ReportLab's own CJK splitter hangs at most one closing character and ignores opening
    brackets, so the "。" of "」。" can still start a line. Here a line ends only where `can_break`
    allows, pushing characters to the next line (oidashi), so no line is wider than its column.
    At most `max_lines` lines are made (a page's worth: see KinsokuParagraph). Also returns each
    line's first glyph index, then the index where breaking stopped.
    """
    lines: list[FragLine] = []
    starts: list[int] = []
    count = len(glyphs)
    while start < count and (max_lines is None or len(lines) < max_lines):
        max_width = max_widths[min(len(lines), len(max_widths) - 1)]
        end, width, forced = start, 0.0, False
        while end < count:
            glyph = glyphs[end]
            if hasattr(glyph.frag, "lineBreak"):
                end, forced = end + 1, True
                break
            if width + glyph.width > max_width + _FUZZ and end > start:
                break
            width += glyph.width
            end += 1
        if end < count and not forced:
            end = _break_before(glyphs, start, end)
            width = sum(g.width for g in glyphs[start:end])
        lines.append(makeCJKParaLine(glyphs[start:end], max_width, width, max_width - width, forced, calc_bounds))
        starts.append(start)
        start = end
        while start < count and glyphs[start] == " ":
            start += 1  # a space that ended a line is not carried to the next
    if start >= count and len(lines) >= 2:
        _lift_runt(glyphs, lines, starts, max_widths, calc_bounds, count)
    starts.append(start)
    return ParaLines(kind=1, lines=lines), starts


def _lift_runt(glyphs: Sequence[Any], lines: list[Any], starts: list[int], max_widths: Sequence[float],
               calc_bounds: bool, count: int) -> None:
    """A last line of RUNT characters or fewer takes characters from the line above until it has more,
    breaking only where kinsoku allows and leaving the line above at least half its length."""
    last = starts[-1]
    if sum(1 for g in glyphs[last:count] if not str(g).isspace()) > RUNT:
        return
    above = starts[-2]
    at = last - 1
    while at > above + (last - above) // 2:
        if can_break(glyphs[at - 1], glyphs[at]) and \
                sum(1 for g in glyphs[at:count] if not str(g).isspace()) > RUNT:
            break
        at -= 1
    else:
        return  # no allowed break keeps the line above half full: leave the runt
    for index, (begin, end) in ((len(lines) - 2, (above, at)), (len(lines) - 1, (at, count))):
        max_width = max_widths[min(index, len(max_widths) - 1)]
        width = sum(g.width for g in glyphs[begin:end])
        lines[index] = makeCJKParaLine(glyphs[begin:end], max_width, width, max_width - width, False, calc_bounds)
    starts[-1] = at


def _break_before(glyphs: Sequence[str], start: int, end: int) -> int:
    """The last allowed break at or before `end` (which overflowed); `end` itself if none is allowed."""
    at = end
    while at > start + 1 and not can_break(glyphs[at - 1], glyphs[at]):
        at -= 1
    return at if can_break(glyphs[at - 1], glyphs[at]) else end


class KinsokuParagraph(Paragraph):  # type: ignore[misc]  # ReportLab is untyped
    """A Paragraph (wordWrap 'CJK') whose lines never start with 、。」） nor end with 「（.

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
        if self._glyphs is None:  # measured once: a paragraph is often wrapped several times
            self._glyphs = measure(self.frags)
        auto_leading = getattr(self, "autoLeading", getattr(style, "autoLeading", ""))
        lines, self._line_starts = kinsoku_lines(self._glyphs, widths, auto_leading not in ("", "off"),
                                                 start=self._start, max_lines=self._line_budget)
        return lines

    def split(self, availWidth: float, availHeight: float) -> list[Any]:  # ReportLab's names
        if not hasattr(self, "blPara"):
            self.wrap(availWidth, availHeight)
        unbroken = self._glyphs is not None and self._line_starts[-1] < len(self._glyphs)
        parts: list[Any] = super().split(availWidth, availHeight)
        if len(parts) == 1 and unbroken:  # every line broken so far fits: cannot happen with fixed leading
            raise RuntimeError("a paragraph part fitted though lines past the frame were left unbroken")
        if len(parts) == 2 and self._glyphs is not None:
            first, rest = parts
            rest._glyphs = self._glyphs
            rest._start = self._line_starts[len(first.blPara.lines)]
        return parts
