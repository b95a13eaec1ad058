"""A rulebook imposed as a saddle-stitched booklet: two pages side by side on each side of a sheet.

The pages are the rulebook's own, placed unchanged (vectors and fonts as typeset) with pypdf.
For n pages (a multiple of four: the rulebook pads itself), sheet i carries pages n-2i and 2i+1
on its front and 2i+2 and n-2i-1 on its back, so the printed stack folded in the middle reads
1, 2, ... n. Printed duplex turning on the short edge (the sheets are landscape).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import ArrayObject, ByteStringObject, DecodedStreamObject, NameObject, RectangleObject

from validator.geometry import POINTS_PER_MM
from validator.presets import PAPER_SIZES

from .deck_pdf import WrittenFile
from .pdfdoc import atomic_path


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based) of every sheet side, front then back, sheet by sheet."""
    if pages <= 0 or pages % 4:
        raise ValueError(f"a saddle-stitched booklet needs a multiple of 4 pages, not {pages}")
    sides = []
    for sheet in range(pages // 4):
        sides.append((pages - 2 * sheet, 2 * sheet + 1))
        sides.append((2 * sheet + 2, pages - 2 * sheet - 1))
    return sides


def sheet_size(page_mm: tuple[float, float]) -> tuple[float, float]:
    """Landscape paper for two pages side by side: the smallest standard size that holds them
    (A5 pages on A4, A4 on A3), else exactly their size."""
    width, height = 2 * page_mm[0], page_mm[1]
    fitting = [(long, short) for short, long in PAPER_SIZES.values() if long >= width - 0.01 and short >= height - 0.01]
    return min(fitting, key=lambda size: size[0] * size[1]) if fitting else (width, height)


def write_booklet(source: Path, path: Path, name: str) -> WrittenFile:
    """Impose the rulebook PDF at `source` into `path` (written atomically)."""
    reader = PdfReader(source)
    first = reader.pages[0].mediabox
    page_w, page_h = float(first.width), float(first.height)
    sheet_mm = sheet_size((page_w / POINTS_PER_MM, page_h / POINTS_PER_MM))
    sheet_w, sheet_h = sheet_mm[0] * POINTS_PER_MM, sheet_mm[1] * POINTS_PER_MM
    left_x, y = sheet_w / 2 - page_w, (sheet_h - page_h) / 2  # pages meet at the fold in the middle
    writer = PdfWriter()
    for left, right in booklet_order(len(reader.pages)):
        side = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for number, x in ((left, left_x), (right, sheet_w / 2)):
            side.merge_transformed_page(reader.pages[number - 1], Transformation().translate(x, y))
        side.trimbox = side.bleedbox = RectangleObject((0, 0, sheet_w, sheet_h))
        writer.add_page(side)
    title = f"{reader.metadata.title if reader.metadata else ''} (booklet)"
    writer.add_metadata({"/Title": title, "/Creator": "fudaya", "/Producer": "fudaya (pypdf)"})
    _keep_pdfx(reader, writer, title)
    with atomic_path(path) as temporary:
        writer.write(temporary)
    return WrittenFile(path, name, len(writer.pages), sheet_mm)


def _keep_pdfx(reader: PdfReader, writer: PdfWriter, title: str) -> None:
    """The booklet claims the rulebook's PDF/X standard, with its output intent and fresh metadata."""
    from .pdfx import STANDARDS, xmp_packet

    info: dict[str, object] = dict(reader.metadata or {})
    version = info.get("/GTS_PDFXVersion")
    standard = next((s for s in STANDARDS.values() if s.version == version), None)
    if standard is None:
        return
    intents = reader.root_object["/OutputIntents"].get_object()
    assert isinstance(intents, ArrayObject)
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([intent.clone(writer) for intent in intents])
    date = str(info.get("/CreationDate", "D:20000101000000Z"))
    writer.add_metadata({"/GTS_PDFXVersion": version, "/Trapped": NameObject("/False"),
                         "/CreationDate": date, "/ModDate": date,
                         **({"/GTS_PDFXConformance": standard.conformance} if standard.conformance else {})})
    metadata = DecodedStreamObject()
    metadata.set_data(xmp_packet(title=title, producer="fudaya (pypdf)", pdf_date=date, standard=standard))
    metadata.update({NameObject("/Type"): NameObject("/Metadata"), NameObject("/Subtype"): NameObject("/XML")})
    writer._root_object[NameObject("/Metadata")] = writer._add_object(metadata)
    writer.pdf_header = f"%PDF-{standard.pdf_version[0]}.{standard.pdf_version[1]}"
    file_id = ByteStringObject(hashlib.md5(f"fudaya:{title}".encode(), usedforsecurity=False).digest())
    writer._ID = ArrayObject((file_id, file_id))  # PDF/X needs one; derived, so rebuilds stay identical
