"""What a rules engine vouches for in a rulebook: the RulebookOracle protocol and its answers.

A rulebook states facts a game's rules decide — "this hand scores 16", "these are the decisions
the source rules leave open". The generic rulebook check asks the game's oracle (its spec's
`oracle`, found through the registry) and never imports a game module itself.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

TOTAL = "total"  # the part every oracle scores; "best order" examples maximise it


@dataclass(frozen=True)
class HandScoreClaim:
    """How the rules engine scores a written hand: points by part (always with TOTAL) and the order scored."""

    points: Mapping[str, int]
    order: tuple[str, ...]


@dataclass(frozen=True)
class ClarificationRef:
    """A decision the engine makes where the source rules are silent: its id and its statement."""

    id: str
    text: str


class RulebookOracle(Protocol):
    """The rules engine's answers to a rulebook's claims."""

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts of a score, e.g. ("dynasty", "element", "total")."""
        ...

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        """Every decision the engine makes that the source rules leave open."""
        ...

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        """Score a hand as written (`ordered`) or in its best order; ValueError naming a bad hand."""
        ...

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The card-file ids each token of a hand names, one stack per token in order, each listed
        bottom to top (a single card for games whose tokens are cards); ValueError naming a bad token."""
        ...
