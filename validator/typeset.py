"""Measure and break card text with real font metrics: the one layout both the checker and the PDF generator use."""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import deckfs
from .compose import VERTICAL_FORMS, Line, Measured, compose, justify, measured, squeezed, unbroken
from .fontfile import FontFileError
from .limits import MAX_FONT_BYTES
from .presets import PRINT_MIN_TEXT_PT
from .ruby import Ruby, parse_ruby
from .ruby_layout import RUBY_SCALE, RubySetting, set_ruby

_EPS = 1e-9


class FontError(ValueError):
    """A font file fudaya cannot measure or embed; carries the path so the message can name it."""

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = Path(path)
        self.message = message


@dataclass(frozen=True)
class FontMetrics:
    """Plain-dict metrics of one TrueType font, so measuring never parses the font again."""

    path: Path
    units_per_em: int
    ascent: float
    descent: float
    advances: Mapping[int, float] = field(default_factory=dict, repr=False, compare=False)
    notdef_advance: float = field(default=1.0, repr=False, compare=False)

    def has_glyph(self, char: str) -> bool:
        return ord(char) in self.advances

    def advance(self, char: str) -> float:
        """Advance in em; a missing glyph is drawn as .notdef, so it takes that width."""
        return self.advances.get(ord(char), self.notdef_advance)

    def text_width(self, text: str, size: float) -> float:
        get, nd = self.advances.get, self.notdef_advance
        return sum(get(ord(c), nd) for c in text) * size

    def missing_glyphs(self, text: str) -> list[str]:
        """Distinct characters the font cannot draw, in first-seen order (line breaks are not drawn)."""
        adv = self.advances
        return list(dict.fromkeys(c for c in text if c != "\n" and ord(c) not in adv))


def load_metrics(path: Path | str) -> FontMetrics:
    """Metrics for the font at `path`, read once per resolved path."""
    return _load_as_given(path)[0]


def font_bytes(path: Path | str) -> bytes:
    """The font's bytes as read and accepted for its metrics: the PDF embeds these, not a second read."""
    return _load_as_given(path)[1]


@functools.cache
def _load_as_given(path: Path | str) -> tuple[FontMetrics, bytes]:
    """Skips resolving the path again when callers pass the same object (every text on every card)."""
    return _load(Path(path).resolve())


@functools.cache
def _load(path: Path) -> tuple[FontMetrics, bytes]:
    """Read through the confined file layer with the size limit, then parse with the bounded reader
    (fontfile), which refuses what ReportLab would trip on before anything is expanded. `path` was kept
    inside the deck by the loader (assets.resolve_font); the read here adds regular file, no link
    swapped in, and the size checked before a byte is read. The reading is kept per machine (font_cache)."""
    from .font_cache import read_font_cached

    try:
        size = deckfs.stat_file(path.parent, path.name).size
        if size > MAX_FONT_BYTES:
            raise FontError(path, f"is {size:,} bytes, over the {MAX_FONT_BYTES:,}-byte limit for a font")
        data = deckfs.read_bytes(path.parent, path.name, MAX_FONT_BYTES)
    except deckfs.ConfinedError as exc:
        raise FontError(path, str(exc)) from None
    try:
        font = read_font_cached(data)
    except FontFileError as exc:
        raise FontError(path, str(exc)) from None
    upm = font.units_per_em
    advances = {code: width / upm for code, width in font.advances.items()}
    metrics = FontMetrics(path, upm, font.ascent / upm, abs(font.descent) / upm, advances, font.notdef_advance / upm)
    return metrics, data


@dataclass(frozen=True)
class PlacedReading:
    """A reading as drawn on its line: `offset` pt from the line's start edge to its first character,
    `gap` pt between its characters."""

    offset: float
    text: str
    gap: float


@dataclass(frozen=True)
class TextLayout:
    """The lines (or vertical columns, right to left) to draw, at the size that made them fit.

    `line_widths` are the lines' natural lengths; `spacing`, for justified text, gives per line the
    points to add after each character (empty for a line set as it is: a paragraph's last line).
    With ruby, `ruby_size` is the readings' size, `ruby_room` the room above the first line (right of
    the first column) its readings take, `offsets` per line where each character's glyph starts (pt from
    the line's start edge, justification included) and `readings` per line what goes over it. Vertical
    text with runs marked 縦中横 has them per line in `across`.
    """

    size: float
    lines: tuple[str, ...]
    leading: float
    line_widths: tuple[float, ...]
    spacing: tuple[tuple[float, ...], ...] = ()
    ruby_size: float = 0.0
    ruby_room: float = 0.0
    offsets: tuple[tuple[float, ...], ...] = ()
    readings: tuple[tuple[PlacedReading, ...], ...] = ()
    across: tuple[tuple[tuple[int, int], ...], ...] = ()  # per line, marked 縦中横 runs from its start

    @property
    def extent(self) -> float:
        """Block size across lines: height of horizontal text, width of vertical text."""
        return self.ruby_room + self.size + (len(self.lines) - 1) * self.leading if self.lines else 0.0


def _paragraphs(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


TATE_CHU_YOKO_MAX = 3  # half-width digits or letters set side by side in one cell of vertical text
_HALF_WIDTH_RUN = re.compile(r"[0-9A-Za-z]+")


@dataclass(frozen=True)
class VerticalRun:
    """A run of vertical text not set one upright character a cell: `across` (縦中横: side by side in one
    cell) or `sideways` (a Latin word turned a quarter clockwise, as long as its letters are wide)."""

    start: int
    end: int
    kind: str


Spans = tuple[tuple[int, int], ...]  # [start, end) runs of a text


def vertical_runs(text: str, marked: Spans = ()) -> list[VerticalRun]:
    """The half-width runs of vertical text, after JIS X 4051: 2 to TATE_CHU_YOKO_MAX digits or letters go
    across one cell ("10", "HP"), longer ones sideways ("ReportLab", "2026"); a lone one stays upright.
    `marked` runs (the ［＃「…」は縦中横］ annotation) go across whatever they hold; a run they touch is theirs."""
    runs = [VerticalRun(start, end, "across") for start, end in marked]
    taken = {k for start, end in marked for k in range(start, end)}
    for match in _HALF_WIDTH_RUN.finditer(text):
        length = match.end() - match.start()
        if length >= 2 and taken.isdisjoint(range(match.start(), match.end())):
            kind = "across" if length <= TATE_CHU_YOKO_MAX else "sideways"
            runs.append(VerticalRun(match.start(), match.end(), kind))
    return sorted(runs, key=lambda run: run.start)


def advances(text: str, metrics: FontMetrics, vertical: bool, marked: Spans = ()) -> list[float]:
    """Each character's advance in em along the line: one em a character in upright vertical text, one em
    for a whole 縦中横 run (its first character takes the cell, the others none), and a sideways word's
    letters their horizontal advances."""
    if not vertical:
        return [metrics.advance(c) for c in text]
    widths = [1.0] * len(text)
    for run in vertical_runs(text, marked):
        if run.kind == "across":
            widths[run.start + 1:run.end] = [0.0] * (run.end - run.start - 1)
        else:
            widths[run.start:run.end] = [metrics.advance(c) for c in text[run.start:run.end]]
    return widths


def _measure(text: str, metrics: FontMetrics, vertical: bool, marked: Spans = ()) -> Measured:
    """The text for the composer; a marked 縦中横 run is one unit, never broken."""
    bound = [k for start, end in marked for k in range(start + 1, end)] if vertical else []
    return measured(text, advances(text, metrics, vertical, marked), bound=bound)


def line_offsets(laid: TextLayout, n: int, metrics: FontMetrics, vertical: bool) -> tuple[float, ...]:
    """Where each character of line `n` starts, pt from the line's start edge, justification and ruby
    included: what drawing places each glyph by."""
    if laid.offsets:
        return laid.offsets[n]
    extra = laid.spacing[n] if laid.spacing else ()
    out, at = [], 0.0
    for k, width in enumerate(advances(laid.lines[n], metrics, vertical, line_across(laid, n))):
        out.append(at)
        at += width * laid.size + (extra[k] if extra else 0.0)
    return tuple(out)


def line_across(laid: TextLayout, n: int) -> Spans:
    """The marked 縦中横 runs of line `n`, from its start."""
    return laid.across[n] if laid.across else ()


def break_lines(text: str, metrics: FontMetrics, size: float, max_width: float) -> list[str]:
    """Horizontal lines of `text` no wider than `max_width` pt at `size` pt (a lone overwide char excepted)."""
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    text = _paragraphs(text)
    if not text:
        return []
    laid = _measure(text, metrics, vertical=False)
    return [text[line.start:line.end] for line in compose(laid, max_width / size).lines]


def to_vertical(text: str, metrics: FontMetrics, keep: Spans = ()) -> str:
    """Swap punctuation for vertical presentation forms the font can actually draw (not inside `keep`:
    runs set across a cell, as written)."""
    kept = {k for start, end in keep for k in range(start, end)}
    return "".join(
        VERTICAL_FORMS[c] if c in VERTICAL_FORMS and k not in kept and metrics.has_glyph(VERTICAL_FORMS[c]) else c
        for k, c in enumerate(text)
    )


def _sizes(size: float, min_size: float | None, step: float) -> list[float]:
    if min_size is None or min_size >= size:
        return [size]
    if step <= 0:
        raise ValueError(f"step must be positive, got {step}")
    out, k = [size], 1
    while size - k * step > min_size + _EPS:
        out.append(round(size - k * step, 6))
        k += 1
    return [*out, min_size]


@functools.lru_cache(maxsize=4096)  # the check and the drawing, and every copy of a card, ask the same
def fit_text(
    text: str, metrics: FontMetrics, *, width: float, height: float, size: float,
    min_size: float | None = None, line_height: float = 1.2, vertical: bool = False,
    wrap: bool = True, step: float = 0.25, justified: bool = False, ruby_scale: float = RUBY_SCALE,
) -> TextLayout | None:
    """Largest size from `size` down to `min_size` (step by `step`) whose layout fits the box, else None.

    Horizontal: lines top to bottom. Vertical: columns right to left, one em per char (a 縦中横 run of
    digits or letters one em in all, a sideways word its letters' widths), columns `size * line_height`
    apart. Lines are broken by validator.compose; `justified` sets every line but a paragraph's last flush
    with both ends of the box (top and bottom, vertically).

    Ruby markup (validator.ruby; a RubyError when it cannot be read) is set by validator.ruby_layout at
    `ruby_scale` of the size, never under the print minimum PRINT_MIN_TEXT_PT: readings above their line
    (right of their column), the first line moved down (left) by their size, and lines at least a base and
    a reading apart.
    """
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    marked = parse_ruby(_paragraphs(text))
    spans = marked.across if vertical else ()
    text = to_vertical(marked.text, metrics, spans) if vertical else marked.text
    if not text:
        return TextLayout(size, (), size * line_height, ())
    limit, across = (height, width) if vertical else (width, height)
    base = _measure(text, metrics, vertical, spans)
    paragraphs = text.count("\n") + 1
    for s in _sizes(size, min_size, step):
        if s + (paragraphs - 1) * s * line_height > across + _EPS:
            continue  # even without wrapping the block is too deep at this size
        ruby_size = max(s * ruby_scale, PRINT_MIN_TEXT_PT) if marked.rubies else 0.0
        setting = _setting(text, base, marked.rubies, metrics, vertical, ruby_size / s)
        laid = setting.measured if setting else base
        lines = compose(laid, limit / s).lines if wrap else unbroken(laid)
        leading, room = s * line_height, 0.0
        if setting:
            with_ruby = _lines_with_ruby(lines, setting)
            room = ruby_size if with_ruby[0] else 0.0
            if any(with_ruby[1:]):
                leading = max(leading, s + ruby_size)
        if room + s + (len(lines) - 1) * leading > across + _EPS:
            continue
        extents = tuple(line.width * s for line in lines)
        if max(extents) <= limit + _EPS:
            spacing = tuple(tuple(e * s for e in justify(laid, line)) for line in lines) if justified and wrap else ()
            shown = tuple(text[line.start:line.end] for line in lines)
            per_line = _per_line(lines, spans)
            if setting is None:
                return TextLayout(s, shown, leading, extents, spacing, across=per_line)
            offsets, readings = place_readings(lines, setting, spacing, s, metrics if vertical else None)
            return TextLayout(s, shown, leading, extents, spacing, ruby_size, room, offsets, readings, per_line)
    return None


def _per_line(lines: Sequence[Line], spans: Spans) -> tuple[Spans, ...]:
    """Each line's marked runs from its start (empty when none is marked; a run is never broken)."""
    if not spans:
        return ()
    return tuple(tuple((start - line.start, end - line.start) for start, end in spans
                       if line.start <= start and end <= line.end) for line in lines)


def _setting(text: str, base: Measured, rubies: Sequence[Ruby], metrics: FontMetrics, vertical: bool,
             scale: float) -> RubySetting | None:
    """Marks side by side squeezed and the readings set over `text` at `scale` of its size (upright one ruby
    em a character in vertical text, their advances horizontally); None when there is neither."""
    squeeze = squeezed(text, base.widths, [1.0] * len(text))
    if squeeze is None and not rubies:
        return None
    def length(reading: str, _: int) -> float:
        return len(reading) * scale if vertical else metrics.text_width(reading, scale)

    return set_ruby(text, base.widths, rubies, length, scale, squeeze, base.rigid)


def _lines_with_ruby(lines: Sequence[Line], setting: RubySetting) -> list[bool]:
    """For each line, whether a reading goes over it (a base never spans two lines)."""
    starts = sorted(reading.start for reading in setting.readings)
    out, k = [], 0
    for line in lines:
        while k < len(starts) and starts[k] < line.start:
            k += 1
        out.append(k < len(starts) and starts[k] < line.end)
    return out


_PerLine = tuple[tuple[tuple[float, ...], ...], tuple[tuple[PlacedReading, ...], ...]]


def place_readings(lines: Sequence[Line], setting: RubySetting, spacing: Sequence[Sequence[float]], size: float,
                   vertical: FontMetrics | None) -> _PerLine:
    """Per line, each glyph's start and the readings over it, in pt from the line's start edge (`size`: pt
    per unit of the setting's widths; `vertical`: the font whose vertical forms the readings take)."""
    widths, shifts = setting.measured.widths, setting.shifts
    by_start = {reading.start: reading for reading in setting.readings}
    offsets, readings = [], []
    for n, line in enumerate(lines):
        extra = spacing[n] if spacing and spacing[n] else (0.0,) * (line.end - line.start)
        at = line.lead * size
        glyphs, marks = [], []
        for k in range(line.start, line.end):
            reading = by_start.get(k)
            if reading is not None:
                shown = to_vertical(reading.text, vertical) if vertical is not None else reading.text
                marks.append(PlacedReading(at + reading.offset * size, shown, reading.gap * size))
            glyphs.append(at + shifts[k] * size)
            at += widths[k] * size + extra[k - line.start]
        offsets.append(tuple(glyphs))
        readings.append(tuple(marks))
    return tuple(offsets), tuple(readings)
