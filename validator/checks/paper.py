"""Every card fits the paper build prints it on (issue 23: whatever build would refuse, check refuses first).

An n-up card needs its bleed inside the paper's 4 mm margins; a ganged piece its bleed, its corner
marks' lane and 5 mm margins. The tests are validator/sheetfit.py's, the ones the imposition and
the gang packer use. The paper is build's: `fudaya check` measures against A4, build's default;
a build on other paper checks against that paper before it draws (generator/build.py).
"""
from __future__ import annotations

from collections.abc import Iterator

from ..issues import Issue
from ..model import Deck, Game
from ..presets import DEFAULT_PAPER, PAPER_SIZES
from ..sheetfit import gang_misfit, nup_misfit


def check(game: Game, paper: str = DEFAULT_PAPER) -> Iterator[Issue]:
    for deck in game.decks:
        misfit = _misfit(deck, PAPER_SIZES[paper])
        if misfit is None:
            continue
        fitting = [name for name, size in PAPER_SIZES.items() if _misfit(deck, size) is None]
        papers = " and ".join(map(_shown, fitting))
        hint = f"; it fits {papers} (check and build --paper {fitting[0]})" if fitting else ""
        if deck.gang is not None:  # the component names the gang: that is what to change (or the size)
            yield Issue(deck.location.child("gang"), "gang-paper",
                        f"component {deck.id!r} in gang {deck.gang!r}: {misfit}{hint}")
        else:
            yield Issue(deck.layout.location.child("card"), "imposition", f"{misfit}{hint}")


def _misfit(deck: Deck, paper: tuple[float, float]) -> str | None:
    """A ganged piece must fit the packer (stricter than n-up, which build also plans for it)."""
    if deck.gang is not None:
        return gang_misfit(deck.layout.size, paper)
    return nup_misfit(deck.layout.size, paper, deck.layout.gutter)


def _shown(paper: str) -> str:
    """'A4', 'A3', 'Letter': paper names as people write them."""
    return paper.upper() if len(paper) == 2 else paper.title()
