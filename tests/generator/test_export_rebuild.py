"""An export outlives the next build: the build carries export/ and proof/ into its new set and makes them
again from its new print files, at the same paths and with the same URLs (generator/derived.py)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from generator.build import BuildOptions, build_game, load_checked
from generator.cli import app
from generator.derived import SETTINGS_FILE
from validator.paths import DEFAULT_DECKS_DIR

pytestmark = pytest.mark.slow  # copies the session's gogyo build (conftest.gogyo_build) and rebuilds it

BASE = "https://example.com/tabletop/gogyo/"


@pytest.fixture()
def output(gogyo_build: Path, tmp_path: Path) -> Path:
    """A copy of the session's gogyo build with its cached report (a full rebuild reuses it), nothing exported."""
    out = tmp_path / "output"
    shutil.copytree(gogyo_build, out / "gogyo", ignore=shutil.ignore_patterns("export", "proof"))
    shutil.copytree(gogyo_build.parent / ".cache" / "reports", out / ".cache" / "reports")
    return out


def _export(output: Path, *args: str) -> None:
    result = CliRunner().invoke(app, [*args, "--output", str(output)])
    assert result.exit_code == 0, result.output


def _urls(saved: Path) -> list[str]:
    data = json.loads(saved.read_text(encoding="utf-8"))
    return [url for deck in data["ObjectStates"] for sheet in deck["CustomDeck"].values()
            for url in (sheet["FaceURL"], sheet["BackURL"])]


def _rebuild(output: Path, **options: object) -> list[str]:
    result = build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=output, workers=1,
                                                                                 **options))  # type: ignore[arg-type]
    return result.notes


def test_a_full_rebuild_makes_the_tts_export_again_at_the_same_urls(output: Path) -> None:
    _export(output, "export", "gogyo", "--format", "tts", "--base-url", BASE)
    _export(output, "proof", "gogyo")
    tts = output / "gogyo" / "export" / "tts"
    saved = tts / "gogyo.json"
    urls = _urls(saved)
    assert urls and all(url.startswith(BASE) for url in urls)
    assert {url.removeprefix(BASE) for url in urls} <= {p.name for p in tts.glob("*.png")}
    before = {p.name: p.stat().st_ino for p in tts.iterdir()}

    notes = _rebuild(output)

    assert not [n for n in notes if "not remade" in n], notes
    assert _urls(saved) == urls  # a saved object already copied into TTS keeps finding its images
    after = {p.name: p.stat().st_ino for p in tts.iterdir()}
    assert after.keys() == before.keys()
    assert all(after[name] != before[name] for name in after)  # every file made again, none carried stale
    assert json.loads((tts / SETTINGS_FILE).read_text(encoding="utf-8"))["base_url"] == BASE
    assert (output / "gogyo" / "proof" / "index.html").is_file()


def test_local_urls_point_at_files_that_survive_a_partial_rebuild(output: Path) -> None:
    _export(output, "export", "gogyo", "--format", "tts", "--local")
    saved = output / "gogyo" / "export" / "tts" / "gogyo.json"
    urls = _urls(saved)
    assert all(url.startswith("file://") for url in urls)
    _rebuild(output, only=("cards",), report=False)
    assert _urls(saved) == urls
    assert all(Path(url.removeprefix("file://")).is_file() for url in urls)


def test_an_export_that_cannot_be_made_again_stays_and_the_build_says_so(output: Path) -> None:
    _export(output, "export", "gogyo", "--dpi", "72")
    png = output / "gogyo" / "export" / "png"
    (png / SETTINGS_FILE).write_text('{"format": "png", "dpi": 5000, "base_url": null, "local": false}',
                                     encoding="utf-8")
    notes = _rebuild(output, only=("cards",), report=False)
    assert notes == [f"warning: {png}: not remade from this build, so older than its cards "
                     f"({png / SETTINGS_FILE}: $.dpi: 5000 is not a whole number from 72 to 1200)"]
    assert (png / "cards" / "xia-wood-front.png").is_file()
    (png / SETTINGS_FILE).write_text('{"format": "tts", "dpi": 300, "base_url": null, "local": true}',
                                     encoding="utf-8")  # a tts export's settings in the png folder
    notes = _rebuild(output, only=("cards",), report=False)
    assert notes == [f"warning: {png}: not remade from this build, so older than its cards "
                     f"({png / SETTINGS_FILE}: $.format: 'tts' in the png folder)"]
    assert not (output / "gogyo" / "export" / "tts").exists()
