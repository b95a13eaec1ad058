"""Fuzzing the surfaces added since the first hostile-input round (issue 23): spreadsheets given to
`fudaya import` and what `fudaya watch` is told by the OS.

import: whatever the CSV or workbook holds, exit 0 or 1, every error one "file:row:column: what" line
(or a located deck line), no traceback, nothing opened outside the deck and the named file, memory
capped, and on failure the cards file unchanged. watch: whatever game.json holds and whatever paths
change, `affected` answers with component ids or ALL and never raises.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from typer.testing import CliRunner

from generator.cli import app
from generator.watch import ALL, affected
from hostile import HOSTILE_STRINGS, JSON_VALUES, memory_capped, reads_watched

# Each property checks and builds hostile inputs, seconds a property even at make test's six examples: make test
# and make fuzz run them, the quick loop does not (issue 28).
pytestmark = pytest.mark.slow

runner = CliRunner()
ROW_LINE = re.compile(r"^\S+:\d+:\d+: .+$")  # file:row:column: what (a deck file's line has the same shape)

CELLS = st.one_of(st.text(max_size=30), st.sampled_from(HOSTILE_STRINGS),
                  st.integers(min_value=-(10**20), max_value=10**20).map(str),
                  st.sampled_from(["qty", "id", "face", "back", "0", "-1", "201", "1e999", "NaN", "　", "\u3000x"]),
                  st.just("あ" * 140_000))


@st.composite
def csv_files(draw: st.DrawFn) -> bytes:
    header = draw(st.lists(st.sampled_from(["id", "qty", "face", "back", "name", "text", "value", ""]),
                           min_size=1, max_size=6))
    rows = draw(st.lists(st.lists(CELLS, max_size=8), max_size=6))
    text = "\n".join(",".join(f'"{c}"' if "," in c else c for c in row) for row in [header, *rows])
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "cp932", "utf-16"]))
    data = text.encode(encoding, errors="replace")
    raw = draw(st.sampled_from([b"", b"\x00", b'"', b"\xff\xfe", b"\r", b"\n" * 3]))
    cut = draw(st.integers(min_value=0, max_value=len(data)))
    return data[:cut] + raw + data[cut:]


@st.composite
def xlsx_files(draw: st.DrawFn) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "qty", "name"])
    for row in draw(st.lists(st.lists(CELLS, min_size=1, max_size=3), max_size=4)):
        sheet.append([ILLEGAL_CHARACTERS_RE.sub("", cell[:30000]) for cell in row])  # what Excel can hold
    buffer = io.BytesIO()
    book.save(buffer)
    damage = draw(st.sampled_from(["none", "truncate", "garbage", "drop"]))
    if damage == "none":
        return buffer.getvalue()
    target = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as source, zipfile.ZipFile(target, "w") as out:
        names = source.namelist()
        victim = names[draw(st.integers(min_value=0, max_value=len(names) - 1))]
        for name in names:
            data = source.read(name)
            if name == victim:
                if damage == "drop":
                    continue
                data = data[: len(data) // 2] if damage == "truncate" else bytes(draw(st.binary(max_size=64)))
            out.writestr(name, data)
    return target.getvalue()


def _import(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory(prefix="fudaya-fuzz-import-") as tmp:
        root = Path(tmp)
        decks = root / "decks"
        assert runner.invoke(app, ["new", "mine", "--decks", str(decks)]).exit_code == 0
        cards = decks / "mine" / "cards.json"
        before = hashlib.sha256(cards.read_bytes()).hexdigest()
        sheet = root / f"cards{suffix}"
        sheet.write_bytes(data)
        with reads_watched(decks / "mine", sheet) as outside, memory_capped():
            result = runner.invoke(app, ["import", "mine", str(sheet), "--decks", str(decks)])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
        assert not outside, outside
        if result.exit_code == 1:
            lines = result.stderr.strip().splitlines()
            assert lines and all(ROW_LINE.match(line) for line in lines), result.stderr
            assert hashlib.sha256(cards.read_bytes()).hexdigest() == before
        else:
            assert isinstance(json.loads(cards.read_text(encoding="utf-8"))["cards"], list)


@given(csv_files())
def test_hostile_csv_files(data: bytes) -> None:
    _import(data, ".csv")


@given(xlsx_files())
def test_hostile_workbooks(data: bytes) -> None:
    _import(data, ".xlsx")


@given(JSON_VALUES, st.lists(st.sampled_from(["cards.json", "layout.json", "game.json", "x/../../etc/passwd",
                                              "loop", "assets/a.png", "\x00", "", "."]), max_size=4))
def test_watch_answers_whatever_it_is_told(manifest: Any, changed: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="fudaya-fuzz-watch-") as tmp:
        game = Path(tmp) / "game"
        game.mkdir()
        (game / "loop").symlink_to(game / "loop")
        (game / "game.json").write_text(json.dumps({"components": [manifest, {"id": "c", "kind": "deck",
                                                                             "cards": manifest}]}),
                                        encoding="utf-8")
        answer = affected(game, [game / name for name in changed if "\x00" not in name])
        assert answer == ALL or all(isinstance(c, str) for c in answer)
