"""Whether a card fits the paper it is printed on, tested as the imposition and the gang packer place it.

One test, shared: generator/imposition.py lays cards out n-up and generator/gang.py packs ganged
pieces with the margins below, and validator/checks/paper.py refuses beforehand, at the layout or
component, any card they could not place (issue 23: whatever build would refuse, check refuses
first; a ganged piece too large for the paper passed check and build raised a traceback).

All values are millimetres.
"""
from __future__ import annotations

from .model import CardSize

NUP_MARGIN_MM = 4.0   # n-up sheets: paper edge to the outermost bleed, room for crop marks
GANG_MARGIN_MM = 5.0  # ganged sheets: paper edge to the outermost marks (home printers leave 3-5 mm blank)
MARK_GAP_MM = 0.5     # ganged pieces: between a piece's bleed edge and its corner marks
MARK_LENGTH_MM = 2.5  # ganged pieces: corner mark length
_EPS = 1e-9


def fit_count(length: float, card: float, gutter: float, bleed: float) -> int:
    """How many cards fit along one side of the paper: edge to edge with `gutter`, full bleed outside."""
    usable = length - 2 * (NUP_MARGIN_MM + bleed)
    return max(0, int((usable + gutter) // (card + gutter) + _EPS))


def nup_misfit(size: CardSize, paper: tuple[float, float], gutter: float | None) -> str | None:
    """Why not one card fits an n-up sheet of `paper`, or None. `gutter` None lets the imposition choose."""
    between = 0.0 if gutter is None else gutter
    if fit_count(paper[0], size.width, between, size.bleed) and fit_count(paper[1], size.height, between, size.bleed):
        return None
    return (f"a {size.width:g}×{size.height:g} mm card with {size.bleed:g} mm bleed does not fit on "
            f"{paper[0]:g}×{paper[1]:g} mm paper with {NUP_MARGIN_MM:g} mm margins")


def gang_outer(size: CardSize) -> tuple[float, float]:
    """The room a ganged piece takes: trim, bleed and its marks' lane on every side (half lanes meet)."""
    reach = size.bleed + MARK_GAP_MM + MARK_LENGTH_MM
    return size.width + 2 * reach, size.height + 2 * reach


def gang_misfit(size: CardSize, paper: tuple[float, float]) -> str | None:
    """Why a ganged piece of `size` cannot be placed on `paper`, or None."""
    width, height = gang_outer(size)
    if width <= paper[0] - 2 * GANG_MARGIN_MM + _EPS and height <= paper[1] - 2 * GANG_MARGIN_MM + _EPS:
        return None
    return (f"a {size.width:g}×{size.height:g} mm piece with its {size.bleed:g} mm bleed and cut marks takes "
            f"{width:g}×{height:g} mm and does not fit the {paper[0] - 2 * GANG_MARGIN_MM:g}×"
            f"{paper[1] - 2 * GANG_MARGIN_MM:g} mm inside the {GANG_MARGIN_MM:g} mm margins of "
            f"{paper[0]:g}×{paper[1]:g} mm paper")


__all__ = ["GANG_MARGIN_MM", "MARK_GAP_MM", "MARK_LENGTH_MM", "NUP_MARGIN_MM", "fit_count", "gang_misfit",
           "gang_outer", "nup_misfit"]
