"""A figure that teaches can be read: the parts of a card the rulebook's text names (sangokushi's
「武将カードの見方」: 名前, 所属, 君主, 武勇, 采配, 知略, 内政) print as real text of 6 pt or more in the
figure, as callouts with leader lines, where the reduced card's own labels turn to grey bars."""
from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.rulebook_flowables import spread
from rulebookpdf import write_rulebook_alone
from validator.checks.rulebook import _check_figure
from validator.loader import load_game
from validator.model import CardFigure, Game, ListBlock
from validator.paths import DEFAULT_DECKS_DIR

HEADING = "武将カードの見方"
MIN_PT = 6.0


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "sangokushi")


def _section(game: Game) -> tuple[CardFigure, ListBlock]:
    blocks = list(game.rulebooks[0].blocks)
    start = next(n for n, b in enumerate(blocks) if getattr(b, "text", None) == HEADING)
    figure, listed = blocks[start + 1], blocks[start + 2]
    assert isinstance(figure, CardFigure) and isinstance(listed, ListBlock)
    return figure, listed


def _runs(page: object) -> list[tuple[str, float, float]]:
    """(text, printed size in pt, baseline y) of every text run on the page, forms' scaling included."""
    found: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], _: object, size: float) -> None:
        if text.strip():
            scale = math.hypot(tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
            found.append((text.strip(), size * scale, tm[4] * cm[1] + tm[5] * cm[3] + cm[5]))

    page.extract_text(visitor_text=visit)  # type: ignore[attr-defined]
    return found


def test_the_parts_the_text_names_are_legible_text_in_the_figure(game: Game, tmp_path: Path) -> None:
    figure, listed = _section(game)
    named = [re.match(r"\*\*(.+?)\*\*", item)[1] for item in listed.items]  # type: ignore[index]
    assert named == ["名前", "所属", "君主", "武勇", "采配", "知略", "内政"]
    pdf = write_rulebook_alone(game, tmp_path / "rulebook.pdf")
    [page] = [p for p in PdfReader(pdf).pages if HEADING in p.extract_text()]
    runs = _runs(page)
    top = next(y for text, _, y in runs if text == HEADING)
    bottom = next(y for text, _, y in runs if text.startswith("左から"))  # the figure's caption
    in_figure = {text for text, size, y in runs if bottom < y < top and size >= MIN_PT}
    assert [label for label in named if label not in in_figure] == []


def test_a_callout_must_stand_beside_an_end_card_and_point_at_a_part_it_draws(game: Game) -> None:
    figure, _ = _section(game)
    assert list(_check_figure(game, figure)) == []
    middle = dataclasses.replace(figure.callouts[0], card=figure.cards[1])
    nowhere = dataclasses.replace(figure.callouts[0], at="{no_such_field}")
    found = list(_check_figure(game, dataclasses.replace(figure, callouts=(middle, nowhere))))
    assert [(i.location.pointer, i.message) for i in found] == [
        (f"{figure.location.pointer}/callouts/0/card",
         "a callout stands beside the figure's first or last card (gizen-sousou or shokuzen-kanu), "
         "not 'gizen-juniku'"),
        (f"{figure.location.pointer}/callouts/0/at",  # a copy of the first callout
         "card 'shokuzen-kanu' draws no text element written '{no_such_field}' on its front (template 'general')"),
    ]


@pytest.mark.parametrize(("wanted", "placed"), [
    ([100, 90, 20], [100, 90, 20]),       # room enough: level with their parts
    ([100, 99, 98], [100, 90, 80]),       # crowded: pushed down, 10 apart
    ([12, 11, 10], [30, 20, 10]),         # crowded at the bottom: lifted to stay above `low`
])
def test_callout_labels_keep_apart_and_within_the_figure(wanted: list[float], placed: list[float]) -> None:
    assert spread(wanted, 10, low=10, high=120) == placed
