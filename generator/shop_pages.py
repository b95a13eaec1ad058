"""A print-shop copy of a typeset book: each page moved onto its trim size plus the shop's bleed.

A rulebook's pages are white to their edges: the text column, its chapter bands, tables and figures
keep inside the page margin (5 mm or more, rulebook.schema.json), and the running head and page number
sit 8.5 and 7.5 mm from the edge, inside the 5 mm safe zone 同人誌 printers ask for. So the bleed of a
rulebook page is white paper, and nothing has to be drawn again: the home file's pages are reused as
typeset, each shifted onto a page SHOP_BLEED_MM larger on every side, TrimBox at the old page and
BleedBox at the new one. qpdf (pikepdf) does it in milliseconds; typesetting the story again would
take seconds.
"""
from __future__ import annotations

import zlib
from pathlib import Path

import pikepdf

from validator.geometry import POINTS_PER_MM
from validator.presets import SHOP_BLEED_MM

from .deck_pdf import WrittenFile
from .file_use import SHOP
from .pdfdoc import atomic_path


def write_with_bleed(source: Path, path: Path, name: str, bleed: float = SHOP_BLEED_MM) -> WrittenFile:
    """Copy the PDF at `source` (one of ours: pages at their trim size, origin 0 0) into `path`, written
    atomically, every page grown by `bleed` mm on each side; its PDF/X identification is kept."""
    shift = bleed * POINTS_PER_MM
    with pikepdf.open(source) as pdf:
        size = (0.0, 0.0)
        for page in pdf.pages:
            box = [float(v) for v in page.mediabox]
            size = (box[2] - box[0], box[3] - box[1])
            page.contents_coalesce()
            content = f"q 1 0 0 1 {shift - box[0]:.4f} {shift - box[1]:.4f} cm\n".encode()
            content += page.obj.Contents.read_bytes() + b"\nQ\n"
            page.obj.Contents.write(zlib.compress(content), filter=pikepdf.Name.FlateDecode)
            grown = pikepdf.Array([0, 0, round(size[0] + 2 * shift, 4), round(size[1] + 2 * shift, 4)])
            page.obj.MediaBox = page.obj.BleedBox = grown
            page.obj.TrimBox = pikepdf.Array([round(shift, 4), round(shift, 4), round(shift + size[0], 4),
                                              round(shift + size[1], 4)])
            for stale in ("/CropBox", "/ArtBox"):
                if stale in page.obj:
                    del page.obj[stale]
        pages = len(pdf.pages)
        with atomic_path(path) as temporary:
            pdf.save(temporary, deterministic_id=True)
    page_mm = (round(size[0] / POINTS_PER_MM + 2 * bleed, 3), round(size[1] / POINTS_PER_MM + 2 * bleed, 3))
    return WrittenFile(path, name, pages, page_mm, SHOP)


__all__ = ["write_with_bleed"]
