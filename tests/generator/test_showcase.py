"""A fixture deck using every element type: it checks clean, builds, and its text is set as declared."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.build import BuildOptions, build_game, load_checked
from validator.checks import check_game
from validator.compose import NO_END, NO_START
from validator.faces import drawn_elements, is_card_independent
from validator.geometry import mm_to_pt
from validator.loader import load_game
from validator.model import Card, Element
from validator.textbox import layout_text_element
from validator.typeset import load_metrics

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "decks"


@pytest.fixture(scope="module")
def showcase():
    return load_game(FIXTURES, "showcase")


def _text_element(game, card_id: str, text: str):
    deck = game.decks[0]
    card = next(c for c in deck.cards if c.id == card_id)
    element = next(e for e in drawn_elements(card, card.face, deck.layout) if e.get("text") == text)
    return card, element


def test_checks_clean(showcase) -> None:
    assert check_game(showcase).issues == []


def test_builds_tarot_printshop_pages(tmp_path: Path) -> None:
    result = build_game(load_checked("showcase", FIXTURES), BuildOptions(output_dir=tmp_path, mode="printshop"))
    [written] = result.files
    assert (written.pages, written.page_size) == (6, (76.0, 126.0))  # tarot 70×120 + 2×3 mm bleed
    reader = PdfReader(written.path)
    assert "吾輩は猫である" in reader.pages[0].extract_text().replace("\n", "")
    # backs are card-independent templates: drawn once per file as a form, then placed
    backs = [page["/Resources"]["/XObject"] for page in reader.pages[1::2]]
    assert [list(x.keys()) for x in backs] == [["/FormXob.shared-back-0"]] * 2 + [["/FormXob.shared-special-back-1"]]
    assert backs[0].raw_get("/FormXob.shared-back-0") == backs[1].raw_get("/FormXob.shared-back-0")  # one object


def test_vertical_text_respects_kinsoku(showcase) -> None:
    card, element = _text_element(showcase, "haiku", "{poem}")
    poem = card.fields["poem"]
    laid = layout_text_element(element, poem, load_metrics(showcase.fonts["mincho"].path))
    assert laid is not None and len(laid.lines) >= 2
    assert "".join(laid.lines) == poem  # no character lost or added
    for column, height in zip(laid.lines, laid.line_widths):
        assert column[0] not in NO_START and column[-1] not in NO_END
        assert height <= mm_to_pt(element.props["h"]) + 1e-6


def test_long_text_shrinks_but_not_below_min(showcase) -> None:
    card, element = _text_element(showcase, "haiku", "{prose}")
    laid = layout_text_element(element, card.fields["prose"], load_metrics(showcase.fonts["gothic"].path))
    assert laid is not None
    assert element.props["min_size"] <= laid.size <= element.props["size"]
    assert laid.extent <= mm_to_pt(element.props["h"]) + 1e-6
    assert max(laid.line_widths) <= mm_to_pt(element.props["w"]) + 1e-6


def test_when_filters_elements_per_card(showcase) -> None:
    deck = showcase.decks[0]
    haiku, special = deck.cards

    def circles(card: Card) -> list[Element]:
        return [e for e in drawn_elements(card, card.face, deck.layout) if e.type == "circle"]

    assert len(circles(haiku)) == 0 and len(circles(special)) == 1
    assert special.back == "special-back" and haiku.back == "back"
    assert is_card_independent("back", deck.layout) and not is_card_independent("face", deck.layout)


def test_text_outside_safe_zone_is_a_warning(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    shutil.copytree(FIXTURES / "showcase", decks / "showcase")
    layout_path = decks / "showcase" / "layout.json"
    layout = json.loads(layout_path.read_text(encoding="utf-8"))
    layout["templates"]["face"]["elements"][3]["x"] = 1  # title box now starts 1 mm from the trim line
    layout_path.write_text(json.dumps(layout, ensure_ascii=False), encoding="utf-8")
    result = check_game(load_game(decks, "showcase"))
    assert result.ok  # a warning does not stop the build
    [warning] = result.issues
    assert warning.severity == "warning" and warning.code == "outside-safe-zone"
    assert warning.location.pointer == "/templates/face/elements/3"
