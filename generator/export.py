"""`fudaya export`: card images for proofing and playtests, rendered from the PDFs a build wrote.

The pixels come from our own print files (pypdfium2 renders them), so an exported card is the
printed card: each side is cut from its page at the trim box build.json records. `png` writes one
image per card side; `tts` writes Tabletop Simulator deck sheets (at most 10 × 7 cards, at most
4096 px a side, the last slot left for the hidden card) with a back image, and a saved object
that lays every two-sided deck out with its counts.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from validator.geometry import MM_PER_INCH
from validator.model import Deck, Game

MAX_DPI = 1200
TTS_COLUMNS, TTS_ROWS = 10, 7
TTS_PER_SHEET = TTS_COLUMNS * TTS_ROWS - 1  # the 70th slot shows a hidden card
TTS_MAX_PX = 4096


class ExportError(ValueError):
    """Nothing to export from: no build, or a build without this game's card files."""


@dataclass(frozen=True)
class Side:
    deck: str
    card: str
    side: str
    file: str
    page: int
    box: tuple[float, float, float, float]  # x, y, width, height in mm from the page's bottom-left


def sides(game: Game, manifest: Mapping[str, Any]) -> list[Side]:
    """Each card side of each deck once, from the file that shows it alone when there is one (the
    print-shop file), else from the sheet it is imposed on; in deck and card order."""
    placements = manifest.get("placements", [])
    found: list[Side] = []
    for deck in game.decks:
        ids = {card.id for card in deck.cards}
        own = f"{game.id}/{deck.id}-printshop.pdf"
        mine = [p for p in placements if p["card"] in ids]
        preferred = [p for p in mine if p["file"] == own] or mine
        seen: set[tuple[str, str]] = set()
        for card in deck.cards:
            for p in preferred:
                if p["card"] == card.id and (card.id, p["side"]) not in seen:
                    seen.add((card.id, p["side"]))
                    found.append(Side(deck.id, card.id, p["side"], p["file"], p["page"],
                                      (p["x"], p["y"], p["width"], p["height"])))
    return found


class Renderer:
    """Pages rendered once each at one resolution; card sides cut from them."""

    def __init__(self, output_dir: Path, dpi: int) -> None:
        import pypdfium2  # only for export

        self._pdfium = pypdfium2
        self.output_dir, self.dpi = output_dir, dpi
        self._documents: dict[str, Any] = {}
        self._pages: dict[tuple[str, int], Image.Image] = {}

    def _page(self, file: str, page: int) -> Image.Image:
        key = (file, page)
        if key not in self._pages:
            if file not in self._documents:
                self._documents[file] = self._pdfium.PdfDocument(str(self.output_dir / file))
            bitmap = self._documents[file][page - 1].render(scale=self.dpi / 72)
            self._pages[key] = bitmap.to_pil().convert("RGB")
            if len(self._pages) > 8:  # keep memory bounded: sides come page by page
                self._pages.pop(next(iter(self._pages)))
        return self._pages[key]

    def cut(self, side: Side) -> Image.Image:
        image = self._page(side.file, side.page)
        px = self.dpi / MM_PER_INCH
        x, y, width, height = side.box
        left, right = round(x * px), round((x + width) * px)
        top, bottom = image.height - round((y + height) * px), image.height - round(y * px)
        return image.crop((left, top, right, bottom))


def load_manifest(output_dir: Path, game: Game) -> dict[str, Any]:
    path = output_dir / game.id / "build.json"
    if not path.is_file():
        raise ExportError(f"{path}: no build to export from; run `fudaya build {game.id}` first")
    manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return manifest


def export_png(game: Game, output_dir: Path, *, dpi: int) -> list[Path]:
    """output/<game>/export/png/<deck>/<card>-<side>.png for every card side; returns the files."""
    if not 72 <= dpi <= MAX_DPI:
        raise ExportError(f"--dpi {dpi}: from 72 to {MAX_DPI}")
    found = sides(game, load_manifest(output_dir, game))
    if not found:
        raise ExportError(f"{output_dir / game.id}: the build holds no card files (build without --only?)")
    renderer = Renderer(output_dir, dpi)
    written = []
    for side in found:
        path = output_dir / game.id / "export" / "png" / side.deck / f"{side.card}-{side.side}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        renderer.cut(side).save(path, dpi=(dpi, dpi))
        written.append(path)
    return written


def _sheet(images: Sequence[Image.Image], size: tuple[int, int]) -> Image.Image:
    sheet = Image.new("RGB", (size[0] * TTS_COLUMNS, size[1] * TTS_ROWS), "white")
    for n, image in enumerate(images):
        row, column = divmod(n, TTS_COLUMNS)
        sheet.paste(image.resize(size, Image.Resampling.LANCZOS), (column * size[0], row * size[1]))
    return sheet


def _card_size(width_mm: float, height_mm: float) -> tuple[int, int]:
    """Pixels a card gets on a sheet: as many as keep the 10 × 7 sheet within 4096 px a side."""
    scale = min(TTS_MAX_PX / (TTS_COLUMNS * width_mm), TTS_MAX_PX / (TTS_ROWS * height_mm))
    return int(width_mm * scale), int(height_mm * scale)


def export_tts(game: Game, output_dir: Path) -> Path:
    """Deck sheets, backs and a saved object (output/<game>/export/tts/); returns the saved object's path."""
    manifest = load_manifest(output_dir, game)
    folder = output_dir / game.id / "export" / "tts"
    folder.mkdir(parents=True, exist_ok=True)
    renderer = Renderer(output_dir, 300)
    by_deck: dict[str, list[Side]] = {}
    for side in sides(game, manifest):
        by_deck.setdefault(side.deck, []).append(side)
    objects: list[dict[str, Any]] = []
    custom_number = 0
    for deck in (d for d in game.decks if d.has_backs and d.id in by_deck):
        objects.append(_tts_deck(deck, by_deck[deck.id], renderer, folder, custom_number, len(objects)))
        custom_number += -(-len(deck.cards) // TTS_PER_SHEET)
    if not objects:
        raise ExportError(f"{game.id}: no two-sided deck to export for Tabletop Simulator")
    saved = {"SaveName": game.title, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
             "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects}
    path = folder / f"{game.id}.json"
    path.write_text(json.dumps(saved, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def _tts_deck(deck: Deck, found: list[Side], renderer: Renderer, folder: Path, first: int,
              position: int) -> dict[str, Any]:
    fronts = {s.card: s for s in found if s.side == "front"}
    backs = {s.card: s for s in found if s.side == "back"}
    size = _card_size(deck.layout.size.width, deck.layout.size.height)
    cards = [card for card in deck.cards if card.id in fronts]
    custom: dict[str, Any] = {}
    contained: list[dict[str, Any]] = []
    deck_ids: list[int] = []
    back_images = {card.id: renderer.cut(backs[card.id]) for card in cards if card.id in backs}
    shared_back = len({image.tobytes() for image in back_images.values()}) <= 1
    for sheet_index in range(-(-len(cards) // TTS_PER_SHEET)):
        chunk = cards[sheet_index * TTS_PER_SHEET:(sheet_index + 1) * TTS_PER_SHEET]
        number = first + sheet_index + 1
        face = folder / f"{deck.id}-{sheet_index + 1}.png"
        _sheet([renderer.cut(fronts[c.id]) for c in chunk], size).save(face)
        if shared_back:
            back = folder / f"{deck.id}-back.png"
            next(iter(back_images.values())).resize(size, Image.Resampling.LANCZOS).save(back)
        else:
            back = folder / f"{deck.id}-{sheet_index + 1}-backs.png"
            _sheet([back_images[c.id] for c in chunk], size).save(back)
        custom[str(number)] = {"FaceURL": face.resolve().as_uri(), "BackURL": back.resolve().as_uri(),
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


__all__ = ["ExportError", "export_png", "export_tts", "sides"]
