"""`fudaya proof`: a static gallery of every card side as printed, with fields, counts and the check's
findings, filtered by field; opened in headless Chromium, every image loads and a filter hides the
right cards."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.cli import app
from generator.proof import card_findings
from validator.issues import Issue, Location

pytestmark = pytest.mark.slow  # reads the session's gogyo build (conftest.gogyo_build)


@pytest.fixture(scope="module")
def gallery(gogyo_build: Path) -> Path:
    result = CliRunner().invoke(app, ["proof", "gogyo", "--output", str(gogyo_build.parent)])
    assert result.exit_code == 0, result.output
    return gogyo_build / "proof" / "index.html"


def test_every_card_is_shown_with_both_sides_its_count_and_a_working_link(gallery: Path) -> None:
    html = gallery.read_text(encoding="utf-8")
    assert html.count('<figure class="card"') == 62 + 4  # gogyo's 62 different cards, 4 score sheets
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert len(sources) == 2 * 62 + 4 and all((gallery.parent / s).is_file() for s in sources)
    assert "<b>batsu</b> × 3" in html
    for link in re.findall(r'<a href="\.\./([^"]+)"', html):
        assert (gallery.parent.parent / link).is_file(), link
    assert (gallery.parent / "font.ttf").is_file() and 'url("font.ttf")' in html
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing is fetched from elsewhere


def test_findings_go_beside_the_card_they_name() -> None:
    here = Location(Path("decks/x/cards.json"))
    issues = [Issue(here, "text-overflow", "card 'xia-wood': 'long' does not fit"),
              Issue(here, "other", "deck 'cards' declares 66 cards but defines 65")]
    assert {card: [i.code for i in found] for card, found in card_findings(issues).items()} == {
        "xia-wood": ["text-overflow"]}


def test_in_chromium_every_image_loads_and_a_filter_hides_the_right_cards(gallery: Path, tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    browser_path = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser_path is None:
        pytest.skip("no Chromium on this machine (Debian package chromium)")
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(gallery.as_uri())
        page.wait_for_load_state("load")
        broken = page.evaluate("Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0))"
                               ".map(i => i.getAttribute('src'))")
        assert broken == []
        assert page.evaluate("document.images.length") == 2 * 62 + 4
        page.select_option('select[data-field="element"]', "木")
        visible = page.evaluate("Array.from(document.querySelectorAll('figure.card:not(.hidden)'))"
                                ".map(f => f.dataset.card)")
        assert len(visible) == 12 and all(card.endswith("-wood") for card in visible)  # one per dynasty
        assert page.inner_text("#shown") == "12"
        page.select_option('select[data-field="element"]', "")
        page.fill("#search", "閥")
        assert page.evaluate("document.querySelectorAll('figure.card:not(.hidden)').length") >= 1
        page.screenshot(path=str(tmp_path / "proof.png"))
        browser.close()
    assert (tmp_path / "proof.png").stat().st_size > 10_000
