"""A rulebook paragraph of many pages lays out in time linear in its length (issue 12 item 9).

ReportLab re-measured and re-broke the whole rest of a paragraph on every page it spilled onto,
so a 200,000-character paragraph took four minutes (one string may now hold 20,000). The work is
counted here, not timed: lines broken and glyphs measured grow in proportion to the text, and the
text comes out whole.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

import generator.kinsoku as flowables
from deckcopies import copy_decks, edit_json
from rulebookpdf import write_rulebook_alone
from validator.loader import load_game

UNIT = "古代中国では、あらゆるものは木・火・土・金・水の五つの気から成り、この順に移り変わってゆくとされていました。"


def typeset_long_paragraph(tmp_path: Path, chars: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Counter[str], Path]:
    decks = copy_decks(tmp_path / str(chars), "gogyo")
    text = (UNIT * (chars // len(UNIT) + 1))[:chars]
    edit_json(decks / "gogyo" / "rulebook.json", lambda d: d["blocks"][1].__setitem__("text", text))
    work: Counter[str] = Counter()
    make_line, measure = flowables.makeCJKParaLine, flowables.measure

    def counted_line(*args: Any) -> Any:
        work["lines"] += 1
        return make_line(*args)

    def counted_measure(frags: Any) -> Any:
        glyphs = measure(frags)
        work["glyphs"] += len(glyphs)
        return glyphs

    monkeypatch.setattr(flowables, "makeCJKParaLine", counted_line)
    monkeypatch.setattr(flowables, "measure", counted_measure)
    path = write_rulebook_alone(load_game(decks, "gogyo"), tmp_path / f"{chars}.pdf")
    monkeypatch.undo()
    return work, path


def test_work_grows_linearly_with_paragraph_length(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small, _ = typeset_long_paragraph(tmp_path, 5_000, monkeypatch)
    large, path = typeset_long_paragraph(tmp_path, 20_000, monkeypatch)
    # Four times the text: about four times the work (quadratic layout made it about sixteen).
    assert large["lines"] < 5 * small["lines"], (small, large)
    assert large["glyphs"] < 5 * small["glyphs"], (small, large)
    lines = ["".join(line.split()) for page in PdfReader(path).pages for line in page.extract_text().split("\n")]
    text = "".join(line for line in lines if line and set(line) <= set(UNIT))  # the paragraph, less page furniture
    assert text.startswith(UNIT) and text.count(UNIT) == 20_000 // len(UNIT)  # whole, in order
