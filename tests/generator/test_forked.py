"""generator/forked.py: batches of work in forked children give what one process gives, errors included."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from generator.forked import ChildFailed, balanced, forked_map, in_forks


def _reaped(pids: set[int]) -> bool:
    """Every one of `pids` was waited for: none is left running or as a zombie."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


def _note_pid(folder: Path) -> None:
    (folder / str(os.getpid())).touch()


def _children(folder: Path) -> set[int]:
    return {int(path.name) for path in folder.iterdir()} - {os.getpid()}


def test_batches_hold_every_item_once_in_order_and_about_equal_weight() -> None:
    items = [5, 1, 1, 1, 1, 1, 3, 2]
    batches = balanced(items, float, 2)
    assert sorted(x for batch in batches for x in batch) == sorted(items)
    assert [sum(batch) for batch in batches] == [8, 7] or [sum(batch) for batch in batches] == [7, 8]
    assert balanced(items, float, 1) == [items]
    assert balanced([4], float, 3) == [[4]]  # no empty batch
    assert balanced([], float, 2) == []


def test_each_batch_after_the_first_runs_in_its_own_child_and_results_come_back_in_order() -> None:
    batches = [[1, 2], [3], [4, 5, 6]]
    found = in_forks(lambda n: (n * n, os.getpid()), batches)
    assert [[square for square, _ in results] for results in found] == [[1, 4], [9], [16, 25, 36]]
    pids = [{pid for _, pid in results} for results in found]
    assert pids[0] == {os.getpid()} and all(len(p) == 1 and os.getpid() not in p for p in pids[1:])
    assert len(pids[1] | pids[2]) == 2
    assert _reaped(pids[1] | pids[2])


def test_an_error_in_a_child_is_raised_here_and_every_child_is_reaped(tmp_path: Path) -> None:
    def work(n: int) -> int:
        _note_pid(tmp_path)
        if n == 3:
            raise ValueError("bad item 3")
        return n

    with pytest.raises(ValueError, match="bad item 3"):
        in_forks(work, [[1], [2], [3]])
    assert len(_children(tmp_path)) == 2 and _reaped(_children(tmp_path))


def test_a_child_that_dies_without_a_result_is_one_error(tmp_path: Path) -> None:
    def work(n: int) -> int:
        _note_pid(tmp_path)
        if n == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return n

    with pytest.raises(ChildFailed, match="stopped without a result"):
        in_forks(work, [[1], [2]])
    assert len(_children(tmp_path)) == 1 and _reaped(_children(tmp_path))


def test_an_error_here_stops_the_children(tmp_path: Path) -> None:
    def work(n: int) -> int:
        if n == 1:
            raise KeyError("here")
        _note_pid(tmp_path)
        signal.pause()  # a child would wait for ever: only the kill ends it
        return n

    with pytest.raises(KeyError):
        in_forks(work, [[1], [2], [3]])
    children = _children(tmp_path)  # a child killed before it noted itself is reaped all the same
    assert len(children) <= 2 and _reaped(children)


def test_a_forked_map_keeps_the_items_order_and_forks_only_from_its_worth() -> None:
    items = [3, 1, 4, 1, 5, 9, 2, 6]
    found = forked_map(lambda n: (n * 10, os.getpid()), items, float, 2, worth=31)
    assert [value for value, _ in found] == [n * 10 for n in items]
    assert len({pid for _, pid in found}) == 2  # total weight 31 reaches the worth: two processes
    alone = forked_map(lambda n: os.getpid(), items, float, 2, worth=32)
    assert set(alone) == {os.getpid()}  # below it, all here

