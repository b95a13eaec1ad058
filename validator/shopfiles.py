"""Which components a build also writes as print-shop files, and why the others need none: the one place.

A print shop cuts each piece at its trim, and a cut a hair off shows white paper wherever the art meets
the trim, so such art must run SHOP_BLEED_MM past it (塗り足し). A print-shop file (<id>-printshop.pdf)
has one piece a page, its TrimBox at the finished size and its BleedBox SHOP_BLEED_MM beyond, the art
carried into the bleed. One rule for each kind of component, read from its data:

- deck (two-sided cards): always, one side a page.
- sheet (single-sided pieces): when its layout has bleed (`card.bleed` above 0, layout.schema.json),
  the designer's statement that its art runs past the trim: jinzai's stickers and 在野 card. A sheet
  whose layout has none prints white paper at its trim (sangokushi's tracks, sengoku's 早見表, jinzai's
  personal sheets, gogyo's score sheet: their coloured bands stop millimetres inside it), so its home
  file, cut on its crop marks, is what a shop prints too; it has no print-shop file.
- rulebook: always. A shop binds it, and 同人誌 printers take a book only as pages at the finished
  size plus the bleed, with running heads and page numbers SHOP_SAFE_MM inside the trim.
- map: always: its ground colour fills the board to its edge (map-<paper>-printshop.pdf); a map printed
  in tiles also gets the board cut into the same grid of butting panels (map-<tiles>-printshop.pdf).

A layout keeping less bleed for its home sheets (stickers: 1 mm inside a 2 mm kiss-cut gutter) gets
the full SHOP_BLEED_MM in its print-shop file: elements that bleed stretch to it there.
"""
from __future__ import annotations

from .model import Deck
from .presets import SHOP_BLEED_MM


def deck_has_shop_file(deck: Deck) -> bool:
    """Whether the deck or sheet component gets <id>-printshop.pdf (see the module's rule)."""
    return deck.has_backs or deck.layout.size.bleed > 0


def shop_bleed(bleed: float) -> float:
    """The bleed of a print-shop page for art laid out with `bleed`: the shop's, or more if the layout has it."""
    return max(bleed, SHOP_BLEED_MM)


__all__ = ["SHOP_BLEED_MM", "deck_has_shop_file", "shop_bleed"]
