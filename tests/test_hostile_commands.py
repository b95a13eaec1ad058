"""Every command on a hostile deck opens nothing outside the deck, the output folder, the files named on
its command line and the installed tool (issue 23), and ends in exit 0 or 1 without a traceback.

The deck is gogyo planted with what a stranger's deck may hold: links to files and folders outside it
(at names fudaya reads, lists or writes, and at the temporary names of its writes), a link loop, a FIFO,
a link to /dev/zero, a hidden output folder. A Python audit hook (tests/support/hostile.py) records every
open. Each command runs in-process under the watch and under an address-space cap of 1 GiB more than the
test process had (RLIMIT_AS), so a blow-up fails the test instead of the machine; simulations are cut to
a few matches.
"""
from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from deckcopies import copy_decks, edit_json
from generator.cli import app
from hostile import SECRET_NAME, memory_capped, reads_watched
from validator.paths import DEFAULT_DECKS_DIR

pytestmark = pytest.mark.slow
GAME = "gogyo"
runner = CliRunner()


def plant(game_dir: Path, outside: Path) -> None:
    """Links out, a loop, a FIFO, a device: at names fudaya reads, hashes, lists, watches and writes."""
    secret = outside / f"{SECRET_NAME}.json"
    secret.write_text('{"secret": true}', encoding="utf-8")
    (game_dir / "extra.json").symlink_to(secret)  # hashed into the report key: must not be read
    (game_dir / "zero.json").symlink_to("/dev/zero")
    (game_dir / "loop.json").symlink_to(game_dir / "loop.json")
    os.mkfifo(game_dir / "pipe.json")
    (game_dir / "elsewhere").symlink_to(outside, target_is_directory=True)
    (game_dir / ".cards.json.partial").symlink_to(secret)  # the old import's fixed temporary name
    (game_dir / ".game.json.tmp").symlink_to(secret)


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Path]]:
    root = tmp_path_factory.mktemp("hostile-commands")
    outside = root / "outside"
    outside.mkdir()
    decks = copy_decks(root, GAME)
    game_dir = decks / GAME

    def few_matches(data: dict[str, object]) -> None:
        data["simulation"] = {"players": 4, "matches": 8, "policies": ["greedy"], "seed": 1, "precision": 0,
                              "ladder": {"rungs": ["random", "greedy"], "matches": 4, "self_play": 4}}

    edit_json(game_dir / "game.json", few_matches)
    plant(game_dir, outside)
    yield decks, root / "output", outside
    assert (outside / f"{SECRET_NAME}.json").read_text(encoding="utf-8") == '{"secret": true}'


def _run(args: list[str], *roots: Path) -> tuple[Result, list[str]]:
    with reads_watched(*roots) as outside, memory_capped():
        result = runner.invoke(app, args, catch_exceptions=True)
    return result, sorted(set(outside))


def _clean(result: Result, what: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{what}: raised {result.exception!r}\n{result.output}")
    assert result.exit_code in (0, 1), f"{what}: exit {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output, f"{what}:\n{result.output}"


COMMANDS = [
    ["list"],
    ["check", GAME, "--no-simulate"],
    ["check", GAME],
    ["build", GAME],
    ["build", GAME, "--only", "cards", "--no-report"],
    ["simulate", GAME, "--games", "4"],
    ["ladder", GAME, "--rungs", "random,greedy", "--matches", "4", "--self-play", "4"],
    ["score", GAME, "唐火", "漢土", "閥", "天", "隋金"],
    ["export", GAME, "--dpi", "72"],
    ["export", GAME, "--format", "tts", "--local"],
    ["proof", GAME],
    ["doctor"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: " ".join(args[:3]))
def test_a_command_on_a_hostile_deck_stays_inside(sandbox: tuple[Path, Path, Path], args: list[str]) -> None:
    decks, output, outside = sandbox
    if args[0] in ("export", "proof") and not (output / GAME / "build.json").exists():
        runner.invoke(app, ["build", GAME, "--decks", str(decks), "--output", str(output), "--no-report"])
    extra = [] if args[0] == "doctor" else ["--decks", str(decks)]
    if args[0] in ("build", "check", "simulate", "ladder", "export", "proof"):
        extra += ["--output", str(output)] if args[0] not in ("simulate", "ladder") else []
    started = time.monotonic()
    result, opened = _run([*args, *extra], decks / GAME, output)
    _clean(result, " ".join(args))
    assert not opened, f"{' '.join(args)} opened outside the deck and output: {opened[:5]}"
    assert time.monotonic() - started < 120


def test_preflight_reads_only_the_files_it_is_given(sandbox: tuple[Path, Path, Path]) -> None:
    decks, output, _ = sandbox
    if not (output / GAME / "cards.pdf").exists():
        runner.invoke(app, ["build", GAME, "--decks", str(decks), "--output", str(output), "--no-report"])
    named = output / GAME / "cards.pdf"
    result, opened = _run(["preflight", str(named)], named)
    _clean(result, "preflight")
    assert not opened, opened


def test_import_and_new_stay_inside(sandbox: tuple[Path, Path, Path], tmp_path: Path) -> None:
    decks, _, outside = sandbox
    sheet = tmp_path / "cards.csv"
    sheet.write_text("id,qty,name\na,1,甲\nb,1,乙\n", encoding="utf-8")
    copy = tmp_path / "decks"
    made, opened = _run(["new", "mine", "--from", GAME, "--title", 'a "title"', "--decks", str(copy)], copy,
                        DEFAULT_DECKS_DIR / GAME)  # the shipped game it names
    _clean(made, "new")
    assert made.exit_code == 0 and not opened, opened
    plant(copy / "mine", outside)
    imported, opened = _run(["import", "mine", str(sheet), "--decks", str(copy)], copy / "mine", sheet)
    _clean(imported, "import")
    assert not opened, opened
    assert json.loads((outside / f"{SECRET_NAME}.json").read_text(encoding="utf-8")) == {"secret": True}


def test_watch_stays_inside(sandbox: tuple[Path, Path, Path]) -> None:
    decks, output, _ = sandbox
    game_dir = decks / GAME

    def touch_later() -> None:
        time.sleep(3)
        layout = game_dir / "layout.json"
        layout.write_text(layout.read_text(encoding="utf-8") + " ", encoding="utf-8")

    toucher = threading.Thread(target=touch_later, daemon=True)
    toucher.start()
    result, opened = _run(["watch", GAME, "--decks", str(decks), "--output", str(output), "--max-rebuilds", "1"],
                          game_dir, output)
    toucher.join()
    _clean(result, "watch")
    assert "rebuilt" in result.output, result.output
    assert not opened, opened


def test_the_memory_cap_turns_a_blow_up_into_a_memory_error() -> None:
    with pytest.raises(MemoryError), memory_capped():
        bytearray(2 * 1024**3)
    assert len(bytearray(64 * 1024**2)) > 0  # lifted again afterwards


LOOPED = "its links loop"
NOT_A_GAME = "no game 'circle'"  # a folder that is a loop holds no game.json: the commands say so


@pytest.mark.parametrize(("args", "says"), [
    (["check", "circle"], NOT_A_GAME), (["build", "circle"], NOT_A_GAME), (["list"], LOOPED),
    (["simulate", "circle"], NOT_A_GAME), (["ladder", "circle"], NOT_A_GAME), (["export", "circle"], NOT_A_GAME),
    (["proof", "circle"], NOT_A_GAME), (["import", "circle", "x.csv"], LOOPED),
    (["watch", "circle", "--max-rebuilds", "1"], LOOPED), (["check", "layoutloop", "--no-simulate"], LOOPED),
], ids=lambda value: " ".join(value) if isinstance(value, list) else "")
def test_a_link_loop_is_one_line_for_every_command(tmp_path: Path, args: list[str], says: str) -> None:
    decks = copy_decks(tmp_path, GAME)
    (decks / "circle").symlink_to(decks / "circle")
    shutil.copytree(decks / GAME, decks / "layoutloop")
    edit_json(decks / "layoutloop" / "game.json", lambda data: data.update(id="layoutloop"))
    (decks / "layoutloop" / "layout.json").unlink()
    (decks / "layoutloop" / "layout.json").symlink_to("layout.json")
    result = runner.invoke(app, [*args, "--decks", str(decks)], catch_exceptions=True)
    _clean(result, " ".join(args))
    assert result.exit_code == 1, result.output  # list lists the others too, then says it found a bad game
    assert says in result.output, result.output
