"""The match convention most games share: a fixed number of games, the start moving clockwise, totals win.

An engine mixes this into its RulesGame and overrides what its rules say otherwise (gogyo breaks
ties in the total by the last game). jinzai plays its whole match inside one State, so one game is
its match.
"""
from __future__ import annotations

from collections.abc import Sequence

from .api import Seat, best_seats


class FixedGamesMatch:
    """match_over after games_per_match games; the next game starts one seat clockwise; the best total wins."""

    @property
    def games_per_match(self) -> int:
        return 1

    def next_first_player(self, first_player: Seat, num_players: int) -> Seat:
        return (first_player + 1) % num_players

    def match_over(self, deal_scores: Sequence[Sequence[int]]) -> bool:
        return len(deal_scores) >= self.games_per_match

    def match_winners(self, deal_scores: Sequence[Sequence[int]]) -> tuple[Seat, ...]:
        return best_seats([sum(column) for column in zip(*deal_scores)])
