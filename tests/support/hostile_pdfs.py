"""Hostile PDFs for `fudaya preflight`, made small and fast: each stands for a file a stranger could send;
and the command run on them in a subprocess held to 2 GiB and 60 s, its peak memory measured.

Each maker writes one file and returns its path. The large ones are large only once decoded: the
Flate bomb repeats one compressed megabyte of zeros (a deflate block after a full flush does not
look back), the LZW one emits the codes an encoder would for a run of zeros.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

GIB = 1024**3
ADDRESS_SPACE = 2 * GIB  # what the command under test may map: a blow-up fails the test, not the machine
TIMEOUT = 60             # seconds: a hang fails the test


def flate_zeros(total: int, chunk: int = 1 << 20) -> bytes:
    """A zlib stream of `total` zero bytes, built from one compressed chunk repeated (about 1/1000 the size)."""
    compressor = zlib.compressobj(9)
    first = compressor.compress(b"\0" * chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(b"\0" * chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = compressor.flush()[:-4]
    count = total // chunk
    adler = ((count * chunk) % 65521) << 16 | 1  # the checksum of zeros: a stays 1, b counts them
    return first + repeated * (count - 1) + end + adler.to_bytes(4, "big")


def lzw_zeros(total: int) -> bytes:
    """PDF LZW codes (early change) for `total` zero bytes: each code one zero longer than the last."""
    out, acc, bits = bytearray(), 0, 0

    def emit(code: int, table: int) -> None:
        nonlocal acc, bits
        width = 9 if table + 1 < 512 else 10 if table + 1 < 1024 else 11 if table + 1 < 2048 else 12
        acc, bits = acc << width | code, bits + width
        while bits >= 8:
            bits -= 8
            out.append(acc >> bits & 0xFF)
        acc &= (1 << bits) - 1

    emit(256, 258)
    left, emitted, length = total, 0, 1
    while left > 0:
        table = 258 + max(0, emitted - 1)
        if table >= 4094:
            emit(256, table)
            emitted, length = 0, 1
            continue
        run = min(length, left)
        emit(0 if run == 1 else 256 + run, table)
        left, emitted, length = left - run, emitted + 1, run + 1
    emit(257, 258 + max(0, emitted - 1))
    if bits:
        out.append(acc << (8 - bits) & 0xFF)
    return bytes(out)


def _one_page(content: bytes, *, filters: list[str] | None = None,
              resources: Dictionary | None = None) -> tuple[pikepdf.Pdf, Stream]:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(200, 200))
    stream = Stream(pdf, content)
    if filters:
        stream.Filter = Array([Name(f) for f in filters])
    page = pdf.pages[0].obj
    page.Contents = pdf.make_indirect(stream)
    if resources is not None:
        page.Resources = resources
    return pdf, stream


def _save(pdf: pikepdf.Pdf, path: Path, **options: object) -> Path:
    pdf.save(path, compress_streams=False, **options)  # type: ignore[arg-type]
    return path


def flate_bomb(path: Path, decoded: int = 10 * GIB) -> Path:
    """A page whose 10 MB content stream inflates to 10 GiB of zeros."""
    return _save(_one_page(flate_zeros(decoded), filters=["/FlateDecode"])[0], path)


def double_flate_bomb(path: Path) -> Path:
    """The same bomb deflated once more: 30 KB on disk, two Flate filters."""
    return _save(_one_page(zlib.compress(flate_zeros(10 * GIB), 9), filters=["/FlateDecode", "/FlateDecode"])[0],
                 path)


def lzw_content_bomb(path: Path) -> Path:
    """A page whose LZW content (85 KB) decodes to 1 GB."""
    return _save(_one_page(lzw_zeros(GIB), filters=["/LZWDecode"])[0], path)


def lzw_xref_bomb(path: Path, decoded: int = 10 * GIB) -> Path:
    """A cross-reference stream qpdf itself decodes on opening, before preflight sees anything: 10 GB of LZW."""
    data = lzw_zeros(decoded)
    objects = [b"<</Type/Catalog/Pages 2 0 R>>", b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
               b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>"]
    body = b"%PDF-1.5\n"
    for number, obj in enumerate(objects, start=1):
        body += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(body)
    body += (b"4 0 obj\n<</Type/XRef/Size 5/W[1 4 2]/Root 1 0 R/Filter/LZWDecode/Length %d>>stream\n" % len(data)
             + data + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref)
    path.write_bytes(body)
    return path


def operator_flood(path: Path, operators: int = 2_000_000) -> Path:
    """A page of `q Q` repeated: two million operators in 4 MB (16 KB compressed)."""
    return _save(_one_page(zlib.compress(b"q Q " * (operators // 2), 9), filters=["/FlateDecode"])[0], path)


def _form(pdf: pikepdf.Pdf, content: bytes) -> Stream:
    form = pdf.make_indirect(Stream(pdf, content))
    form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, Array([0, 0, 10, 10])
    return form


def fanned_forms(path: Path, *, levels: int, ways: int) -> Path:
    """Forms each drawing the next `ways` times, `levels` deep: ways**levels drawings of the last."""
    pdf, _ = _one_page(b"/F0 Do")
    forms = [_form(pdf, b"0 0 1 0 k 0 0 5 5 re f")]
    for _ in range(levels):
        draws = b" ".join(b"q 1 0 0 1 %d 0 cm /F0 Do Q" % i for i in range(ways))
        inner = forms[-1]
        forms.append(_form(pdf, draws))
        forms[-1].Resources = Dictionary(XObject=Dictionary(F0=inner))
    pdf.pages[0].obj.Resources = Dictionary(XObject=Dictionary(F0=forms[-1]))
    return _save(pdf, path)


def self_drawing_form(path: Path) -> Path:
    """A form that draws itself (through its own resources), and a second one the first draws back."""
    pdf, _ = _one_page(b"/A Do")
    first, second = _form(pdf, b"/B Do /A Do"), _form(pdf, b"/A Do")
    first.Resources = Dictionary(XObject=Dictionary(A=first, B=second))
    second.Resources = Dictionary(XObject=Dictionary(A=first))
    pdf.pages[0].obj.Resources = Dictionary(XObject=Dictionary(A=first))
    return _save(pdf, path)


def indexed_on_itself(path: Path) -> Path:
    """An Indexed colour space whose base is itself."""
    pdf, _ = _one_page(b"/CS0 cs 0 sc 0 0 10 10 re f")
    space = pdf.make_indirect(Array([Name.Indexed, Name.DeviceRGB, 0, pikepdf.String(b"\0\0\0")]))
    space[1] = space
    pdf.pages[0].obj.Resources = Dictionary(ColorSpace=Dictionary(CS0=space))
    return _save(pdf, path)


def one_page(path: Path, content: bytes) -> Path:
    """One page whose content is `content`, as it is (operators with the wrong operands, say)."""
    return _save(_one_page(content)[0], path)


def encrypted(path: Path, user: str = "") -> Path:
    """A good page, encrypted (with an empty user password it opens without one)."""
    pdf, _ = _one_page(b"0 0 0 1 k 0 0 10 10 re f")
    return _save(pdf, path, encryption=pikepdf.Encryption(owner="owner", user=user))


def truncated(path: Path, good: Path) -> Path:
    data = good.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def not_a_pdf(path: Path) -> Path:
    path.write_bytes(b"GIF89a this is not a PDF\n" * 10)
    return path


def clean_page(path: Path) -> Path:
    """A page with nothing a shop rejects (with --sheets: no boxes asked for)."""
    return _save(_one_page(b"0 0 0 1 k 10 10 50 50 re f")[0], path)


MAKERS: dict[str, Callable[[Path], Path]] = {
    "flate-bomb": flate_bomb,
    "double-flate-bomb": double_flate_bomb,
    "lzw-content-bomb": lzw_content_bomb,
    "operator-flood": operator_flood,
    "forms-30-deep": lambda path: fanned_forms(path, levels=30, ways=2),
    "forms-fanned": lambda path: fanned_forms(path, levels=10, ways=5),
    "form-draws-itself": self_drawing_form,
    "indexed-on-itself": indexed_on_itself,
    "encrypted": lambda path: encrypted(path, user=""),
    "encrypted-password": lambda path: encrypted(path, user="secret"),
    "not-a-pdf": not_a_pdf,
}


def largest_accepted(path: Path) -> Path:
    """Just under the content caps at once (for measuring, not for tests: 64 MiB of content to parse): pages
    of one content stream each just under the stream cap, their total just under the file's, each carrying
    as many `cm` operators (six operands: the most memory per operator) as the caps let the file walk,
    the rest path segments the walker never sees but qpdf still tokenises."""
    from validator.limits import MAX_CONTENT_BYTES, MAX_OPERATORS, MAX_STREAM_BYTES, MAX_STREAM_OPERATORS

    pages = MAX_CONTENT_BYTES // MAX_STREAM_BYTES
    size = MAX_STREAM_BYTES - 4096
    walked = min(MAX_STREAM_OPERATORS, MAX_OPERATORS // pages) - 1000
    pdf = pikepdf.new()
    for number in range(pages):
        pdf.add_blank_page(page_size=(200, 200))
        ops = b"1 0 0 1 0 0 cm\n" * walked
        stream = Stream(pdf, zlib.compress(ops + b"0 0 l\n" * ((size - len(ops)) // 6), 1))
        stream.Filter = Name.FlateDecode
        pdf.pages[number].obj.Contents = pdf.make_indirect(stream)
    return _save(pdf, path)


def most_forms_accepted(path: Path) -> Path:
    """The page draws a form drawing a form `w` times, each drawing a leaf `w` times: 1 + w + w² drawings,
    just under the cap on forms drawn (for measuring)."""
    from validator.limits import MAX_FORM_DRAWS

    return fanned_forms(path, levels=2, ways=int(MAX_FORM_DRAWS**0.5) - 1)


# The command's own peak and its children's (the forks checking each file), written at exit. wait4's
# maxrss cannot say it: on Linux a process's maxrss keeps, across exec, the size of the pytest worker it
# was forked from (hundreds of MB in a full parallel run).
PEAK_AT_EXIT = (
    "import atexit, os, resource\n"
    "def _peak():\n"
    "    own = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) * 1024\n"
    "    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024\n"
    "    open(os.environ['FUDAYA_TEST_PEAK'], 'w').write(str(max(own, children)))\n"
    "atexit.register(_peak)\n")


def _held() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    peak_bytes: int  # the largest resident set of the command or of any process it started


def run_preflight(*paths: Path, child_memory: int | None = None) -> Run:
    """`fudaya preflight --sheets` on these files in a subprocess held to ADDRESS_SPACE and TIMEOUT, the
    child process checking each file allowed `child_memory` more than the command (default: the cap)."""
    patch = f"import generator.preflight_budget as b; b.MAX_PREFLIGHT_MEMORY = {child_memory}; " if child_memory else ""
    command = [sys.executable, "-c", patch + PEAK_AT_EXIT + "from generator.cli import app; app()", "preflight",
               "--sheets", *map(str, paths)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        process = subprocess.Popen(command, stdout=out, stderr=err, preexec_fn=_held,
                                   env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2]),
                                        "FUDAYA_TEST_PEAK": peak.name})
        deadline = time.monotonic() + TIMEOUT
        while (waited := os.wait4(process.pid, os.WNOHANG))[0] == 0:
            if time.monotonic() > deadline:
                process.kill()
                os.waitpid(process.pid, 0)
                raise AssertionError(f"preflight of {[p.name for p in paths]} still running after {TIMEOUT} s")
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(waited[1])
        out.seek(0)
        err.seek(0)
        peak_bytes = int(peak.read() or waited[2].ru_maxrss * 1024)  # killed before it could say: wait4's
        return Run(process.returncode, out.read().decode(), err.read().decode(), peak_bytes)
