"""The one Japanese line composer: where lines break, and how a justified line's slack is spread.

Cards and sheets (validator.typeset) and the rulebook and the report (generator.kinsoku) all call it,
so a text that fits in `fudaya check` is drawn with the same lines, and every page keeps one set of
rules. Pure functions over measured characters (a character and its advance, any unit); no fonts,
no ReportLab.

The rules, after JLREQ and JIS X 4051:
- 禁則: no line starts with a NO_START character (closing brackets, 、。, small kana, ー, ・：；,
  hyphens and dashes incl. 〜, iteration marks, ！？) and none ends with an opening bracket.
- 分離禁止 (NEVER): no break inside a Latin word or a number; a digit run stays with the character
  after it (its unit: 1ダ, 2枚, 3点), with a prefix symbol before it (¥1) and with a range's
  dash (2〜4); an operator (+ ＋ − - ＝ × ÷ ±) never starts or ends a line, so 7+6+2=15 stays
  whole and 1 + 2 too (an ASCII - binds only what it touches: --studies may open a line); a
  no-break space joins; a pair of ―― or …… is not parted.
- Kept words (AVOID): a katakana word (a run of katakana with ー・) and a kanji word an operator
  works on (内政 in 1＋内政; 勝利点 in 勝利点 ±0: the operator binds across the space) break only
  when no other break keeps the line KEEP_FILL full: a word moves whole to the next line unless the
  line it leaves would spread by more than about 0.2 em a gap (a justified line that loose reads as
  gappy; JLREQ lets katakana words part).
- A paragraph's last line of RUNT characters or fewer (す。), or of one character and closing
  punctuation (す）。), takes characters from the line above, at a break the rules allow, leaving
  that line at least half its characters.
- A justified line spreads its slack evenly over the gaps between characters, none inside a Latin
  word or a number; a paragraph's last line and a line ended by an explicit break stay as set.

A paragraph ends at "\\n" (an explicit break) or at the end of the text.

Ruby (validator.ruby_layout) reaches the composer as data on Measured: gaps inside a ruby's base that
never break nor stretch, and the room a reading that overhangs its neighbours needs when its base
starts or ends a line (`lead`, `trail`), where there is no neighbour to overhang.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

# Unicode vertical presentation forms. ー is deliberately absent: no standard form exists
# (U+4E28 丨 is a kanji, U+FE31 is a dash), so it stays as is.
VERTICAL_FORMS: Mapping[str, str] = {
    "、": "︑", "。": "︒", "，": "︐", "：": "︓", "；": "︔", "！": "︕", "？": "︖",
    "「": "﹁", "」": "﹂", "『": "﹃", "』": "﹄", "（": "︵", "）": "︶",
    "【": "︻", "】": "︼", "〔": "︹", "〕": "︺", "〈": "︿", "〉": "﹀",
    "《": "︽", "》": "︾", "［": "﹇", "］": "﹈", "｛": "︷", "｝": "︸",
    "〖": "︗", "〗": "︘", "…": "︙", "‥": "︰",
}

# JLREQ character classes (cl-NN), as far as line breaking needs them.
OPENING = frozenset("（［｛「『【〔〈《〘〖〝‘“([{｢≪")  # cl-01
CLOSING = frozenset("）］｝」』】〕〉》〙〗〟’”)]}｣≫")  # cl-02
HYPHENS = frozenset("‐‑–〜～゠")  # cl-03 (～ U+FF5E is often typed for 〜)
DIVIDING = frozenset("！？‼⁇⁈⁉!?")  # cl-04
MIDDLE_DOTS = frozenset("・：；:;")  # cl-05
FULL_STOPS = frozenset("。．.｡")  # cl-06
COMMAS = frozenset("、，,､")  # cl-07
INSEPARABLE = frozenset("—―…‥")  # cl-08: a pair of them is one mark
ITERATION = frozenset("ヽヾゝゞ々〻")  # cl-09
PROLONGED = frozenset("ー")  # cl-10
SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"  # cl-11
                       "ㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿｧｨｩｪｫｯｬｭｮｰ")

_HORIZONTAL_NO_START = (CLOSING | HYPHENS | DIVIDING | MIDDLE_DOTS | FULL_STOPS | COMMAS | ITERATION
                        | PROLONGED | SMALL_KANA | frozenset("…‥゛゜"))
NO_START = _HORIZONTAL_NO_START | {VERTICAL_FORMS[c] for c in _HORIZONTAL_NO_START if c in VERTICAL_FORMS}
NO_END = OPENING | {VERTICAL_FORMS[c] for c in OPENING if c in VERTICAL_FORMS}

# Full-width punctuation whose glyph fills half its em and leaves the other half blank: after it (closing
# brackets, 、。) or before it (opening brackets), in horizontal and vertical forms alike.
BLANK_AFTER = frozenset(c for c in CLOSING | COMMAS | FULL_STOPS if ord(c) >= 0x3000) | {
    VERTICAL_FORMS[c] for c in CLOSING | COMMAS | FULL_STOPS if c in VERTICAL_FORMS}
BLANK_BEFORE = frozenset(c for c in OPENING if ord(c) >= 0x3000) | {VERTICAL_FORMS[c] for c in OPENING
                                                                     if c in VERTICAL_FORMS}
SQUEEZE = 0.5  # of an em: the blank half a mark gives up beside another mark

OPERATORS = frozenset("+＋−-－=＝×÷±")
SPACED_OPERATORS = OPERATORS - {"-"}  # bind across a space too (1 + 2); ASCII - only what it touches (--studies)
DIGITS = frozenset("0123456789０１２３４５６７８９")
PREFIXES = frozenset("¥￥$＄£€#＃№")  # stay with the number after them
JOINERS = frozenset("\u00a0\u202f\u2060")  # no-break spaces and the word joiner: no break beside them
SPACES = frozenset(" \u3000\u200b")  # a line neither starts (after a break) nor ends with them
RUNT = 2  # a paragraph's last line of this many characters or fewer takes more from the line above
KEEP_FILL = 0.85  # a kept word moves whole to the next line only if its line stays this full

FREE, AVOID, NEVER = 0, 1, 2  # may a line end at a gap: yes; only if nothing better; no
_SPECIAL = NO_START | NO_END | OPERATORS | DIGITS | PREFIXES | JOINERS | SPACES | INSEPARABLE | {"\n"}
_EPS = 1e-9
_EDGE = ("", "\0")


def _is_latin(c: str) -> bool:
    """A character of a Latin word or number (letters, digits, ASCII punctuation, Latin-1, Greek):
    no break between two of them."""
    return ord(c) < 0x2000 and c not in SPACES and c not in JOINERS and c != "\n"


def _is_katakana(c: str) -> bool:
    o = ord(c)
    return 0x30A1 <= o <= 0x30FE or 0x31F0 <= o <= 0x31FF or 0xFF66 <= o <= 0xFF9F


_KANJI_MARKS = frozenset("々〆〇ヶ")  # written inside kanji words: 人々, 〆切, 一ヶ月


def is_kanji(c: str) -> bool:
    """A character of a kanji word (the ruby notation's unmarked base is a run of them, too)."""
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x3FFFF
            or c in _KANJI_MARKS)


@dataclass(frozen=True)
class Measured:
    """A text as the composer sees it: its characters, their advances, and where a line may end.

    breaks[i] says whether a line may end between chars[i - 1] and chars[i] (FREE, AVOID, NEVER);
    it depends on the characters only, so a text is classified once however often it is set.
    `rigid` gaps (by the same index) never stretch in a justified line; `lead[i]` is extra room a line
    starting at chars[i] needs before it, `trail[i]` extra room a line ending before chars[i] needs after
    it (a reading overhanging where the line has no character).
    """

    chars: str
    widths: tuple[float, ...]
    breaks: bytes
    rigid: frozenset[int] = field(default=frozenset(), repr=False)
    lead: Mapping[int, float] = field(default_factory=dict, repr=False)
    trail: Mapping[int, float] = field(default_factory=dict, repr=False)


def measured(chars: str, widths: Sequence[float], *, bound: Iterable[int] = (),
             lead: Mapping[int, float] | None = None, trail: Mapping[int, float] | None = None) -> Measured:
    """`chars` ("\\n" an explicit break) with one advance each; `bound` gaps (index of the character after
    them) neither break nor stretch: a ruby's base is set as one unit."""
    if len(widths) != len(chars):
        raise ValueError(f"{len(chars)} characters but {len(widths)} widths")
    breaks = break_classes(chars)
    rigid = frozenset(bound)
    if rigid:
        marked = bytearray(breaks)
        for gap in rigid:
            marked[gap] = NEVER
        breaks = bytes(marked)
    return Measured(chars, tuple(widths), breaks, rigid, dict(lead or {}), dict(trail or {}))


@dataclass(frozen=True)
class Squeeze:
    """Marks set solid: each cell's width, where its glyph starts in it (negative: before the cell), and
    the room a line ending between two squeezed marks needs back (`trail`, as Measured's)."""

    cells: list[float]
    shifts: list[float]
    trail: dict[int, float]


def squeezed(chars: str, widths: Sequence[float], ems: Sequence[float]) -> Squeeze | None:
    """Marks side by side set solid (JLREQ 3.1.4, 約物の連続): a closing bracket, 、 or 。 followed by another
    mark gives up its blank half (。」 and 」「 leave half an em between their glyphs, not a whole one), and an
    opening bracket after another opening bracket gives up its leading half (（「). A mark whose line ends
    before the other keeps its whole em. None when nothing is squeezed. `ems` is each character's em in the
    widths' unit; a glyph narrower than most of an em has no blank to give."""
    if BLANK_AFTER.isdisjoint(chars) and BLANK_BEFORE.isdisjoint(chars):
        return None
    cells, shifts, trail = list(widths), [0.0] * len(chars), {}
    for i in range(len(chars) - 1):
        a, b = chars[i], chars[i + 1]
        if a in BLANK_AFTER and (b in BLANK_AFTER or b in BLANK_BEFORE) and cells[i] >= 0.9 * ems[i]:
            cells[i] -= SQUEEZE * ems[i]
            trail[i + 1] = SQUEEZE * ems[i]
        elif a in BLANK_BEFORE and b in BLANK_BEFORE and cells[i + 1] >= 0.9 * ems[i + 1]:
            cells[i + 1] -= SQUEEZE * ems[i + 1]  # never at a line's start: no line ends with an opening bracket
            shifts[i + 1] = -SQUEEZE * ems[i + 1]
    changed = trail or any(shifts)
    return Squeeze(cells, shifts, trail) if changed else None


def break_classes(chars: str) -> bytes:
    """FREE, AVOID or NEVER for the gap before each character (index 0: the start, always FREE).

    Spaces are looked through: "あ 。" may not break, since the next line would open with 。.
    """
    n = len(chars)
    plain = [_is_plain(c) for c in chars]
    before, after = _around(chars)
    out = bytearray(n)
    for i in range(1, n):
        if plain[i - 1] and plain[i]:
            continue  # kanji and kana beside kanji and kana: FREE (most gaps of Japanese text)
        out[i] = _gap(chars[i - 1], chars[i], before[i], after[i])
    if not OPERATORS.isdisjoint(chars):
        for begin, end in _operand_words(chars):
            for i in range(begin + 1, end):
                out[i] = max(out[i], AVOID)
    return bytes(out)


@functools.lru_cache(maxsize=8192)
def _is_plain(c: str) -> bool:
    """No rule looks at this character (a kanji, a hiragana): a gap between two of them is FREE."""
    return not (c in _SPECIAL or _is_latin(c) or _is_katakana(c))


def _around(chars: str) -> tuple[Sequence[str], Sequence[str]]:
    """For each gap, the nearest character before it and at or after it that is not a space, within
    its paragraph ("" or NUL at a paragraph's edge). One pass each way: a run of spaces costs no more."""
    if SPACES.isdisjoint(chars):  # each gap's neighbours are the characters beside it
        return ("\n" + chars[:-1]).replace("\n", "\0"), chars.replace("\n", "\0")
    n = len(chars)
    before, after = [""] * n, [""] * n
    last = ""
    for i, c in enumerate(chars):
        before[i] = last
        last = "" if c == "\n" else (last if c in SPACES else c)
    last = ""
    for i in range(n - 1, -1, -1):
        c = chars[i]
        last = "" if c == "\n" else (last if c in SPACES else c)
        after[i] = last
    return before, after


def _gap(a: str, b: str, p: str, q: str) -> int:
    """The class of the gap between `a` and `b`; `p`, `q`: the nearest non-space characters around it
    ("" or NUL at a paragraph's edge)."""
    if a == "\n" or b == "\n" or p in _EDGE or q in _EDGE:
        return FREE
    if a in JOINERS or b in JOINERS or q in NO_START or p in NO_END or p in SPACED_OPERATORS \
            or q in SPACED_OPERATORS or a in OPERATORS or b in OPERATORS:
        return NEVER
    if a in SPACES or b in SPACES:
        return FREE
    if (_is_latin(a) and _is_latin(b)) or (a == b and a in INSEPARABLE):
        return NEVER
    if (a in DIGITS and b not in OPENING) or (b in DIGITS and (a in PREFIXES or a in HYPHENS)):
        return NEVER  # a number and its unit or prefix; a range (2〜4) stays whole
    if _is_katakana(a) and _is_katakana(b):
        return AVOID
    return FREE


def _operand_words(chars: str) -> list[tuple[int, int]]:
    """Runs of kanji beside an operator ([begin, end) of 内政 in 1＋内政), or beside one that binds across a
    space or a no-break space (価値 in 0点 ＝ 価値, 勝利点 in 勝利点 ±0): words a sum is made of."""
    runs: list[tuple[int, int]] = []
    i, n = 0, len(chars)
    while i < n:
        if not is_kanji(chars[i]):
            i += 1
            continue
        j = i
        while j < n and is_kanji(chars[j]):
            j += 1
        before, after = i - 1, j
        while before >= 0 and (chars[before] in SPACES or chars[before] in JOINERS):
            before -= 1
        while after < n and (chars[after] in SPACES or chars[after] in JOINERS):
            after += 1
        beside = (chars[i - 1] if i > 0 else "") + (chars[j] if j < n else "")
        across = (chars[before] if before >= 0 else "") + (chars[after] if after < n else "")
        if not OPERATORS.isdisjoint(beside) or not SPACED_OPERATORS.isdisjoint(across):
            runs.append((i, j))
        i = j
    return runs


@dataclass(frozen=True)
class Line:
    """chars[start:end] set on one line: trailing spaces excluded, `width` their natural advance (with
    the room overhanging ruby needs at the line's ends, `lead` of it before the first character),
    `measure` the line's length; `justify` is False for a paragraph's last line and a line ended by
    an explicit break, which are set as they are."""

    start: int
    end: int
    width: float
    measure: float
    justify: bool
    lead: float = 0.0


@dataclass(frozen=True)
class Composition:
    """The lines broken, and where breaking stopped (len(chars) unless `max_lines` cut it short)."""

    lines: tuple[Line, ...]
    stop: int


def compose(text: Measured, measures: float | Sequence[float], *, start: int = 0,
            max_lines: int | None = None) -> Composition:
    """Break `text` from `start` into lines no longer than their measure (line k gets measures[k], the
    last one thereafter), at most `max_lines` of them.

    Greedy first fit, then the break moves back to the last FREE gap (oidashi), or to a nearer AVOID
    gap when the FREE one would leave the line less than KEEP_FILL full. A line with no allowed break breaks
    where it overflows (a Latin word longer than the line); a character wider than the line stands alone.
    """
    widths_of = [measures] if isinstance(measures, (int, float)) else list(measures)
    if not widths_of:
        raise ValueError("no line measure given")
    chars, widths, breaks = text.chars, text.widths, text.breaks
    n = len(chars)
    lines: list[Line] = []
    paragraph_start = 0  # index in `lines` of the current paragraph's first line
    i = _skip(chars, start, " ")
    while (i < n or (i == n and n > start and chars[n - 1] == "\n")) and (max_lines is None or len(lines) < max_lines):
        measure = widths_of[min(len(lines), len(widths_of) - 1)]
        j, used = i, 0.0
        while j < n and chars[j] != "\n":
            if j > i and used + widths[j] > measure + _EPS and chars[j] not in SPACES:
                break
            used += widths[j]
            j += 1
        if j >= n or chars[j] == "\n":
            end = _ruby_room(text, i, j, measure) if text.lead or text.trail else None
            if end is None:
                lines.append(_line(text, i, j, measure, justify=False))
                if len(lines) - paragraph_start >= 2:
                    _lift_runt(text, lines)
                paragraph_start = len(lines)
                i = _skip(chars, j + 1, " ") if j < n else n + 1
                continue
        else:
            end = _break_at(breaks, widths, i, j, used, measure)
            if text.lead or text.trail:
                end = _ruby_room(text, i, end, measure) or end
        lines.append(_line(text, i, end, measure, justify=True))
        i = _skip(chars, end, SPACES)
    return Composition(tuple(lines), min(i, n))


def _skip(chars: str, i: int, spaces: str | frozenset[str]) -> int:
    while i < len(chars) and chars[i] in spaces:
        i += 1
    return i


def _line(text: Measured, start: int, end: int, measure: float, *, justify: bool) -> Line:
    """The line chars[start:end] less its trailing spaces."""
    end = _trimmed(text.chars, start, end)
    return Line(start, end, _extent(text, start, end), measure, justify, text.lead.get(start, 0.0))


def _trimmed(chars: str, start: int, end: int) -> int:
    while end > start and chars[end - 1] in SPACES:
        end -= 1
    return end


def _extent(text: Measured, start: int, end: int) -> float:
    """The length of chars[start:end] set as a line: its advances and the room its ends' ruby needs."""
    return sum(text.widths[start:end]) + text.lead.get(start, 0.0) + text.trail.get(end, 0.0)


def _ruby_room(text: Measured, start: int, end: int, measure: float) -> int | None:
    """None when chars[start:end] fits its measure with the room overhanging ruby needs at its ends;
    else the latest earlier break where it does (a FREE one first), or None if there is none."""
    if _extent(text, start, _trimmed(text.chars, start, end)) <= measure + _EPS:
        return None
    for allowed in (FREE, AVOID):
        for g in range(end - 1, start, -1):
            if text.breaks[g] == allowed and _extent(text, start, _trimmed(text.chars, start, g)) <= measure + _EPS:
                return g
    return None


def _break_at(breaks: bytes, widths: Sequence[float], i: int, j: int, used: float, measure: float) -> int:
    """Where the line from `i` ends, chars[j] having overflowed it (`used`: the width of chars[i:j])."""
    avoid = None
    for g in range(j, i, -1):
        kind = breaks[g]
        if kind == FREE:
            if avoid is None or used - sum(widths[g:j]) >= measure * KEEP_FILL:
                return g
            return avoid
        if kind == AVOID and avoid is None:
            avoid = g
    return avoid if avoid is not None else j


def _lift_runt(text: Measured, lines: list[Line]) -> None:
    """A paragraph's last line that is a runt takes characters from the line above, at the latest
    FREE gap that makes it none, keeps the line above at least half its characters, and still fits
    the measure."""
    last, above = lines[-1], lines[-2]
    chars = text.chars
    if not _runt(chars, last.start, last.end) or last.end == last.start:
        return
    floor = above.start + (above.end - above.start) // 2
    for g in range(above.end - 1, floor, -1):
        if text.breaks[g] != FREE or _runt(chars, g, last.end):
            continue
        begin = _skip(chars, g, SPACES)
        if _extent(text, begin, last.end) > last.measure + _EPS:
            return  # taking more only makes it wider
        lines[-2] = _line(text, above.start, g, above.measure, justify=True)
        lines[-1] = _line(text, begin, last.end, last.measure, justify=False)
        return


def _runt(chars: str, start: int, end: int) -> bool:
    """RUNT characters or fewer, or a single one before closing punctuation (す）。)."""
    shown = [c for c in chars[start:end] if c not in SPACES]
    return len(shown) <= RUNT or sum(1 for c in shown if c not in NO_START) < 2


def justify(text: Measured, line: Line) -> tuple[float, ...]:
    """Space to add after each character of a justified line so it fills its measure exactly, evenly
    over the gaps that may stretch (none inside a Latin word or number, nor inside ―― or …… or a ruby's
    base).

    Empty when the line is set as it is: not justified, already full, or without a gap to stretch.
    """
    slack = line.measure - line.width
    if not line.justify or slack <= _EPS:
        return ()
    chars, rigid = text.chars, text.rigid
    gaps = [k for k in range(line.start, line.end - 1) if _stretches(chars[k], chars[k + 1]) and k + 1 not in rigid]
    if not gaps:
        return ()
    each = slack / len(gaps)
    extra = [0.0] * (line.end - line.start)
    for k in gaps:
        extra[k - line.start] = each
    return tuple(extra)


def _stretches(a: str, b: str) -> bool:
    return not ((_is_latin(a) and _is_latin(b)) or (a == b and a in INSEPARABLE))


def unbroken(text: Measured) -> tuple[Line, ...]:
    """One line a paragraph, as written (less spaces at either end): text that is not wrapped."""
    out, start = [], 0
    chars = text.chars
    for end in [*(k for k, c in enumerate(chars) if c == "\n"), len(chars)]:
        first = start
        while first < end and chars[first] == " ":
            first += 1
        last = end
        while last > first and chars[last - 1] == " ":
            last -= 1
        out.append(Line(first, last, _extent(text, first, last), 0.0, False, text.lead.get(first, 0.0)))
        start = end + 1
    return tuple(out)
