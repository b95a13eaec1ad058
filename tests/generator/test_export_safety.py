"""Export and proof against hostile output folders and interruptions (issue 23): a forged build.json is one
located line, a failed, interrupted or overtaken run leaves the earlier folder byte-identical and no staging
folder, and memory does not grow with the number of cards."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import generator.export
from deckcopies import assert_located
from generator.build import BuildOptions, build_game, load_checked
from generator.cli import app
from generator.output_set import locked, published
from validator.paths import DEFAULT_DECKS_DIR

pytestmark = pytest.mark.slow  # reads the session's gogyo build (conftest.gogyo_build)

FUDAYA = [str(Path(sys.executable).with_name("fudaya"))]
REBUILD = "; rebuild with `fudaya build gogyo`"


def digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(output: Path) -> list[str]:
    """Anything but the game's folder in the output folder, or hidden inside the game's export folder."""
    export = output / "gogyo" / "export"
    hidden = [p.name for p in export.glob(".*")] if export.is_dir() else []
    return sorted([p.name for p in output.iterdir() if p.name != "gogyo"] + hidden)


@pytest.fixture()
def output(gogyo_build: Path, tmp_path: Path) -> Path:
    """A copy of the session's gogyo build (without what other tests exported), to export from and break."""
    shutil.copytree(gogyo_build, tmp_path / "output" / "gogyo", ignore=shutil.ignore_patterns("export", "proof"))
    return tmp_path / "output"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


COMMANDS = {"png": ("export", "gogyo", "--dpi", "72"), "tts": ("export", "gogyo", "--format", "tts", "--local"),
            "proof": ("proof", "gogyo")}
FOLDERS = {"png": "export/png", "tts": "export/tts", "proof": "proof"}


def _edit(output: Path, change: Callable[[Any], None]) -> None:
    path = output / "gogyo" / "build.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _set(key: str, value: object, index: int = 3, field: str = "placements") -> Callable[[Any], None]:
    return lambda data: data[field][index].__setitem__(key, value)


FORGED: dict[str, tuple[Callable[[Any], None], str, str]] = {
    "traversal": (_set("file", "../../etc/passwd"), "$.placements[3].file", "plain file name"),
    "traversal inside the game's prefix": (_set("file", "gogyo/../../etc/passwd"), "$.placements[3].file",
                                           "plain file name"),
    "absolute": (_set("file", "/etc/passwd"), "$.placements[3].file", "plain file name"),
    "another game's file": (_set("file", "jinzai/cards.pdf"), "$.placements[3].file", "plain file name"),
    "hidden": (_set("file", "gogyo/.gogyo.previous"), "$.placements[3].file", "plain file name"),
    "missing": (_set("file", "gogyo/nothing.pdf"), "$.placements[3].file", "no such file"),
    "not a PDF": (_set("file", "gogyo/build.json"), "$.placements[3].file", "not a PDF"),
    "page 10**9": (_set("page", 10**9), "$.placements[3].page", "is not a page of"),
    "page 0": (_set("page", 0), "$.placements[3].page", "is not a page of"),
    "page as text": (_set("page", "1"), "$.placements[3].page", "is not a page of"),
    "page true": (_set("page", True), "$.placements[3].page", "is not a page of"),
    "side as a path": (_set("side", "../../x"), "$.placements[3].side", "neither 'front' nor 'back'"),
    "box as text": (_set("x", "8.5"), "$.placements[3].x", "not a finite number"),
    "box off the page": (_set("width", 1e300), "$.placements[3]", "is not inside page"),
    "negative box": (_set("x", -20), "$.placements[3]", "is not inside page"),
    "empty box": (_set("height", 0), "$.placements[3]", "is not inside page"),
    "placement not an object": (lambda data: data["placements"].__setitem__(3, [1, 2]), "$.placements[3]",
                                "not an object"),
    "placements not a list": (lambda data: data.__setitem__("placements", {"a": 1}), "$.placements", "not a list"),
    "proof's link": (_set("file", "gogyo/../../etc/passwd", index=0, field="files"), "$.files[0].file",
                     "plain file name"),
}


def _refused(output: Path, command: tuple[str, ...], path: str, words: str) -> None:
    code, _, stderr = _run(*command, "--output", str(output))
    assert code == 1, stderr
    [line] = stderr.splitlines()
    assert line.endswith(REBUILD) and f": {path}: " in line and words in line, line
    assert_located(line.removesuffix(REBUILD))
    assert sorted(p.name for p in (output / "gogyo").iterdir() if p.is_dir()) == []  # nothing exported
    assert leftovers(output) == []


@pytest.mark.parametrize("case", sorted(FORGED))
def test_a_forged_build_json_is_one_located_line(output: Path, case: str) -> None:
    change, path, words = FORGED[case]
    _edit(output, change)
    _refused(output, COMMANDS["png"], path, words)


@pytest.mark.parametrize("case", ["traversal", "page 10**9", "proof's link"])
def test_tts_and_proof_read_build_json_the_same_way(output: Path, case: str) -> None:
    change, path, words = FORGED[case]
    _edit(output, change)
    _refused(output, COMMANDS["tts"], path, words)
    _refused(output, COMMANDS["proof"], path, words)


RAW: dict[str, tuple[Callable[[str], str], str]] = {
    "NaN box": (lambda text: text.replace('"x": 8.5', '"x": NaN', 1), "$.placements[0].x: NaN is not a JSON number"),
    "infinite box": (lambda text: text.replace('"y": 198.5', '"y": 1e999', 1), "is not a JSON number"),
    "huge file": (lambda text: text[:-2] + " " * 67_200_000 + text[-2:], "$: larger than 67,108,864 bytes"),
    "cut short": (lambda text: text[: len(text) // 2], "invalid JSON"),
    "deep": (lambda text: "[" * 100 + "]" * 100, "nest deeper than 64"),
    "not an object": (lambda text: "[]", "$: not a JSON object"),
    "a 40-digit page": (lambda text: text.replace('"page": 1,', '"page": ' + "9" * 40 + ",", 1), "30 digits"),
}


@pytest.mark.parametrize("case", sorted(RAW))
def test_a_corrupt_build_json_is_one_line(output: Path, case: str) -> None:
    change, words = RAW[case]
    path = output / "gogyo" / "build.json"
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    code, _, stderr = _run("export", "gogyo", "--output", str(output))
    assert code == 1, stderr
    [line] = stderr.splitlines()
    assert line.startswith(str(path)) and words in line and line.endswith(REBUILD), line
    assert not (output / "gogyo" / "export").exists() and leftovers(output) == []


def test_a_file_linked_from_elsewhere_is_refused(output: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.pdf"
    shutil.copyfile(output / "gogyo" / "cards.pdf", outside)
    (output / "gogyo" / "linked.pdf").symlink_to(outside)
    _edit(output, _set("file", "gogyo/linked.pdf"))
    code, _, stderr = _run("export", "gogyo", "--output", str(output))
    assert code == 1 and "$.placements[3].file: 'gogyo/linked.pdf' is not a regular file" in stderr, stderr


def test_a_side_larger_than_an_image_may_be_is_refused_before_any_work(output: Path) -> None:
    def huge(data: Any) -> None:
        sheet = next(p for p in data["placements"] if p["file"] == "gogyo/score-sheet.pdf")
        sheet.update(x=5, y=5, width=200, height=287)  # the whole A4 page: 128 MP at 1200 dpi

    _edit(output, huge)
    code, _, stderr = _run("export", "gogyo", "--dpi", "1200", "--output", str(output))
    assert code == 1, stderr
    assert stderr == ("card 'player-1' (200 × 287 mm) at 1200 dpi would be 9449 × 13560 px, more than the "
                      "50,000,000 pixels an image may have (at most 749 dpi)\n")
    assert not (output / "gogyo" / "export").exists() and leftovers(output) == []


@contextmanager
def failing_after(images: int, error: BaseException) -> Iterator[None]:
    """The renderer raises `error` when asked for one image more than `images`."""
    render = generator.export.Renderer._render
    made = []

    def counted(self: generator.export.Renderer, side: generator.export.Side) -> Any:
        if len(made) == images:
            raise error
        made.append(side)
        return render(self, side)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(generator.export.Renderer, "_render", counted)
        yield


@pytest.mark.parametrize("what", sorted(COMMANDS))
@pytest.mark.parametrize(("error", "code", "words"), [(OSError(28, "No space left on device"), 1, "No space left"),
                                                      (KeyboardInterrupt(), 130, "gogyo: interrupted;")])
def test_a_run_failing_after_the_third_image_leaves_the_earlier_folder_byte_identical(
        output: Path, what: str, error: BaseException, code: int, words: str) -> None:
    assert _run(*COMMANDS[what], "--output", str(output))[0] == 0  # the earlier one
    before = digest(output / "gogyo")
    again = ("export", "gogyo", "--dpi", "100") if what == "png" else COMMANDS[what]  # png: other bytes
    with failing_after(3, error):
        exit_code, _, stderr = _run(*again, "--output", str(output))
    assert exit_code == code, stderr
    [line] = stderr.splitlines()
    assert words in line and "Traceback" not in stderr
    if code == 130:
        assert line.endswith(f"{output / 'gogyo' / FOLDERS[what]} is as it was before")
    assert digest(output / "gogyo") == before
    assert leftovers(output) == []


def test_sigterm_mid_export_leaves_the_earlier_export_and_no_staging(output: Path) -> None:
    assert _run("export", "gogyo", "--dpi", "72", "--output", str(output))[0] == 0
    before = digest(output / "gogyo")
    process = subprocess.Popen([*FUDAYA, "export", "gogyo", "--dpi", "600", "--output", str(output)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not list(output.glob(".gogyo.export-png.staging-*/cards/*.png")) and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert stderr == f"gogyo: interrupted; {output / 'gogyo' / 'export' / 'png'} is as it was before\n"
    assert digest(output / "gogyo") == before
    assert leftovers(output) == []


def test_a_build_finishing_during_the_export_is_not_overwritten_by_a_stale_export(output: Path) -> None:
    """The export renders without the game's lock; a build that replaced the set meanwhile wins."""
    assert _run("export", "gogyo", "--dpi", "72", "--output", str(output))[0] == 0
    earlier = digest(output / "gogyo" / "export")
    render = generator.export.Renderer._render
    made: list[object] = []

    def rebuilding(self: generator.export.Renderer, side: generator.export.Side) -> Any:
        made.append(side)
        if len(made) == 2:  # a build of the game lands in the middle of the export
            build_game(load_checked("gogyo", DEFAULT_DECKS_DIR), BuildOptions(output_dir=output, report=False,
                                                                             paper="letter"))
        return render(self, side)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(generator.export.Renderer, "_render", rebuilding)
        code, _, stderr = _run("export", "gogyo", "--dpi", "72", "--output", str(output))
    assert code == 1 and "rebuilt while this ran (build.json changed); nothing was written, run it again" in stderr
    manifest = json.loads((output / "gogyo" / "build.json").read_text(encoding="utf-8"))
    assert manifest["options"]["paper"] == "letter"  # the new build is in place
    remade = digest(output / "gogyo" / "export")  # the build made the earlier export again from its own files
    assert remade != earlier
    assert _run("export", "gogyo", "--dpi", "72", "--output", str(output))[0] == 0
    assert digest(output / "gogyo" / "export") == remade  # what an export of the new build makes: nothing stale
    assert leftovers(output) == []


def test_an_export_waits_for_a_build_holding_the_game_lock(output: Path) -> None:
    with locked(output, "gogyo"):
        process = subprocess.Popen([*FUDAYA, "export", "gogyo", "--dpi", "72", "--output", str(output)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2.0)
        assert process.poll() is None and not (output / "gogyo" / "export").exists()
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0, stderr
    assert len(list((output / "gogyo" / "export" / "png" / "cards").glob("*.png"))) == 2 * 62


def test_a_killed_writers_staging_folder_goes_and_a_working_ones_stays(tmp_path: Path) -> None:
    abandoned = tmp_path / ".gogyo.export-png.staging-99999-0000"
    working = tmp_path / ".gogyo.proof.staging-99998-0000"
    for folder in (abandoned, working):
        folder.mkdir()
        (folder / "a.png").write_bytes(b"half")
    held = os.open(working, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        with published(tmp_path, "gogyo", tmp_path / "gogyo" / "export" / "png", verify=lambda: None) as staging:
            (staging / "b.png").write_bytes(b"new")
    finally:
        os.close(held)
    assert sorted(p.name for p in tmp_path.iterdir()) == [working.name, "gogyo"]
    assert (tmp_path / "gogyo" / "export" / "png" / "b.png").read_bytes() == b"new"


# The peak is read from /proc/self/status's VmHWM, this process's own: ru_maxrss carries the forking
# pytest worker's size across exec on Linux (536 MB "peaks" in a full parallel run).
MEASURE = """
import sys
from generator.cli import app
try:
    app(sys.argv[1:])
except SystemExit as exit:
    assert not exit.code, exit.code
with open("/proc/self/status", encoding="ascii") as status:
    print(next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) // 1024)
"""


def _peak_mb(output: Path, cards: int) -> int:
    """Peak memory (MB) of `fudaya export gogyo --dpi 1200` when build.json places only `cards` card fronts."""
    folder = output.parent / f"cards-{cards}"
    shutil.copytree(output, folder)

    def keep(data: Any) -> None:
        data["placements"] = [p for p in data["placements"]
                              if p["file"] == "gogyo/cards-printshop.pdf" and p["side"] == "front"][:cards]

    _edit(folder, keep)
    run = subprocess.run([sys.executable, "-c", MEASURE, "export", "gogyo", "--dpi", "1200", "--output",
                          str(folder)], capture_output=True, text=True, check=True)
    assert len(list((folder / "gogyo" / "export" / "png" / "cards").glob("*.png"))) == cards
    return int(run.stdout.splitlines()[-1])


def test_memory_at_1200_dpi_is_one_card_side_whatever_the_card_count(output: Path) -> None:
    """A 1200-dpi poker card is 2976 × 4157 px: about 37 MB as rendered, 50 MB as an image."""
    one, four = _peak_mb(output, 1), _peak_mb(output, 4)
    assert four < 300, four
    assert four - one < 25, (one, four)  # a second image held would add at least 50 MB
