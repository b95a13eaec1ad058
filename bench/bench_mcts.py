"""Benchmark: how strong the search policies play against greedy, and how long it takes (issues 15 and 27).

Each line is one ladder pair as `fudaya build --studies` plays it: the search in seat 1 against greedy
in every other seat, a sequential test that stops once the search is shown stronger than the fair
share or cannot be by the cap, with the seat's win rate and 95 % interval, the fair share (1/n; in a
team game greedy's own rate in that seat, from its self-play), the matches played and the wall time.
Issue 27's targets: in every game a search of at most 200 (mcts:200 or pimc:200) shown stronger than
greedy; gogyo at 4 players at 40 % or more with its interval above the fair share.

Run: .venv/bin/python bench/bench_mcts.py [cap] [game:policy[:budget] ...]
     (default cap 200; default pairs: each shipped game with its game.json ladder's strongest rung)
e.g. .venv/bin/python bench/bench_mcts.py 200 gogyo:pimc:200 gogyo:mcts:200 sengoku:pimc:100
"""
from __future__ import annotations

import sys
import time
from dataclasses import replace

from validator.engine.api import TeamVictory
from validator.engine.registry import engine_for
from validator.ladder import LadderPlan, climb
from validator.loader import find_games, load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, default_workers


def pair(game_id: str, policy: str | None, cap: int) -> None:
    model = load_game(DEFAULT_DECKS_DIR, game_id)
    engine = engine_for(model)
    plan = SimulationPlan.from_game(model)
    given = LadderPlan.from_game(model)
    if plan is None or given is None:
        print(f"{game_id}: no simulation ladder in game.json")
        return
    search = policy or given.rungs[-1]
    team = isinstance(engine, TeamVictory) and engine.team_victory
    ladder = LadderPlan(("greedy", search), cap, (200 if team else 0, 0), given.players)
    start = time.perf_counter()
    (result,) = climb(engine, replace(plan, precision=0.0), ladder, workers=default_workers()).pairs
    low, high = result.ci95
    print(f"{game_id} {given.players}p {search} over greedy: {result.rate:.1%} [{low:.1%}, {high:.1%}] against "
          f"{result.reference:.1%}, {result.matches} of {cap} matches, "
          f"{'shown' if result.separated else 'not shown'}, {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    cap = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    asked = sys.argv[2:] or find_games(DEFAULT_DECKS_DIR)
    for item in asked:
        game_id, _, policy = item.partition(":")
        pair(game_id, policy or None, cap)


if __name__ == "__main__":
    main()
