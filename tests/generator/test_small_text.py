"""Small dark text prints on K alone (card.small_text_black, default true): gogyo's ink is
C30 M40 Y40 K85, which at 8 pt would misregister; opting out keeps the mix and check warns."""
from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from deckcopies import copy_decks, edit_json
from generator.build import BuildOptions, build_game, load_checked
from validator.checks import check_game
from validator.loader import load_game

INK = (0.3, 0.4, 0.4, 0.85)


def _text_fills(path: Path) -> list[tuple[float, tuple[float, ...]]]:
    """(font size, CMYK fill) of every text shown on the card faces, forms included."""
    shown: list[tuple[float, tuple[float, ...]]] = []

    def walk(content: object, resources: object, reader: PdfReader) -> None:
        from pypdf.generic import ContentStream
        fill: tuple[float, ...] = ()
        size = 0.0
        for operands, operator in ContentStream(content, reader).operations:
            if operator == b"k":
                fill = tuple(round(float(v), 3) for v in operands)
            elif operator == b"Tf":
                size = float(operands[1])
            elif operator in (b"Tj", b"TJ"):
                shown.append((size, fill))
            elif operator == b"Do":
                xobject = resources["/XObject"][operands[0]].get_object()  # type: ignore[index]
                if xobject.get("/Subtype") == "/Form":
                    walk(xobject, xobject.get("/Resources", resources), reader)

    reader = PdfReader(path)
    for page in reader.pages[:6]:
        walk(page.get_contents(), page["/Resources"], reader)
    return shown


def _build(decks: Path, tmp_path: Path) -> Path:
    output = tmp_path / "output"
    build_game(load_checked("gogyo", decks), BuildOptions(decks_dir=decks, output_dir=output, report=False,
                                                          mode="printshop", only=("cards",)))
    return output / "gogyo" / "cards-printshop.pdf"


def test_small_dark_text_is_k_only_by_default(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    fills = _text_fills(_build(decks, tmp_path))
    assert any(size < 12 for size, _ in fills)
    assert all(fill == (0, 0, 0, 1) for size, fill in fills if size < 12 and fill[3] >= 0.7)
    assert any(fill == INK for size, fill in fills if size >= 12)  # large text keeps the rich ink
    assert not [i for i in check_game(load_game(decks, "gogyo")).issues if i.code == "small-text-mixed-ink"]


def test_opting_out_keeps_the_mix_and_check_warns(tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    edit_json(decks / "gogyo" / "layout.json", lambda data: data["card"].update(small_text_black=False))
    fills = _text_fills(_build(decks, tmp_path))
    assert any(fill == INK for size, fill in fills if size < 12)
    warnings = [i for i in check_game(load_game(decks, "gogyo")).issues if i.code == "small-text-mixed-ink"]
    assert warnings and all(i.severity == "warning" for i in warnings)
    assert "10 pt text in C/M/Y/K 30/40/40/85 prints in several inks" in warnings[0].message  # the reading


def test_readings_too_small_for_the_mix_print_on_k_while_their_text_keeps_it(tmp_path: Path) -> None:
    """A 14 pt text in the rich ink keeps it; its 7 pt readings would misregister in four inks, so they
    print on K alone."""
    decks = copy_decks(tmp_path, "gogyo")
    label = {"type": "text", "x": 11, "y": 64, "w": 41, "h": 12, "text": "｜天命《てんめい》", "font": "mincho",
             "size": 14, "align": "center", "color": "ink", "wrap": False}
    edit_json(decks / "gogyo" / "layout.json", lambda data: data["templates"]["dynasty"]["elements"].append(label))
    fills = _text_fills(_build(decks, tmp_path))
    assert (14.0, INK) in fills
    assert (7.0, (0, 0, 0, 1)) in fills and not [f for size, f in fills if size == 7.0 and f != (0, 0, 0, 1)]
