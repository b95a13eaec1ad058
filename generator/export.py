"""`fudaya export`: card images for proofing and playtests, rendered from the PDFs a build wrote.

The pixels come from our own print files (pypdfium2 renders them), so an exported card is the
printed card: each side is rendered straight from its page at the trim box build.json records.
`png` writes one image per card side; `tts` writes Tabletop Simulator deck sheets (at most 10 × 7
cards, at most 4096 px a side, the last slot left for the hidden card) with a back image, and a
saved object that lays every two-sided deck out with its counts.

One image is in memory at a time (one card side, or one deck sheet and the card being pasted on
it), so memory does not grow with the number of cards; a side that would be larger than an image
may be (MAX_IMAGE_PIXELS) is refused before any work. The result is written into a staging folder
and swapped in whole (output_set.published): a failed or interrupted export leaves the earlier one.
"""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from PIL import Image

from validator.geometry import MM_PER_INCH, POINTS_PER_MM
from validator.limits import MAX_IMAGE_PIXELS
from validator.model import Deck, Game

from .derived import SETTINGS_FILE, ExportSettings, image_url
from .export_manifest import Box, ExportError, Manifest, Placed, load_manifest
from .output_set import published

MAX_DPI = 1200
TTS_DPI = 300  # cards are rendered at this resolution, then scaled down into their slot on a sheet
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1  # the 70th slot shows a hidden card
TTS_MAX_PX = 4096


@dataclass(frozen=True, slots=True)
class Side:
    """One side of one card and where the build printed it."""

    deck: str
    card: str
    side: str
    file: str  # a PDF in the game's output folder
    page: int
    box: Box  # x, y, width, height in mm from the page's bottom-left


def sides(game: Game, manifest: Manifest) -> list[Side]:
    """Each card side of each deck once, from the file that shows it alone when there is one (the
    print-shop file), else from the sheet it is imposed on; in deck and card order."""
    by_card: dict[str, list[Placed]] = {}
    for placed in manifest.placements:
        by_card.setdefault(placed.card, []).append(placed)
    found: list[Side] = []
    for deck in game.decks:
        own = f"{deck.id}-printshop.pdf"
        has_own = any(p.file == own for card in deck.cards for p in by_card.get(card.id, ()))
        for card in deck.cards:
            seen: set[str] = set()
            for p in by_card.get(card.id, ()):
                if (p.file == own or not has_own) and p.side not in seen:
                    seen.add(p.side)
                    found.append(Side(deck.id, card.id, p.side, p.file, p.page, p.box))
    return found


class Renderer:
    """Card sides rendered one at a time, each straight from its trim box: no page is ever held whole.

    One document is open at a time (sides come file by file); leaving the `with` block closes it."""

    def __init__(self, folder: Path, dpi: int) -> None:
        import pypdfium2  # only for export

        self._pdfium = pypdfium2
        self.folder, self.dpi = folder, dpi
        self._open: tuple[str, Any] | None = None

    def _document(self, file: str) -> Any:
        if self._open is None or self._open[0] != file:
            self.close()
            try:
                self._open = (file, self._pdfium.PdfDocument(self.folder / file))
            except self._pdfium.PdfiumError as exc:  # checked when build.json was read: replaced since
                raise ExportError(f"{self.folder / file}: cannot be read ({exc})") from None
        return self._open[1]

    @contextmanager
    def cut(self, side: Side) -> Iterator[Image.Image]:
        """The side's trim box at the renderer's resolution, an RGB image freed when the block ends (Pillow's
        own `with` frees nothing)."""
        image = self._render(side)
        try:
            yield image
        finally:
            image.close()

    def _render(self, side: Side) -> Image.Image:
        page = self._document(side.file)[side.page - 1]
        try:
            scale = self.dpi / 72
            bitmap = page.render(scale=scale, crop=_crop(page.get_size(), side.box, scale))  # only the card's pixels
            try:
                image: Image.Image = bitmap.to_pil()  # BGR: copied into a Pillow image
            finally:
                bitmap.close()
        finally:
            page.close()
        if image.mode == "RGB":
            return image
        with closing(image):
            return image.convert("RGB")

    def close(self) -> None:
        if self._open is not None:
            self._open[1].close()
            self._open = None

    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()


def _crop(page: tuple[float, float], box: Box, scale: float) -> tuple[float, ...]:
    """Points to cut off the page (left, bottom, right, top) so that what is drawn is the box's pixels
    of the whole page drawn at `scale` (edges rounded to the nearest pixel); pypdfium2 rounds each up."""
    px = scale * POINTS_PER_MM
    x, y, width, height = box
    full = [math.ceil(side * scale) for side in page]
    pixels = (round(x * px), round(y * px), full[0] - round((x + width) * px), full[1] - round((y + height) * px))
    return tuple(max(0, n - 0.5) / scale for n in pixels)


def refuse_too_many_pixels(found: Sequence[Side], dpi: int) -> None:
    """One line, before any work, when the largest card side at `dpi` exceeds MAX_IMAGE_PIXELS."""
    largest = max(found, key=lambda side: side.box[2] * side.box[3])
    width_mm, height_mm = largest.box[2:]
    width, height = (math.ceil(v / MM_PER_INCH * dpi) for v in (width_mm, height_mm))
    if width * height > MAX_IMAGE_PIXELS:
        fits = math.floor(dpi * math.sqrt(MAX_IMAGE_PIXELS / (width * height)))
        raise ExportError(f"card {largest.card!r} ({width_mm:g} × {height_mm:g} mm) at {dpi} dpi would be "
                          f"{width} × {height} px, more than the {MAX_IMAGE_PIXELS:,} pixels an image may have "
                          f"(at most {fits} dpi)")


def _found(game: Game, manifest: Manifest) -> list[Side]:
    found = sides(game, manifest)
    if not found:
        raise ExportError(f"{manifest.folder}: the build holds no card files (build without --only?)")
    return found


def export_png(game: Game, output_dir: Path, *, dpi: int) -> list[Path]:
    """output/<game>/export/png/<deck>/<card>-<side>.png for every card side; returns the files. The folder
    records its settings, so each later build makes it again from its own print files (generator/derived.py)."""
    if not 72 <= dpi <= MAX_DPI:
        raise ExportError(f"--dpi {dpi}: from 72 to {MAX_DPI}")
    manifest = load_manifest(output_dir, game)
    found = _found(game, manifest)
    refuse_too_many_pixels(found, dpi)
    final = manifest.folder / "export" / "png"
    names: list[str] = []
    with published(output_dir, game.id, final, verify=manifest.verify) as staging, \
            Renderer(manifest.folder, dpi) as renderer:
        for side in found:
            name = f"{side.deck}/{side.card}-{side.side}.png"
            (staging / side.deck).mkdir(exist_ok=True)
            with renderer.cut(side) as image:
                image.save(staging / name, dpi=(dpi, dpi))
            names.append(name)
        _write_settings(staging, ExportSettings("png", dpi=dpi))
    return [final / name for name in names]


def _write_settings(staging: Path, settings: ExportSettings) -> None:
    (staging / SETTINGS_FILE).write_text(json.dumps(settings.to_json(), indent=1) + "\n", encoding="utf-8")


def _card_size(width_mm: float, height_mm: float) -> tuple[int, int]:
    """Pixels a card gets on a sheet: as many as keep the 10 × 7 sheet within 4096 px a side."""
    scale = min(TTS_MAX_PX / (TTS_COLUMNS * width_mm), TTS_MAX_PX / (TTS_ROWS * height_mm))
    return int(width_mm * scale), int(height_mm * scale)


def _write_sheet(renderer: Renderer, found: Sequence[Side], size: tuple[int, int], path: Path) -> None:
    """One deck sheet: each card cut, scaled into its slot and released before the next is cut."""
    with closing(Image.new("RGB", (size[0] * TTS_COLUMNS, size[1] * TTS_ROWS), "white")) as sheet:
        for n, side in enumerate(found):
            row, column = divmod(n, TTS_COLUMNS)
            with renderer.cut(side) as image, closing(image.resize(size, Image.Resampling.LANCZOS)) as scaled:
                sheet.paste(scaled, (column * size[0], row * size[1]))
        sheet.save(path)


def export_tts(game: Game, output_dir: Path, settings: ExportSettings) -> Path:
    """Deck sheets, backs and a saved object (output/<game>/export/tts/); returns the saved object's path.

    The object finds its images under `settings.base_url` (where the designer hosts this folder) or, when
    `settings.local`, at file:// URLs of this machine. Each later build makes the folder again at the same
    place (generator/derived.py), so an object copied into Tabletop Simulator keeps its images."""
    manifest = load_manifest(output_dir, game)
    by_deck: dict[str, list[Side]] = {}
    for side in _found(game, manifest):
        by_deck.setdefault(side.deck, []).append(side)
    decks = [d for d in game.decks if d.has_backs and d.id in by_deck]
    if not decks:
        raise ExportError(f"{game.id}: no two-sided deck to export for Tabletop Simulator")
    refuse_too_many_pixels([side for deck in decks for side in by_deck[deck.id]], TTS_DPI)
    final = manifest.folder / "export" / "tts"
    objects: list[dict[str, Any]] = []
    with published(output_dir, game.id, final, verify=manifest.verify) as staging, \
            Renderer(manifest.folder, TTS_DPI) as renderer:
        custom_number = 0
        for deck in decks:
            sheets = _TtsSheets(renderer, staging, final.resolve(), manifest, settings)
            objects.append(sheets.deck(deck, by_deck[deck.id], custom_number, len(objects)))
            custom_number += -(-len(deck.cards) // TTS_PER_SHEET)
        saved = {"SaveName": game.title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
                 "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}
        (staging / f"{game.id}.json").write_text(json.dumps(saved, ensure_ascii=False, indent=1) + "\n",
                                                 encoding="utf-8")
        _write_settings(staging, settings)
    return final / f"{game.id}.json"


class _TtsSheets:
    """A deck's face and back sheets, written one at a time into `staging`, named by their final place."""

    def __init__(self, renderer: Renderer, staging: Path, final: Path, manifest: Manifest,
                 settings: ExportSettings) -> None:
        self.renderer, self.staging, self.final, self.manifest = renderer, staging, final, manifest
        self.settings = settings

    def _shared_back(self, backs: Sequence[Side]) -> bool:
        """Whether every card has the same back, comparing each back's digest (one image at a time)."""
        digests: set[bytes] = set()
        for side in backs:
            with self.renderer.cut(side) as image:
                digests.add(hashlib.sha256(image.tobytes()).digest())
            if len(digests) > 1:
                return False
        return True

    def deck(self, deck: Deck, found: list[Side], first: int, position: int) -> dict[str, Any]:
        fronts = {s.card: s for s in found if s.side == "front"}
        backs = {s.card: s for s in found if s.side == "back"}
        cards = [card for card in deck.cards if card.id in fronts]
        missing = [card.id for card in cards if card.id not in backs]
        if missing:
            raise ExportError(self.manifest.problem(f"card {missing[0]!r} of the two-sided deck {deck.id!r} has "
                                                    "no back placement"))
        size = _card_size(deck.layout.size.width, deck.layout.size.height)
        shared_back = self._shared_back([backs[card.id] for card in cards])
        custom: dict[str, Any] = {}
        contained: list[dict[str, Any]] = []
        deck_ids: list[int] = []
        for sheet_index in range(-(-len(cards) // TTS_PER_SHEET)):
            chunk = cards[sheet_index * TTS_PER_SHEET:(sheet_index + 1) * TTS_PER_SHEET]
            number = first + sheet_index + 1
            face = f"{deck.id}-{sheet_index + 1}.png"
            _write_sheet(self.renderer, [fronts[c.id] for c in chunk], size, self.staging / face)
            back = f"{deck.id}-back.png" if shared_back else f"{deck.id}-{sheet_index + 1}-backs.png"
            if not shared_back:
                _write_sheet(self.renderer, [backs[c.id] for c in chunk], size, self.staging / back)
            elif sheet_index == 0:
                with self.renderer.cut(backs[cards[0].id]) as image, \
                        closing(image.resize(size, Image.Resampling.LANCZOS)) as scaled:
                    scaled.save(self.staging / back)
            custom[str(number)] = {"FaceURL": image_url(face, self.final, self.settings),
                                   "BackURL": image_url(back, self.final, self.settings),
                                   "NumWidth": TTS_COLUMNS, "NumHeight": TTS_ROWS, "BackIsHidden": True,
                                   "UniqueBack": not shared_back, "Type": 0}
            for slot, card in enumerate(chunk):
                card_id = number * 100 + slot
                for _ in range(card.qty):
                    deck_ids.append(card_id)
                    contained.append({"Name": "Card", "Nickname": str(card.fields.get("name", card.id)),
                                      "Description": card.id, "CardID": card_id,
                                      "Transform": _transform(position)})
        return {"Name": "Deck" if len(deck_ids) > 1 else "Card", "Nickname": deck.title, "Description": deck.id,
                "Transform": _transform(position), "DeckIDs": deck_ids, "CustomDeck": custom,
                "ContainedObjects": contained, **({"CardID": deck_ids[0]} if len(deck_ids) == 1 else {})}


def _transform(position: int) -> dict[str, float]:
    """Decks side by side on the table, 3 units apart."""
    return {"posX": position * 3.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


__all__ = ["ExportError", "Renderer", "Side", "export_png", "export_tts", "load_manifest", "sides"]
