"""Measure and break card text with real font metrics: the one layout both the checker and the PDF generator use."""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import deckfs
from .compose import VERTICAL_FORMS, Line, Measured, compose, justify, measured
from .fontfile import FontFileError, read_font
from .limits import MAX_FONT_BYTES

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
    swapped in, and the size checked before a byte is read."""
    try:
        size = deckfs.stat_file(path.parent, path.name).size
        if size > MAX_FONT_BYTES:
            raise FontError(path, f"is {size:,} bytes, over the {MAX_FONT_BYTES:,}-byte limit for a font")
        data = deckfs.read_bytes(path.parent, path.name, MAX_FONT_BYTES)
    except deckfs.ConfinedError as exc:
        raise FontError(path, str(exc)) from None
    try:
        font = read_font(data)
    except FontFileError as exc:
        raise FontError(path, str(exc)) from None
    upm = font.units_per_em
    advances = {code: width / upm for code, width in font.advances.items()}
    metrics = FontMetrics(path, upm, font.ascent / upm, abs(font.descent) / upm, advances, font.notdef_advance / upm)
    return metrics, data


@dataclass(frozen=True)
class TextLayout:
    """The lines (or vertical columns, right to left) to draw, at the size that made them fit.

    `line_widths` are the lines' natural lengths; `spacing`, for justified text, gives per line the
    points to add after each character (empty for a line set as it is: a paragraph's last line).
    """

    size: float
    lines: tuple[str, ...]
    leading: float
    line_widths: tuple[float, ...]
    spacing: tuple[tuple[float, ...], ...] = ()

    @property
    def extent(self) -> float:
        """Block size across lines: height of horizontal text, width of vertical text."""
        return self.size + (len(self.lines) - 1) * self.leading if self.lines else 0.0


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


def vertical_runs(text: str) -> list[VerticalRun]:
    """The half-width runs of vertical text, after JIS X 4051: 2 to TATE_CHU_YOKO_MAX digits or letters go
    across one cell ("10", "HP"), longer ones sideways ("ReportLab", "2026"); a lone one stays upright."""
    runs = []
    for match in _HALF_WIDTH_RUN.finditer(text):
        length = match.end() - match.start()
        if length >= 2:
            kind = "across" if length <= TATE_CHU_YOKO_MAX else "sideways"
            runs.append(VerticalRun(match.start(), match.end(), kind))
    return runs


def _measure(text: str, metrics: FontMetrics, vertical: bool) -> Measured:
    """The text with its advances in em along the line: one em a character in upright vertical text, one em
    for a whole 縦中横 run (its first character takes the cell, the others none), and a sideways word's
    letters their horizontal advances."""
    if not vertical:
        return measured(text, [metrics.advance(c) for c in text])
    widths = [1.0] * len(text)
    for run in vertical_runs(text):
        if run.kind == "across":
            widths[run.start + 1:run.end] = [0.0] * (run.end - run.start - 1)
        else:
            widths[run.start:run.end] = [metrics.advance(c) for c in text[run.start:run.end]]
    return measured(text, widths)


def break_lines(text: str, metrics: FontMetrics, size: float, max_width: float) -> list[str]:
    """Horizontal lines of `text` no wider than `max_width` pt at `size` pt (a lone overwide char excepted)."""
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    text = _paragraphs(text)
    if not text:
        return []
    laid = _measure(text, metrics, vertical=False)
    return [text[line.start:line.end] for line in compose(laid, max_width / size).lines]


def to_vertical(text: str, metrics: FontMetrics) -> str:
    """Swap punctuation for vertical presentation forms the font can actually draw."""
    return "".join(
        VERTICAL_FORMS[c] if c in VERTICAL_FORMS and metrics.has_glyph(VERTICAL_FORMS[c]) else c for c in text
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
    wrap: bool = True, step: float = 0.25, justified: bool = False,
) -> TextLayout | None:
    """Largest size from `size` down to `min_size` (step by `step`) whose layout fits the box, else None.

    Horizontal: lines top to bottom. Vertical: columns right to left, one em per char (a 縦中横 run of
    digits or letters one em in all, a sideways word its letters' widths), columns `size * line_height`
    apart. Lines are broken by validator.compose; `justified` sets every line but a paragraph's last flush
    with both ends of the box (top and bottom, vertically).
    """
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    text = _paragraphs(text)
    if vertical:
        text = to_vertical(text, metrics)
    if not text:
        return TextLayout(size, (), size * line_height, ())
    limit, across = (height, width) if vertical else (width, height)
    laid = _measure(text, metrics, vertical)
    paragraphs = text.count("\n") + 1
    for s in _sizes(size, min_size, step):
        if s + (paragraphs - 1) * s * line_height > across + _EPS:
            continue  # even without wrapping the block is too deep at this size
        lines = compose(laid, limit / s).lines if wrap else _unwrapped(laid)
        if s + (len(lines) - 1) * s * line_height > across + _EPS:
            continue
        extents = tuple(line.width * s for line in lines)
        if max(extents) <= limit + _EPS:
            spacing = tuple(tuple(e * s for e in justify(laid, line)) for line in lines) if justified and wrap else ()
            return TextLayout(s, tuple(text[line.start:line.end] for line in lines), s * line_height, extents, spacing)
    return None


def _unwrapped(laid: Measured) -> tuple[Line, ...]:
    """One line a paragraph, as written (less spaces at either end)."""
    out, start = [], 0
    for end in [*(k for k, c in enumerate(laid.chars) if c == "\n"), len(laid.chars)]:
        first, last = start, end
        while first < last and laid.chars[first] == " ":
            first += 1
        while last > first and laid.chars[last - 1] == " ":
            last -= 1
        out.append(Line(first, last, sum(laid.widths[first:last]), 0.0, justify=False))
        start = end + 1
    return tuple(out)
