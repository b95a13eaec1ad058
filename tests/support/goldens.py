"""Readable seeded goldens for rules engines: one played-out match step by step, and simulate() records.

A golden file holds plain lines a reviewer can read (who did what, how games ended, totals over a
few hundred seeded matches), so a changed rule or policy shows as a readable diff rather than a
changed digest. Set FUDAYA_UPDATE_GOLDENS=1 to rewrite the files after a deliberate change.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from validator.engine.api import RulesGame
from validator.engine.policies import find_policy
from validator.simulate import MatchRecord, SimConfig, derive_seed, simulate

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "goldens"
UPDATE = os.environ.get("FUDAYA_UPDATE_GOLDENS") == "1"


def playthrough(engine: RulesGame, names: Sequence[str], seed: int, index: int = 0) -> list[str]:
    """Match `index` of a simulate() run, played through the State API with a line per decision."""
    policies = [find_policy(name, engine.engine) for name in names]
    chance = random.Random(derive_seed(seed, index, "chance"))
    choice = random.Random(derive_seed(seed, index, "policy"))
    lines = [f"# playthrough: {engine.name}, {len(names)} players ({', '.join(names)}), seed {seed}, match {index}"]
    scores: list[tuple[int, ...]] = []
    first: int | None = None
    while not engine.match_over(scores):
        state = engine.new_initial_state(chance, len(names), first_player=first, previous_scores=scores)
        lines.append(f"game {len(scores) + 1}: P{state.current_player() + 1} starts")
        start = state.current_player()
        while not state.is_terminal():
            player = state.current_player()
            legal = state.legal_actions()
            wants = policies[player].needs_observation
            action = policies[player].choose(state.observation(player) if wants else None, legal, choice)
            lines.append(f"  t{state.turn_number()} P{player + 1} ({len(legal)} legal): "
                         f"{state.action_to_string(action)}")
            state.apply_action(action)
        outcome = state.outcome()
        lines.append(f"  end: {outcome.reason} after {outcome.turns} turns; scores {list(outcome.scores)}; "
                     f"winners {[w + 1 for w in outcome.winners]}")
        scores.append(tuple(outcome.scores))
        first = engine.next_first_player(start, len(names))
    lines.append(f"match winners {[w + 1 for w in engine.match_winners(scores)]}")
    return lines


def _match_line(record: MatchRecord) -> str:
    games = "; ".join(f"P{g.first_player + 1} first, {g.turns} turns, {g.steps} steps, {g.end}, scores {list(g.scores)}"
                      for g in record.games)
    return f"match {record.index}: {games} -> winners {[w + 1 for w in record.winners]}"


def records_summary(engine: RulesGame, names: Sequence[str], matches: int, seed: int, *, shown: int = 8,
                    check_invariants: bool = False) -> list[str]:
    """simulate() records: the first `shown` matches a line each, then totals over all `matches`. With
    `check_invariants` every step is checked (and no engine shortcut may stand in for the State API)."""
    config = SimConfig(len(names), tuple(names), matches, seed=seed, check_invariants=check_invariants)
    records = simulate(engine, config)
    lines = [f"# records: {engine.name}, {len(names)} players ({', '.join(names)}), {matches} matches, seed {seed}"]
    lines += [_match_line(r) for r in records[:shown]]
    games = [g for r in records for g in r.games]
    ends = Counter(g.end for g in games)
    wins = Counter(w for r in records for w in r.winners)
    actions = [sum(column) for column in zip(*(g.actions for g in games))]
    counters: Counter[str] = Counter()
    for g in games:
        counters.update(dict(g.counters))
    lines.append(f"totals: {len(games)} games, {sum(g.turns for g in games)} turns, "
                 f"{sum(g.steps for g in games)} steps, {sum(g.decisions for g in games)} decisions, "
                 f"{sum(g.choices for g in games)} with a choice")
    points = [sum(r.totals[s] for r in records) for s in range(len(names))]
    lines.append(f"totals: ends {dict(sorted(ends.items()))}; match wins by seat "
                 f"{[wins[s] for s in range(len(names))]}; points {points}")
    lines.append(f"totals: actions {dict(zip(engine.action_kinds, actions))}; "
                 f"counters {dict(sorted(counters.items()))}")
    return lines


def check_golden(name: str, lines: Sequence[str]) -> None:
    """Compare with tests/goldens/<name>.txt (or write it when FUDAYA_UPDATE_GOLDENS=1).

    The diff names the first change.
    """
    path = GOLDEN_DIR / f"{name}.txt"
    text = "\n".join(lines) + "\n"
    if UPDATE or not path.exists():
        if not UPDATE:
            raise AssertionError(f"{path} does not exist; run with FUDAYA_UPDATE_GOLDENS=1 to create it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, lines), start=1):
        assert got == want, f"{path.name}:{number}: expected\n  {want}\ngot\n  {got}"
    assert len(lines) == len(expected), f"{path.name}: {len(expected)} lines expected, {len(lines)} produced"
