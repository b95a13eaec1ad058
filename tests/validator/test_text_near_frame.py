"""Text whose ink comes within a tenth of its em of the outline around it is reported, once per element, with
the gap the print shows: the gap is measured in the printed PDF's pixels too (sanguosha's rank 「7」 printed
0.46 mm under its frame; 在野's title 0.8 mm from its). The ink counts, not the em box: a digit has no
descender, so the same digit at the bottom of a frame is clear of it. A label on a tab painted over the
outline shows the tab's edge and is not held to the outline."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from typer.testing import CliRunner

from generator.cli import app
from validator.checks import check_game
from validator.loader import load_game

FRAME = {"type": "rect", "x": 10, "y": 4, "w": 50, "h": 80, "stroke": "ink", "stroke_width": 0.6}
DPI = 1200


def _starter(tmp_path: Path, value: dict[str, Any], *extra: dict[str, Any]) -> Path:
    """The basic starter with an outline round its face and its value text at `value`'s place."""
    decks = tmp_path / "decks"
    made = CliRunner().invoke(app, ["new", "frames", "--decks", str(decks)])
    assert made.exit_code == 0, made.output
    path = decks / "frames" / "layout.json"
    layout = json.loads(path.read_text(encoding="utf-8"))
    face = layout["templates"]["face"]["elements"]
    face.insert(2, FRAME)
    face.insert(3, {**face[3], **value})  # the value text moved, drawn before its former self is removed
    del face[4]
    face[3:3] = list(extra)
    path.write_text(json.dumps(layout, ensure_ascii=False), encoding="utf-8")
    return decks


def _near(decks: Path) -> list[str]:
    return [i.render() for i in check_game(load_game(decks, "frames")).issues if i.code == "text-near-frame"]


def _printed_gap(decks: Path, tmp_path: Path) -> float:
    """mm between the outline's inner edge and the highest ink under it, in the first card of the built
    print-shop file, found column by column in its pixels."""
    built = CliRunner().invoke(app, ["build", "frames", "--only", "cards", "--mode", "printshop", "--no-report",
                                     "--decks", str(decks), "--output", str(tmp_path / "out")])
    assert built.exit_code == 0, built.output
    pdf = pypdfium2.PdfDocument(str(tmp_path / "out" / "frames" / "cards-printshop.pdf"))
    scale = DPI / 72
    bitmap = pdf[0].render(scale=scale, grayscale=True)
    pixels, width = bitmap.buffer, bitmap.width
    stride = bitmap.stride
    px_per_mm = DPI / 25.4
    bleed = 3
    x0, x1 = (int((bleed + x) * px_per_mm) for x in (FRAME["x"] + 5, FRAME["x"] + FRAME["w"] - 5))
    gaps = []
    for x in range(x0, x1, 4):
        column = [pixels[y * stride + x] < 128 for y in range(int((bleed + 12) * px_per_mm))]
        runs = [m.span() for m in re.finditer("1+", "".join("1" if dark else "0" for dark in column))]
        if len(runs) >= 2:  # the outline, then ink below it
            gaps.append((runs[1][0] - runs[0][1]) / px_per_mm)
    assert gaps and width > 0
    pdf.close()
    return min(gaps)


def test_a_digit_near_the_outline_is_reported_once_with_the_gap_it_prints_at(tmp_path: Path) -> None:
    decks = _starter(tmp_path, {"y": 3.85, "h": 10})
    [line] = _near(decks)  # one warning for the element, not one per card
    assert "$.templates.face.elements[3]" in line and "at 28 pt is" in line and "from the top of the outline" in line
    assert "(keep 0.99 mm clear: a tenth of an em, at most 1 mm)" in line
    gap = float(re.search(r"is ([\d.]+) mm from", line).group(1))  # type: ignore[union-attr]
    assert gap == pytest.approx(_printed_gap(decks, tmp_path), abs=0.05)  # the PDF shows the gap the check says


def test_the_ink_counts_not_the_em_box_and_a_tab_over_the_outline_shows_its_own_edge(tmp_path: Path) -> None:
    # at the bottom: the em box comes within 0.3 mm of the outline, the digits' ink 1.2 mm
    assert _near(_starter(tmp_path / "low", {"y": 73.5, "h": 10})) == []
    # clear of the outline by more than a tenth of an em
    assert _near(_starter(tmp_path / "clear", {"y": 6, "h": 10})) == []
    # the same near place, but on a filled tab painted over the outline
    tab = {"type": "rect", "x": 12, "y": 3, "w": 46, "h": 12, "fill": "red"}
    assert _near(_starter(tmp_path / "tab", {"y": 3.85, "h": 10}, tab)) == []
