"""Score a hand written as tokens, for `fudaya score`: one adapter over any game's rulebook oracle.

A game's oracle already scores the hands its rulebook writes (RulebookOracle.score), with the
engine's own scorer and token syntax; the command needs the same answer, so it asks the oracle
rather than a second parser per game. What the oracle does not know is how to show a score:
whether the order of the tokens matters (gogyo searches the best order; jinzai columns and
sengoku cards have none) and what to call each part. A game's SPEC says that with `from_oracle`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .claims import TOTAL, HandScoreClaim, RulebookOracle

if TYPE_CHECKING:
    from ..model import Game


class HandScorer(Protocol):
    """Scores a written hand for people: its parts, their labels and whether the order matters."""

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of a score, TOTAL among them."""
        ...

    @property
    def order_matters(self) -> bool:
        """Whether the score depends on the order of the tokens (then `score` finds the best one)."""
        ...

    def label(self, part: str) -> str:
        """How a part is named when printed."""
        ...

    def score(self, tokens: Sequence[str]) -> HandScoreClaim:
        """The best score of the hand; ValueError saying what is wrong with a bad token or hand."""
        ...


@dataclass(frozen=True)
class OracleScorer:
    """A HandScorer that asks a rulebook oracle for the hand's best score."""

    oracle: RulebookOracle
    order_matters: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)

    @property
    def parts(self) -> tuple[str, ...]:
        return self.oracle.parts

    def label(self, part: str) -> str:
        return self.labels.get(part, part)

    def score(self, tokens: Sequence[str]) -> HandScoreClaim:
        # ordered=False: the best order when order matters; games without one ignore the flag.
        return self.oracle.score(tokens, ordered=False)


def from_oracle(oracle: Callable[[Game], RulebookOracle], *, order_matters: bool = False,
                labels: Mapping[str, str] | None = None) -> Callable[[Game], HandScorer]:
    """A GameSpec.scorer built on the game's oracle factory; `labels` name parts for printing."""
    names = dict(labels or {})

    def build(model: Game) -> HandScorer:
        return OracleScorer(oracle(model), order_matters, names)

    return build


def score_fields(scorer: HandScorer, claim: HandScoreClaim) -> dict[str, object]:
    """The JSON shape of a score: {"total", every other part in the scorer's order, "order"}. A part the
    hand does not have is left out (sangokushi scores a battle and a lord's death with different parts)."""
    parts = {part: claim.points[part] for part in scorer.parts if part != TOTAL and part in claim.points}
    return {TOTAL: claim.points[TOTAL], **parts, "order": list(claim.order)}
