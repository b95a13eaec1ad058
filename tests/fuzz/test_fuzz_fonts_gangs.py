"""Property (issue 23, check ⇔ build): decks with hostile fonts, ganged pieces and card sizes drawn at random.

For every such deck, `check --no-simulate` and `build --no-report` agree (check ok ⇒ build ok, and a
refused deck is refused by both), exit 0 or 1 with one located line per problem, never a traceback.
Each command runs in its own process under an address-space limit (RLIMIT_AS), so a font that makes
a reader allocate gigabytes fails this test rather than the machine, and under a time limit.

The fonts start from a small valid cut of BIZ UD Gothic (tests/support/hostile_fonts.py) whose one
format 13 group maps 150,000 code points to its 'i', so every text of the deck has a glyph and the
font passes the check; then one hostile change: a huge cmap range (format 12, 13, or overlapping
format 4 segments), licence bits, more glyphs declared than held, a cut, a few bytes overwritten.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deckcopies import copy_decks, edit_json
from hostile_fonts import (
    cmap_format4,
    cmap_groups,
    full_font_with_fs_type,
    tiny_font,
    with_fs_type,
    with_num_glyphs,
    with_table,
)

# Each property checks and builds hostile inputs, seconds a property even at make test's six examples: make test
# and make fuzz run them, the quick loop does not (issue 28).
pytestmark = pytest.mark.slow

ADDRESS_SPACE = 2 * 1024**3  # a shipped game builds in under 1 GiB of address space; the 728-byte font took 6 GB
MAX_SECONDS = 120             # per command: a safety bound, not a speed target
RUN = ("import resource, sys; limit = int(sys.argv[1]); resource.setrlimit(resource.RLIMIT_AS, (limit, limit)); "
       "sys.argv = ['fudaya', *sys.argv[2:]]; from generator.cli import app; app()")
ISSUE_LINE = re.compile(r"^\S.*?: \$.*?: .+$")  # file[:line:col]: $.json.path: what is wrong
SUMMARY_LINE = re.compile(r"^\w+: (not built \(\d+ problems?\)|\d+ problems? \(.*\)|ok \(.*\)|warning: .+)$")
PREFLIGHT_LINE = re.compile(r"^warning: \S+\.pdf: (document|page \d+)( at -?[\d.]+,-?[\d.]+ mm)?: .+$")
FONT_KEYS = ("gothic", "gothic_bold", "mincho")
SIZES_MM = (10, 13, 22, 44, 63, 88, 110, 150, 180, 188, 190, 196, 200, 202, 210, 280, 300)


@dataclass(frozen=True)
class Change:
    """One change to a copy of a shipped game: a file written, or a JSON value set (`at` a path of keys)."""

    file: str
    at: tuple[str | int, ...] = ()
    value: object = None
    data: bytes | None = field(default=None, repr=False)
    note: str = ""  # what the data is, for the failure report

    def apply(self, game: Path) -> str:
        if self.data is not None:
            (game / self.file).write_bytes(self.data)
            return f"{self.file} = {self.note} ({len(self.data):,} bytes)"

        def put(doc: object) -> None:
            for key in self.at[:-1]:
                doc = doc[key]  # type: ignore[index]
            doc[self.at[-1]] = self.value  # type: ignore[index]
        edit_json(game / self.file, put)
        return f"{self.file} {'/'.join(map(str, self.at))} = {self.value!r}"


def _covering() -> bytes:
    """Accepted by the check: every code point of the shipped texts mapped to one half-width glyph."""
    return with_table(tiny_font("i"), "cmap", cmap_groups(13, [(0x20, 0x20 + 149_999, 1)]))


@st.composite
def hostile_fonts(draw: st.DrawFn) -> tuple[str, bytes]:
    """(what it is, the font's bytes)."""
    kind = draw(st.sampled_from(["covering", "huge-13", "huge-12", "format-4", "licence", "full-licence", "glyphs",
                                 "cut", "bytes"]))
    tiny = tiny_font("i")
    if kind == "huge-13":
        last = draw(st.sampled_from([0x20 + 200_000, 0x10FFFF, 0xFFFFFF, 0xFFFFFFFF]))
        return f"format 13 group U+0020..{last:X}", with_table(tiny, "cmap", cmap_groups(13, [(0x20, last, 1)]))
    if kind == "huge-12":
        last = draw(st.sampled_from([0x10FFFF, 2**32 - 1]))
        return f"format 12 group 0..{last:X}", with_table(tiny, "cmap", cmap_groups(12, [(0, last, 1)]))
    if kind == "format-4":
        count = draw(st.integers(1, 8000))
        return f"{count} format 4 segments", with_table(tiny, "cmap", cmap_format4([(0x20, 0xFFFE, 0)] * count))
    if kind in ("licence", "full-licence"):
        fs_type = draw(st.sampled_from([0x0002, 0x0100, 0x0200, 0x0302, 0x0004, 0x0008]))
        data = with_fs_type(_covering(), fs_type) if kind == "licence" else full_font_with_fs_type(fs_type)
        return f"{kind} fsType 0x{fs_type:04X}", data
    data = _covering()
    if kind == "glyphs":
        count = draw(st.sampled_from([0, 1, 3, 255, 256, 65_535]))
        return f"numGlyphs {count}", with_num_glyphs(data, count)
    if kind == "cut":
        cut = draw(st.integers(0, len(data) - 1))
        return f"cut at {cut}", data[:cut]
    if kind == "bytes":
        edited = bytearray(data)
        for _ in range(draw(st.integers(1, 3))):
            edited[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
        return f"bytes changed {bytes(edited).hex()}", bytes(edited)
    return "covering", data


def _font_changes() -> st.SearchStrategy[list[Change]]:
    keys = st.lists(st.sampled_from(FONT_KEYS), min_size=1, max_size=3, unique=True)
    return st.builds(lambda font, chosen: [Change("fuzz.ttf", data=font[1], note=font[0])]
                     + [Change("game.json", ("fonts", key), "fuzz.ttf") for key in chosen], hostile_fonts(), keys)


def _size(layout: str) -> st.SearchStrategy[list[Change]]:
    return st.builds(lambda w, h, bleed: [Change(layout, ("card", "size"), {"width": w, "height": h}),
                                          Change(layout, ("card", "bleed"), bleed)],
                     st.sampled_from(SIZES_MM), st.sampled_from(SIZES_MM), st.sampled_from([0, 1, 3, 10]))


# jinzai's components by index in game.json: 1 stickers, 2 personal sheets, 3 summary cards (none ganged), then
# the 在野 card, order and victory-point markers in gang card-stock
JINZAI_LAYOUTS = ("zaiya-layout.json", "order-marker-layout.json", "vp-marker-layout.json", "summary-layout.json")


def _gang_changes() -> st.SearchStrategy[list[Change]]:
    join = st.builds(lambda index: [Change("game.json", ("components", index, "gang"), "card-stock")],
                     st.integers(1, 3))
    return st.lists(st.one_of(join, st.sampled_from(JINZAI_LAYOUTS).flatmap(_size)), min_size=1, max_size=3).map(
        lambda lists: [change for changes in lists for change in changes])


DECKS = st.one_of(
    st.tuples(st.just("gogyo"), _font_changes()),
    st.tuples(st.just("gogyo"), _size("layout.json")),
    st.tuples(st.just("jinzai"), _gang_changes()),
    st.tuples(st.just("jinzai"), _font_changes()),
)


def _fudaya(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, str(ADDRESS_SPACE), *args], capture_output=True, text=True,
                          timeout=MAX_SECONDS, check=False)


def _assert_clean(done: subprocess.CompletedProcess[str], what: str) -> None:
    assert done.returncode in (0, 1), f"{what}: exit {done.returncode}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stdout + done.stderr and "MemoryError" not in done.stderr, f"{what}:\n" \
                                                                                              f"{done.stderr[-3000:]}"
    for line in done.stderr.splitlines():
        if not line.strip() or "%" in line or re.fullmatch(r"\w+\s*", line):  # the progress bar
            continue
        assert ISSUE_LINE.match(line) or SUMMARY_LINE.match(line) or PREFLIGHT_LINE.match(line), (
            f"{what}: not a located one-line error: {line!r}")
    if done.returncode == 1:
        assert done.stderr.strip(), f"{what}: exit 1 without a word"


@given(DECKS)
def test_check_ok_means_build_ok_for_hostile_fonts_gangs_and_card_sizes(deck: tuple[str, list[Change]]) -> None:
    game, changes = deck
    with tempfile.TemporaryDirectory(prefix="fudaya-fuzz-fonts-") as tmp:
        decks = copy_decks(Path(tmp), game)
        what = f"{game}: " + "; ".join(change.apply(decks / game) for change in changes)
        checked = _fudaya("check", game, "--no-simulate", "--decks", str(decks))
        _assert_clean(checked, f"check after {what}")
        built = _fudaya("build", game, "--no-report", "--decks", str(decks), "--output", str(Path(tmp) / "out"))
        _assert_clean(built, f"build after {what}")
    assert (checked.returncode == 0) == (built.returncode == 0), (
        f"{what}: check and build disagree (check {checked.returncode}, build {built.returncode})\n"
        f"{checked.stderr[-2000:]}\n{built.stderr[-2000:]}")
