"""Property-based fuzzing of hostile decks (issue 12): mutated JSON, SVG art and images from decks/gogyo.

For every input, `check` and `build` either succeed or print one located line per problem and
exit 1; never a traceback; never a file opened outside the deck, the output folder or the
tool's own files; never a change to the earlier good build when a build fails; bounded time
and memory. `make test` runs a small budget, `make fuzz` a large one (see conftest.py).
"""
from __future__ import annotations

import hashlib
import re
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from deckcopies import copy_decks
from generator.cli import app
from hostile import (
    HOSTILE_IMAGES,
    SECRET_NAME,
    Mutation,
    apply,
    hostile_svgs,
    memory_capped,
    mutations,
    png_header_only,
    reads_watched,
)

# Each property checks and builds hostile inputs, seconds a property even at make test's six examples: make test
# and make fuzz run them, the quick loop does not (issue 28).
pytestmark = pytest.mark.slow

runner = CliRunner()
GAME = "gogyo"
ISSUE_LINE = re.compile(r"^\S.*?: \$.*?: .+$")  # file[:line:col]: $.json.path: what is wrong
SUMMARY_LINE = re.compile(rf"^{GAME}: (not built \(\d+ problems?\)|\d+ problems? \(.*\)|ok \(.*\)|warning: .+)$")
# build's preflight of what it wrote: a warning per finding, located by page and position
PREFLIGHT_LINE = re.compile(r"^warning: \S+\.pdf: (document|page \d+)( at -?[\d.]+,-?[\d.]+ mm)?: .+$")
MAX_SECONDS = 90          # per example, check and build together: a safety bound, not a speed target
MAX_RSS_BYTES = 3 * 1024**3


def _digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


class Sandbox:
    """A deck copy beside planted outside files, and an output folder holding a good earlier build."""

    def __init__(self, root: Path, good_output: Path) -> None:
        self.root = root
        self.decks = copy_decks(root, GAME)
        self.game_dir = self.decks / GAME
        for suffix, data in ((".png", png_header_only(4, 4)), (".svg", b'<svg xmlns="http://www.w3.org/2000/svg" '
                                                                          b'width="4" height="4"><g id="s"/></svg>')):
            (root / f"{SECRET_NAME}{suffix}").write_bytes(data)
        self.output = root / "output"
        shutil.copytree(good_output, self.output)

    def run(self, *args: str) -> Result:
        return runner.invoke(app, [*args, GAME, "--decks", str(self.decks)], catch_exceptions=True)


def _good_output() -> Path:
    """One clean build of the shipped deck per process, copied into every sandbox as the earlier output."""
    if _GOOD:
        return _GOOD[0]
    root = Path(tempfile.mkdtemp(prefix="fudaya-fuzz-good-"))
    decks = copy_decks(root, GAME)
    result = runner.invoke(app, ["build", GAME, "--decks", str(decks), "--output", str(root / "output"),
                                 "--no-report"])
    assert result.exit_code == 0, result.output
    _GOOD.append(root / "output")
    return _GOOD[0]


_GOOD: list[Path] = []


def _assert_clean_failure_or_success(result: Result, what: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{what}: raised {result.exception!r}\n{result.output}")
    assert result.exit_code in (0, 1), f"{what}: exit {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output and "Traceback" not in result.stderr, f"{what}:\n{result.stderr}"
    for line in result.stderr.splitlines():
        if not line.strip() or line.startswith(f"{GAME} ") or "%" in line:  # the progress bar
            continue
        located = ISSUE_LINE.match(line) or SUMMARY_LINE.match(line) or PREFLIGHT_LINE.match(line)
        assert located, f"{what}: not a located one-line error: {line!r}"
    if result.exit_code == 1:
        assert result.stderr.strip(), f"{what}: exit 1 without a word"


def _check_then_build(sandbox: Sandbox, what: str) -> None:
    started = time.monotonic()
    before = _digest(sandbox.output / GAME)
    with reads_watched(sandbox.game_dir, sandbox.output) as outside, memory_capped():
        checked = sandbox.run("check", "--no-simulate")
        _assert_clean_failure_or_success(checked, f"check after {what}")
        built = sandbox.run("build", "--no-report", "--output", str(sandbox.output))
        _assert_clean_failure_or_success(built, f"build after {what}")
    assert not outside, f"{what}: read outside the deck: {sorted(set(outside))[:5]}"
    assert (checked.exit_code == 0) == (built.exit_code == 0), (
        f"{what}: check and build disagree (check {checked.exit_code}, build {built.exit_code})\n"
        f"{checked.stderr}\n{built.stderr}")
    if built.exit_code != 0:
        assert _digest(sandbox.output / GAME) == before, f"{what}: a failed build changed the earlier output"
    assert time.monotonic() - started < MAX_SECONDS, f"{what}: took {time.monotonic() - started:.0f} s"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 < MAX_RSS_BYTES


def _fuzz(change: Callable[[Sandbox], str]) -> None:
    good = _good_output()
    with tempfile.TemporaryDirectory(prefix="fudaya-fuzz-") as tmp:
        sandbox = Sandbox(Path(tmp), good)
        _check_then_build(sandbox, change(sandbox))


@given(st.lists(mutations(), min_size=1, max_size=3))
def test_mutated_deck_json(changes: list[Mutation]) -> None:
    _fuzz(lambda box: "; ".join(apply(box.game_dir, change) for change in changes))


@given(hostile_svgs(), st.sampled_from(["assets/cloud.svg", "assets/banner.svg"]))
def test_hostile_svg_art(svg: bytes, target: str) -> None:
    def change(box: Sandbox) -> str:
        (box.game_dir / target).write_bytes(svg)
        return f"{target} = {svg[:300]!r}"

    _fuzz(change)


@given(HOSTILE_IMAGES)
def test_hostile_raster_art(image: bytes) -> None:
    def change(box: Sandbox) -> str:
        (box.game_dir / "assets" / "seal.png").write_bytes(image)
        return f"seal.png = {image[:40]!r}"

    _fuzz(change)
