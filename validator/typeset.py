"""Measure and break card text with real font metrics: the one layout both the checker and the PDF generator use."""
from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from . import deckfs
from .fontfile import FontFileError, read_font
from .limits import MAX_FONT_BYTES

# Kinsoku shori (JIS X 4051): characters a line may not start with / may not end with.
NO_START = frozenset(
    "、。，．・：；？！゛゜ヽヾゝゞ々ー）］｝」』】〕〉》〙〗’”)]}!?,.:;"
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…‥｡､｣"
)
NO_END = frozenset("（［｛「『【〔〈《〘〖‘“([{｢")

# Unicode vertical presentation forms. ー is deliberately absent: no standard form exists
# (U+4E28 丨 is a kanji, U+FE31 is a dash), so it stays as is.
VERTICAL_FORMS: Mapping[str, str] = {
    "、": "︑", "。": "︒", "，": "︐", "：": "︓", "；": "︔", "！": "︕", "？": "︖",
    "「": "﹁", "」": "﹂", "『": "﹃", "』": "﹄", "（": "︵", "）": "︶",
    "【": "︻", "】": "︼", "〔": "︹", "〕": "︺", "〈": "︿", "〉": "﹀",
    "《": "︽", "》": "︾", "［": "﹇", "］": "﹈", "｛": "︷", "｝": "︸",
    "〖": "︗", "〗": "︘", "…": "︙", "‥": "︰",
}
_NO_START_V = NO_START | {VERTICAL_FORMS[c] for c in NO_START if c in VERTICAL_FORMS}
_NO_END_V = NO_END | {VERTICAL_FORMS[c] for c in NO_END if c in VERTICAL_FORMS}

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
    """The lines (or vertical columns, right to left) to draw, at the size that made them fit."""

    size: float
    lines: tuple[str, ...]
    leading: float
    line_widths: tuple[float, ...]

    @property
    def extent(self) -> float:
        """Block size across lines: height of horizontal text, width of vertical text."""
        return self.size + (len(self.lines) - 1) * self.leading if self.lines else 0.0


def _breakable(c: str) -> bool:
    """CJK (and emoji) characters: a break is allowed on either side of them."""
    o = ord(c)
    return (
        0x2E80 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFE10 <= o <= 0xFE4F
        or 0xFF00 <= o <= 0xFFEF or 0x1F000 <= o <= 0x1FAFF or 0x20000 <= o <= 0x3FFFF
    )


def _atoms(para: str) -> list[str]:
    """Unbreakable units: one CJK char, one space, or a run of other chars (a Latin word)."""
    out: list[str] = []
    word = ""
    for c in para:
        if c == " " or _breakable(c):
            if word:
                out.append(word)
                word = ""
            out.append(c)
        else:
            word += c
    if word:
        out.append(word)
    return out


def _break_para(
    atoms: list[str], widths: list[float], max_w: float, char_w: Callable[[str], float],
    no_start: frozenset[str], no_end: frozenset[str],
) -> list[str]:
    """Greedy fill with oidashi kinsoku; widths and max_w share one unit (em along the line)."""
    atoms, widths = list(atoms), list(widths)
    lines: list[str] = []
    i, n = 0, len(atoms)
    while i < n:
        while i < n and atoms[i] == " ":
            i += 1
        if i >= n:
            break
        j, w = i, 0.0
        while j < n and (atoms[j] == " " or w + widths[j] <= max_w + _EPS):
            w += widths[j]
            j += 1
        if j == i:  # first atom alone is too wide
            word = atoms[i]
            if len(word) > 1:  # last resort: split a long word wherever it fills the line
                k, acc = 1, char_w(word[0])
                while k < len(word) and acc + char_w(word[k]) <= max_w + _EPS:
                    acc += char_w(word[k])
                    k += 1
                atoms[i:i + 1] = [word[:k], word[k:]]
                widths[i:i + 1] = [acc, widths[i] - acc]
                n += 1
            j = i + 1
        elif j < n:
            j = _kinsoku(atoms, i, j, no_start, no_end)
        lines.append("".join(atoms[i:j]).rstrip(" "))
        i = j
    return lines


def _kinsoku(atoms: list[str], i: int, j: int, no_start: frozenset[str], no_end: frozenset[str]) -> int:
    """Move the break at j earlier until the next line does not start (nor this one end) badly."""
    e = j
    while True:
        s = e
        while s < len(atoms) and atoms[s] == " ":
            s += 1
        p = e - 1
        while atoms[p] == " ":
            p -= 1
        if not ((s < len(atoms) and atoms[s][0] in no_start) or atoms[p][-1] in no_end):
            return e
        if p == i:  # pushing out would empty the line: accept the violation at the greedy break
            return j
        e = p


def _paragraphs(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n") if text else []


def _lines(text: str, metrics: FontMetrics, max_em: float, vertical: bool, wrap: bool) -> list[str]:
    """Break `text` with line length `max_em` in em (characters, for vertical text)."""
    if not wrap:
        return [p.strip(" ") for p in _paragraphs(text)]
    if vertical:
        char_w: Callable[[str], float] = lambda c: 1.0  # noqa: E731 - upright stacking, one em per char
        no_start, no_end = _NO_START_V, _NO_END_V
    else:
        char_w, no_start, no_end = metrics.advance, NO_START, NO_END
    out: list[str] = []
    for para in _paragraphs(text):
        atoms = _atoms(para)
        widths = [float(len(a)) for a in atoms] if vertical else [metrics.text_width(a, 1.0) for a in atoms]
        out.extend(_break_para(atoms, widths, max_em, char_w, no_start, no_end) or [""])
    return out


def break_lines(text: str, metrics: FontMetrics, size: float, max_width: float) -> list[str]:
    """Horizontal lines of `text` no wider than `max_width` pt at `size` pt (a lone overwide char excepted)."""
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    return _lines(text, metrics, max_width / size, vertical=False, wrap=True)


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


def fit_text(
    text: str, metrics: FontMetrics, *, width: float, height: float, size: float,
    min_size: float | None = None, line_height: float = 1.2, vertical: bool = False,
    wrap: bool = True, step: float = 0.25,
) -> TextLayout | None:
    """Largest size from `size` down to `min_size` (step by `step`) whose layout fits the box, else None.

    Horizontal: lines top to bottom. Vertical: columns right to left, one em per char,
    columns `size * line_height` apart.
    """
    if size <= 0:
        raise ValueError(f"font size must be positive, got {size}")
    if vertical:
        text = to_vertical(text, metrics)
    unwrapped = _lines(text, metrics, 0.0, vertical, wrap=False)
    if not unwrapped:
        return TextLayout(size, (), size * line_height, ())
    if vertical:
        along: Callable[[str], float] = lambda line: float(len(line))  # noqa: E731
        limit, across = height, width
    else:
        along, limit, across = (lambda line: metrics.text_width(line, 1.0)), width, height
    for s in _sizes(size, min_size, step):
        if s + (len(unwrapped) - 1) * s * line_height > across + _EPS:
            continue  # even without wrapping the block is too deep at this size
        lines = unwrapped if not wrap else _lines(text, metrics, limit / s, vertical, wrap=True)
        if s + (len(lines) - 1) * s * line_height > across + _EPS:
            continue
        extents = tuple(along(line) * s for line in lines)
        if max(extents) <= limit + _EPS:
            return TextLayout(s, tuple(lines), s * line_height, extents)
    return None
