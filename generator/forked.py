"""Run batches of independent work side by side: the first batch in this process, each other in a forked child.

A process pool costs more than short work saves (its workers start, are fed and are shut down: preflighting
gogyo's 148 card pages took 0.12-0.15 s in a pool against 0.09 s in one process); a bare fork of the build
costs a few milliseconds, so two files preflight in 0.05 s (issue 28). The child inherits everything already
imported and loaded, sends its results back pickled through a pipe, and leaves with os._exit, so none of this
process's cleanup (an output set's staging folder, atexit) ever runs twice.
"""
from __future__ import annotations

import os
import pickle
import signal
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


class ChildFailed(RuntimeError):
    """A forked child died or sent back nothing readable (killed, out of memory)."""


def balanced(items: Sequence[T], weight: Callable[[T], float], count: int) -> list[list[T]]:
    """`items` in at most `count` batches of about equal total weight (heaviest first into the lightest batch),
    each batch in the items' order; no empty batch."""
    batches: list[list[int]] = [[] for _ in range(max(1, min(count, len(items))))]
    loads = [0.0] * len(batches)
    for index in sorted(range(len(items)), key=lambda k: -weight(items[k])):
        lightest = loads.index(min(loads))
        batches[lightest].append(index)
        loads[lightest] += weight(items[index])
    return [[items[k] for k in sorted(batch)] for batch in batches if batch]


def forked_map(work: Callable[[T], R], items: Sequence[T], weight: Callable[[T], float], processes: int, *,
               worth: float) -> list[R]:
    """`work` over `items`, results in the items' order, the items shared by weight between up to `processes`
    processes (in_forks) once their total weight reaches `worth`: below it a fork costs more than it saves."""
    count = processes if sum(weight(item) for item in items) >= worth else 1
    batches = balanced(range(len(items)), lambda k: weight(items[k]), count)
    done = in_forks(lambda k: work(items[k]), batches)
    results: list[R] = [None] * len(items)  # type: ignore[list-item]  # every index is filled below
    for batch, found in zip(batches, done):
        for k, result in zip(batch, found):
            results[k] = result
    return results


def fork_child(run: Callable[[], object]) -> tuple[int, int]:
    """Fork a child that sends `run()`'s value back pickled through a pipe and leaves with os._exit, never
    returning into the caller's code; `run` handles its own exceptions (one it lets out sends nothing).
    Returns the child's pid and the pipe's read end, for child_result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            value = run()
            try:
                data = pickle.dumps(value)
            except Exception as exc:  # noqa: BLE001 - a value (an exception, say) that cannot be pickled
                data = pickle.dumps(ChildFailed(f"its result could not be sent ({type(exc).__name__}: {exc})"))
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
        finally:
            os._exit(0)
    os.close(write)
    return pid, read


def child_result(pid: int, read: int) -> tuple[bytes, int]:
    """All a fork_child sent (nothing when it was killed) and its wait status, once it has ended."""
    try:
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
    finally:
        _, status = os.waitpid(pid, 0)
    return data, status


def in_forks(work: Callable[[T], R], batches: Sequence[Sequence[T]]) -> list[list[R]]:
    """`work` over every batch's items, results batch by batch in order. An exception `work` raises in a child
    is raised here, as it would have been in this process; the children are always waited for."""
    if len(batches) < 2 or not hasattr(os, "fork"):
        return [[work(item) for item in batch] for batch in batches]
    def outcome(batch: Sequence[T]) -> tuple[bool, object]:
        try:
            return True, [work(item) for item in batch]
        except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
            return False, exc

    children: list[tuple[int, int]] = []  # (pid, read end of its pipe), until read
    finished = False
    try:
        for batch in batches[1:]:
            children.append(fork_child(partial(outcome, batch)))
        results = [[work(item) for item in batches[0]]]
        while children:
            data, _ = child_result(*children.pop(0))
            try:
                done, value = pickle.loads(data)
            except Exception:  # noqa: BLE001 - nothing or half a result: the child was killed
                raise ChildFailed("a forked worker stopped without a result") from None
            if not done:
                raise value
            results.append(value)
        finished = True
        return results
    finally:
        if not finished:  # this process failed or was interrupted: the others' work is not wanted
            for pid, read in children:
                os.close(read)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
