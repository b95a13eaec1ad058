"""gogyo's built cards, score sheet and rulebook read back glyph by glyph (the session build): every
text drawn with the lines the text check measured, justified lines flush with both edges to 0.1 mm,
no line opening with a kinsoku character, no paragraph ending in one character. The other games'
files are read the same way in their own print and rulebook tests (tests/support/composedtext.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from composedtext import assert_set_well, card_text, rulebook_text
from validator.loader import load_game
from validator.model import Game
from validator.paths import DEFAULT_DECKS_DIR

pytestmark = pytest.mark.slow  # reads the session's gogyo build


@pytest.fixture(scope="module")
def gogyo() -> Game:
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


@pytest.mark.parametrize(("name", "justified"), [("cards.pdf", 12), ("score-sheet.pdf", 4)])
def test_cards_and_sheets(gogyo: Game, gogyo_build: Path, name: str, justified: int) -> None:
    manifest = json.loads((gogyo_build / "build.json").read_text(encoding="utf-8"))
    assert_set_well(card_text(gogyo, manifest, gogyo_build, name), justified=justified)


def test_rulebook(gogyo: Game, gogyo_build: Path) -> None:
    assert_set_well(rulebook_text(gogyo_build / "rulebook.pdf", gogyo.rulebooks[0]), justified=40)
