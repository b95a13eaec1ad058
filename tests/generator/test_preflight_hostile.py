"""`fudaya preflight` on PDFs a stranger could send (issue 23): each bad file is one line saying why,
the good ones beside it are still checked, the command exits 1; never a traceback, a hang or a
blow-up. The command runs in a subprocess held to 2 GiB of address space and 60 s, so a
regression fails the test, not the machine. The caps are tested at their edges, with smaller
values patched in where the real ones would take long: at a cap a file is read, one over it is not."""
from __future__ import annotations

import base64
import re
import zlib
from pathlib import Path

import pikepdf
import pytest

import generator.preflight_budget as budget_module
import generator.preflight_content as content_module
from generator.preflight import Finding, preflight
from generator.preflight_budget import run_bounded
from hostile_pdfs import (
    MAKERS,
    clean_page,
    fanned_forms,
    lzw_xref_bomb,
    lzw_zeros,
    one_page,
    run_preflight,
    truncated,
)
from validator.limits import (
    MAX_COLOUR_SPACE_DEPTH,
    MAX_FORM_DEPTH,
    MAX_FORM_DRAWS,
    MAX_PREFLIGHT_MEMORY,
    MAX_STREAM_BYTES,
    MAX_STREAM_OPERATORS,
)

MIB = 1024 * 1024
# Why each hostile file is refused: the budget's own reason, not the child process's backstop.
REFUSED = {
    "flate-bomb": f"page 1's content decodes to over {MAX_STREAM_BYTES // MIB} MiB",
    "double-flate-bomb": f"page 1's content decodes to over {MAX_STREAM_BYTES // MIB} MiB",
    "lzw-content-bomb": "page 1's content is LZWDecode data too long to bound its decoded size",
    "operator-flood": f"page 1's content holds over {MAX_STREAM_OPERATORS:,} operators",
    "forms-30-deep": f"forms hold forms over {MAX_FORM_DEPTH} deep",
    "forms-fanned": f"over {MAX_FORM_DRAWS:,} forms drawn",
    "form-draws-itself": "form /A on page 1 draws itself",
    "indexed-on-itself": f"a colour space refers to itself or nests over {MAX_COLOUR_SPACE_DEPTH} deep",
    "encrypted": "encrypted; preflight reads only unencrypted print files",
    "encrypted-password": "encrypted; preflight reads only unencrypted print files",
    "not-a-pdf": "",  # qpdf's reason
}
MALFORMED = {"tf-string": (b"BT /F1 (big) Tf 10 10 Td (x) Tj ET", "Tf"),
             "cm-names": (b"/a /b /c /d /e /f cm 0 0 10 10 re f", "cm"),
             "cm-array": (b"[1 0] 0 1 0 0 cm 0 0 10 10 re f", "cm"),
             "rg-strings": (b"(1) (0) (0) rg 0 0 10 10 re f", "rg")}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    files = {name: make(folder / f"{name}.pdf") for name, make in MAKERS.items()}
    files["truncated"] = truncated(folder / "truncated.pdf", one_page(folder / "whole.pdf", b"q Q " * 2000))
    for name, (content, _) in MALFORMED.items():
        files[name] = one_page(folder / f"{name}.pdf", content)
    return files


def test_every_hostile_file_is_one_line_and_the_good_ones_are_still_checked(
        hostile: dict[str, Path], tmp_path: Path) -> None:
    """One call with every file between two clean ones: each refused file one line on stderr with the
    budget's reason (an unreadable one: qpdf's), malformed operands a finding naming the page and the
    operator, a truncated file qpdf could repair a finding that says so, the clean files ok, exit 1."""
    good = clean_page(tmp_path / "clean.pdf")
    result = run_preflight(good, *hostile.values(), good)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    errors, output = result.stderr.splitlines(), result.stdout.splitlines()
    for name, why in REFUSED.items():
        lines = [line for line in errors + output if line.startswith(f"{hostile[name]}:")]
        start = f"{hostile[name]}: document: " + (f"refused: {why}" if why else "not a readable PDF (")
        assert len(lines) == 1 and lines[0].startswith(start), (name, lines)
    for name, (_, operator) in MALFORMED.items():
        assert [line for line in errors + output if line.startswith(f"{hostile[name]}:")] == [
            f"{hostile[name]}: page 1 at 0.0,0.0 mm: malformed operands for {operator}"]
    assert [line for line in errors + output if line.startswith(f"{hostile['truncated']}:")] == [
        line for line in output if line.startswith(f"{hostile['truncated']}: document: damaged: qpdf repaired it")]
    assert len([line for line in output if line.startswith(f"{hostile['truncated']}:")]) == 1
    assert output.count(f"{good}: ok") == 2
    assert result.peak_bytes < MAX_PREFLIGHT_MEMORY, result.peak_bytes  # the budget held, not the backstop
    assert len(errors) == len(REFUSED)  # nothing else on stderr: no warnings, no traces


def test_qpdf_decoding_a_cross_reference_bomb_by_itself_is_held_by_the_child_limits(tmp_path: Path) -> None:
    """qpdf inflates a cross-reference stream (here 1 GB of LZW) while it opens the file, before preflight
    sees a byte: the child process's address-space limit stops it (lowered to 256 MiB here, to be quick),
    and whatever qpdf makes of the file then, the command answers in one line and goes on to the next."""
    bomb, good = lzw_xref_bomb(tmp_path / "xref-bomb.pdf", 1024**3), clean_page(tmp_path / "clean.pdf")
    result = run_preflight(bomb, good, child_memory=256 * MIB)
    lines = (result.stdout + result.stderr).splitlines()
    assert "Traceback" not in result.stderr
    assert sum(line.startswith(f"{bomb}:") for line in lines) == 1, lines
    assert f"{good}: ok" in lines
    assert result.peak_bytes < 512 * MIB, result.peak_bytes  # without the limit: over 1 GB


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the address-space limit is Linux's")
def test_a_check_over_the_child_memory_limit_is_one_refusal() -> None:
    """The backstop itself: a check asking for more than the child may have is refused, and the next runs."""
    def greedy() -> list[str]:
        return ["x" * (MAX_PREFLIGHT_MEMORY + 64 * MIB)]

    assert run_bounded(greedy, refused=lambda why: [f"refused: {why}"]) == [
        f"refused: needs over {MAX_PREFLIGHT_MEMORY // MIB:,} MiB of memory"]
    assert run_bounded(lambda: ["done"], refused=lambda why: [why]) == ["done"]


def _only(findings: list[Finding]) -> str:
    assert len(findings) == 1, findings
    return findings[0].what


@pytest.mark.parametrize(("content", "what"), [
    (b"q /GS0 gs 0 0 10 10 re f Q", "gs could not be read (malformed operands or resources)"),
    (b"q /Im0 Do Q", "Do could not be read (malformed operands or resources)"),
    (b"1e400 Tr", "malformed operands for Tr"),
    (b"/X 10 Tf (a) 5 Tf", "malformed operands for Tf"),
    (b"0 0 0 1 1 k", "malformed operands for k"),
    (b"true 0 0 1 0 0 cm", "malformed operands for cm"),
    (b"/CS0 true sc", "malformed operands for sc"),
])
def test_malformed_operands_and_resources_are_a_finding_naming_the_page_and_operator(
        tmp_path: Path, content: bytes, what: str) -> None:
    """An alpha that is a name, an image whose width is a name, a number too large, a string size..."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    page = pdf.pages[0].obj
    page.Contents = pdf.make_indirect(pikepdf.Stream(pdf, content))
    image = pdf.make_indirect(pikepdf.Stream(pdf, b"\0"))
    image.Subtype, image.Width, image.Height = pikepdf.Name.Image, pikepdf.Name.Wide, 1
    page.Resources = pikepdf.Dictionary(ExtGState=pikepdf.Dictionary(GS0=pikepdf.Dictionary(CA=pikepdf.Name.Half)),
                                        XObject=pikepdf.Dictionary(Im0=image))
    pdf.save(tmp_path / "malformed.pdf")
    found = preflight(tmp_path / "malformed.pdf", boxes=False)
    assert _only(found) == what and found[0].page == 1 and not found[0].refused


@pytest.mark.parametrize("grouped", [True, False])
def test_the_operator_cap_per_stream_is_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grouped: bool) -> None:
    """At the cap a stream is walked; one operator more is refused, whether qpdf groups the content or not."""
    monkeypatch.setattr(content_module, "MAX_STREAM_OPERATORS", 1000)
    if not grouped:
        monkeypatch.setattr(content_module, "GROUPED_BYTES", -1)
    at, over = one_page(tmp_path / "at.pdf", b"q Q " * 500), one_page(tmp_path / "over.pdf", b"q Q " * 500 + b"q")
    assert preflight(at, boxes=False) == []
    assert _only(preflight(over, boxes=False)) == "refused: page 1's content holds over 1,000 operators"


def test_the_walked_operator_cap_counts_a_form_each_time_it_is_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page (1 operator) draws a form (8: q cm Do Q twice) drawing a leaf (3) twice: 15 operators."""
    path = fanned_forms(tmp_path / "fanned.pdf", levels=1, ways=2)
    monkeypatch.setattr(budget_module, "MAX_OPERATORS", 15)
    assert preflight(path, boxes=False) == []
    monkeypatch.setattr(budget_module, "MAX_OPERATORS", 14)
    assert _only(preflight(path, boxes=False)).startswith("refused: over 14 operators to walk")


def test_forms_are_parsed_once_and_charged_each_time_they_are_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three forms each drawing the one below twice, under one the page draws: 1 + 2 + 4 + 8 = 15
    drawings, and five parses (the page, each form once)."""
    path = fanned_forms(tmp_path / "fanned.pdf", levels=3, ways=2)
    parses: list[str] = []
    real = content_module.parse_content

    def counted(data: bytes, budget: budget_module.Budget, where: str) -> list[content_module.Operation]:
        parses.append(where)
        return real(data, budget, where)

    monkeypatch.setattr("generator.preflight.parse_content", counted)
    monkeypatch.setattr(budget_module, "MAX_FORM_DRAWS", 15)
    assert preflight(path, boxes=False) == []
    assert len(parses) == 5
    monkeypatch.setattr(budget_module, "MAX_FORM_DRAWS", 14)
    assert _only(preflight(path, boxes=False)) == ("refused: over 14 forms drawn (a form drawn by a form counted "
                                                   "each time; at page 1)")


@pytest.mark.parametrize("forms", [MAX_FORM_DEPTH, MAX_FORM_DEPTH + 1])
def test_forms_may_nest_as_deep_as_the_cap_and_no_deeper(tmp_path: Path, forms: int) -> None:
    found = preflight(fanned_forms(tmp_path / "deep.pdf", levels=forms - 1, ways=1), boxes=False)
    if forms <= MAX_FORM_DEPTH:
        assert found == []
    else:
        assert _only(found) == f"refused: forms nested over {MAX_FORM_DEPTH} deep (form /F0 on page 1)"


@pytest.mark.parametrize("size", [MAX_STREAM_BYTES, MAX_STREAM_BYTES + 1])
def test_a_stream_may_decode_to_the_cap_and_no_further(tmp_path: Path, size: int) -> None:
    """Flate data of zeros (white space to the parser): at the cap read, one byte over refused."""
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    stream = pikepdf.Stream(pdf, zlib.compress(b"\0" * size, 9))
    stream.Filter = pikepdf.Name.FlateDecode
    pdf.pages[0].obj.Contents = pdf.make_indirect(stream)
    pdf.save(tmp_path / "sized.pdf", compress_streams=False)
    found = preflight(tmp_path / "sized.pdf", boxes=False)
    if size <= MAX_STREAM_BYTES:
        assert found == []
    else:
        assert _only(found) == f"refused: page 1's content decodes to over {MAX_STREAM_BYTES // MIB} MiB"


def _run_length(data: bytes) -> bytes:
    return b"".join(bytes([len(data[i:i + 128]) - 1]) + data[i:i + 128] for i in range(0, len(data), 128)) + b"\x80"


@pytest.mark.parametrize(("filters", "encoded"), [
    (["/ASCIIHexDecode"], lambda data: data.hex().encode() + b">"),
    (["/AHx"], lambda data: b" ".join(data.hex()[i:i + 7].encode() for i in range(0, 2 * len(data), 7))),
    (["/ASCII85Decode", "/FlateDecode"], lambda data: base64.a85encode(zlib.compress(data)) + b"~>"),
    (["/RunLengthDecode"], _run_length),
    (["/FlateDecode", "/FlateDecode"], lambda data: zlib.compress(zlib.compress(data))),
])
def test_content_reads_the_same_through_every_filter_it_may_use(
        tmp_path: Path, filters: list[str], encoded: object) -> None:
    """Decoding here is bounded, not different: the same RGB fill found through each filter chain."""
    content = b"q 1 0 0 rg 10 10 50 50 re f Q " * 20
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    stream = pikepdf.Stream(pdf, encoded(content))  # type: ignore[operator]
    stream.Filter = pikepdf.Array([pikepdf.Name(f) for f in filters])
    pdf.pages[0].obj.Contents = pdf.make_indirect(stream)
    pdf.save(tmp_path / "filtered.pdf", compress_streams=False)
    found = preflight(tmp_path / "filtered.pdf", boxes=False)
    assert [(f.what, f.times) for f in found] == [("RGB fill colour 1 0 0", 20)]


def test_short_lzw_content_is_read_and_long_is_refused(tmp_path: Path) -> None:
    """LZW can grow a byte 2,700-fold: read only while its input cannot pass the stream cap."""
    for length, refused in ((1_000_000, False), (MAX_STREAM_BYTES, True)):
        pdf = pikepdf.new()
        pdf.add_blank_page(page_size=(200, 200))
        stream = pikepdf.Stream(pdf, lzw_zeros(length))
        stream.Filter = pikepdf.Name.LZWDecode
        pdf.pages[0].obj.Contents = pdf.make_indirect(stream)
        pdf.save(tmp_path / "lzw.pdf", compress_streams=False)
        found = preflight(tmp_path / "lzw.pdf", boxes=False)
        assert [f.refused for f in found] == ([True] if refused else []), found


def test_the_two_parsers_agree(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Short content is grouped by qpdf, long content taken token by token: the same findings either way,
    an inline image included."""
    path = one_page(tmp_path / "mixed.pdf", b"q 1 0 0 1 5 5 cm 0 1 0 0 k 0.05 w 0 0 m 10 10 l S Q "
                                            b"1 0 0 rg 20 20 5 5 re f BI /W 1 /H 1 /CS /RGB /BPC 8 ID \0\0\0 EI "
                                            b"BT /F1 4 Tf 30 30 Td (tiny) Tj ET /X (a) cm")
    grouped = preflight(path, boxes=False)
    monkeypatch.setattr(content_module, "GROUPED_BYTES", -1)
    assert preflight(path, boxes=False) == grouped
    assert {re.sub(r"[\d.]+", "N", f.what) for f in grouped} == {
        "hairline N mm (under N mm)", "RGB fill colour N N N", "RGB inline image colour", "text N pt (under N pt)",
        "malformed operands for cm"}
