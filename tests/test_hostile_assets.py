"""Hostile SVG and image assets (issue 12 items 1, 7, 9, 12): refused by check with one located line, never drawn.

Each case copies decks/gogyo, replaces its art (assets/cloud.svg, drawn on the 天 cards, or
assets/seal.png on the backs), and runs check and build in-process.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckcopies import assert_located, copy_decks, edit_json
from generator.cli import app
from hostile import png_header_only

runner = CliRunner()
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
       'width="{w}" height="{h}" viewBox="{vb}">{body}</svg>')
MARKER = "OUTSIDE-MARKER-7f3a"


def svg(body: str = '<rect width="5" height="5"/>', w: str = "35", h: str = "13", vb: str = "0 0 35 13") -> str:
    return SVG.format(w=w, h=h, vb=vb, body=body)


SVG_CASES = {
    "image-outside": (svg('<image xlink:href="../../outside.png" width="5" height="5"/>'),
                      "holds an <image>; raster art belongs in the layout's image element"),
    "image-fragment": (svg('<image xlink:href="#a" width="5" height="5"/>'),  # found by the fuzz suite
                       "holds an <image>"),
    "image-data-uri": (svg('<image href="data:image/png;base64,iVBORw0KGgo=" width="5" height="5"/>'),
                       "holds an <image>"),
    "use-outside": (svg('<use xlink:href="../../outside.svg#s"/>'),
                    "refers to '../../outside.svg#s'; an SVG may only refer inside itself (#id)"),
    "remote-use": (svg('<use href="http://127.0.0.1:9/x.svg#s"/>'), "refers to 'http://127.0.0.1:9/x.svg#s'"),
    "css-url": (svg('<rect width="5" height="5" style="fill: url(file:///etc/hostname)"/>'),
                "refers to url(file:///etc/hostname)"),
    "css-import": (svg('<style>@import url("../../outside.css");</style>'), "imports a style sheet (@import)"),
    "entity-bomb": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
                    + svg("<text>&b;</text>"), "declares a DTD or entities"),
    "external-entity": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
                        + svg("<text>&x;</text>"), "declares a DTD or entities"),
    "width-0": (svg(w="0"), "has width='0'; it must be a number above 0"),
    "width-1e300": (svg(w="1e300"), "has width='1e300'; it must be a number above 0"),
    "height-nan": (svg(h="NaN"), "has height='NaN'"),
    "viewbox-garbage": (svg(vb="garbage"), "has viewBox 'garbage'; it must be four numbers"),
    "viewbox-empty-area": (svg(vb="0 0 0 13"), "its width and height must be above 0"),
    "60000-elements": (svg('<rect width="1" height="1"/>' * 60_000), "has more than 50,000 elements"),
}


def _deck(tmp_path: Path) -> Path:
    decks = copy_decks(tmp_path, "gogyo")
    (tmp_path / "outside.png").write_bytes(png_header_only(4, 4))
    (tmp_path / "outside.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">'
                                          f'<text id="s">{MARKER}</text></svg>')
    return decks


def _refused(decks: Path, tmp_path: Path, fragment: str, src: str) -> None:
    checked = runner.invoke(app, ["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    assert checked.exit_code == 1, checked.output
    lines = [line for line in checked.stderr.splitlines() if fragment in line]
    assert len(lines) == 1, checked.stderr
    found = assert_located(lines[0])
    assert repr(src) in found["message"]
    built = runner.invoke(app, ["build", "gogyo", "--decks", str(decks), "--output", str(tmp_path / "out"),
                                "--no-report"])
    assert built.exit_code == 1 and "Traceback" not in built.output
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.parametrize("case", SVG_CASES)
def test_hostile_svg_is_refused(tmp_path: Path, case: str) -> None:
    text, fragment = SVG_CASES[case]
    decks = _deck(tmp_path)
    (decks / "gogyo" / "assets" / "cloud.svg").write_text(text, encoding="utf-8")
    _refused(decks, tmp_path, fragment, "assets/cloud.svg")


@pytest.mark.parametrize(("image", "fragment"), [
    (png_header_only(10_000, 6_000), "is 10000×6000 pixels, more than the 50,000,000 allowed"),
    (png_header_only(30_000, 30_000), "declares more than 50,000,000 pixels (a decompression bomb)"),
    (png_header_only(2**31 - 1, 30_000), "declares more than 50,000,000 pixels (a decompression bomb)"),
    (b"GIF89a" + b"\x00" * 20, "is not a readable image"),
])
def test_hostile_image_is_refused_before_decoding(tmp_path: Path, image: bytes, fragment: str) -> None:
    decks = _deck(tmp_path)
    (decks / "gogyo" / "assets" / "seal.png").write_bytes(image)
    _refused(decks, tmp_path, fragment, "assets/seal.png")


def test_nul_byte_in_an_asset_path(tmp_path: Path) -> None:
    decks = _deck(tmp_path)

    def poison(layout: dict) -> None:
        for template in layout["templates"].values():
            for element in template.get("elements", []):
                if element.get("src") == "assets/seal.png":
                    element["src"] = "assets/seal\u0000.png"

    edit_json(decks / "gogyo" / "layout.json", poison)
    checked = runner.invoke(app, ["check", "gogyo", "--decks", str(decks), "--no-simulate"])
    lines = [line for line in checked.stderr.splitlines() if "holds a control character" in line]
    assert checked.exit_code == 1 and len(lines) == 1, checked.stderr
    assert '"assets/seal\\u0000.png"' in assert_located(lines[0])["message"]
    built = runner.invoke(app, ["build", "gogyo", "--decks", str(decks), "--output", str(tmp_path / "out")])
    assert built.exit_code == 1 and "Traceback" not in built.output


def test_inside_references_still_draw(tmp_path: Path) -> None:
    """A crest using its own <defs> through #id is fine: the shipped art is not collateral damage."""
    decks = _deck(tmp_path)
    body = '<defs><path id="p" d="M0 0 L10 10"/></defs><use xlink:href="#p" stroke="#000"/>'
    (decks / "gogyo" / "assets" / "cloud.svg").write_text(svg(body), encoding="utf-8")
    assert runner.invoke(app, ["check", "gogyo", "--decks", str(decks), "--no-simulate"]).exit_code == 0
    built = runner.invoke(app, ["build", "gogyo", "--decks", str(decks), "--output", str(tmp_path / "out"),
                                "--no-report", "--only", "cards"])
    assert built.exit_code == 0, built.output
