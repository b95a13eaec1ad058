"""Deck fonts are registered by a name unique to their bytes, never by file stem (issue 12 item 11).

A deck may ship `assets/BIZUDGothic-Regular.ttf` that is really a Mincho: registering by stem
made ReportLab reuse the built-in Gothic already registered under that name, so the card drew in
a font the deck did not ask for, with exit 0.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from pypdf import PdfReader

from deckcopies import copy_decks, edit_json
from generator.build import BuildOptions, build_game, load_checked
from generator.pdfdoc import register_font
from rulebookpdf import iter_fonts, write_rulebook_alone
from validator.paths import FONTS_DIR


def test_same_stem_different_bytes_get_different_names(tmp_path: Path) -> None:
    fake = tmp_path / "BIZUDGothic-Regular.ttf"
    shutil.copyfile(FONTS_DIR / "BIZUDMincho-Regular.ttf", fake)
    builtin = register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf")
    assert register_font(fake) != builtin
    assert register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf") == builtin  # stable within a process


def test_a_deck_font_named_like_a_builtin_draws_the_deck_font(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    game_dir = decks / "gogyo"
    (game_dir / "assets").mkdir(exist_ok=True)
    shutil.copyfile(FONTS_DIR / "BIZUDMincho-Regular.ttf", game_dir / "assets" / "BIZUDGothic-Regular.ttf")
    register_font(FONTS_DIR / "BIZUDGothic-Regular.ttf")  # as a build of another game in this process would
    edit_json(game_dir / "game.json", lambda d: d["fonts"].__setitem__("gothic", "assets/BIZUDGothic-Regular.ttf"))
    output = tmp_path / "output"
    game = load_checked("gogyo", decks)
    build_game(game, BuildOptions(decks_dir=decks, output_dir=output, report=False, mode="sheets",
                                  only=("cards",)))
    page = PdfReader(output / "gogyo" / "cards.pdf").pages[0]
    embedded = {name.split("+")[-1] for name, _ in iter_fonts(page.get("/Resources"))}
    assert "BIZUDMincho-Regular" in embedded
    assert "BIZUDGothic-Regular" not in embedded


def test_a_deck_font_file_name_adds_nothing_to_paragraph_markup(tmp_path: Path) -> None:
    """The rulebook's **strong** runs name their font in markup: `<font face="NAME">`. A deck's strong font
    file named `x" color="red.ttf` added an attribute there (ReportLab raised a traceback on 'red-…')."""
    decks = copy_decks(tmp_path, "gogyo")
    game_dir = decks / "gogyo"
    hostile = 'x" color="red><img src="seal'
    shutil.copyfile(FONTS_DIR / "BIZUDGothic-Bold.ttf", game_dir / "assets" / f"{hostile}.ttf")
    edit_json(game_dir / "game.json", lambda d: d["fonts"].__setitem__("gothic_bold", f"assets/{hostile}.ttf"))
    game = load_checked("gogyo", decks)
    assert game.rulebooks[0].fonts.strong == "gothic_bold"  # the font the strong runs name

    path = write_rulebook_alone(game, tmp_path / "rulebook.pdf")

    name = register_font(game_dir / "assets" / f"{hostile}.ttf")
    assert name.startswith("x__color__red__img_src__seal-") and not set(name) - set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
    embedded = {n.split("+")[-1] for page in PdfReader(path).pages for n, _ in iter_fonts(page.get("/Resources"))}
    assert any(n.startswith("BIZUDGothic-Bold") for n in embedded)  # the strong runs drew in the deck font
