"""A game's output set is replaced whole or not at all (issue 12 items 3 and 4).

Failures and interruptions leave the earlier build byte-identical, concurrent builds of one
output folder are serialised and never tear a file, and a partial build (--only) keeps the
files and build.json entries it does not rewrite.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from deckcopies import copy_decks
from generator.build import BuildOptions, build_game, load_checked
from generator.elements import DrawError
from generator.output_set import Terminated, interruptible, locked, output_set
from validator.issues import Issue, Location
from validator.paths import DEFAULT_DECKS_DIR

FUDAYA = [str(Path(sys.executable).with_name("fudaya"))]  # the installed command, as a user runs it


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture()
def built(tmp_path: Path) -> tuple[Path, Path]:
    decks = copy_decks(tmp_path, "gogyo")
    output = tmp_path / "output"
    build_game(load_checked("gogyo", decks), BuildOptions(decks_dir=decks, output_dir=output, report=False))
    return decks, output


def test_a_build_failing_midway_leaves_the_earlier_set_whole(built: tuple[Path, Path],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    decks, output = built
    before = digest(output / "gogyo")
    assert {"cards.pdf", "rulebook.pdf", "build.json"} <= set(before)

    def fail(*args: object, **kwargs: object) -> None:
        raise DrawError([Issue(Location(Path("layout.json")), "x", "drawing failed after the cards were written")])

    import generator.rulebook
    monkeypatch.setattr(generator.rulebook, "write_rulebook", fail)
    with pytest.raises(DrawError):
        build_game(load_checked("gogyo", decks), BuildOptions(decks_dir=decks, output_dir=output, report=False,
                                                                paper="letter"))
    assert digest(output / "gogyo") == before
    assert sorted(p.name for p in output.iterdir()) == ["gogyo"]  # no staging folder left


def test_only_keeps_the_other_files_and_their_build_json_entries(built: tuple[Path, Path]) -> None:
    """`--only report` rewrote build.json with 0 placements; the rest of the set must survive too."""
    decks, output = built
    before = digest(output / "gogyo")
    manifest = json.loads((output / "gogyo" / "build.json").read_text(encoding="utf-8"))
    build_game(load_checked("gogyo", decks), BuildOptions(decks_dir=decks, output_dir=output, report=False,
                                                          only=("rulebook",)))
    after = digest(output / "gogyo")
    assert {k: v for k, v in after.items() if k != "build.json"} == {k: v for k, v in before.items()
                                                                     if k != "build.json"}
    merged = json.loads((output / "gogyo" / "build.json").read_text(encoding="utf-8"))
    assert merged["placements"] == manifest["placements"] and len(merged["placements"]) > 100
    assert sorted(f["file"] for f in merged["files"]) == sorted(f["file"] for f in manifest["files"])


def test_a_set_left_aside_by_a_killed_build_is_put_back(tmp_path: Path) -> None:
    """SIGKILL between the two renames leaves output/.gogyo.previous and no output/gogyo."""
    (tmp_path / ".gogyo.previous").mkdir()
    (tmp_path / ".gogyo.previous" / "cards.pdf").write_bytes(b"old")
    (tmp_path / ".gogyo.staging-99999").mkdir()
    with locked(tmp_path, "gogyo"):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gogyo"]
    assert (tmp_path / "gogyo" / "cards.pdf").read_bytes() == b"old"


@pytest.mark.parametrize("planted", ["gogyo", ".gogyo.previous"])
def test_a_game_folder_linked_elsewhere_is_neither_copied_nor_written_through(tmp_path: Path, planted: str) -> None:
    """A project shared with its output/ may hold output/gogyo (or the set a killed build left aside) as a link
    to any folder. A partial build copied that folder's files (an id_rsa) into the new set and left the link
    as .gogyo.previous; now the link is removed and the folder it points at is neither read nor changed."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "id_rsa").write_bytes(b"secret")
    (elsewhere / "export").mkdir()
    output = tmp_path / "output"
    output.mkdir()
    (output / planted).symlink_to(elsewhere, target_is_directory=True)
    with output_set(output, "gogyo", keep_previous=True) as staging:
        assert list(staging.iterdir()) == []  # nothing carried over from the folder linked to
        (staging / "cards.pdf").write_bytes(b"new")
    assert sorted(p.name for p in output.iterdir()) == ["gogyo"]
    assert not (output / "gogyo").is_symlink()
    assert sorted(p.name for p in (output / "gogyo").iterdir()) == ["cards.pdf"]
    assert sorted(p.name for p in elsewhere.iterdir()) == ["export", "id_rsa"]
    assert (elsewhere / "id_rsa").read_bytes() == b"secret" and list((elsewhere / "export").iterdir()) == []


@pytest.mark.parametrize("planted", [".cache", ".cache/locks", ".cache/locks/gogyo.lock"])
def test_a_lock_folder_or_file_linked_elsewhere_is_refused(tmp_path: Path, planted: str) -> None:
    """The lock file is made and removed in the output folder only: through a planted link the lock deleted
    gogyo.lock in the folder linked to (or made an empty file wherever a linked lock file pointed)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "gogyo.lock").write_bytes(b"keep")
    output = tmp_path / "output"
    (output / planted).parent.mkdir(parents=True)
    target = elsewhere / "made" if planted.endswith(".lock") else elsewhere
    (output / planted).symlink_to(target)
    with pytest.raises(OSError), locked(output, "gogyo"):
        pass
    assert sorted(p.name for p in elsewhere.iterdir()) == ["gogyo.lock"]
    assert (elsewhere / "gogyo.lock").read_bytes() == b"keep"


def test_an_exception_inside_the_block_removes_staging(tmp_path: Path) -> None:
    (tmp_path / "gogyo").mkdir()
    (tmp_path / "gogyo" / "a.pdf").write_bytes(b"earlier")
    with pytest.raises(KeyboardInterrupt), output_set(tmp_path, "gogyo", keep_previous=True) as staging:
        (staging / "a.pdf").write_bytes(b"half")
        raise KeyboardInterrupt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gogyo"]
    assert (tmp_path / "gogyo" / "a.pdf").read_bytes() == b"earlier"


def test_a_disk_filling_while_a_partial_build_copies_the_set_leaves_no_staging(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "gogyo").mkdir()
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        (tmp_path / "gogyo" / name).write_bytes(b"earlier " + name.encode())
    real_copy = shutil.copyfile
    copied: list[str] = []

    def fill_the_disk(source: str, target: str, **kwargs: object) -> object:
        if copied:
            raise OSError(28, "No space left on device", target)
        copied.append(source)
        return real_copy(source, target)

    monkeypatch.setattr(shutil, "copyfile", fill_the_disk)
    with pytest.raises(shutil.Error), output_set(tmp_path, "gogyo", keep_previous=True):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gogyo"]
    assert sorted(p.read_bytes() for p in (tmp_path / "gogyo").iterdir()) == [b"earlier a.pdf", b"earlier b.pdf",
                                                                              b"earlier c.pdf"]


def _fudaya(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*FUDAYA, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _sleep_forever() -> None:
    time.sleep(600)


def test_a_forked_child_dies_on_sigterm_while_the_parent_raises() -> None:
    """Simulation workers fork inside the build's block; a worker that raised Terminated inside a
    pool queue read could keep the queue's lock and hang the parent (a CI run hung 90 minutes)."""
    context = multiprocessing.get_context("fork")
    with interruptible():
        child = context.Process(target=_sleep_forever)
        child.start()
        time.sleep(0.2)
        child.terminate()
        child.join(timeout=10)
        assert child.exitcode == -signal.SIGTERM
        with pytest.raises(Terminated):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises before this ends


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupt_a_library_turned_into_another_error_is_still_an_interrupt(signum: int) -> None:
    """ReportLab's bare `except:` made Ctrl-C inside a PDF write a KeyError traceback, exit 1."""
    with pytest.raises(KeyboardInterrupt), interruptible():
        try:
            os.kill(os.getpid(), signum)
            time.sleep(5)
        except BaseException:  # noqa: BLE001 - what ReportLab's pdfdoc does
            raise KeyError("forward reference to 'Page100' not resolved upon final formatting") from None
    with pytest.raises(KeyError), interruptible():  # no signal: the error is the error
        raise KeyError("x")


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_build_leaves_the_earlier_set_whole(built: tuple[Path, Path], signum: int) -> None:
    decks, output = built
    before = digest(output / "gogyo")
    process = _fudaya("build", "gogyo", "--decks", str(decks), "--output", str(output), "--paper", "letter")
    deadline = time.monotonic() + 60
    while not list(output.glob(".gogyo.staging-*")) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # inside the build: some files of the new set are written
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "gogyo: interrupted" in stderr and "Traceback" not in stderr
    assert digest(output / "gogyo") == before
    assert sorted(p.name for p in output.iterdir()) == ["gogyo"]


@pytest.mark.slow
def test_concurrent_builds_of_one_folder_never_tear_a_file(tmp_path: Path) -> None:
    """Two builds into one folder at once: ENOENT, a PDF without /Root, build.json of another paper."""
    decks = copy_decks(tmp_path, "gogyo")
    output = tmp_path / "output"
    for _ in range(3):
        runs = [_fudaya("build", "gogyo", "--no-report", "--decks", str(decks), "--output", str(output),
                        "--paper", paper) for paper in ("a4", "letter")]
        for run in runs:
            _, stderr = run.communicate(timeout=120)
            assert run.returncode == 0, stderr
        manifest = json.loads((output / "gogyo" / "build.json").read_text(encoding="utf-8"))
        for entry in manifest["files"]:
            path = output / entry["file"]
            subprocess.run(["qpdf", "--check", str(path)], check=True, capture_output=True)
            box = PdfReader(path).pages[0].mediabox
            size = [round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)]
            assert size == [round(v, 1) for v in entry["page_size"]], entry["file"]
        assert sorted(p.name for p in output.iterdir()) == ["gogyo"]
        assert not list((output / "gogyo").glob(".*"))



def test_the_lock_is_per_game_and_leaves_no_file(tmp_path: Path) -> None:
    """Builds of different games into one folder run side by side; one game's builds wait for each
    other; a released lock leaves nothing in the output folder."""
    with locked(tmp_path, "gogyo"):
        with locked(tmp_path, "jinzai"):  # another game: not blocked (a folder-wide lock would hang here)
            pass
        waiter = subprocess.Popen([sys.executable, "-c", "import sys; from pathlib import Path; "
                                   "from generator.output_set import locked\n"
                                   "with locked(Path(sys.argv[1]), 'gogyo'): print('got it', flush=True)",
                                   str(tmp_path)], stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        assert waiter.poll() is None  # the same game: it waits
    out, _ = waiter.communicate(timeout=30)
    assert out == "got it\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="games are built side by side only with two cores")
def test_games_built_side_by_side_match_one_by_one_and_an_interrupt_keeps_every_earlier_set(
        tmp_path: Path) -> None:
    decks = copy_decks(tmp_path, "gogyo")
    shutil.copytree(DEFAULT_DECKS_DIR / "jinzai", decks / "jinzai")
    alone, together = tmp_path / "alone", tmp_path / "together"
    for game in ("gogyo", "jinzai"):
        subprocess.run([*FUDAYA, "build", game, "--no-report", "--decks", str(decks), "--output", str(alone)],
                       check=True, capture_output=True)
    run = subprocess.run([*FUDAYA, "build", "--no-report", "--decks", str(decks), "--output", str(together)],
                         check=True, capture_output=True, text=True)
    assert digest(alone) == digest(together)  # the same bytes, whichever process drew them
    assert [line.split(":")[0] for line in run.stdout.splitlines() if " built in " in line] == ["gogyo", "jinzai"]
    before = digest(together)
    process = subprocess.Popen([*FUDAYA, "build", "--no-report", "--marks", "western", "--decks", str(decks),
                                "--output", str(together)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 60
    while len(list(together.glob(".*.staging-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.3)  # both games are drawing
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "gogyo: interrupted" in stderr and "jinzai: interrupted" in stderr
    assert digest(together) == before
    assert sorted(p.name for p in together.iterdir()) == ["gogyo", "jinzai"]


@pytest.mark.parametrize("forged", ["[]", "{", '{"files": 3, "placements": {"a": 1}, "data_files": 7}',
                                    '{"files": [1, "x", null]}', "[" * 80])
def test_a_forged_build_json_is_ignored_by_the_next_partial_build(tmp_path: Path, forged: str) -> None:
    from generator.build import _merged, _previous_manifest

    path = tmp_path / "build.json"
    path.write_text(forged, encoding="utf-8")
    previous = _previous_manifest(path)
    current = {"files": [{"file": "gogyo/cards.pdf"}], "data_files": [], "placements": []}
    assert _merged(previous, current)["files"] == [{"file": "gogyo/cards.pdf"}]
