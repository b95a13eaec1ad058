"""Generic deck checks: each takes a loaded Game and yields Issues. CHECKS runs them in order."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from ..issues import CheckResult, Issue
from ..limits import SIM_BUDGET_SECONDS
from ..model import Game
from ..presets import DEFAULT_PAPER
from . import artwork, components, composition, game_data, maps, references, rulebook, shapes, signs, simulation, text
from . import paper as paper_fit

Check = Callable[[Game], Iterator[Issue]]

CHECKS: dict[str, Check] = {
    "components": components.check,
    "shapes": shapes.check,  # bounds what the later checks and the drawing walk
    "paper": paper_fit.check,  # against build's default paper; check_game passes another
    "composition": composition.check,
    "references": references.check,
    "maps": maps.check,
    "game_data": game_data.check,
    "artwork": artwork.check,
    "text": text.check,
    "signs": signs.check,
    "rulebook": rulebook.check,
    "simulation": simulation.check,
}


def check_game(game: Game, *, sim_budget: float = SIM_BUDGET_SECONDS, paper: str = DEFAULT_PAPER) -> CheckResult:
    """Run every check; the result lists issues in check order (most basic first), each once: two
    checks that build the same rules engine may both pass on the data error it reports. `sim_budget`:
    the seconds the simulation may cost (on the reference cores), as the command line raised it. The
    cards must fit `paper`, the paper build imposes them on (checks/paper.py)."""
    result = CheckResult(game.id)
    checks: dict[str, Check] = {**CHECKS, "paper": partial(paper_fit.check, paper=paper),
                                "simulation": partial(simulation.check, budget=sim_budget)}
    seen: set[Issue] = set()  # a set, not the list: a map of thousands of findings made this quadratic
    for check in checks.values():
        for issue in check(game):
            if issue not in seen:
                seen.add(issue)
                result.issues.append(issue)
    return result
