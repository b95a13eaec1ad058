"""人材登用 (jinzai): public columns as small ints ("stack codes") and the memoised score of a seat's columns.

Only a tile's kind matters to the rules, so a column is one int: 1 when empty, each tile pushed as one
bit below the previous ones (1 for a trickster, 0 for the column's number), so the top is bit 0, a pop
is `code >> 1` and pushing n numbered tiles is `code << n`. Scoring reads only each column's *counted*
length (0 when empty or topped by a trickster), so a seat's columns reduce to a packed key of counted
lengths, `bits` bits per column, whose score is computed once by scoring.ScoringRules (never restated
here) and memoised. The state and the greedy heuristic both read these tables.
"""
from __future__ import annotations

from collections.abc import Sequence

from .scoring import STAR, ScoringRules, TileTable


class ColumnCodes:
    """Tables over stack codes for one tile table, and a memo of (total, set VP) per packed key."""

    def __init__(self, table: TileTable, scoring: ScoringRules) -> None:
        self.columns = columns = table.columns
        self.scoring = scoring
        stars = table.kinds.count(STAR)
        # The longest column a position can hold, plus one for the greedy's look-ahead of one more tile.
        longest = max((table.kinds.count(k) for k in range(1, columns + 1)), default=0) + stars + 1
        self.bits = bits = max(4, longest.bit_length())
        size = 1 << (longest + 1)
        length = [code.bit_length() - 1 for code in range(size)]
        #: code -> counted length (0 when empty or topped by a trickster)
        self.counted = counted = tuple(0 if code <= 1 or code & 1 else length[code] for code in range(size))
        #: code -> numbered tiles in the column (tricksters excluded)
        self.numbered = tuple(length[code] - bin(code).count("1") + 1 if code else 0 for code in range(size))
        #: column -> code -> that column's share of a packed key
        self.packed = tuple(tuple(counted[code] << bits * c for code in range(size)) for c in range(columns))
        #: column -> a mask that clears that column's share of a packed key (a trickster put on top)
        self.clear = tuple(~((1 << bits) - 1 << bits * c) for c in range(columns))
        self._scores: dict[int, tuple[int, int]] = {}
        #: packed key -> the greedy heuristic's value of a seat, filled by policies.py: a memo that lives as long
        #: as these tables (kept here, not in a weak mapping: compiled by mypyc, this class takes no weak reference)
        self.heuristic_values: dict[int, int] | None = None

    def key(self, codes: Sequence[int]) -> int:
        """The packed key of counted lengths of one seat's column codes."""
        packed = self.packed
        key = 0
        for c, code in enumerate(codes):
            key += packed[c][code]
        return key

    def counted_columns(self, key: int) -> list[list[int]]:
        """Columns (kinds) that score as the packed key does: each counted length of its own number."""
        mask = (1 << self.bits) - 1
        return [[c + 1] * (key >> self.bits * c & mask) for c in range(self.columns)]

    def score(self, key: int) -> tuple[int, int]:
        """(total, set VP) of a seat's columns given as a packed key, from ScoringRules (memoised)."""
        found = self._scores.get(key)
        if found is None:
            columns = self.counted_columns(key)
            found = self._scores[key] = (self.scoring.total(columns), self.scoring.set_vp(columns))
        return found

    def kinds(self, column: int, code: int) -> tuple[int, ...]:
        """The tile kinds of a column, bottom to top."""
        number = column + 1
        return tuple(STAR if code >> i & 1 else number for i in range(code.bit_length() - 2, -1, -1))

    def code_of(self, kinds: Sequence[int]) -> int:
        """The stack code of a column given as kinds bottom to top (the inverse of `kinds`)."""
        code = 1
        for kind in kinds:
            code = code << 1 | (kind == STAR)
        return code
