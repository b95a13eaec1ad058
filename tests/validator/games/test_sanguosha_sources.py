"""decks/sanguosha/sources/crosscheck.py over the committed source facts (offline).

The deck must agree with at least one source on every fact; the sources themselves disagree only
on the identity tables (4 and 10 players, the variants), which NOTES.md turns into
rulebook decisions. A copy of the deck with one fact changed against every source fails.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
DECK = ROOT / "decks" / "sanguosha"
SCRIPT = DECK / "sources" / "crosscheck.py"


@pytest.fixture(scope="module")
def crosscheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sanguosha_crosscheck", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_every_source_names_repo_commit_and_paths() -> None:
    sources = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((DECK / "sources").glob("*.json"))]
    assert len(sources) >= 2
    for source in sources:
        assert "/" in source["repo"] and len(source["commit"]) == 40 and source["paths"]
    with_cards = [s for s in sources if len(s["cards"]) == 108]
    with_generals = [s for s in sources if s.get("generals")]
    assert len(with_cards) >= 2 and len(with_generals) >= 2


def test_deck_agrees_with_the_sources(crosscheck: ModuleType) -> None:
    report = crosscheck.cross_check(DECK)
    assert not report.failures, [f.line() for f in report.failures]
    topics = {f.topic for f in report.facts}
    assert {"cards (all 108, with EX)", "EX cards", "weapon ranges", "generals", "skills", "identity tables"} <= topics
    assert {f.topic for f in report.disagreements} == {"identity tables"}
    assert {"4 players (standard)", "10 players (standard)"} <= {f.key for f in report.disagreements}


def test_script_exit_code_and_output() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 where the deck disagrees with every source" in done.stdout


def test_a_fact_no_source_states_fails(tmp_path: Path) -> None:
    copy = tmp_path / "sanguosha"
    shutil.copytree(DECK, copy)
    path = copy / "cards.json"
    text = path.read_text(encoding="utf-8")
    old = '"name": "麒麟弓", "category": "equipment", "subtype": "weapon", "type_line": "装備・武器", ' \
          '"suit": "heart", "suit_mark": "♥", "color": "red", "rank": 5, "rank_label": "5", "range": 5'
    assert text.count(old) == 1
    path.write_text(text.replace(old, old[:-1] + "4"), encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--deck", str(copy)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    assert "FAIL  weapon ranges: qilin: 4 (ours); 5 (freekill, noname, qsanguosha-v2)" in done.stdout
