"""Draw one template element on a card: DRAW_BY_TYPE maps each element `type` to its function.

Coordinates in templates are millimetres from the trim box's top-left, y downwards; the
canvas is already translated so that (0, 0) is the trim box's bottom-left corner.
"""
from __future__ import annotations

import copy
import io
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing, Group, Shape
from reportlab.lib.colors import CMYKColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg

from validator.binding import DEFAULT_INK, Color, bind_color, bind_count, bind_text, small_dark_mix
from validator.deckfs import read_bytes
from validator.geometry import contain, mm_to_pt
from validator.issues import Issue, Location
from validator.limits import MAX_IMAGE_BYTES
from validator.model import Card, Element, Layout
from validator.presets import PRINT_MIN_LINE_MM, PRINT_MIN_TEXT_PT
from validator.ruby_layout import reading_rise
from validator.svgsafe import checked_svg
from validator.tables import cell_text_element, table_cells
from validator.textbox import layout_text_element
from validator.typeset import FontMetrics, TextLayout, line_across, line_offsets, load_metrics, vertical_runs

from .colors import to_reportlab
from .print_color import CMYKImageReader, cmyk_drawing, shapes
from .vertical_font import VerticalFont, vertical_font


class DrawError(RuntimeError):
    """Something the checks should have caught; names the card and element."""

    def __init__(self, message: str, location: Location | None = None):
        super().__init__(message)
        self.location = location

    @property
    def issues(self) -> list[Issue]:
        """The one located line the CLI prints (the deck file itself when no element is known)."""
        return [Issue(self.location or Location(Path(".")), "draw", str(self))]


@dataclass(frozen=True)
class CardSpace:
    """Where and for which card elements are drawn; `offset` shifts repeated items (mm)."""

    canvas: Canvas
    card: Card
    layout: Layout
    deck_dir: Path
    fonts: dict[str, tuple[str, Path]]  # key -> (ReportLab name, file)
    base_font: str  # embedded font ReportLab graphics start on (else they declare unembedded Helvetica)
    offset: tuple[float, float] = (0.0, 0.0)
    fillable: bool = False  # write-in boxes become PDF form fields
    scale: float = 1.0  # under 1: the card is a reduced figure (a rulebook's), drawn so it still prints

    def line_width(self, points: float) -> float:
        """A stroke width in points; in a reduced figure, never thinner than a press holds."""
        return max(points, MIN_LINE_PT / self.scale) if self.scale < 1 else points

    def greeked(self, size: float) -> bool:
        """Whether text of `size` points is too small to print in this figure: drawn as bars instead."""
        return self.scale < 1 and size * self.scale < MIN_TEXT_PT

    def x(self, mm: float) -> float:
        return mm_to_pt(mm + self.offset[0])

    def y(self, mm: float) -> float:
        return mm_to_pt(self.layout.size.height - (mm + self.offset[1]))

    def color(self, spec: Any, opacity: float = 1.0) -> Any:
        found = bind_color(spec, self.card.bindings, self.layout)
        return None if found is None else to_reportlab(found, opacity)


def _paint(space: CardSpace, element: Element) -> tuple[int, int]:
    """Set fill/stroke from the element; return ReportLab's (stroke, fill) flags."""
    canvas = space.canvas
    opacity = element.get("opacity", 1.0)
    fill = space.color(element.get("fill"), opacity)
    stroke = space.color(element.get("stroke"), opacity)
    if fill is not None:
        canvas.setFillColor(fill)
    if stroke is not None:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(space.line_width(mm_to_pt(element.get("stroke_width", 0.3))))
    return int(stroke is not None), int(fill is not None)


def draw_rect(space: CardSpace, element: Element) -> None:
    x, y, w, h = (element.props[k] for k in ("x", "y", "w", "h"))
    if element.get("bleed"):
        x, y, w, h = _stretch_to_bleed(space.layout, x, y, w, h)
    stroke, fill = _paint(space, element)
    left, bottom = space.x(x), space.y(y + h)
    radius = element.get("radius", 0)
    if radius:
        space.canvas.roundRect(left, bottom, mm_to_pt(w), mm_to_pt(h), mm_to_pt(radius), stroke=stroke, fill=fill)
    else:
        space.canvas.rect(left, bottom, mm_to_pt(w), mm_to_pt(h), stroke=stroke, fill=fill)


def _stretch_to_bleed(layout: Layout, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    size = layout.size
    right, bottom = x + w, y + h
    x = -size.bleed if x <= 0 else x
    y = -size.bleed if y <= 0 else y
    right = size.width + size.bleed if right >= size.width else right
    bottom = size.height + size.bleed if bottom >= size.height else bottom
    return x, y, right - x, bottom - y


def draw_band(space: CardSpace, element: Element) -> None:
    """A strip along one edge, from inside the trim line out through the bleed."""
    size = space.layout.size
    width, bleed = element.props["width"], size.bleed
    edge = element.props["edge"]
    if edge in ("left", "right"):
        x = -bleed if edge == "left" else size.width - width
        box = (x, -bleed, width + bleed, size.height + 2 * bleed)
    else:
        y = -bleed if edge == "top" else size.height - width
        box = (-bleed, y, size.width + 2 * bleed, width + bleed)
    colors = [space.color(c) for c in element.get("stripes", [])] or [space.color(element.props["fill"])]
    x, y, w, h = box
    along_height = edge in ("left", "right")
    step = (h if along_height else w) / len(colors)
    for n, color in enumerate(colors):
        if color is None:
            continue
        space.canvas.setFillColor(color)
        if along_height:
            sx, sy, sw, sh = x, y + n * step, w, step
        else:
            sx, sy, sw, sh = x + n * step, y, step, h
        space.canvas.rect(space.x(sx), space.y(sy + sh), mm_to_pt(sw), mm_to_pt(sh), stroke=0, fill=1)


def draw_circle(space: CardSpace, element: Element) -> None:
    stroke, fill = _paint(space, element)
    p = element.props
    space.canvas.circle(space.x(p["cx"]), space.y(p["cy"]), mm_to_pt(p["r"]), stroke=stroke, fill=fill)


def draw_polygon(space: CardSpace, element: Element) -> None:
    stroke, fill = _paint(space, element)
    path = space.canvas.beginPath()
    points = element.props["points"]
    path.moveTo(space.x(points[0][0]), space.y(points[0][1]))
    for px, py in points[1:]:
        path.lineTo(space.x(px), space.y(py))
    if element.get("closed", True):
        path.close()
    space.canvas.drawPath(path, stroke=stroke, fill=fill if element.get("closed", True) else 0)


def draw_path(space: CardSpace, element: Element) -> None:
    """SVG path data in mm, parsed by svglib and recoloured with the element's (possibly CMYK) paints."""
    size = space.layout.size
    drawing = _path_drawing(element.props["d"], size.width, size.height)
    opacity = element.get("opacity", 1.0)
    fill = space.color(element.get("fill"), opacity)
    stroke = space.color(element.get("stroke"), opacity)
    # the drawing's own transform already scales mm to points
    width = space.line_width(mm_to_pt(element.get("stroke_width", 0.3))) / mm_to_pt(1)
    for shape in shapes(drawing):
        shape.fillColor = fill
        shape.strokeColor = stroke
        shape.strokeWidth = width if stroke is not None else 0
    _render(space, drawing, space.x(0), space.y(size.height))


@lru_cache(maxsize=256)
def _path_drawing(d: str, width_mm: float, height_mm: float) -> Drawing:
    w, h = mm_to_pt(width_mm), mm_to_pt(height_mm)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {width_mm} {height_mm}">'
           f'<path d="{d}" fill="#000"/></svg>')
    try:
        drawing = svg2rlg(io.BytesIO(svg.encode()))
    except Exception as exc:  # svglib raises IndexError, TypeError… on malformed path data
        raise DrawError(f"path data {d[:40]!r} could not be parsed ({exc.__class__.__name__}: {exc})") from None
    if drawing is None:
        raise DrawError(f"path data {d[:40]!r} could not be parsed")
    return drawing


def _render(space: CardSpace, drawing: Drawing, x: float, y: float) -> None:
    drawing.initialFontName = space.base_font
    # ReportLab graphics open with RGB black as their paints; start them on K-only black so no
    # RGB operator reaches a print file (each shape still sets its own CMYK paints). The renderer
    # reads initial<Attribute> off the drawing, which Drawing's attribute check does not list.
    drawing.__dict__.update(initialFillColor=_K_BLACK, initialStrokeColor=_K_BLACK)
    renderPDF.draw(drawing, space.canvas, x, y)


_K_BLACK = CMYKColor(0, 0, 0, 1)
# What presses hold (and `fudaya preflight` asks for): reduced figures keep lines and text at least this.
MIN_LINE_PT = mm_to_pt(PRINT_MIN_LINE_MM)
MIN_TEXT_PT = PRINT_MIN_TEXT_PT
# Greeked text: a bar this high (in ems) where each line runs, like a thumbnail's text.
_GREEK_BAR_EM = 0.3


def draw_text(space: CardSpace, element: Element) -> None:
    p = element.props
    text = bind_text(p["text"], space.card.bindings)
    name, path = space.fonts[p["font"]]
    metrics = load_metrics(path)
    laid = layout_text_element(element, text, metrics)
    if laid is None:
        raise DrawError(f"card {space.card.id!r}: text {text!r} does not fit")
    canvas = space.canvas
    canvas.saveState()
    color = bind_color(p.get("color", DEFAULT_INK), space.card.bindings, space.layout)
    if space.layout.small_text_black and small_dark_mix(color, laid.size):
        color = Color("cmyk", (0.0, 0.0, 0.0, 1.0))  # small dark text on K alone: nothing to misregister
    canvas.setFillColor(None if color is None else to_reportlab(color))
    left, top = space.x(p["x"]), space.y(p["y"])
    width, height = mm_to_pt(p["w"]), mm_to_pt(p["h"])
    if p.get("rotate", 0) == 180:
        canvas.translate(left + width / 2, top - height / 2)
        canvas.rotate(180)
        canvas.translate(-(left + width / 2), -(top - height / 2))
    canvas.setFont(name, laid.size)
    greek = space.greeked(laid.size)
    readings = _Readings()
    if laid.ruby_size:
        black = space.layout.small_text_black and small_dark_mix(color, laid.ruby_size)
        readings = _Readings(greek=space.greeked(laid.ruby_size),  # too small in a figure: bars
                             color=to_reportlab(Color("cmyk", (0.0, 0.0, 0.0, 1.0))) if black else None)
    if p.get("vertical"):
        twin = vertical_font(path, name)
        _vertical_lines(canvas, laid, metrics, p, left, top, width, height, greek=greek, readings=readings,
                        fonts=(name, twin))
    else:
        _horizontal_lines(canvas, laid, metrics, p, left, top, width, height, greek=greek, font=name,
                          readings=readings)
    canvas.restoreState()


@dataclass(frozen=True)
class _Readings:
    """How a text's readings are drawn: as bars where too small to print (a reduced figure), and in K alone
    (`color`) where the text's dark mix is fine at its size but not at theirs."""

    greek: bool = False
    color: Any = None


def _horizontal_lines(canvas: Canvas, laid: TextLayout, metrics: FontMetrics, p: Mapping[str, Any],
                      left: float, top: float, width: float, height: float, *, greek: bool, font: str,
                      readings: _Readings = _Readings()) -> None:
    size = laid.size
    slack = height - laid.extent
    first_top = top - {"top": 0.0, "middle": slack / 2, "bottom": slack}[p.get("valign", "top")] - laid.ruby_room
    baseline_drop = size * metrics.ascent / (metrics.ascent + metrics.descent)
    align = p.get("align", "left")
    for n, (line, line_width) in enumerate(zip(laid.lines, laid.line_widths)):
        em_top = first_top - n * laid.leading
        baseline = em_top - baseline_drop
        spacing = laid.spacing[n] if laid.spacing else ()
        line_width += sum(spacing)  # a justified line fills the box
        x = left + {"left": 0.0, "justify": 0.0, "center": (width - line_width) / 2, "right": width - line_width}[align]
        if greek:
            canvas.rect(x, baseline + size * 0.1, line_width, size * _GREEK_BAR_EM, stroke=0, fill=1)
        elif laid.offsets:  # ruby: each glyph where the ruby setting put it
            offsets = laid.offsets[n]
            if offsets:
                _spaced_line(canvas, x + offsets[0], baseline, line, _gaps(offsets, line, metrics, size))
            _readings_above(canvas, laid, n, x, em_top, metrics, font, readings)
        elif spacing:
            _spaced_line(canvas, x, baseline, line, spacing)
        else:
            canvas.drawString(x, baseline, line)


def _gaps(offsets: tuple[float, ...], line: str, metrics: FontMetrics, size: float) -> tuple[float, ...]:
    """The space after each glyph that puts the next one at its offset (0 after the last)."""
    return tuple(round(offsets[k + 1] - offsets[k] - metrics.advance(line[k]) * size, 6)
                 for k in range(len(offsets) - 1)) + (0.0,)


def _readings_above(canvas: Canvas, laid: TextLayout, n: int, x: float, em_top: float, metrics: FontMetrics,
                    font: str, style: _Readings) -> None:
    """Line `n`'s readings set solid on its em box, in the line's font at the ruby size (bars where too small
    to print, as greeked text is)."""
    if not laid.readings[n]:
        return
    ruby = laid.ruby_size
    share = metrics.ascent / (metrics.ascent + metrics.descent)
    baseline = em_top - laid.size * share + reading_rise(share, laid.size, ruby)
    canvas.saveState()
    canvas.setFont(font, ruby)
    if style.color is not None:
        canvas.setFillColor(style.color)
    for reading in laid.readings[n]:
        if style.greek:
            length = metrics.text_width(reading.text, ruby) + reading.gap * (len(reading.text) - 1)
            canvas.rect(x + reading.offset, baseline + ruby * 0.1, length, ruby * _GREEK_BAR_EM, stroke=0, fill=1)
            continue
        spacing = (reading.gap,) * (len(reading.text) - 1) + (0.0,)
        _spaced_line(canvas, x + reading.offset, baseline, reading.text, spacing)
    canvas.restoreState()


def _spaced_line(canvas: Canvas, x: float, baseline: float, line: str, spacing: tuple[float, ...]) -> None:
    """A line whose glyphs have space after them: each run of characters followed by the same space shown
    with that character spacing (the PDF's Tc, added after every glyph), back to none at the end."""
    text = canvas.beginText(x, baseline)
    current, run = 0.0, 0
    for k, extra in enumerate(spacing):
        if extra != current:
            text.textOut(line[run:k])
            text.setCharSpace(extra)
            current, run = extra, k
    text.textOut(line[run:])
    if current:
        text.setCharSpace(0)
    canvas.drawText(text)


def _vertical_lines(canvas: Canvas, laid: TextLayout, metrics: FontMetrics, p: Mapping[str, Any],
                    left: float, top: float, width: float, height: float, *, greek: bool,
                    fonts: tuple[str, VerticalFont | None], readings: _Readings = _Readings()) -> None:
    """Columns right to left; each character centred in its one-em cell, in the font's vertical glyph where
    it has one (`fonts`: the font's name and its vertical twin); readings right of their column."""
    size = laid.size
    slack = width - laid.extent
    right = left + width - {"left": slack, "center": slack / 2, "right": 0.0, "justify": 0.0}[p.get("align", "right")]
    right -= laid.ruby_room
    baseline_drop = size * metrics.ascent / (metrics.ascent + metrics.descent)
    for n, (column, column_height) in enumerate(zip(laid.lines, laid.line_widths)):
        centre_x = right - n * laid.leading - size / 2
        column_height += sum(laid.spacing[n]) if laid.spacing else 0.0  # a justified column fills the box
        vslack = height - column_height
        y_top = top - {"top": 0.0, "middle": vslack / 2, "bottom": vslack}[p.get("valign", "top")]
        if greek:
            bar = size * _GREEK_BAR_EM
            canvas.rect(centre_x - bar / 2, y_top - column_height, bar, column_height, stroke=0, fill=1)
            continue
        offsets = line_offsets(laid, n, metrics, vertical=True)
        runs = {run.start: run for run in vertical_runs(column, line_across(laid, n))}  # 縦中横, sideways words
        k = 0
        while k < len(column):
            cell_top = y_top - offsets[k]
            run = runs.get(k)
            if run is None:
                _upright(canvas, column[k], centre_x, cell_top, size, baseline_drop, fonts)
                k += 1
            elif run.kind == "sideways":
                _sideways(canvas, column[k:run.end], centre_x, cell_top, size, baseline_drop)
                k = run.end
            else:
                _across_cell(canvas, column[k:run.end], fonts[0], centre_x, cell_top, size, baseline_drop)
                k = run.end
        if laid.readings and laid.readings[n]:
            _readings_beside(canvas, laid, n, centre_x + (size + laid.ruby_size) / 2, y_top, metrics, fonts,
                             readings)


def _readings_beside(canvas: Canvas, laid: TextLayout, n: int, centre_x: float, y_top: float, metrics: FontMetrics,
                     fonts: tuple[str, VerticalFont | None], style: _Readings) -> None:
    """Column `n`'s readings right of it, set solid on it (`centre_x`: the readings' middle line), each
    character upright in its ruby-sized cell (bars where too small to print)."""
    ruby = laid.ruby_size
    drop = ruby * metrics.ascent / (metrics.ascent + metrics.descent)
    canvas.saveState()
    canvas.setFont(fonts[0], ruby)
    if style.color is not None:
        canvas.setFillColor(style.color)
    for reading in laid.readings[n]:
        if style.greek:
            length = len(reading.text) * ruby + reading.gap * (len(reading.text) - 1)
            bar = ruby * _GREEK_BAR_EM
            canvas.rect(centre_x - bar / 2, y_top - reading.offset - length, bar, length, stroke=0, fill=1)
            continue
        for k, char in enumerate(reading.text):
            cell_top = y_top - reading.offset - k * (ruby + reading.gap)
            _upright(canvas, char, centre_x, cell_top, ruby, drop, fonts)
    canvas.restoreState()


def _upright(canvas: Canvas, char: str, centre_x: float, cell_top: float, size: float, baseline_drop: float,
             fonts: tuple[str, VerticalFont | None]) -> None:
    """One character of vertical text in its cell: the font's vertical glyph where its twin has one."""
    name, twin = fonts
    stand_in = twin.stand_ins.get(char) if twin is not None else None
    if stand_in is None:
        _vertical_char(canvas, char, centre_x, cell_top, size, baseline_drop)
        return
    assert twin is not None  # a stand-in comes from a twin
    canvas.setFont(twin.name, size)
    canvas.drawCentredString(centre_x, cell_top - baseline_drop, stand_in)
    canvas.setFont(name, size)


def _across_cell(canvas: Canvas, run: str, font: str, centre_x: float, cell_top: float, size: float,
                 baseline_drop: float) -> None:
    """縦中横: a short run of digits or letters upright and side by side in one cell, narrowed to the cell's
    em when wider (three digits)."""
    width = canvas.stringWidth(run, font, size)
    narrowed = min(1.0, size * _ACROSS_EM / width) if width > 0 else 1.0
    canvas.saveState()
    canvas.translate(centre_x, cell_top - baseline_drop)
    canvas.scale(narrowed, 1.0)
    canvas.drawCentredString(0, 0, run)
    canvas.restoreState()


_ACROSS_EM = 0.95  # a 縦中横 run keeps a hair of the cell free on each side


def _sideways(canvas: Canvas, word: str, centre_x: float, top: float, size: float, baseline_drop: float) -> None:
    """A Latin word in vertical text turned a quarter clockwise, reading down the column, its em box centred
    on the column's middle line."""
    canvas.saveState()
    canvas.translate(centre_x, top)
    canvas.rotate(-90)
    canvas.drawString(0, size / 2 - baseline_drop, word)
    canvas.restoreState()


# Characters the font has no vertical glyph for (generator/vertical_font.py draws those it has) still set
# correctly: turn long marks and brackets a quarter, and move the small comma and full stop to the cell's
# upper right, as vertical type does.
_TURNED = set("ー－～〜…‥「」『』（）［］｛｝【】〈〉《》〔〕—―‐-()[]")
_RAISED = set("、。，．")


def _vertical_char(canvas: Canvas, char: str, centre_x: float, cell_top: float,
                   size: float, baseline_drop: float) -> None:
    if char in _TURNED:
        canvas.saveState()
        canvas.translate(centre_x, cell_top - size / 2)
        canvas.rotate(-90)
        canvas.drawCentredString(0, size / 2 - baseline_drop, char)
        canvas.restoreState()
    elif char in _RAISED:
        canvas.drawCentredString(centre_x + size * 0.6, cell_top - baseline_drop + size * 0.6, char)
    else:
        canvas.drawCentredString(centre_x, cell_top - baseline_drop, char)


def draw_image(space: CardSpace, element: Element) -> None:
    p = element.props
    path = space.deck_dir / bind_text(p["src"], space.card.bindings)
    reader = _image(space.deck_dir, path)
    px_w, px_h = reader.getSize()
    w, h = (p["w"], p["h"]) if p.get("fit") == "stretch" else contain(p["w"], p["h"], px_w, px_h)
    x = p["x"] + (p["w"] - w) / 2
    y = p["y"] + (p["h"] - h) / 2
    space.canvas.drawImage(reader, space.x(x), space.y(y + h), mm_to_pt(w), mm_to_pt(h), mask="auto")


@lru_cache(maxsize=128)
def _image(deck_dir: Path, path: Path) -> ImageReader:
    """The deck image as CMYK, read through the confined file layer (the check has passed its size and pixels)."""
    with Image.open(io.BytesIO(read_bytes(deck_dir, path.relative_to(deck_dir), MAX_IMAGE_BYTES))) as image:
        image.load()
        return CMYKImageReader(image)  # raster art reaches the PDF as CMYK


def draw_svg(space: CardSpace, element: Element) -> None:
    p = element.props
    path = space.deck_dir / bind_text(p["src"], space.card.bindings)
    drawing = _svg(path)
    w, h = contain(mm_to_pt(p["w"]), mm_to_pt(p["h"]), drawing.width, drawing.height)
    scale = w / drawing.width
    if space.scale < 1:  # a reduced figure: strokes no thinner than a press holds
        drawing = _thickened_svg(path, round(space.line_width(0) / scale, 6))
    x = space.x(p["x"]) + (mm_to_pt(p["w"]) - w) / 2
    y = space.y(p["y"] + p["h"]) + (mm_to_pt(p["h"]) - h) / 2
    canvas = space.canvas
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    try:
        _render(space, drawing, 0, 0)
    except Exception as exc:  # svglib can build nodes that only fail when drawn; the deck is untrusted
        raise DrawError(f"{path.name} could not be drawn as SVG ({exc.__class__.__name__}: {exc})") from None
    canvas.restoreState()


@lru_cache(maxsize=128)
def _svg(path: Path) -> Drawing:
    checked = checked_svg(path)  # the same bytes and rules the check passed: no outside reference, no DTD
    if isinstance(checked, str):
        raise DrawError(f"{path.name} {checked}")
    try:
        drawing = svg2rlg(io.BytesIO(checked))
    except Exception as exc:  # svglib raises ValueError, TypeError… on SVG it cannot convert
        raise DrawError(f"{path.name} could not be drawn as SVG ({exc.__class__.__name__}: {exc})") from None
    if drawing is None or not drawing.width or not drawing.height:
        raise DrawError(f"{path.name} could not be read as SVG")
    return cmyk_drawing(drawing)  # SVG colours are RGB; print files carry CMYK only


@lru_cache(maxsize=128)
def _thickened_svg(path: Path, minimum: float) -> Drawing:
    """A copy of the SVG whose strokes are at least `minimum` wide in the drawing's top-level units."""
    drawing = copy.deepcopy(_svg(path))
    _thicken(drawing, minimum, 1.0)
    return drawing


def _thicken(node: Any, minimum: float, scale: float) -> None:
    if isinstance(node, Group):  # a Drawing is a Group too
        a, b, c, d = node.transform[:4]
        scale *= math.sqrt(abs(a * d - b * c)) or 1.0
        for child in node.contents:
            _thicken(child, minimum, scale)
    elif isinstance(node, Shape) and getattr(node, "strokeColor", None) is not None:
        node.strokeWidth = max(getattr(node, "strokeWidth", 1) or 0, minimum / scale)


def draw_repeat(space: CardSpace, element: Element) -> None:
    """The inner element `count` times, stepping dx along a row and dy between rows."""
    p = element.props
    count = bind_count(p["count"], space.card.bindings)
    per_row = p.get("per_row", count) or 1
    inner = Element(p["element"]["type"], p["element"], element.location.child("element"))
    draw = DRAW_BY_TYPE[inner.type]
    for index in range(count):
        row, col = divmod(index, per_row)
        in_row = min(per_row, count - row * per_row)
        shift = -(in_row - 1) * p["dx"] / 2 if p.get("align") == "center" else 0.0
        moved = replace(space, offset=(space.offset[0] + shift + col * p["dx"], space.offset[1] + row * p["dy"]))
        draw(moved, inner)


def draw_table(space: CardSpace, element: Element) -> None:
    """Cells with fills and a grid; cell text is set like any text element; write-in cells stay empty."""
    p = element.props
    canvas = space.canvas
    grid = space.color(p.get("stroke", DEFAULT_INK))
    for cell in table_cells(element, space.card.bindings):
        fill = space.color(cell.spec.get("fill", p.get("header_fill") if cell.header else None))
        canvas.saveState()
        if fill is not None:
            canvas.setFillColor(fill)
        if grid is not None:
            canvas.setStrokeColor(grid)
            canvas.setLineWidth(space.line_width(mm_to_pt(p.get("stroke_width", 0.25))))
        canvas.rect(space.x(cell.x), space.y(cell.y + cell.h), mm_to_pt(cell.w), mm_to_pt(cell.h),
                    stroke=int(grid is not None), fill=int(fill is not None))
        canvas.restoreState()
        if cell.text:
            draw_text(space, cell_text_element(element, cell))
        if cell.field:
            _form_field(space, cell.field, cell.x, cell.y, cell.w, cell.h, p["size"])


def draw_field(space: CardSpace, element: Element) -> None:
    """A write-in box: an outline on paper, and a typing field in the fillable variant."""
    p = element.props
    stroke = space.color(p.get("stroke", DEFAULT_INK))
    canvas = space.canvas
    if stroke is not None:
        canvas.saveState()
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(space.line_width(mm_to_pt(p.get("stroke_width", 0.3))))
        canvas.rect(space.x(p["x"]), space.y(p["y"] + p["h"]), mm_to_pt(p["w"]), mm_to_pt(p["h"]), stroke=1, fill=0)
        canvas.restoreState()
    _form_field(space, bind_text(p["name"], space.card.bindings), p["x"], p["y"], p["w"], p["h"], p.get("size", 12))


def _form_field(space: CardSpace, name: str, x: float, y: float, w: float, h: float, size: float) -> None:
    if not space.fillable:
        return
    inset = 0.6
    space.canvas.acroForm.textfield(
        name=name, tooltip=name,
        x=space.x(x + inset), y=space.y(y + h - inset), width=mm_to_pt(w - 2 * inset), height=mm_to_pt(h - 2 * inset),
        fontSize=size, borderWidth=0, fillColor=None, borderColor=None, forceBorder=False,
        relative=True,
    )


DRAW_BY_TYPE: dict[str, Callable[[CardSpace, Element], None]] = {
    "rect": draw_rect,
    "band": draw_band,
    "circle": draw_circle,
    "polygon": draw_polygon,
    "path": draw_path,
    "text": draw_text,
    "image": draw_image,
    "svg": draw_svg,
    "repeat": draw_repeat,
    "table": draw_table,
    "field": draw_field,
}
