"""The on-screen fillable sheet, finished: Japanese-capable field text and totals that add themselves up.

ReportLab's form fields only speak the 14 standard fonts, which have no kana or kanji, and carry no
actions. Here, with pypdf, every field's text is set in Adobe's standard Japanese gothic
(HeiseiKakuGo-W5, a font PDF viewers provide, so it is named, not embedded: this file is for the
screen, never for print; no drawn content uses it, so every font the pages and appearances draw with is
embedded), viewers are asked to redraw field appearances, and each field whose table
cell has a `sum` gets a calculation (JavaScript, run by Acrobat, Reader and others that calculate
forms) and becomes read-only. Viewers without form scripts show an empty box to write in, as on paper.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    TextStringObject,
)

from validator.faces import drawn_elements, iter_leaf_elements
from validator.model import Deck
from validator.tables import table_cells

from .pdfdoc import atomic_path

FIELD_FONT = "HeiseiKakuGo-W5"
FIELD_FONT_KEY = "/HeiGo"
READ_ONLY = 1  # bit 1 of a field's /Ff


def totals(deck: Deck) -> dict[str, tuple[str, ...]]:
    """Field name -> the field names it totals, for every sheet of the deck (names are bound per sheet)."""
    found: dict[str, tuple[str, ...]] = {}
    for card in deck.cards:
        for element in iter_leaf_elements(drawn_elements(card, card.face, deck.layout), card.bindings):
            if element.type == "table":
                found.update({cell.field: cell.sums for cell in table_cells(element, card.bindings)
                              if cell.field and cell.sums})
    return found


def calculation_order(sums: Mapping[str, tuple[str, ...]]) -> list[str]:
    """Totals before the totals that add them up (a viewer calculates in this order)."""
    depth: dict[str, int] = {}

    def level(name: str, seen: frozenset[str] = frozenset()) -> int:
        if name not in sums or name in seen:
            return 0
        if name not in depth:
            depth[name] = 1 + max(level(part, seen | {name}) for part in sums[name])
        return depth[name]
    return sorted(sums, key=lambda name: (level(name), name))


def sum_script(parts: tuple[str, ...]) -> str:
    """The calculation: the numbers typed in `parts` added up; a blank or non-number counts as 0."""
    return (f"var names = {json.dumps(list(parts))}; var total = 0;"
            " for (var i = 0; i < names.length; i++) {"
            " var value = Number(this.getField(names[i]).value); if (!isNaN(value)) total += value; }"
            " event.value = total;")


def _japanese_font() -> DictionaryObject:
    """A Type 0 font naming Adobe-Japan1's standard gothic by name (viewers supply the glyphs)."""
    descriptor = DictionaryObject({
        NameObject("/Type"): NameObject("/FontDescriptor"), NameObject("/FontName"): NameObject(f"/{FIELD_FONT}"),
        NameObject("/Flags"): NumberObject(4), NameObject("/ItalicAngle"): NumberObject(0),
        NameObject("/FontBBox"): ArrayObject([NumberObject(v) for v in (-92, -250, 1010, 922)]),
        NameObject("/Ascent"): NumberObject(752), NameObject("/Descent"): NumberObject(-221),
        NameObject("/CapHeight"): NumberObject(737), NameObject("/StemV"): NumberObject(114),
    })
    cid_font = DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/CIDFontType0"),
        NameObject("/BaseFont"): NameObject(f"/{FIELD_FONT}"), NameObject("/FontDescriptor"): descriptor,
        NameObject("/CIDSystemInfo"): DictionaryObject({
            NameObject("/Registry"): TextStringObject("Adobe"), NameObject("/Ordering"): TextStringObject("Japan1"),
            NameObject("/Supplement"): NumberObject(2)}),
    })
    return DictionaryObject({
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type0"),
        NameObject("/BaseFont"): NameObject(f"/{FIELD_FONT}"), NameObject("/Encoding"): NameObject("/UniJIS-UCS2-H"),
        NameObject("/DescendantFonts"): ArrayObject([cid_font]),
    })


def finish_fillable(path: Path, deck: Deck) -> None:
    """Rewrite the fillable PDF at `path` in place (atomically) with Japanese field text and totals."""
    sums = totals(deck)
    writer = PdfWriter(clone_from=PdfReader(path))
    form = _dictionary(writer._root_object["/AcroForm"])
    resources = _dictionary(form.setdefault(NameObject("/DR"), DictionaryObject()))
    fonts = _dictionary(resources.setdefault(NameObject("/Font"), DictionaryObject()))
    fonts[NameObject(FIELD_FONT_KEY)] = writer._add_object(_japanese_font())
    fonts.pop(NameObject("/Helv"), None)  # ReportLab's default, no longer named by any field
    form[NameObject("/DA")] = TextStringObject(f"{FIELD_FONT_KEY} 0 Tf 0 g")
    form[NameObject("/NeedAppearances")] = BooleanObject(True)
    by_name = {}
    for page in writer.pages:
        for ref in page.get("/Annots", ()):
            field = ref.get_object()
            if field.get("/FT") != "/Tx":
                continue
            by_name[str(field.get("/T"))] = ref
            size = _font_size(str(field.get("/DA", "")))
            field[NameObject("/DA")] = TextStringObject(f"{FIELD_FONT_KEY} {size:g} Tf 0 g")
            _drop_unused_fonts(field)
    order = []
    for name in calculation_order(sums):
        ref = by_name.get(name)
        if ref is None:
            continue
        field = ref.get_object()
        field[NameObject("/Ff")] = NumberObject(int(field.get("/Ff", 0)) | READ_ONLY)
        field[NameObject("/AA")] = DictionaryObject({NameObject("/C"): DictionaryObject({
            NameObject("/S"): NameObject("/JavaScript"), NameObject("/JS"): TextStringObject(sum_script(sums[name]))})})
        order.append(ref)
    if order:
        form[NameObject("/CO")] = ArrayObject(order)
    with atomic_path(path) as temporary:
        writer.write(temporary)


def _drop_unused_fonts(field: DictionaryObject) -> None:
    """ReportLab gives an empty field an appearance that draws only its clip, yet lists Helvetica in its
    resources: an unembedded font that nothing shows. The viewer draws typed text anew (NeedAppearances)."""
    appearance = field.get("/AP")
    normal = _dictionary(appearance).get("/N") if appearance is not None else None
    if normal is None:
        return
    stream = normal.get_object()
    if b"Tf" in stream.get_data():
        return  # it sets text: its font stays
    resources = stream.get("/Resources")
    if resources is not None:
        _dictionary(resources).pop(NameObject("/Font"), None)


def _dictionary(value: object) -> DictionaryObject:
    resolved = value.get_object() if hasattr(value, "get_object") else value
    if not isinstance(resolved, DictionaryObject):
        raise ValueError(f"expected a PDF dictionary, found {type(resolved).__name__}")
    return resolved


def _font_size(appearance: str) -> float:
    """The size in a default appearance string ("/Helv 12 Tf 0 g" -> 12); 0 (auto) when there is none."""
    words = appearance.split()
    for at, word in enumerate(words):
        if word == "Tf" and at >= 1:
            try:
                return float(words[at - 1])
            except ValueError:
                return 0.0
    return 0.0


__all__ = ["calculation_order", "finish_fillable", "sum_script", "totals"]
