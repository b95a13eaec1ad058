"""What preflight may spend on one PDF, counted before the work: a hostile file is refused, not obeyed.

A PDF named on the command line is untrusted (docs/security.md). Its streams may inflate to
gigabytes, its forms may draw each other exponentially often, its content may hold millions of
operators. preflight decodes content streams here, in bounded steps, and charges what it decodes,
parses (preflight_content.py) and walks to one `Budget` per file; a cap reached raises `Refused`,
whose message is the one line the command prints. The caps are in validator/limits.py. What qpdf
decodes by itself before preflight sees it (cross-reference and object streams) is held by qpdf's
own limits while a check runs, and by `run_bounded`'s child process limits in the command.
"""
from __future__ import annotations

import binascii
import contextlib
import os
import pickle
import re
import resource
import signal
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

from validator.issues import one_line
from validator.limits import (
    MAX_ARRAY_ITEMS,
    MAX_CONTENT_BYTES,
    MAX_FORM_DRAWS,
    MAX_OBJECTS,
    MAX_OPERATORS,
    MAX_PREFLIGHT_MEMORY,
    MAX_PREFLIGHT_SECONDS,
    MAX_STREAM_BYTES,
    MAX_STREAM_FILTERS,
)

from .forked import child_result, fork_child

MIB = 1024 * 1024
MAX_KEPT_OPERATIONS = 500_000  # forms' parsed operations kept for their next drawing (about 150 MB at most)
ABBREVIATED = {"/Fl": "/FlateDecode", "/A85": "/ASCII85Decode", "/AHx": "/ASCIIHexDecode",
               "/RL": "/RunLengthDecode", "/LZW": "/LZWDecode"}
# Filters decoded by qpdf once their input is short enough that no output can pass the cap: the most
# bytes one input byte can become (RunLength: 2 bytes give 128; LZW: a 12-bit code gives at most 4,096).
EXPANSION = {"/RunLengthDecode": 64, "/LZWDecode": 2731}


class Refused(Exception):
    """A file preflight stops reading; the message is the one line that says why."""


@dataclass
class Budget:
    """What one file's check has used so far; each charge refuses the file before a cap is passed."""

    content_bytes: int = 0
    operators: int = 0
    forms: int = 0
    kept: int = 0  # operations of parsed forms kept for their next drawing
    objects: int = 0
    scratch: pikepdf.Pdf = field(default_factory=pikepdf.new)  # holds decoded content for qpdf to parse

    def charge_bytes(self, count: int, where: str) -> None:
        if count > MAX_STREAM_BYTES:
            raise Refused(f"{where} decodes to over {MAX_STREAM_BYTES // MIB} MiB")
        self.content_bytes += count
        if self.content_bytes > MAX_CONTENT_BYTES:
            raise Refused(f"content decodes to over {MAX_CONTENT_BYTES // MIB} MiB in all (at {where})")

    def charge_operators(self, count: int, where: str) -> None:
        self.operators += count
        if self.operators > MAX_OPERATORS:
            raise Refused(f"over {MAX_OPERATORS:,} operators to walk (forms counted each time they are "
                          f"drawn; at {where})")

    def keeps(self, count: int) -> bool:
        """Whether a parsed form's operations may be kept for its next drawing: while all kept stay under
        MAX_KEPT_OPERATIONS, so memory stays bounded; one not kept is decoded and parsed (and charged) again."""
        if self.kept + count > MAX_KEPT_OPERATIONS:
            return False
        self.kept += count
        return True

    def charge_form(self, page: int) -> None:
        self.forms += 1
        if self.forms > MAX_FORM_DRAWS:
            raise Refused(f"over {MAX_FORM_DRAWS:,} forms drawn (a form drawn by a form counted each time; "
                          f"at page {page})")

    def charge_objects(self, count: int = 1) -> None:
        self.objects += count
        if self.objects > MAX_OBJECTS:
            raise Refused(f"over {MAX_OBJECTS:,} fonts, XObjects and content streams to read")


def _filters(stream: Stream, where: str) -> list[tuple[str, Any]]:
    """The stream's filters with their parameters, in decoding order."""
    filters, parms = stream.get("/Filter"), stream.get("/DecodeParms", stream.get("/DP"))
    if isinstance(filters, Array) and len(filters) > MAX_STREAM_FILTERS:
        raise Refused(f"{where} has {len(filters)} filters (at most {MAX_STREAM_FILTERS} are read)")
    names = [filters] if isinstance(filters, Name) else list(filters) if isinstance(filters, Array) else []
    if not isinstance(filters, (Name, Array, type(None))) or not all(isinstance(name, Name) for name in names):
        raise Refused(f"{where} has a malformed /Filter")
    given: list[Any] = list(parms) if isinstance(parms, Array) else [parms]
    return [(ABBREVIATED.get(str(name), str(name)), given[i] if i < len(given) else None)
            for i, name in enumerate(names)]


def _inflate(data: bytes, where: str) -> bytes:
    """Flate data inflated to at most the cap: zlib stops there, whatever the input asks for."""
    try:
        out = zlib.decompressobj().decompress(data, MAX_STREAM_BYTES + 1)
    except zlib.error as exc:
        raise pikepdf.PdfError(f"{where}: damaged FlateDecode data ({exc})") from None
    if len(out) > MAX_STREAM_BYTES:
        raise Refused(f"{where} decodes to over {MAX_STREAM_BYTES // MIB} MiB")
    return out


def _asciihex(data: bytes) -> bytes:
    body = re.sub(rb"[\0\t\n\f\r ]", b"", data.split(b">", 1)[0])
    return binascii.unhexlify(body + b"0" * (len(body) % 2))


def _predicts(parms: Any) -> bool:
    return isinstance(parms, Dictionary) and isinstance(parms.get("/Predictor"), int) and parms["/Predictor"] > 1


def _by_qpdf(data: bytes, name: str, parms: Any, budget: Budget) -> bytes:
    """One filter applied by qpdf to data known to stay under the cap (ASCII85, predictors, RunLength, LZW)."""
    stream = Stream(budget.scratch, data)
    stream.Filter = Name(name)
    if isinstance(parms, Dictionary):
        stream.DecodeParms = Dictionary({key: value for key, value in parms.items() if isinstance(value, int)})
    return stream.read_bytes(pikepdf.StreamDecodeLevel.specialized)  # (RunLength is "specialized")


def decode(stream: Stream, budget: Budget, where: str) -> bytes:
    """A stream's decoded data, each filter's output held under the cap before the next reads it.

    Flate is inflated by zlib with an output limit (qpdf then undoes a predictor, which only
    shrinks it); ASCIIHex halves; ASCII85, RunLength and LZW are decoded by qpdf when the input
    cannot become more than the cap. Any other filter (image codecs, encryption) has no business
    in content and is refused."""
    length = stream.get("/Length")
    if isinstance(length, int) and length > MAX_STREAM_BYTES:
        raise Refused(f"{where} is over {MAX_STREAM_BYTES // MIB} MiB before decoding")
    chain = _filters(stream, where)
    data = stream.read_raw_bytes()
    for name, parms in chain:
        try:
            if name == "/FlateDecode":
                inflated = _inflate(data, where)
                data = _by_qpdf(data, name, parms, budget) if _predicts(parms) else inflated
            elif name == "/ASCII85Decode" and data.count(b"z") * 4 + len(data) <= MAX_STREAM_BYTES:
                data = _by_qpdf(data, name, parms, budget)  # (z is four zero bytes, else five characters four)
            elif name == "/ASCIIHexDecode":
                data = _asciihex(data)
            elif name in EXPANSION and len(data) * EXPANSION[name] <= MAX_STREAM_BYTES:
                data = _by_qpdf(data, name, parms, budget)
            elif name in EXPANSION:
                raise Refused(f"{where} is {name[1:]} data too long to bound its decoded size "
                              f"({len(data):,} bytes)")
            elif name == "/ASCII85Decode":
                raise Refused(f"{where} decodes to over {MAX_STREAM_BYTES // MIB} MiB")
            else:
                raise Refused(f"{where} uses the filter {one_line(name, 40)}, which content does not")
        except ValueError as exc:  # binascii.Error
            raise pikepdf.PdfError(f"{where}: damaged {name[1:]} data ({one_line(str(exc))})") from None
        if len(data) > MAX_STREAM_BYTES:
            raise Refused(f"{where} decodes to over {MAX_STREAM_BYTES // MIB} MiB")
    budget.charge_bytes(len(data), where)
    return data


@contextlib.contextmanager
def qpdf_limits() -> Iterator[None]:
    """qpdf's own limits while a check runs: its decoders held to the stream cap (it inflates cross-reference
    and object streams itself), its content parser to arrays of `MAX_ARRAY_ITEMS` (a longer one comes apart
    into loose operands, which `qpdf_limit_hits` tells). Restored after, as they are process-wide; pikepdf
    before 10 has none of them, and then the child process limits are all there is for qpdf's own decoding."""
    set_limits = getattr(getattr(pikepdf, "settings", None), "set_qpdf_limits", None)
    if set_limits is None:
        yield
        return
    previous = set_limits(flate_max_memory=MAX_STREAM_BYTES, run_length_max_memory=MAX_STREAM_BYTES,
                          png_max_memory=MAX_STREAM_BYTES, tiff_max_memory=MAX_STREAM_BYTES,
                          parser_max_container_size=MAX_ARRAY_ITEMS)
    try:
        yield
    finally:
        set_limits(**previous)


def qpdf_limit_hits() -> int:
    """How often qpdf has stopped at one of its limits in this process (0 where pikepdf cannot tell)."""
    hits = getattr(getattr(pikepdf, "settings", None), "qpdf_limit_errors", None)
    return int(hits()) if hits is not None else 0


T = TypeVar("T")


class _OutOfTime(Exception):
    pass


def _on_cpu_limit(signum: int, frame: object) -> None:
    raise _OutOfTime


def _hold_child() -> None:
    """This (forked) process's limits: its address space may grow by the memory cap, its CPU time by the
    seconds cap (a soft limit that raises here, then a hard one the kernel enforces)."""
    size = re.search(r"VmSize:\s+(\d+) kB", _read("/proc/self/status"))  # Linux; elsewhere CPU time only
    if size is not None:
        _lower(resource.RLIMIT_AS, int(size.group(1)) * 1024 + MAX_PREFLIGHT_MEMORY)
    signal.signal(signal.SIGXCPU, _on_cpu_limit)
    _lower(resource.RLIMIT_CPU, int(sum(os.times()[:2])) + MAX_PREFLIGHT_SECONDS, grace=10)


def _read(path: str) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def _lower(kind: int, soft: int, grace: int = 0) -> None:
    """Lower a resource limit to `soft` (and the hard one to `soft + grace`), never above what it was."""
    old_soft, old_hard = resource.getrlimit(kind)
    hard = soft + grace if old_hard == resource.RLIM_INFINITY else min(old_hard, soft + grace)
    soft = min(soft, hard) if old_soft == resource.RLIM_INFINITY else min(old_soft, soft, hard)
    with contextlib.suppress(OSError, ValueError):
        resource.setrlimit(kind, (soft, hard))


def run_bounded(function: Callable[..., T], *args: Any, refused: Callable[[str], T]) -> T:
    """`function(*args)` in a forked child held to the memory and CPU caps; `refused(why)` when it
    passes one or dies. Where there is no fork, it runs here, bounded by the budget alone."""
    if not hasattr(os, "fork"):
        return function(*args)

    def attempt() -> tuple[str, Any]:
        try:
            _hold_child()
            return "done", function(*args)
        except MemoryError:
            return "refused", f"needs over {MAX_PREFLIGHT_MEMORY // MIB:,} MiB of memory"
        except _OutOfTime:
            return "refused", f"takes over {MAX_PREFLIGHT_SECONDS} s"
        except Exception as exc:  # noqa: BLE001 - one line, not a traceback, whatever went wrong
            return "refused", f"preflight failed ({type(exc).__name__}: {one_line(str(exc))})"

    data, status = child_result(*fork_child(attempt))
    try:
        kind, value = pickle.loads(data)
    except Exception:  # noqa: BLE001 - nothing or half a result: the child was killed
        why = (f"stopped at the {MAX_PREFLIGHT_SECONDS} s or {MAX_PREFLIGHT_MEMORY // MIB:,} MiB limit"
               if os.WIFSIGNALED(status) else "stopped without a result")
        return refused(why)
    return value if kind == "done" else refused(value)
