"""A rulebook imposed as a saddle-stitched booklet: two pages side by side on each side of a sheet.

The pages are the rulebook's own, placed unchanged (vectors and fonts as typeset) with pypdf.
For n pages (a multiple of four: the rulebook pads itself), sheet i carries pages n-2i and 2i+1
on its front and 2i+2 and n-2i-1 on its back, so the printed stack folded in the middle reads
1, 2, ... n. Printed duplex turning on the short edge (the sheets are landscape).
"""
from __future__ import annotations

from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter, Transformation

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
        writer.add_page(side)
    writer.add_metadata({"/Title": f"{reader.metadata.title if reader.metadata else ''} (booklet)",
                         "/Creator": "fudaya", "/Producer": "fudaya (pypdf)"})
    with atomic_path(path) as temporary:
        writer.write(temporary)
    return WrittenFile(path, name, len(writer.pages), sheet_mm)
