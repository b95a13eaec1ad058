"""gogyo's score sheet: four per A4 page, write-in boxes, and the fillable on-screen variant (one sheet a
page without cut marks, Japanese-capable fields, totals that add themselves up)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

FIELDS_PER_PLAYER = {"name", "g1_dynasty", "g1_element", "g1_total", "g2_dynasty", "g2_element", "g2_total",
                     "grand_total"}

# Every test here reads the session's build of the whole gogyo game (conftest.gogyo_build).
pytestmark = pytest.mark.slow


def test_four_sheets_on_one_a4_page_and_one_a_page_to_fill_in(gogyo_manifest: dict) -> None:
    files = {f["file"]: f for f in gogyo_manifest["files"]}
    for name, pages in (("gogyo/score-sheet.pdf", 1), ("gogyo/score-sheet-fillable.pdf", 4)):
        assert files[name]["pages"] == pages and files[name]["page_size"] == [210.0, 297.0]
        placed = [p for p in gogyo_manifest["placements"] if p["file"] == name]
        assert sorted(p["card"] for p in placed) == ["player-1", "player-2", "player-3", "player-4"]
        assert all(p["side"] == "front" and (p["width"], p["height"]) == (99.0, 140.0) for p in placed)
        for p in placed:  # each sheet lies on the paper with room for cut marks
            assert 4 <= p["x"] and p["x"] + 99 <= 206 and 4 <= p["y"] and p["y"] + 140 <= 293
    fillable = [p for p in gogyo_manifest["placements"] if p["file"] == "gogyo/score-sheet-fillable.pdf"]
    assert [p["page"] for p in fillable] == [1, 2, 3, 4]
    assert all((p["x"], p["y"]) == (pytest.approx(55.5), pytest.approx(78.5)) for p in fillable)  # centred


def test_printed_sheet_has_no_form_fields_and_embedded_fonts(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "score-sheet.pdf")
    assert reader.get_fields() is None
    text = reader.pages[0].extract_text()
    assert text.count("得点表") == 4 and "王朝役" in text and "26点" in text


def test_fillable_sheet_has_every_write_in_box_per_player(gogyo_build: Path) -> None:
    fields = PdfReader(gogyo_build / "score-sheet-fillable.pdf").get_fields()
    expected = {f"p{player}_{name}" for player in range(1, 5) for name in FIELDS_PER_PLAYER}
    assert set(fields) == expected


def test_fillable_sheet_draws_with_embedded_fonts_only(gogyo_build: Path) -> None:
    """Page content and the fields' appearances: every font they list is embedded TrueType (ReportLab's
    empty appearances listed an unembedded Helvetica they never drew with); typed text is set in the
    form's named Japanese font, which the viewer supplies, and nothing names Helvetica any more."""
    reader = PdfReader(gogyo_build / "score-sheet-fillable.pdf")
    listed = 0
    for page in reader.pages:
        resources = [page["/Resources"]]
        for ref in page["/Annots"]:
            appearance = ref.get_object()["/AP"]["/N"].get_object()
            resources.append(appearance.get("/Resources", {}))
        for found in resources:
            for font in found.get_object().get("/Font", {}).values():
                assert "/FontFile2" in font.get_object()["/FontDescriptor"].get_object(), font.get_object()
                listed += 1
    assert listed >= 3
    form = reader.trailer["/Root"]["/AcroForm"]
    assert str(form["/DA"]).startswith("/HeiGo ") and "/Helv" not in form["/DR"]["/Font"]


def test_the_fillable_sheet_has_no_cut_marks(gogyo_build: Path) -> None:
    """Marks are stroked in registration colour (all four inks); the on-screen sheet has none."""
    for page in PdfReader(gogyo_build / "score-sheet-fillable.pdf").pages:
        assert b"1 1 1 1 K" not in page.get_contents().get_data()
    assert b"1 1 1 1 K" in PdfReader(gogyo_build / "score-sheet.pdf").pages[0].get_contents().get_data()


def test_fields_set_their_text_in_a_japanese_font(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "score-sheet-fillable.pdf")
    form = reader.trailer["/Root"]["/AcroForm"]
    font = form["/DR"]["/Font"]["/HeiGo"].get_object()
    descendant = font["/DescendantFonts"][0].get_object()
    assert (font["/BaseFont"], font["/Encoding"]) == ("/HeiseiKakuGo-W5", "/UniJIS-UCS2-H")
    assert descendant["/CIDSystemInfo"]["/Ordering"] == "Japan1"
    assert form["/NeedAppearances"] is True or form["/NeedAppearances"] == True  # noqa: E712 - pypdf's boolean
    for page in reader.pages:
        for ref in page["/Annots"]:
            assert str(ref.get_object()["/DA"]).startswith("/HeiGo ")


def _run(script: str, values: dict[str, str]) -> str:
    """Run a field calculation as a viewer would: `this` is the document, `event.value` the result."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = (f"var values = {json.dumps(values)}; var event = {{}};"
               "var doc = { getField: function (n) { return { value: values[n] === undefined ? '' : values[n] }; } };"
               f"(function () {{ {script} }}).call(doc); process.stdout.write(String(event.value));")
    return subprocess.run([node, "-e", program], capture_output=True, text=True, check=True).stdout


def test_totals_add_themselves_up_in_order_and_are_read_only(gogyo_build: Path) -> None:
    reader = PdfReader(gogyo_build / "score-sheet-fillable.pdf")
    fields = {str(ref.get_object()["/T"]): ref.get_object() for page in reader.pages for ref in page["/Annots"]}
    order = [str(ref.get_object()["/T"]) for ref in reader.trailer["/Root"]["/AcroForm"]["/CO"]]
    for player in range(1, 5):
        totals = [f"p{player}_g1_total", f"p{player}_g2_total", f"p{player}_grand_total"]
        assert all(int(fields[name]["/Ff"]) & 1 for name in totals)  # read-only
        assert order.index(totals[2]) > max(order.index(totals[0]), order.index(totals[1]))
        assert not int(fields[f"p{player}_g1_dynasty"].get("/Ff", 0)) & 1
    game1 = str(fields["p2_g1_total"]["/AA"]["/C"]["/JS"])
    assert _run(game1, {"p2_g1_dynasty": "18", "p2_g1_element": "13"}) == "31"
    assert _run(game1, {"p2_g1_dynasty": "10", "p2_g1_element": ""}) == "10"  # a blank counts as 0
    grand = str(fields["p2_grand_total"]["/AA"]["/C"]["/JS"])
    assert _run(grand, {"p2_g1_total": "31", "p2_g2_total": "46"}) == "77"
