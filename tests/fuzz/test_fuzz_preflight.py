"""Property-based fuzzing of `fudaya preflight` (issue 23): PDFs composed from hostile pieces.

A recipe (data, so hypothesis prints it) gives pages and forms whose content mixes good
operators, operators with any operands, stray delimiters and raw bytes; forms drawing each
other (cycles, fan-out); colour spaces built on themselves or malformed; graphics states with
names for numbers; every filter the content may use and some it may not (a small Flate bomb,
broken Flate data, an image codec); then perhaps encryption, truncation or flipped bytes.
Each file is checked between two clean ones, by the command in a subprocess held to 2 GiB and
60 s, and for every file: exit 0 when all is ok and 1 otherwise; every line a located one; a
refused file one line; the clean files ok; no traceback; and the budget, not the child process
limits, is what stopped anything (peak memory under the cap, no backstop refusal).
"""
from __future__ import annotations

import base64
import re
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pikepdf import Array, Dictionary, Name, Stream

from hostile_pdfs import clean_page, flate_zeros, lzw_zeros, run_preflight
from validator.limits import MAX_PREFLIGHT_MEMORY

# Each property checks and builds hostile inputs, seconds a property even at make test's six examples: make test
# and make fuzz run them, the quick loop does not (issue 28).
pytestmark = pytest.mark.slow

OPERANDS = (b"0", b"1", b"-3.5", b".5", b"99999999999999999999", b"1e400", b"/F0", b"/F1", b"/F2", b"/CS0",
            b"/CS1", b"/GS0", b"/Sh0", b"/Nope", b"(s)", b"(a\\)b)", b"<00ff>", b"[1 2]", b"[/a (b) [3]]",
            b"<< /A 1 >>", b"true", b"null", b"[", b"]", b"(", b")", b"<<", b">>", b"%comment\n")
OPERATORS = (b"q", b"Q", b"cm", b"w", b"m", b"re", b"rg", b"RG", b"k", b"K", b"cs", b"CS", b"sc", b"scn", b"SC",
             b"SCN", b"S", b"f", b"B*", b"BT", b"ET", b"Tf", b"Tr", b"Tm", b"Td", b"TD", b"Tj", b"TJ", b"'", b'"',
             b"gs", b"Do", b"sh", b"l", b"c", b"h", b"W", b"n", b"BDC", b"EMC", b"Tz", b"EI", b"ID")
GOOD = (b"q 1 0 0 1 5 5 cm 0 0 0 1 k 0 0 10 10 re f Q", b"BT /F1 8 Tf 10 10 Td (a) Tj ET", b"/F0 Do",
        b"/CS0 cs 0 sc 0 0 5 5 re f", b"/GS0 gs", b"/Sh0 sh", b"1 0 0 RG 0.05 w 0 0 m 9 9 l S",
        b"BI /W 1 /H 1 /CS /RGB /BPC 8 ID \0\0\0 EI")
ENCODINGS = ("none", "flate", "a85-flate", "hex", "runlength", "double-flate", "predictor", "lzw-zeros",
             "flate-bomb", "broken-flate", "image-codec", "filter-number")
SPACES = ("indexed-self", "indexed-pair", "iccbased-n-name", "devicen-many", "separation", "short", "name",
          "number")
GRAPHICS = ("alpha-name", "alpha-half", "soft-mask", "blend-number", "not-a-dictionary")


@dataclass(frozen=True)
class Content:
    pieces: tuple[bytes, ...]
    encoding: str


@dataclass(frozen=True)
class Recipe:
    pages: tuple[Content, ...]
    forms: tuple[tuple[Content, tuple[int, ...]], ...]  # each form's content and the forms it may draw
    spaces: tuple[str, ...]
    graphics: tuple[str, ...]
    encrypt: bool
    cut: float | None                          # truncate the file at this fraction
    flips: tuple[tuple[float, int], ...]       # (where, new byte)


def _piece() -> st.SearchStrategy[bytes]:
    operation = st.builds(lambda operands, operator: b" ".join((*operands, operator)),
                          st.lists(st.sampled_from(OPERANDS), max_size=7), st.sampled_from(OPERATORS))
    return st.one_of(st.sampled_from(GOOD), operation, st.binary(max_size=24))


def _content() -> st.SearchStrategy[Content]:
    return st.builds(Content, st.lists(_piece(), max_size=12).map(tuple), st.sampled_from(ENCODINGS))


def recipes() -> st.SearchStrategy[Recipe]:
    forms = st.lists(st.tuples(_content(), st.lists(st.integers(0, 3), max_size=3).map(tuple)), max_size=4)
    return st.builds(Recipe, st.lists(_content(), min_size=1, max_size=3).map(tuple), forms.map(tuple),
                     st.lists(st.sampled_from(SPACES), max_size=2).map(tuple),
                     st.lists(st.sampled_from(GRAPHICS), max_size=1).map(tuple),
                     st.integers(0, 7).map(lambda n: n == 0),  # encrypted, now and then
                     st.none() | st.floats(0.3, 0.99), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)),
                                                                 max_size=3).map(tuple))


def _encode(pdf: pikepdf.Pdf, content: Content) -> Stream:
    data = b"\n".join(content.pieces)
    filters: list[str] = []
    parms = None
    match content.encoding:
        case "flate":
            data, filters = zlib.compress(data), ["/FlateDecode"]
        case "a85-flate":
            data, filters = base64.a85encode(zlib.compress(data)) + b"~>", ["/ASCII85Decode", "/FlateDecode"]
        case "hex":
            data, filters = data.hex().encode() + b">", ["/ASCIIHexDecode"]
        case "runlength":
            data = b"".join(bytes([len(data[i:i + 128]) - 1]) + data[i:i + 128] for i in range(0, len(data), 128))
            data, filters = data + b"\x80", ["/RunLengthDecode"]
        case "double-flate":
            data, filters = zlib.compress(zlib.compress(data)), ["/FlateDecode", "/FlateDecode"]
        case "predictor":  # PNG rows of 4 bytes, each after a 0 (no prediction)
            data += b" " * (-len(data) % 4)
            rows = b"".join(b"\0" + data[i:i + 4] for i in range(0, len(data), 4))
            data, filters = zlib.compress(rows), ["/FlateDecode"]
            parms = Dictionary(Predictor=12, Columns=4)
        case "lzw-zeros":
            data, filters = lzw_zeros(4096), ["/LZWDecode"]
        case "flate-bomb":
            data, filters = flate_zeros(20 * 1024 * 1024), ["/FlateDecode"]
        case "broken-flate":
            data, filters = b"x\x9c not flate at all", ["/FlateDecode"]
        case "image-codec":
            filters = ["/DCTDecode"]
    stream = Stream(pdf, data)
    if content.encoding == "filter-number":
        stream.Filter = 5
    elif filters:
        stream.Filter = Array([Name(f) for f in filters])
    if parms is not None:
        stream.DecodeParms = parms
    return stream


def _space(pdf: pikepdf.Pdf, kind: str) -> object:
    indexed = pdf.make_indirect(Array([Name.Indexed, Name.DeviceRGB, 0, pikepdf.String(b"\0\0\0")]))
    match kind:
        case "indexed-self":
            indexed[1] = indexed
            return indexed
        case "indexed-pair":  # two Indexed spaces, each the other's base
            other = pdf.make_indirect(Array([Name.Indexed, indexed, 0, pikepdf.String(b"\0")]))
            indexed[1] = other
            return indexed
        case "iccbased-n-name":
            profile = pdf.make_indirect(Stream(pdf, b"\0" * 16))
            profile.N = Name.Four
            return Array([Name.ICCBased, profile])
        case "devicen-many":
            return Array([Name.DeviceN, Array([Name(f"/Ink{i}") for i in range(40)]), Name.DeviceCMYK, None])
        case "separation":
            return Array([Name.Separation, Name.Gold, Name.DeviceCMYK, None])
        case "short":
            return Array([Name.Indexed])
        case "name":
            return Name.DeviceRGB
    return 5


def _graphics(kind: str) -> object:
    match kind:
        case "alpha-name":
            return Dictionary(CA=Name.Half)
        case "alpha-half":
            return Dictionary(ca=0.5)
        case "soft-mask":
            return Dictionary(SMask=Dictionary(S=Name.Luminosity))
        case "blend-number":
            return Dictionary(BM=5)
    return pikepdf.String("not a dictionary")


def build(recipe: Recipe, path: Path) -> Path:
    pdf = pikepdf.new()
    spaces = [_space(pdf, kind) for kind in recipe.spaces]
    forms = []
    for content, _ in recipe.forms:
        form = pdf.make_indirect(_encode(pdf, content))
        form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, Array([0, 0, 10, 10])
        forms.append(form)
    for form, (_, draws) in zip(forms, recipe.forms):
        form.Resources = Dictionary(XObject=Dictionary({f"/F{i}": forms[i] for i in draws if i < len(forms)}))
    shading = Dictionary(ShadingType=2, ColorSpace=Name.DeviceRGB, Coords=Array([0, 0, 1, 1]))
    resources = Dictionary(XObject=Dictionary({f"/F{i}": form for i, form in enumerate(forms)}),
                           ColorSpace=Dictionary({f"/CS{i}": space for i, space in enumerate(spaces)}),
                           ExtGState=Dictionary({f"/GS{i}": _graphics(kind) for i, kind in enumerate(recipe.graphics)}),
                           Shading=Dictionary(Sh0=shading))
    for content in recipe.pages:
        pdf.add_blank_page(page_size=(200, 200))
        pdf.pages[-1].obj.Contents = pdf.make_indirect(_encode(pdf, content))
        pdf.pages[-1].obj.Resources = resources
    options = {"encryption": pikepdf.Encryption(owner="owner", user="")} if recipe.encrypt else {}
    pdf.save(path, compress_streams=False, **options)
    data = bytearray(path.read_bytes())
    for where, byte in recipe.flips:
        data[min(int(where * len(data)), len(data) - 1)] = byte
    if recipe.cut is not None:
        data = data[: int(recipe.cut * len(data))]
    path.write_bytes(bytes(data))
    return path


NUMBER = r"-?(?:[\d.]+|inf|nan)"
LINE = re.compile(rf"^(?P<file>.+?\.pdf): (?:ok|document: .+|page \d+(?: at {NUMBER},{NUMBER} mm)?: .+)$")
BACKSTOP = ("needs over", "takes over", "stopped at the", "stopped without", "preflight failed")


@given(recipes())
def test_composed_hostile_pdfs(recipe: Recipe) -> None:
    with tempfile.TemporaryDirectory(prefix="fudaya-fuzz-pdf-") as folder:
        hostile, good = build(recipe, Path(folder) / "hostile.pdf"), clean_page(Path(folder) / "clean.pdf")
        run = run_preflight(good, hostile, good)
    what = f"{recipe}\nstdout:\n{run.stdout}\nstderr:\n{run.stderr}"
    assert "Traceback" not in run.stdout + run.stderr, what
    lines = run.stdout.splitlines() + run.stderr.splitlines()
    assert all(LINE.match(line) for line in lines), what
    assert {line.split(".pdf: ", 1)[0] + ".pdf" for line in lines} == {str(good), str(hostile)}, what
    assert run.stdout.splitlines().count(f"{good}: ok") == 2, what
    about = [line for line in lines if line.startswith(f"{hostile}:")]
    refused = [line for line in run.stderr.splitlines() if line.startswith(f"{hostile}:")]
    assert about and (not refused or about == refused == refused[:1]), what
    assert run.returncode == (0 if about == [f"{hostile}: ok"] else 1), what
    assert not any(reason in line for line in refused for reason in BACKSTOP), what
    assert run.peak_bytes < MAX_PREFLIGHT_MEMORY, what


PARSER_TOKENS = (b"BI", b"ID", b"EI", b"q", b"Q", b"qQ", b"cm", b"Tj", b"Do", b"re", b"f", b"l", b"/CS /RGB", b"/W 1",
                 b"\0\0\0", b"1", b"2.5", b"(x)", b"[", b"]", b"<<", b">>", b"/F0", b"true", b"%c\n")


def _parsed(data: bytes, grouped_bytes: int) -> object:
    """The operations parse_content gives with this threshold, as text (or the kind of exception)."""
    import generator.preflight_content as content
    from generator.preflight_budget import Budget

    saved, content.GROUPED_BYTES = content.GROUPED_BYTES, grouped_bytes
    budget = Budget()
    try:
        with budget.scratch:  # (the operands belong to it: read them before it closes)
            operations = content.parse_content(data, budget, "the content")
            return [(None if operands is None else [str(v) for v in operands], name) for operands, name in operations]
    except Exception as exc:  # noqa: BLE001 - the same failure either way is what is asserted
        return type(exc).__name__
    finally:
        content.GROUPED_BYTES = saved


@given(st.lists(st.sampled_from(PARSER_TOKENS) | st.sampled_from(OPERANDS) | st.sampled_from(OPERATORS),
                min_size=1, max_size=40))
def test_the_two_parsers_agree(tokens: list[bytes]) -> None:
    """Short content is grouped by qpdf, long content taken token by token (bounded memory): whatever the
    tokens (inline images cut short, operators inside arrays, stray delimiters), the same operations."""
    data = b" ".join(tokens)
    assert _parsed(data, len(data)) == _parsed(data, -1), data
