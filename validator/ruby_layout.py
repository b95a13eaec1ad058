"""Where a reading goes along its line, after JLREQ 3.3 and the W3C note on simple ruby placement.

Pure arithmetic in ems of the base text, shared by cards, sheets and rulebooks (validator.typeset and
generator.kinsoku), horizontal and vertical alike:
- A reading no longer than its base sits over it: centred over one character (mono ruby), spread over
  several with space 1:2:1 (half a gap at either end; group ruby).
- A longer reading may overhang a neighbour that is kana or punctuation, not kanji, nor another ruby's
  base, by up to one ruby character (and half the neighbour, so two readings never meet over one kana);
  what overhanging leaves over spreads the base, 1:2:1 again (each base character centred in a widened
  cell).
- Jukugo ruby (one reading per kanji) sits per character when every reading fits its kanji, and a line
  may break between them; otherwise the word takes its readings as one group.
- A base is never broken across lines nor stretched by justification; a line that starts or ends at an
  overhanging base makes room for the overhang (the composer's lead/trail), as there is nothing to hang over.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .compose import (
    CLOSING,
    COMMAS,
    FULL_STOPS,
    MIDDLE_DOTS,
    OPENING,
    SMALL_KANA,
    SPACES,
    Measured,
    Squeeze,
    measured,
)
from .ruby import Ruby

RUBY_SCALE = 0.5  # a reading's size against its base's, by default (JLREQ)
ReadingLength = Callable[[str, int], float]  # (reading, where its base starts) -> its length
_OVERHANGABLE = OPENING | CLOSING | COMMAS | FULL_STOPS | MIDDLE_DOTS | SPACES | SMALL_KANA | frozenset("ー")


@dataclass(frozen=True)
class Reading:
    """A reading over text[start:end]: `offset` ems from its base's first cell to the reading's start
    (negative when it overhangs the character before), `gap` ems between its characters (1:2:1 over a
    longer base); `before`, `after`: how far it overhangs either neighbour."""

    start: int
    end: int
    text: str
    offset: float
    gap: float
    before: float = 0.0
    after: float = 0.0


@dataclass(frozen=True)
class RubySetting:
    """A text with its readings set: `measured` for the composer (cells widened where a reading spreads
    its base), `pads` what each cell has over its character's width as given (the character sits centred
    in it), `shifts` where each glyph starts in its cell (the pad's half, and a squeezed mark's own shift)."""

    measured: Measured
    pads: tuple[float, ...]
    readings: tuple[Reading, ...]
    shifts: tuple[float, ...]


def set_ruby(chars: str, widths: Sequence[float], rubies: Sequence[Ruby], reading_length: ReadingLength,
             ruby_char: float = RUBY_SCALE, squeeze: Squeeze | None = None,
             rigid: Iterable[int] = ()) -> RubySetting:
    """Place `rubies` over `chars` whose cells are `widths` long (ems of the text, or points), marks side by
    side set solid first when `squeeze` says how; `reading_length(reading, base_start)` is a reading's
    length in that unit, `ruby_char` the size of one ruby character (the most a reading overhangs a
    neighbour). `rigid` gaps are bound already (a 縦中横 run) and stay so."""
    if squeeze is not None:
        widths = squeeze.cells
    units = _units(widths, rubies, reading_length)
    owner = [False] * len(chars)
    for ruby in units:
        owner[ruby.start:ruby.end] = [True] * (ruby.end - ruby.start)
    pads = [0.0] * len(chars)
    readings: list[Reading] = []
    bound: list[int] = list(rigid)
    lead: dict[int, float] = {}
    trail: dict[int, float] = dict(squeeze.trail) if squeeze is not None else {}
    for ruby in units:
        reading = ruby.reading
        count = ruby.end - ruby.start
        base = sum(widths[ruby.start:ruby.end])
        length = reading_length(reading, ruby.start)
        bound.extend(range(ruby.start + 1, ruby.end))
        if length <= base:
            spare = base - length
            if count == 1:  # mono ruby: centred
                readings.append(Reading(ruby.start, ruby.end, reading, spare / 2, 0.0))
            else:  # group ruby: 1:2:1
                readings.append(Reading(ruby.start, ruby.end, reading, spare / len(reading) / 2, spare / len(reading)))
            continue
        excess = length - base
        before = min(excess / 2, _allowance(chars, widths, owner, ruby.start - 1, ruby_char))
        after = min(excess / 2, _allowance(chars, widths, owner, ruby.end, ruby_char))
        spread = (excess - before - after) / count
        for k in range(ruby.start, ruby.end):
            pads[k] = spread
        readings.append(Reading(ruby.start, ruby.end, reading, -before, 0.0, before, after))
        if before:
            lead[ruby.start] = before
        if after:
            trail[ruby.end] = trail.get(ruby.end, 0.0) + after
    cells = [w + pad for w, pad in zip(widths, pads)]
    starts = tuple(pad / 2 + (squeeze.shifts[k] if squeeze else 0.0) for k, pad in enumerate(pads))
    return RubySetting(measured(chars, cells, bound=bound, lead=lead, trail=trail), tuple(pads), tuple(readings),
                       starts)


def reading_rise(ascent_share: float, size: float, ruby: float) -> float:
    """From a line's baseline to its readings' baseline, the readings set solid on the em box of text of
    `size` (`ascent_share`: the part of the em above the baseline, the font's ascent and descent taken as
    one em)."""
    return (size - ruby) * ascent_share + ruby


def _units(widths: Sequence[float], rubies: Sequence[Ruby], reading_length: ReadingLength) -> list[Ruby]:
    """The rubies as set: jukugo ruby per character where every reading fits its kanji, else one group."""
    out: list[Ruby] = []
    for ruby in rubies:
        if ruby.kind != "jukugo":
            out.append(ruby)
        elif all(reading_length(r, ruby.start + k) <= widths[ruby.start + k] for k, r in enumerate(ruby.readings)):
            out.extend(Ruby(ruby.start + k, ruby.start + k + 1, (r,)) for k, r in enumerate(ruby.readings))
        else:
            out.append(Ruby(ruby.start, ruby.end, (ruby.reading,)))
    return out


def _allowance(chars: str, widths: Sequence[float], owner: Sequence[bool], k: int, ruby_char: float) -> float:
    """How far a reading may overhang chars[k]: kana and punctuation up to one ruby character and half
    their width; nothing over kanji, Latin, another base or past the paragraph."""
    if k < 0 or k >= len(chars) or owner[k] or not _overhangable(chars[k]):
        return 0.0
    return min(ruby_char, widths[k] / 2)


def _overhangable(char: str) -> bool:
    code = ord(char)
    return 0x3041 <= code <= 0x309F or 0x30A0 <= code <= 0x30FF or char in _OVERHANGABLE


__all__ = ["RUBY_SCALE", "Reading", "RubySetting", "reading_rise", "set_ruby"]
