"""A game's output folder replaced as a whole or not at all, one build at a time.

A build writes into a staging folder beside `output/<game>/` and, once every file is complete,
swaps it in with two renames (the old set moved aside, the staging folder renamed in) before
the old set is removed. A failure, Ctrl-C or SIGTERM (see `interruptible`) removes the
staging folder and leaves the earlier set untouched. A lock per game serialises builds of that
game into one output folder (builds of different games run side by side); under it, leftovers of
a killed build are cleaned up, and an old set a SIGKILL left aside between the two renames is put
back. Commands that make a folder inside the set from the built files (export, proof) publish it
the same way (`published`), taking the lock only to start and to swap.
"""
from __future__ import annotations

import errno
import fcntl
import os
import secrets
import shutil
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from validator.deckfs import ConfinedError, real_folder


def _aside(final: Path) -> Path:
    return final.with_name(f".{final.name}.previous")


def put_back(final: Path) -> None:
    """Finish or undo a swap a SIGKILL stopped: the old folder goes if the new one is in, else it comes back.
    A link at the old folder's name is no set this tool moved aside: it is removed, never followed."""
    aside = _aside(final)
    if aside.is_symlink():
        aside.unlink()
    elif aside.exists():
        if final.exists():
            shutil.rmtree(aside, ignore_errors=True)
        else:
            os.rename(aside, final)


def swap_in(staging: Path, final: Path) -> None:
    """Replace `final` by the complete `staging` folder: the old one renamed aside, staging renamed in, the
    old one removed. Only under the game's lock: between the two renames `final` does not exist."""
    aside = _aside(final)
    if final.is_symlink():  # not a set of ours: the link goes, what it points at stays untouched
        final.unlink()
    elif final.exists():
        os.rename(final, aside)
    os.rename(staging, final)
    shutil.rmtree(aside, ignore_errors=True)


def _recover(root: Path, game_id: str) -> None:
    """Undo what a killed build left behind (only called under the lock: no build is running).

    The output folder is data (docs/security.md): in a project shared with its output/, the game's folder may
    be a link to any folder on the machine. It is no set of ours: the link is removed, never followed, so no
    build copies that folder's files into the new set and no export or proof is published into it."""
    final = root / game_id
    if final.is_symlink():
        final.unlink()
    put_back(final)
    for stale in root.glob(f".{game_id}.staging-*"):
        shutil.rmtree(stale, ignore_errors=True)


LOCKS = ".cache/locks"  # under the output folder, beside the report cache


@contextmanager
def locked(root: Path, game_id: str) -> Iterator[None]:
    """Hold the game's lock in this output folder; a second build of the game into it waits here.

    The lock is flock on OUTPUT/.cache/locks/<game>.lock. The holder removes the file (and the
    folders, when empty) before it lets go, so a build leaves nothing behind; a waiter that then
    holds a removed file's lock notices the path names another file, or none, and tries again."""
    folder = root / LOCKS
    path = folder / f"{game_id}.lock"
    root.mkdir(parents=True, exist_ok=True)  # first, so that a folder that cannot be made is the one named
    while True:
        try:  # no link on the way, nor at the lock file: it is made, and removed, in this output folder only
            real_folder(root, LOCKS)
        except ConfinedError as exc:
            raise NotADirectoryError(errno.ENOTDIR, str(exc), str(folder)) from None
        try:
            descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except FileNotFoundError:  # the folder went with a finishing build's lock file: make it again
            continue
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        try:
            if os.stat(path).st_ino == os.fstat(descriptor).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(descriptor)
    try:
        _recover(root, game_id)
        yield
    finally:
        path.unlink(missing_ok=True)
        for empty in (folder, folder.parent):
            try:
                empty.rmdir()
            except OSError:  # not empty (another game's lock, the report cache): keep it
                break
        os.close(descriptor)  # closing releases the lock


@contextmanager
def output_set(root: Path, game_id: str, *, keep_previous: bool) -> Iterator[Path]:
    """Yield a staging folder to write the game's files into; swap it in if the block finishes.

    With `keep_previous` (a partial build: --only, --no-report) the staging folder starts as a copy
    of the current set, so the files not rebuilt survive the swap.
    """
    with locked(root, game_id):
        final = root / game_id
        staging = root / f".{game_id}.staging-{os.getpid()}"
        try:
            if keep_previous and final.is_dir():  # inside the try: a disk that fills during the copy
                shutil.copytree(final, staging, symlinks=True)  # leaves no half-copied staging folder
            else:
                staging.mkdir()
            yield staging
            swap_in(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise


@contextmanager
def published(root: Path, game_id: str, final: Path, *, verify: Callable[[], None]) -> Iterator[Path]:
    """Yield an empty folder for the new contents of `final` (a folder inside the game's set, such as
    export/png); swap it in under the game's lock when the block finishes, if `verify` does not raise.

    The work runs without the lock (a build of the game need not wait for it), so the staging folder
    lies beside the game's folder, not in it: a build replacing the set meanwhile neither copies it
    along nor deletes it, and `verify` (called under the lock) refuses to publish what was made from
    a set since replaced. A failure, Ctrl-C or SIGTERM removes the staging folder. Its writer holds an
    flock on it; one whose flock can be taken was left by a killed process and goes on the next start.
    """
    label = "-".join(final.relative_to(root / game_id).parts)
    staging: Path | None = None
    held: int | None = None
    try:
        with locked(root, game_id):
            _remove_abandoned(root, game_id)
            staging = root / f".{game_id}.{label}.staging-{os.getpid()}-{secrets.token_hex(4)}"
            staging.mkdir()  # not mkdtemp: the published folder gets the usual permissions
            held = os.open(staging, os.O_RDONLY)
            fcntl.flock(held, fcntl.LOCK_EX)
        yield staging
        with locked(root, game_id):
            verify()
            final.parent.mkdir(parents=True, exist_ok=True)
            put_back(final)
            swap_in(staging, final)
    except BaseException:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if held is not None:
            os.close(held)


def _remove_abandoned(root: Path, game_id: str) -> None:
    """Remove the game's `published` staging folders whose writer is gone (only under the game's lock)."""
    for folder in root.glob(f".{game_id}.*.staging-*"):
        try:
            probe = os.open(folder, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # its writer is at work
        finally:
            os.close(probe)
        shutil.rmtree(folder, ignore_errors=True)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so every cleanup that runs on an interrupt runs on it too."""


@contextmanager
def interruptible() -> Iterator[None]:
    """Within the block Ctrl-C and SIGTERM raise KeyboardInterrupt (Terminated for SIGTERM).

    Such an exception can land inside a library: ReportLab's bare `except:` turns one raised
    while it writes a PDF into a KeyError. Any exception leaving the block after a signal
    arrived is therefore raised as the interrupt it really is.
    """
    owner = os.getpid()
    received: list[int] = []

    def raise_interrupt(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:
            # A forked child (a simulation worker) inherited this handler: it must die as the
            # signal asks. Raising here instead can leave a pool queue's lock held and hang the parent.
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        received.append(signum)
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()

    previous = {signum: signal.signal(signum, raise_interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    except Exception as exc:
        if received:
            raise (Terminated() if signal.SIGTERM in received else KeyboardInterrupt()) from exc
        raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
