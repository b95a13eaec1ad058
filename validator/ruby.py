"""Ruby (furigana) markup in any text, in the notation Japanese writers already use (青空文庫).

`｜漢字《かんじ》` puts the reading over the characters from ｜ to 《; `漢字《かんじ》` without ｜ takes the run
of kanji just before 《 as the base. One reading is group ruby (mono ruby when the base is one character);
readings separated by ｜ inside 《》, one per base character, are jukugo ruby (`漢字《かん｜じ》`: each kanji
its own reading, placed by the jukugo rules). Elsewhere 《》 are the ordinary double angle brackets
(`そのうえ《君主》を含む`); `《《` `》》` `｜｜` write the bracket or the bar itself where markup would be read
(right after a kanji). Unbalanced or empty markup is a RubyError with its position, never printed as typed.

The same notation's annotation `２０２６［＃「２０２６」は縦中横］` (the quoted text must come right before it)
marks a run to set across one cell of vertical text (縦中横) whatever its length or characters; it is
dropped from horizontal text. Any other ［＃…］ annotation is a RubyError: it would print as typed.

Parsing is one pass over the text (linear), and a pure function: the checks and the drawing share it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .compose import is_kanji

BAR, OPEN, CLOSE = "｜", "《", "》"
NOTE_OPEN, NOTE_CLOSE = "［＃", "］"
ACROSS_NOTE = re.compile(r"［＃「([^「」［］]+)」は縦中横］")
MARKUP = frozenset((BAR, OPEN, CLOSE))


@dataclass(frozen=True)
class Ruby:
    """A reading over text[start:end] of the plain text: one reading, or one per base character (jukugo)."""

    start: int
    end: int
    readings: tuple[str, ...]

    @property
    def kind(self) -> str:
        if len(self.readings) > 1:
            return "jukugo"
        return "mono" if self.end - self.start == 1 else "group"

    @property
    def reading(self) -> str:
        return "".join(self.readings)


@dataclass(frozen=True)
class Marked:
    """Text with its markup taken out: what prints on the line, the readings over it, and the runs
    marked to go across one cell of vertical text ([start, end) of the plain text)."""

    text: str
    rubies: tuple[Ruby, ...] = ()
    across: tuple[tuple[int, int], ...] = ()


class RubyError(ValueError):
    """Markup that cannot be read: `position` is the 0-based index in the text as written."""

    def __init__(self, position: int, message: str, what: str = "ruby markup") -> None:
        super().__init__(f"{what} at character {position + 1}: {message}")
        self.position = position
        self.detail = message


def has_markup(text: str) -> bool:
    return any(char in MARKUP for char in text) or NOTE_OPEN in text


def parse_ruby(source: str) -> Marked:
    """The plain text and its readings; RubyError for unbalanced or empty markup."""
    return parse_ruby_indexed(source)[0]


def parse_ruby_indexed(source: str) -> tuple[Marked, list[int]]:
    """parse_ruby, and for each character of the plain text its index in `source` (a paragraph's
    measured glyphs follow the source: the markup's glyphs are dropped by these indexes)."""
    if not has_markup(source):
        return Marked(source), list(range(len(source)))
    out: list[str] = []
    origin: list[int] = []
    rubies: list[Ruby] = []
    bar: tuple[int, int] | None = None  # (index in out, position in source) of a pending ｜
    literal: list[int] = []  # source positions of ordinary 《 not yet closed
    i, count = 0, len(source)
    across: list[tuple[int, int]] = []
    while i < count:
        char = source[i]
        if source.startswith(NOTE_OPEN, i):
            i = _annotation(source, i, out, across)
            continue
        doubled = i + 1 < count and source[i + 1] == char
        if char in MARKUP and doubled:
            out.append(char)
            origin.append(i)
            i += 2
            continue
        if char == BAR:
            if bar is not None:
                raise RubyError(i, f"a second {BAR} before the {OPEN}reading{CLOSE} of the one at character "
                                   f"{bar[1] + 1}")
            bar = (len(out), i)
            i += 1
            continue
        if char == OPEN:
            start = _base_start(out, rubies, bar)
            if start is None:
                literal.append(i)
                out.append(char)
                origin.append(i)
                i += 1
                continue
            if start == len(out):
                raise RubyError(i, f"{BAR} and {OPEN} with no base text between them")
            close = source.find(CLOSE, i + 1)
            nested = source.find(OPEN, i + 1, close if close >= 0 else count)
            if close < 0 or nested >= 0:
                raise RubyError(i, f"{OPEN} of the reading over {''.join(out[start:])!r} is never closed by {CLOSE}")
            if "\n" in out[start:] or "\n" in source[i:close]:
                raise RubyError(i, f"the ruby over {''.join(out[start:])!r} spans a line break: a base and its "
                                   "reading stay on one line")
            rubies.append(Ruby(start, len(out), _readings(source, i, close, out[start:])))
            bar = None
            i = close + 1
            continue
        if char == CLOSE:
            if not literal:
                raise RubyError(i, f"{CLOSE} with no {OPEN} before it (write {CLOSE}{CLOSE} for the bracket itself)")
            literal.pop()
        out.append(char)
        origin.append(i)
        i += 1
    if bar is not None:
        raise RubyError(bar[1], f"{BAR} starts a ruby base, but no {OPEN}reading{CLOSE} follows it")
    if literal:
        raise RubyError(literal[-1], f"{OPEN} is never closed by {CLOSE}")
    return Marked("".join(out), tuple(rubies), tuple(across)), origin


def _annotation(source: str, at: int, out: list[str], across: list[tuple[int, int]]) -> int:
    """Read the ［＃…］ at `at`: a 縦中横 annotation marks the text it quotes, which `out` must end with.
    Returns where reading goes on."""
    note = ACROSS_NOTE.match(source, at)
    if note is None:
        end = source.find(NOTE_CLOSE, at)
        shown = source[at:end + 1] if end >= 0 else source[at:at + 12]
        raise RubyError(at, f"{shown!r}: the only ［＃…］ annotation read is ［＃「…」は縦中横］", "annotation")
    quoted = note.group(1)
    if "".join(out[len(out) - len(quoted):]) != quoted:
        raise RubyError(at, f"［＃「{quoted}」は縦中横］ must follow the text it quotes", "annotation")
    across.append((len(out) - len(quoted), len(out)))
    return note.end()


def _base_start(out: list[str], rubies: list[Ruby], bar: tuple[int, int] | None) -> int | None:
    """Where the base of a 《 at the end of `out` starts: at a pending ｜, else at the start of the kanji run
    before it (not reaching into an earlier ruby's base); None when 《 is an ordinary bracket."""
    if bar is not None:
        return bar[0]
    floor = rubies[-1].end if rubies else 0
    start = len(out)
    while start > floor and is_kanji(out[start - 1]):
        start -= 1
    return start if start < len(out) else None


def _readings(source: str, open_at: int, close_at: int, base: list[str]) -> tuple[str, ...]:
    inside = source[open_at + 1:close_at]
    if not inside:
        raise RubyError(open_at, f"empty reading {OPEN}{CLOSE} over {''.join(base)!r}")
    parts = tuple(inside.split(BAR))
    if len(parts) > 1 and (len(parts) != len(base) or not all(parts)):
        raise RubyError(open_at, f"{len(parts)} readings separated by {BAR} over {len(base)} base characters "
                                 f"{''.join(base)!r}: jukugo ruby gives each base character one reading")
    return parts


__all__ = ["Marked", "Ruby", "RubyError", "has_markup", "parse_ruby", "parse_ruby_indexed"]
