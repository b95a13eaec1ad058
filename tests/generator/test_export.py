"""`fudaya export`: card images cut from the game's own PDFs (png), and Tabletop Simulator deck sheets
with a saved object whose counts are the deck's (tts)."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse

import pytest
from PIL import Image
from typer.testing import CliRunner

from generator.cli import app
from generator.export import TTS_MAX_PX

pytestmark = pytest.mark.slow  # reads the session's gogyo build (conftest.gogyo_build)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_png_one_image_per_card_side_at_the_asked_resolution(gogyo_build: Path) -> None:
    code, output = _run("export", "gogyo", "--output", str(gogyo_build.parent), "--dpi", "150")
    assert code == 0, output
    cards = sorted((gogyo_build / "export" / "png" / "cards").glob("*.png"))
    sheets = sorted((gogyo_build / "export" / "png" / "score-sheet").glob("*.png"))
    assert len(cards) == 2 * 62 and len(sheets) == 4  # 62 different cards, both sides; 4 one-sided sheets
    front = Image.open(gogyo_build / "export" / "png" / "cards" / "xia-wood-front.png").convert("RGB")
    assert front.size[0] == pytest.approx(63 / 25.4 * 150, abs=1) and front.size[1] == pytest.approx(88 / 25.4 * 150,
                                                                                                   abs=1)
    red, green, blue = front.getpixel((8, front.height // 2))  # the wood card's band: green, cut at the trim
    assert green > red + 40 and green > blue + 20


def test_tts_sheets_stay_within_limits_and_the_saved_object_counts_every_copy(gogyo_build: Path) -> None:
    code, output = _run("export", "gogyo", "--format", "tts", "--local", "--output", str(gogyo_build.parent))
    assert code == 0, output
    saved = json.loads((gogyo_build / "export" / "tts" / "gogyo.json").read_text(encoding="utf-8"))
    [deck] = saved["ObjectStates"]  # the score sheets have no backs: not a deck
    assert deck["Name"] == "Deck" and len(deck["DeckIDs"]) == 66 == len(deck["ContainedObjects"])
    assert deck["DeckIDs"].count(deck["DeckIDs"][-1]) == 3  # 閥 three times
    [(number, sheet)] = deck["CustomDeck"].items()
    assert (sheet["NumWidth"], sheet["NumHeight"], sheet["UniqueBack"]) == (10, 7, False)
    face = Image.open(urlparse(sheet["FaceURL"]).path)
    assert face.width <= TTS_MAX_PX and face.height <= TTS_MAX_PX
    assert face.width % 10 == 0 and face.height % 7 == 0
    assert Path(urlparse(sheet["BackURL"]).path).is_file()
    assert all(card_id // 100 == int(number) and card_id % 100 < 69 for card_id in deck["DeckIDs"])


def test_export_needs_a_build_and_a_sane_resolution(tmp_path: Path, gogyo_build: Path) -> None:
    code, output = _run("export", "gogyo", "--output", str(tmp_path))
    assert code == 1 and "no build to export from; run `fudaya build gogyo` first" in output
    code, output = _run("export", "gogyo", "--output", str(gogyo_build.parent), "--dpi", "5000")
    assert code == 1 and "--dpi 5000: from 72 to 1200" in output


@pytest.mark.parametrize(("args", "line"), [
    ((), "--format tts needs where Tabletop Simulator will find the images: --base-url URL (the web folder you "
         "upload export/tts/ to) or --local (file:// addresses, this machine only)"),
    (("--local", "--base-url", "https://example.com/g/"), "--format tts needs where Tabletop Simulator"),
    (("--base-url", "ftp://example.com/g/"), "--base-url 'ftp://example.com/g/': not an http:// or https://"),
    (("--base-url", "https://example.com/g/?x=1"), "--base-url 'https://example.com/g/?x=1': not an http://"),
])
def test_tts_is_told_where_its_images_will_be(args: tuple[str, ...], line: str) -> None:
    result = CliRunner().invoke(app, ["export", "gogyo", "--format", "tts", *args])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and result.stderr.startswith(line)


def test_png_takes_no_url() -> None:
    result = CliRunner().invoke(app, ["export", "gogyo", "--local"])
    assert result.exit_code == 2 and "--base-url and --local are for --format tts" in result.stderr
