"""A rulebook imposed as a saddle-stitched booklet: two pages side by side on each side of a sheet.

The pages are the rulebook's own, placed unchanged (vectors and fonts as typeset): qpdf (pikepdf) turns
each into a form drawn on the sheet, in milliseconds. For n pages (a multiple of four: the rulebook pads
itself), sheet i carries pages n-2i and 2i+1 on its front and 2i+2 and n-2i-1 on its back, so the printed
stack folded in the middle reads 1, 2, ... n. Printed duplex turning on the short edge (the sheets are
landscape). The booklet keeps the rulebook's PDF/X output intent and claims its standard.
"""
from __future__ import annotations

from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name

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
    with pikepdf.open(source) as pdf:
        first = [float(v) for v in pdf.pages[0].mediabox]
        page_w, page_h = first[2] - first[0], first[3] - first[1]
        sheet_mm = sheet_size((page_w / POINTS_PER_MM, page_h / POINTS_PER_MM))
        sheet_w, sheet_h = sheet_mm[0] * POINTS_PER_MM, sheet_mm[1] * POINTS_PER_MM
        left_x, y = sheet_w / 2 - page_w, (sheet_h - page_h) / 2  # pages meet at the fold in the middle
        forms = [pdf.make_indirect(page.as_form_xobject()) for page in pdf.pages]
        sides = []
        for left, right in booklet_order(len(forms)):
            content = (f"q 1 0 0 1 {left_x:.4f} {y:.4f} cm /L Do Q q 1 0 0 1 {sheet_w / 2:.4f} {y:.4f} cm /R Do Q"
                       .encode())
            sheet = Array([0, 0, round(sheet_w, 4), round(sheet_h, 4)])
            sides.append(Dictionary(Type=Name.Page, MediaBox=sheet, TrimBox=sheet, BleedBox=sheet,
                                    Resources=Dictionary(XObject=Dictionary(L=forms[left - 1], R=forms[right - 1])),
                                    Contents=pdf.make_stream(content)))
        del pdf.pages[:]
        for side in sides:
            pdf.pages.append(pikepdf.Page(side))
        _retitle(pdf)
        pages = len(pdf.pages)
        with atomic_path(path) as temporary:
            pdf.save(temporary, deterministic_id=True)
    return WrittenFile(path, name, pages, sheet_mm)


def _retitle(pdf: pikepdf.Pdf) -> None:
    """The booklet's title, in the document information and (for PDF/X) the XMP metadata."""
    from .pdfx import STANDARDS, xmp_packet

    title = f"{pdf.docinfo.get('/Title', '')} (booklet)"
    pdf.docinfo[Name.Title] = title
    version = str(pdf.docinfo.get("/GTS_PDFXVersion", ""))
    standard = next((s for s in STANDARDS.values() if s.version == version), None)
    if standard is not None:
        date = str(pdf.docinfo.get("/CreationDate", "D:20000101000000Z"))
        producer = str(pdf.docinfo.get("/Producer", "fudaya"))
        pdf.Root.Metadata = pdf.make_stream(xmp_packet(title=title, producer=producer, pdf_date=date,
                                                       standard=standard),
                                            Type=Name.Metadata, Subtype=Name.XML)
