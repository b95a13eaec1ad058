"""The cover says which box facts are our recommendation: game.json `recommended` lists the facts
the source does not state (sengoku's seed states none; gogyo's all three)."""
from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from deckcopies import copy_decks, edit_json
from rulebookpdf import write_rulebook_alone
from validator.issues import DeckError
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.rulebooks import recommended_note

META = "{players}人用　　{minutes}分　　{min_age}才以上"


def test_the_note_names_only_the_recommended_facts_the_line_shows() -> None:
    sengoku, gogyo = load_game(DEFAULT_DECKS_DIR, "sengoku"), load_game(DEFAULT_DECKS_DIR, "gogyo")
    assert recommended_note(sengoku, META) == "※プレイ人数・プレイ時間・対象年齢は推奨値です。"
    assert recommended_note(sengoku, "{minutes}分") == "※プレイ時間は推奨値です。"
    assert recommended_note(gogyo, META) is None


@pytest.mark.parametrize(("game_id", "noted"), [("sengoku", True), ("sangokushi", True), ("gogyo", False)])
def test_the_cover_prints_the_note(game_id: str, noted: bool, tmp_path: Path) -> None:
    path = write_rulebook_alone(load_game(DEFAULT_DECKS_DIR, game_id), tmp_path / "rulebook.pdf")
    cover = PdfReader(path).pages[0].extract_text()
    assert ("は推奨値です。" in cover) == noted


def test_an_unknown_fact_is_refused_at_its_key(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "game.json", lambda data: data.update(recommended=["price"]))
    with pytest.raises(DeckError) as caught:
        load_game(decks, "gogyo")
    assert any("$.recommended[0]" in issue.render() for issue in caught.value.issues)
