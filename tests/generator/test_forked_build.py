"""A build draws its card files in forked processes (generator/build.py `_drawn`): the same bytes, the same
build.json and the same progress as drawn one after another in one process."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from generator.build import FORK_SIDES, BuildOptions, build_game, load_checked
from validator.paths import DEFAULT_DECKS_DIR


def _built(out: Path, processes: int) -> tuple[dict[str, str], int]:
    steps: list[int] = []
    game = load_checked("gogyo", DEFAULT_DECKS_DIR)
    assert sum(len(deck.copies()) for deck in game.decks) >= FORK_SIDES  # enough sides that it forks
    build_game(game, BuildOptions(output_dir=out, report=False, only=("cards", "score-sheet")),
               progress=steps.append, preflight_workers=processes)
    files = {str(path.relative_to(out)): hashlib.sha256(path.read_bytes()).hexdigest()
             for path in sorted(out.rglob("*")) if path.is_file()}
    return files, sum(steps)


def test_card_files_drawn_side_by_side_are_the_files_drawn_one_by_one(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    forks: list[int] = []
    fork = os.fork

    def counted_fork() -> int:
        pid = fork()
        if pid:
            forks.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", counted_fork)
    one, one_steps = _built(tmp_path / "one", 1)
    assert forks == []  # one process: nothing forked
    two, two_steps = _built(tmp_path / "two", 2)
    assert len(forks) == 2  # two: a child drew one of the card files, and another preflighted one
    assert {"gogyo/cards.pdf", "gogyo/cards-printshop.pdf", "gogyo/build.json"} <= one.keys()
    assert two == one and two_steps == one_steps > 0
