"""Benchmark: how much better than its greedy heuristic can one sengoku seat play? (issue 27)

Three greedy seats and one seat that plays the heuristic except at its discards, on the same seeded
deals for every variant, 4 players. Why: a sengoku game is a race to lay out four names, two in three
of them made by stealing a discard (greedy self-play, 500 games: 10.0 steals and 15.0 names a game,
495 ended by the hands emptying), so the one lever a discard has beyond the heuristic's own hand value
is not to feed a rival the card that completes a pair. The variants bound that lever:

- greedy: the heuristic itself (the fair share is 25 %);
- oracle: sees the others' real hands and takes PENALTY off a discard any of them could steal (a
  ceiling: no seat may see them);
- dealt: the same penalty times the share of K dealt states (the search's determinizer, uniform over
  what the seat has not seen) in which a rival could steal it;
- inferred: as dealt, each deal redrawn (up to TRIES times) while a rival could have stolen one of the
  last three discards, which greedy rivals never pass up;
- outs: no penalty, a pair valued by how many copies of its missing card are unseen (a better hand
  value, not a search).

To be shown stronger in the ladder (cap 200, ten looks) a seat needs about 31.5 % at its cap; at 1,000
matches about 27.8 % (before the test's looks were Haybittle-Peto: 34 % and 29 %). Measured 2026-11-28
(seeds 10,000 on, make fast): greedy 24.9 % [23.0, 26.8] of 2,000;
oracle 28.9 % [27.0, 30.9] of 2,000; dealt 24.7 % [22.1, 27.5] of 1,000; inferred 26.5 % [23.9, 29.3]
of 1,000; outs (5, 10, 15 for 1, 2, 3+ copies) 24.8 % [22.9, 26.7] of 2,000. With PENALTY 3: oracle
28.8 % [26.9, 30.8] and inferred 26.9 % [25.0, 28.8] of 2,000 (2 gives 27.6 %, 8 27.7 %, 12 22.8 %).

Run: .venv/bin/python bench/bench_sengoku_ceiling.py [matches] [variant ...]
"""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from validator.engine.registry import engine_for, find_spec
from validator.games.sengoku.policies import CREST, NAME, SINGLE, _shapes, _unseen, _without, hand_value
from validator.games.sengoku.rules import DISCARD, decode
from validator.intervals import wilson
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR

PENALTY = 5.0  # half a pair of the heuristic's hand value
K = 20  # states dealt per discard
TRIES = 30
OUTS = (5.0, 10.0, 15.0)  # a pair's value with 1, 2, 3 or more copies of its missing card unseen

GAME = engine_for(load_game(DEFAULT_DECKS_DIR, "sengoku"))
SPEC = find_spec("sengoku")
TABLE = GAME.table
greedy = SPEC.greedy


def could_steal(state, seat, card_type) -> bool:
    """Could a seat other than `seat` steal a discard of `card_type` in this (whole) state?"""
    for other in range(state.num_players):
        held = state.counts[other]
        if other != seat and any(held[a] and held[b] > d for _, a, b, d in GAME.steal_names[card_type]):
            return True
    return False


def discard_by(value: Callable[[object, int], float]) -> Callable[[object, Sequence[int], random.Random], int]:
    """A seat that discards the card of best `value(state, type)` (ties at random), else plays greedy."""
    def choose(state, legal, rng):
        obs = state.observation(state.player)
        if decode(legal[0])[0] != DISCARD:
            return greedy(obs, legal, rng)
        score = value(state, obs, rng)
        values = [score(decode(a)[1]) for a in legal]
        return rng.choice([a for a, v in zip(legal, values) if v >= max(values) - 1e-9])
    return choose


def kept(obs, card_type) -> float:
    return hand_value(TABLE, tuple(sorted(_without(obs.hand, (card_type,)))), _unseen(obs))


def oracle(state, obs, rng):
    return lambda t: kept(obs, t) - PENALTY * could_steal(state, obs.seat, t)


def dealt_with(recent: int):
    def value(state, obs, rng):
        deals = []
        for _ in range(K):
            for _ in range(TRIES):
                deal = SPEC.determinize(obs, rng)
                if not any(could_steal(deal, obs.seat, t) for t in obs.discards[-recent:] if recent):
                    break
            deals.append(deal)
        return lambda t: kept(obs, t) - PENALTY * sum(could_steal(d, obs.seat, t) for d in deals) / K
    return value


def outs(state, obs, rng):
    unseen = _unseen(obs)

    def value(card_type):
        hand = tuple(sorted(_without(obs.hand, (card_type,))))
        counts = {t: hand.count(t) for t in set(hand)}
        seen, total = set(), 0.0
        for t in counts:
            for shape in _shapes(TABLE)[t]:
                if shape in seen:
                    continue
                seen.add(shape)
                have, live = 0, 99
                for u, copies in shape:
                    held = counts.get(u, 0)
                    have += min(held, copies)
                    if held < copies:
                        live = min(live, unseen[u])
                if have < 3 and live > 0:
                    total += OUTS[min(live, 3) - 1] if have == 2 else SINGLE
        return NAME * TABLE.packing(hand) + total - CREST * sum(TABLE.crests[t] for t in hand)
    return value


VARIANTS = {"greedy": None, "oracle": discard_by(oracle), "dealt": discard_by(dealt_with(0)),
            "inferred": discard_by(dealt_with(3)), "outs": discard_by(outs)}


def play(variant: str, matches: int) -> None:
    seat = VARIANTS[variant]
    start, wins = time.perf_counter(), 0.0
    for i in range(matches):
        rng = random.Random(10_000 + i)
        state = GAME.new_initial_state(rng, 4)
        while not state.is_terminal():
            legal, player = state.legal_actions(), state.current_player()
            if len(legal) == 1:
                action = legal[0]
            elif player == 0 and seat is not None:
                action = seat(state, legal, rng)
            else:
                action = greedy(state.observation(player), legal, rng)
            state.apply_action(action)
        winners = state.outcome().winners
        wins += 1 / len(winners) if 0 in winners else 0.0
    low, high = wilson(wins, matches)
    print(f"{variant}: {wins / matches:.1%} [{low:.1%}, {high:.1%}] of {matches:,} "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    for variant in sys.argv[2:] or list(VARIANTS):
        play(variant, matches)


if __name__ == "__main__":
    main()
