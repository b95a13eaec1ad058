"""sengoku's print files: 120 poker cards with a common back, the one-page warlord list, fonts embedded."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import BuildOptions, build_game, load_checked
from validator.model import Game
from validator.paths import DEFAULT_DECKS_DIR

POKER = (63.0, 88.0)

# Every test here reads the module's build of the whole sengoku game.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def game() -> Game:
    return load_checked("sengoku", DEFAULT_DECKS_DIR)


@pytest.fixture(scope="module")
def built(game: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sengoku-out")
    build_game(game, BuildOptions(output_dir=out, report=False))
    return out / "sengoku"


@pytest.fixture(scope="module")
def manifest(built: Path) -> dict:
    return json.loads((built / "build.json").read_text(encoding="utf-8"))


def placed(manifest: dict, name: str, side: str = "front") -> list[dict]:
    return [p for p in manifest["placements"] if p["file"] == f"sengoku/{name}" and p["side"] == side]


def test_files_and_pages(manifest: dict) -> None:
    files = {f["file"]: f for f in manifest["files"]}
    assert files["sengoku/cards.pdf"]["pages"] == 28  # 14 sheets of 9 fronts, each with its backs
    assert files["sengoku/cards-printshop.pdf"]["pages"] == 240
    assert files["sengoku/cards-printshop.pdf"]["page_size"] == [69.0, 94.0]  # poker + 3 mm bleed
    assert files["sengoku/hayami.pdf"]["pages"] == 1
    assert files["sengoku/hayami.pdf"]["page_size"] == [210.0, 297.0]


@pytest.mark.parametrize("name", ["cards.pdf", "cards-printshop.pdf"])
def test_120_cards_poker_size(manifest: dict, name: str) -> None:
    fronts, backs = placed(manifest, name), placed(manifest, name, "back")
    assert len(fronts) == len(backs) == 120
    assert len({p["card"] for p in fronts}) == 120
    assert all((p["width"], p["height"]) == POKER for p in fronts + backs)
    ids = {p["card"] for p in fronts}
    assert sum(i.endswith("-sei") for i in ids) == 40
    assert sum(i.endswith(("-mei1", "-mei2")) for i in ids) == 80


def test_warlord_list_is_one_a4_sheet(manifest: dict, built: Path) -> None:
    (sheet,) = placed(manifest, "hayami.pdf")
    assert sheet["card"] == "hayami" and sheet["page"] == 1
    text = PdfReader(built / "hayami.pdf").pages[0].extract_text()
    for name in ("織田信長", "豊臣秀長", "丹羽長秀", "井伊直政", "ほうじょううじつな"):
        assert name in text


@pytest.mark.parametrize("name", ["cards.pdf", "cards-printshop.pdf", "hayami.pdf"])
def test_fonts_embedded_and_crests_are_vectors(built: Path, name: str) -> None:
    reader = PdfReader(built / name)
    fonts = {}
    for page in reader.pages[:4]:
        resources = page["/Resources"].get_object()
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object()
            fonts[str(font["/BaseFont"])] = font
        for ref in resources.get("/XObject", {}).values():
            assert ref.get_object()["/Subtype"] != "/Image", f"{name}: raster image found; crests must be vectors"
    assert fonts
    for base, font in fonts.items():
        assert "Helvetica" not in base
        described = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = described["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object(), f"{base} is not embedded"


def test_rulebook_text_is_justified_and_kept(game: Game, built: Path) -> None:
    """Read back from the rulebook: lines of a paragraph reach the column's edge (to 0.1 mm), none opens
    with a kinsoku character, no paragraph ends in one character."""
    from composedtext import assert_set_well, rulebook_text

    assert_set_well(rulebook_text(built / "rulebook.pdf", game.rulebooks[0]), justified=40)
