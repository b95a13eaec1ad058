"""Preflight: what a print shop rejects in a PDF, found by reading the file itself (ours or any tool's).

The file is read by qpdf (pikepdf): its objects, its pages with inherited attributes pushed down,
and its content streams decoded and tokenised in C++ (only the operators walked are handed over).

Every page's content is walked with its graphics state (transform, line width, colour spaces, text
matrix), forms included, so each finding has a page and a position in mm from the page's lower
left corner. Checked: RGB and spot colours (operators, images, shadings), total ink over the
limit, fonts not embedded, missing TrimBox/BleedBox and bleed under the minimum, images under
the effective resolution, hairlines, text too small to print, forms and scripts. Repeats of one
finding on a page are counted on its first line, so a file gives a readable list, not thousands.

The file is untrusted: what it makes preflight decode, parse and walk is counted against the caps in
validator/limits.py (preflight_budget.py), and a file over one is refused with one line, as is an
encrypted or unreadable one. Malformed operands are a finding naming the page and operator.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pikepdf
from pikepdf import Array, Dictionary, Name, Stream

from validator.geometry import POINTS_PER_MM
from validator.issues import one_line
from validator.limits import MAX_COLOUR_SPACE_DEPTH, MAX_FORM_DEPTH, MAX_PDF_PAGES
from validator.presets import PRINT_MIN_LINE_MM, PRINT_MIN_TEXT_PT

from .file_use import SCREEN, SHOP
from .preflight_budget import Budget, Refused, decode, qpdf_limits
from .preflight_content import DAMAGED, SHOWS, Operation, page_content, parse_content

if TYPE_CHECKING:
    from .deck_pdf import WrittenFile

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
PAINTS = STROKES | {b"f", b"F", b"f*"}
# What a malformed file raises when the walker reads what an operator names (a /Matrix of names, an
# /Indexed without its base...): a finding for that operator, never a traceback.
MALFORMED = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


@dataclass(frozen=True)
class Limits:
    """What a Japanese print shop commonly asks for (shared/reference/anchors-print-tools.md)."""

    min_bleed_mm: float = 3.0
    max_ink_percent: float = 300.0
    min_image_dpi: float = 300.0
    min_line_mm: float = PRINT_MIN_LINE_MM
    min_text_pt: float = PRINT_MIN_TEXT_PT


@dataclass(frozen=True)
class Finding:
    page: int                          # 1-based; 0 for the whole document
    what: str
    at: tuple[float, float] | None = None  # mm from the page's lower left corner
    times: int = 1
    refused: bool = False              # the file was not checked (unreadable, encrypted, over a cap)

    def line(self, name: str) -> str:
        where = f"page {self.page}" if self.page else "document"
        if self.at is not None:
            where += f" at {self.at[0]:.1f},{self.at[1]:.1f} mm"
        repeat = f" ({self.times} times on this page)" if self.times > 1 else ""
        return f"{name}: {where}: {self.what}{repeat}"


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _matrix(values: list[float]) -> Matrix:
    """Six numbers as a transform (IndexError for fewer: the caller's operator is malformed)."""
    return (values[0], values[1], values[2], values[3], values[4], values[5])


def _scale(m: Matrix) -> float:
    """The geometric mean scale of a transform (what a line width or font size is multiplied by)."""
    return math.sqrt(abs(m[0] * m[3] - m[1] * m[2]))


def _point(m: Matrix, x: float = 0.0, y: float = 0.0) -> tuple[float, float]:
    return ((m[0] * x + m[2] * y + m[4]) / POINTS_PER_MM, (m[1] * x + m[3] * y + m[5]) / POINTS_PER_MM)


def _numbers(operands: list[Any]) -> list[float]:
    return [float(v) for v in operands if isinstance(v, (int, float))]


def _dict(value: Any) -> Any:
    """`value` if it is a dictionary or a stream (whose dictionary answers get and in), else an empty one."""
    return value if isinstance(value, (Dictionary, Stream)) else Dictionary()


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    line_width: float = 1.0
    fill: str = "gray"      # the family of the current colour space: gray, rgb, cmyk, spot, pattern, other
    stroke: str = "gray"
    render: int = 0         # text rendering mode (3: invisible)
    blending: bool = False  # the graphics state paints with transparency

    def copy(self) -> _State:
        return _State(self.ctm, self.line_width, self.fill, self.stroke, self.render, self.blending)


@dataclass
class _Page:
    number: int
    limits: Limits
    found: dict[str, Finding] = field(default_factory=dict)
    transparency: tuple[float, float] | None = None  # where the page first paints with transparency

    def add(self, what: str, at: tuple[float, float] | None) -> None:
        seen = self.found.get(what)
        if seen is None:
            self.found[what] = Finding(self.number, what, at)
        else:
            self.found[what] = Finding(seen.page, seen.what, seen.at, seen.times + 1)


def _space_family(space: Any, resources: Any, depth: int = 0) -> str:
    """gray / rgb / cmyk / spot / pattern / other for a colour space name or array."""
    if depth > MAX_COLOUR_SPACE_DEPTH:
        raise Refused(f"a colour space refers to itself or nests over {MAX_COLOUR_SPACE_DEPTH} deep")
    if isinstance(space, Name) and resources is not None and space not in (
            "/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern", "/G", "/RGB", "/CMYK"):
        named = _dict(resources.get("/ColorSpace"))
        if space in named:
            return _space_family(named[space], None, depth + 1)
    if isinstance(space, Name):
        return {"/DeviceGray": "gray", "/G": "gray", "/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceCMYK": "cmyk",
                "/CMYK": "cmyk", "/Pattern": "pattern", "/CalRGB": "rgb", "/CalGray": "gray"}.get(str(space), "other")
    if isinstance(space, Array) and len(space):
        kind = str(space[0])
        if kind == "/ICCBased":
            channels = int(_dict(space[1]).get("/N", 0))
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(channels, "other")
        if kind in ("/CalRGB", "/Lab"):
            return "rgb"
        if kind == "/CalGray":
            return "gray"
        if kind == "/Indexed":
            return _space_family(space[1], resources, depth + 1)
        if kind == "/Separation":
            return "cmyk" if str(space[1]) in ("/All", "/None") else "spot"
        if kind == "/DeviceN":
            if isinstance(space[1], Array) and len(space[1]) > 32:
                raise ValueError("DeviceN with over 32 colourants")
            names = {str(n) for n in space[1]} if isinstance(space[1], Array) else {"?"}
            return "cmyk" if names <= {"/Cyan", "/Magenta", "/Yellow", "/Black", "/None"} else "spot"
        if kind == "/Pattern":
            return "pattern"
    return "other"


class _Walker:
    """Walks one page's content (and the forms it draws) with the graphics state."""

    def __init__(self, page: _Page, budget: Budget,
                 parsed: dict[tuple[int, int], list[Operation]] | None = None) -> None:
        self.page, self.limits, self.budget = page, page.limits, budget
        # A form drawn on many pages (a deck's shared back) is parsed once per file, not once per page.
        self.parsed = parsed if parsed is not None else {}
        self.drawing: list[tuple[int, int]] = []  # the forms being drawn, outermost first
        self.pending: list[str] = []  # colour findings, placed where the colour is next painted

    def _painted(self, at: tuple[float, float], state: _State) -> None:
        if state.blending:
            self.page.transparency = self.page.transparency or at
        self._place_pending(at)

    def _place_pending(self, at: tuple[float, float]) -> None:
        """Colour findings set but never painted are placed where the content stream ended."""
        for what in self.pending:
            self.page.add(what, at)
        self.pending.clear()

    def walk(self, operations: list[Operation], resources: Any, state: _State, depth: int = 0) -> None:
        """Every operation with the graphics state; each is charged to the budget, a form's each time it is drawn."""
        self.budget.charge_operators(len(operations), f"page {self.page.number}")
        stack: list[_State] = []
        text_matrix = line_matrix = IDENTITY
        font_size = 0.0
        at: tuple[float, float] = _point(state.ctm)
        for operands, operator in operations:
            if operands is None:
                self.page.add(f"malformed operands for {operator.decode()}", at)
                continue
            try:
                if operator == b"q":
                    stack.append(state.copy())
                elif operator == b"Q":
                    state = stack.pop() if stack else state
                elif operator == b"cm":
                    state.ctm = _multiply(_matrix(_numbers(operands)), state.ctm)
                elif operator == b"w":
                    state.line_width = (_numbers(operands) or [1.0])[0]
                elif operator in (b"m", b"re"):
                    values = _numbers(operands)
                    if len(values) >= 2:
                        at = _point(state.ctm, values[0], values[1])
                elif operator in (b"rg", b"RG"):
                    self.pending.append(f"RGB {'fill' if operator == b'rg' else 'stroke'} colour "
                                        f"{' '.join(f'{v:g}' for v in _numbers(operands))}")
                elif operator == b"k" or operator == b"K" and _numbers(operands) != [1, 1, 1, 1]:
                    self._ink(_numbers(operands), None)  # (registration colour is for marks: strokes may use it)
                elif operator in (b"cs", b"CS") and operands:
                    family = _space_family(operands[0], resources)
                    if operator == b"cs":
                        state.fill = family
                    else:
                        state.stroke = family
                elif operator in (b"sc", b"scn", b"SC", b"SCN"):
                    family = state.fill if operator in (b"sc", b"scn") else state.stroke
                    self._colour(family, _numbers(operands), None, "fill" if operator in (b"sc", b"scn") else "stroke")
                elif operator in PAINTS:
                    self._painted(at, state)
                    width_mm = state.line_width * _scale(state.ctm) / POINTS_PER_MM
                    if operator in STROKES and width_mm < self.limits.min_line_mm - 1e-4:
                        self.page.add(f"hairline {width_mm:.3f} mm (under {self.limits.min_line_mm:g} mm)", at)
                elif operator == b"BT":
                    text_matrix = line_matrix = IDENTITY
                elif operator == b"Tf" and len(operands) >= 2:
                    font_size = float(operands[1])
                elif operator == b"Tr":
                    state.render = int((_numbers(operands) or [0])[0])
                elif operator == b"Tm":
                    text_matrix = line_matrix = _matrix(_numbers(operands))
                elif operator in (b"Td", b"TD"):
                    values = _numbers(operands)
                    if len(values) == 2:
                        line_matrix = text_matrix = _multiply((1, 0, 0, 1, values[0], values[1]), line_matrix)
                elif operator in SHOWS and state.render != 3:
                    placed = _multiply(text_matrix, state.ctm)
                    self._painted(_point(placed), state)
                    size = font_size * _scale(placed)
                    if 0 < size < self.limits.min_text_pt - 0.05:
                        self.page.add(f"text {size:.1f} pt (under {self.limits.min_text_pt:g} pt)", _point(placed))
                elif operator == b"gs" and operands:
                    graphics = _dict(resources.get("/ExtGState")).get(str(operands[0]))
                    if isinstance(graphics, Dictionary):
                        state.blending = _transparent(graphics)
                elif operator == b"Do" and operands:
                    self._painted(_point(state.ctm), state)
                    self._xobject(str(operands[0]), resources, state, depth)
                elif operator == b"sh" and operands:
                    shading = _dict(resources.get("/Shading")).get(str(operands[0]))
                    if isinstance(shading, (Dictionary, Stream)):
                        self._colour(_space_family(shading.get("/ColorSpace"), resources), [], at, "shading")
                elif operator == b"INLINE IMAGE" and operands:
                    self._painted(_point(state.ctm), state)
                    settings = operands[0].get("settings", {}) if isinstance(operands[0], dict) else {}
                    space = settings.get("/CS", settings.get("/ColorSpace"))
                    if space is not None:
                        self._colour(_space_family(space, resources), [], _point(state.ctm), "inline image")
                elif operator == DAMAGED:  # what qpdf skipped or guessed at to parse the content
                    self.page.add(f"damaged content ({one_line(operands[0], 100)})", at)
            except MALFORMED:  # what the operator names in the resources is not what it must be
                name = "inline image" if operator == b"INLINE IMAGE" else operator.decode()
                self.page.add(f"{name} could not be read (malformed operands or resources)", at)
        self._place_pending(at)  # setting a blending state without painting blends nothing

    def _ink(self, values: list[float], at: tuple[float, float] | None) -> None:
        total = sum(values) * 100
        if total > self.limits.max_ink_percent + 0.5:
            self._report(f"total ink {total:.0f}% (over {self.limits.max_ink_percent:g}%)", at)

    def _colour(self, family: str, values: list[float], at: tuple[float, float] | None, role: str) -> None:
        """A colour set (at None: placed where it is next painted) or painted (images, shadings: at)."""
        if family == "rgb":
            self._report(f"RGB {role} colour", at)
        elif family == "spot":
            self._report(f"spot colour ({role})", at)
        elif family == "cmyk" and len(values) == 4:
            self._ink(values, at)

    def _report(self, what: str, at: tuple[float, float] | None) -> None:
        if at is None:
            self.pending.append(what)
        else:
            self.page.add(what, at)

    def _xobject(self, name: str, resources: Any, state: _State, depth: int) -> None:
        xobject = _dict(resources.get("/XObject")).get(name)
        if not isinstance(xobject, Stream):
            return
        subtype = xobject.get("/Subtype")
        if subtype == "/Image":
            at = _point(state.ctm)
            family = _space_family(xobject.get("/ColorSpace", Name.DeviceGray), resources)
            if xobject.get("/ImageMask"):
                family = state.fill
            self._colour(family, [], at, "image")
            if "/SMask" in xobject or "/SMaskInData" in xobject and xobject["/SMaskInData"]:
                self.page.transparency = self.page.transparency or at
            width_in = math.hypot(state.ctm[0], state.ctm[1]) / 72
            height_in = math.hypot(state.ctm[2], state.ctm[3]) / 72
            if width_in > 0 and height_in > 0:
                dpi = min(float(xobject.get("/Width", 0)) / width_in, float(xobject.get("/Height", 0)) / height_in)
                if dpi < self.limits.min_image_dpi:
                    self.page.add(f"image at {dpi:.0f} dpi (under {self.limits.min_image_dpi:g} dpi)", at)
        elif subtype == "/Form":
            self._form(xobject, name, resources, state, depth + 1)

    def _form(self, form: Stream, name: str, resources: Any, state: _State, depth: int) -> None:
        """A form drawn here: parsed once per file, walked each time it is drawn (so charged each time)."""
        self.budget.charge_form(self.page.number)
        key = form.objgen if form.is_indirect else None
        if key is not None and key in self.drawing:
            raise Refused(f"{self._where(name)} draws itself")
        if depth > MAX_FORM_DEPTH:
            raise Refused(f"forms nested over {MAX_FORM_DEPTH} deep ({self._where(name)})")
        inner = state.copy()
        inner.ctm = _multiply(_matrix([float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])]), state.ctm)
        form_resources = form.get("/Resources", resources)
        walked = form_resources if isinstance(form_resources, Dictionary) else resources
        operations = self.parsed.get(key) if key is not None else None
        if operations is None:
            where = self._where(name)
            operations = parse_content(decode(form, self.budget, where), self.budget, where)
            if key is not None and self.budget.keeps(len(operations)):
                self.parsed[key] = operations
        if key is not None:
            self.drawing.append(key)
        try:
            self.walk(operations, walked, inner, depth)
        finally:
            if key is not None:
                self.drawing.pop()

    def _where(self, name: str) -> str:
        return f"form {one_line(name, 40)} on page {self.page.number}"


def _transparent(graphics: Any) -> bool:
    """Whether a graphics state blends: a soft mask, an alpha under 1 or a blend mode other than Normal."""
    mask = graphics.get("/SMask", Name("/None"))
    alpha = min(float(graphics.get("/CA", 1)), float(graphics.get("/ca", 1)))
    blend = str(graphics.get("/BM", Name.Normal))
    return mask != "/None" or alpha < 1 or blend not in ("/Normal", "/Compatible")


def _fonts(resources: Any, seen: set[tuple[int, int]], budget: Budget, depth: int = 0) -> Iterator[tuple[str, bool]]:
    """(font name, embedded) for every font in these resources and the forms they hold."""
    if not isinstance(resources, Dictionary):
        return
    if depth > MAX_FORM_DEPTH:
        raise Refused(f"forms hold forms over {MAX_FORM_DEPTH} deep in their resources")
    if resources.is_indirect:
        if resources.objgen in seen:
            return
        seen.add(resources.objgen)
    fonts, xobjects = _dict(resources.get("/Font")), _dict(resources.get("/XObject"))
    budget.charge_objects(1 + len(fonts) + len(xobjects))
    for font in fonts.values():
        if not isinstance(font, Dictionary) or font.get("/Subtype") == "/Type3":
            continue
        descendants = font.get("/DescendantFonts")
        described = descendants[0] if isinstance(descendants, Array) and len(descendants) else font
        descriptor = _dict(_dict(described).get("/FontDescriptor"))
        embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
        yield one_line(str(font.get("/BaseFont", "/?"))[1:], 80), embedded
    for xobject in xobjects.values():
        if isinstance(xobject, Stream) and xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
            seen.add(xobject.objgen)
            yield from _fonts(xobject.get("/Resources"), seen, budget, depth + 1)


def _box(page: Any, name: str) -> list[float] | None:
    """A page box as four numbers (qpdf has pushed inherited attributes down to the pages already)."""
    value = page.get(name)
    return [float(v) for v in value] if isinstance(value, Array) and len(value) == 4 else None


def _boxes(page: Any, number: int, limits: Limits) -> list[Finding]:
    found = []
    trim, bleed = _box(page, "/TrimBox"), _box(page, "/BleedBox")
    if trim is None:
        found.append(Finding(number, "no TrimBox (the shop cannot tell where to cut)"))
    if bleed is None:
        found.append(Finding(number, "no BleedBox"))
    if trim is None or bleed is None:
        return found
    margin = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]) / POINTS_PER_MM
    if margin < limits.min_bleed_mm - 0.01:
        found.append(Finding(number, f"bleed {max(margin, 0):.1f} mm (under {limits.min_bleed_mm:g} mm)"))
    return found


PDFX_VERSIONS = {"PDF/X-4": (1, 6), "PDF/X-1:2003": (1, 4), "PDF/X-1a:2001": (1, 3), "PDF/X-3:2002": (1, 3),
                 "PDF/X-3:2003": (1, 4)}


def _pdfx(pdf: pikepdf.Pdf, root: Any, required: bool, budget: Budget) -> tuple[str | None, list[Finding]]:
    """The PDF/X version the file claims, and what a PDF/X checker would reject in its declaration."""
    info = _dict(pdf.trailer.get("/Info"))
    version = str(info.get("/GTS_PDFXVersion", "")) or None
    if version is None:
        return None, [Finding(0, "not PDF/X (no GTS_PDFXVersion)")] if required else []
    found = []
    if version not in PDFX_VERSIONS:
        found.append(Finding(0, f"PDF/X version {one_line(repr(version), 60)} is not one this check knows"))
    elif _header_version(pdf) > PDFX_VERSIONS[version]:
        found.append(Finding(0, f"PDF {'.'.join(map(str, _header_version(pdf)))} is newer than {version} allows"))
    if version.startswith("PDF/X-1") and str(info.get("/GTS_PDFXConformance", "")) not in (
            "PDF/X-1a:2001", "PDF/X-1a:2003"):
        found.append(Finding(0, "PDF/X-1 without GTS_PDFXConformance PDF/X-1a"))
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not str(info.get(key, "")):
            found.append(Finding(0, f"PDF/X needs {key[1:]} in the document information"))
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        found.append(Finding(0, "PDF/X needs Trapped True or False"))
    if "/ID" not in pdf.trailer:
        found.append(Finding(0, "PDF/X needs a document ID in the trailer"))
    intents = root.get("/OutputIntents")
    pdfx = [i for i in (intents if isinstance(intents, Array) else ())
            if isinstance(i, Dictionary) and i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        found.append(Finding(0, f"PDF/X needs one GTS_PDFX output intent ({len(pdfx)} found)"))
    else:
        intent = pdfx[0]
        profile = intent.get("/DestOutputProfile")
        if not str(intent.get("/OutputConditionIdentifier", "")):
            found.append(Finding(0, "output intent without OutputConditionIdentifier"))
        if not isinstance(profile, Stream) and (version == "PDF/X-4" or not str(intent.get("/RegistryName", ""))):
            found.append(Finding(0, "output intent without an embedded profile (DestOutputProfile)"))
        elif isinstance(profile, Stream) and int(profile.get("/N", 0)) != 4:
            found.append(Finding(0, f"output profile has {int(profile.get('/N', 0))} channels, not CMYK's 4"))
    if version == "PDF/X-4":
        xmp = root.get("/Metadata")
        text = decode(xmp, budget, "the XMP metadata").decode("utf-8", "replace") if isinstance(xmp, Stream) else ""
        if f"<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>" not in text:
            found.append(Finding(0, "PDF/X-4 needs XMP metadata naming pdfxid:GTS_PDFXVersion"))
        for key in ("xmpMM:DocumentID", "xmpMM:VersionID", "xmpMM:RenditionClass", "xmp:CreateDate"):
            if f"<{key}>" not in text:
                found.append(Finding(0, f"PDF/X-4 XMP metadata lacks {key}"))
    return version, found


def _header_version(pdf: pikepdf.Pdf) -> tuple[int, int]:
    major, _, minor = str(pdf.pdf_version).partition(".")
    try:
        return int(major), int(minor[:1])
    except ValueError:
        return (9, 9)


def _pdfx_page(page: Any, number: int) -> list[Finding]:
    """Every PDF/X page has a TrimBox (or ArtBox), inside its BleedBox, inside its MediaBox."""
    media = _box(page, "/MediaBox")
    trim = _box(page, "/TrimBox") or _box(page, "/ArtBox")
    if trim is None:
        return [Finding(number, "PDF/X needs a TrimBox or ArtBox on every page")]
    if media is None:
        return [Finding(number, "no MediaBox")]
    bleed = _box(page, "/BleedBox") or media

    def inside(inner: list[float], outer: list[float]) -> bool:
        return (inner[0] >= outer[0] - 0.01 and inner[1] >= outer[1] - 0.01 and inner[2] <= outer[2] + 0.01
                and inner[3] <= outer[3] + 0.01)
    if not inside(trim, bleed) or not inside(bleed, media):
        return [Finding(number, "page boxes not nested (TrimBox in BleedBox in MediaBox)")]
    return []


def preflight(path: Path, limits: Limits = Limits(), *, boxes: bool = True, pdfx: bool = False) -> list[Finding]:
    """Every finding in the PDF at `path`; an unreadable file is one finding.

    `boxes=False` skips TrimBox, BleedBox and bleed, for sheets printed at home or cut by hand,
    where several pieces share a page and no single trim exists. A file that claims PDF/X is checked
    against its claim (keys, output intent, metadata, boxes; no transparency in X-1a); `pdfx=True`
    also reports a file that claims nothing."""
    with qpdf_limits():
        try:
            pdf = pikepdf.open(path)
        except pikepdf.PasswordError:
            return [refusal(ENCRYPTED)]
        except (OSError, pikepdf.PdfError, ValueError) as exc:
            return [unreadable(exc)]
        budget = Budget()
        with pdf, budget.scratch:
            if pdf.is_encrypted:
                return [refusal(ENCRYPTED)]
            try:
                return _preflight(pdf, limits, budget, boxes=boxes, pdfx=pdfx)
            except Refused as exc:
                return [refusal(str(exc))]
            except pikepdf.PdfError as exc:  # damage qpdf finds only when it reads an object
                return [unreadable(exc)]
            except (*MALFORMED, RecursionError) as exc:  # a malformed structure outside any page's content
                return [refusal(f"malformed PDF structure ({type(exc).__name__}: {one_line(str(exc), 120)})")]


ENCRYPTED = "encrypted; preflight reads only unencrypted print files"


def refusal(why: str) -> Finding:
    """The one finding of a file preflight did not check to the end."""
    return Finding(0, f"refused: {why}", refused=True)


def unreadable(exc: Exception) -> Finding:
    return Finding(0, f"not a readable PDF ({one_line(str(exc))})", refused=True)


def _preflight(pdf: pikepdf.Pdf, limits: Limits, budget: Budget, *, boxes: bool, pdfx: bool) -> list[Finding]:
    root = pdf.Root
    version, found = _pdfx(pdf, root, pdfx, budget)
    if "/AcroForm" in root:
        found.append(Finding(0, "interactive form fields (shops flatten or refuse them)"))
    names = _dict(root.get("/Names"))
    action = root.get("/OpenAction")
    if "/JavaScript" in names or isinstance(action, Dictionary) and "/JS" in action:
        found.append(Finding(0, "JavaScript"))
    unembedded: dict[str, int] = {}
    seen: set[tuple[int, int]] = set()
    parsed: dict[tuple[int, int], list[Operation]] = {}  # form XObjects parsed once per file
    if len(pdf.pages) > MAX_PDF_PAGES:
        raise Refused(f"{len(pdf.pages):,} pages (preflight reads at most {MAX_PDF_PAGES:,})")
    for number, page in enumerate(pdf.pages, start=1):
        node = page.obj
        if boxes:
            found.extend(_boxes(node, number, limits))
        if version is not None:
            found.extend(_pdfx_page(node, number))
        resources = _dict(node.get("/Resources"))
        for name, embedded in _fonts(resources, seen, budget):
            if not embedded:
                unembedded.setdefault(name, number)
        walked = _Page(number, limits)
        if "/Contents" in node:
            operations = parse_content(page_content(node, budget, number), budget, f"page {number}'s content")
            _Walker(walked, budget, parsed).walk(operations, resources, _State())
        found.extend(walked.found.values())
        if walked.transparency is not None and version is not None and version.startswith("PDF/X-1"):
            found.append(Finding(number, "transparency (PDF/X-1a allows none)", walked.transparency))
    found.extend(Finding(page, f"font {name} not embedded") for name, page in unembedded.items())
    found.extend(_damage(pdf))
    return sorted(found, key=lambda f: (f.page, f.what))


def _damage(pdf: pikepdf.Pdf) -> list[Finding]:
    """What qpdf had to repair to read the file (a truncated file, a broken cross-reference table): a shop's
    RIP may repair it otherwise, or not at all."""
    warnings = [re.sub(rf"^{re.escape(pdf.filename)}( \(.*?\))?: ", "", str(w)) for w in pdf.get_warnings()]
    told = [w for w in warnings if w != "file is damaged"] or warnings  # (qpdf's first says only that)
    if not told:
        return []
    more = f"; {len(told) - 1} more" if len(told) > 1 else ""
    return [Finding(0, f"damaged: qpdf repaired it to read it ({one_line(told[0], 120)}{more})")]


def preflight_print_file(path: Path, use: str) -> list[Finding]:
    """What `fudaya build` checks in a file it wrote, by what the file is for (deck_pdf.USES): a print-shop
    file everything, its boxes included; a home file everything but the boxes (several pieces share a
    page, so no one trim exists); an on-screen file nothing."""
    if use == SCREEN:
        return []
    return preflight(path, boxes=use == SHOP, pdfx=True)


# Preflight takes about 0.6 ms a page; a forked child costs a few milliseconds (generator/forked.py), so a set of
# files is shared between processes from this many pages: gogyo's two card files (148 pages) take 0.05 s in two
# processes against 0.08 s in one (2 cores, issue 28).
PARALLEL_PREFLIGHT_PAGES = 100


def check_print_files(files: Sequence[WrittenFile], *, workers: int = 1) -> list[tuple[Path, list[Finding]]]:
    """The print files among what a build wrote (build.json says which: its "use"), each with its findings,
    shared by their pages between `workers` processes once they hold PARALLEL_PREFLIGHT_PAGES pages. On-screen
    files (the report, fillable sheets) are not held to print."""
    from .forked import forked_map

    printed = [f for f in files if f.use != SCREEN]
    return forked_map(lambda f: (f.path, preflight_print_file(f.path, f.use)), printed, lambda f: f.pages, workers,
                      worth=PARALLEL_PREFLIGHT_PAGES)
