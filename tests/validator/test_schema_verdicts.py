"""validator/schema_verdicts.py: a deck file that checked clean is not validated again (nor jsonschema imported)
until it, a schema or the validator changes; a file with problems is validated, and its problems told, every time."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from validator import cache, schema, schema_verdicts
from validator.jsonsource import SourcedJson, load_json
from validator.paths import DEFAULT_DECKS_DIR, SCHEMA_DIR

CARDS = DEFAULT_DECKS_DIR / "gogyo" / "cards.json"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The schema names jsonschema actually ran for (every verdict not taken from the cache)."""
    ran: list[str] = []
    original = schema._violations

    def counted(doc: SourcedJson, schema_name: str) -> list:
        ran.append(schema_name)
        return original(doc, schema_name)

    monkeypatch.setattr(schema, "_violations", counted)
    return ran


def test_a_clean_file_is_validated_once(cache_dir: Path, validations: list[str]) -> None:
    doc = load_json(CARDS, CARDS.parent)
    assert schema.validate(doc, "cards.schema.json") == []
    assert schema.validate(doc, "cards.schema.json") == []
    assert validations == ["cards.schema.json"]
    assert len(list((cache_dir / schema_verdicts.KIND).iterdir())) == 1


def test_a_file_with_problems_is_validated_and_told_every_time(cache_dir: Path, validations: list[str],
                                                                tmp_path: Path) -> None:
    data = json.loads(CARDS.read_text(encoding="utf-8"))
    data["cards"][0]["qty"] = -1
    bad = tmp_path / "cards.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    doc = load_json(bad, tmp_path)
    first = schema.validate(doc, "cards.schema.json")
    assert first and first == schema.validate(doc, "cards.schema.json")
    assert validations == ["cards.schema.json"] * 2
    assert not (cache_dir / schema_verdicts.KIND).exists()


def test_a_verdict_holds_for_its_value_and_schema_only(cache_dir: Path) -> None:
    schema_verdicts.remember_valid({"n": 1, "a": [1, 2]}, "x.schema.json")
    assert schema_verdicts.known_valid({"a": [1, 2], "n": 1}, "x.schema.json")  # key order is not content
    assert not schema_verdicts.known_valid({"n": 1.0, "a": [1, 2]}, "x.schema.json")  # 1.0 is no integer
    assert not schema_verdicts.known_valid({"n": 1, "a": [2, 1]}, "x.schema.json")
    assert not schema_verdicts.known_valid({"n": 1, "a": [1, 2]}, "y.schema.json")


def test_value_errors_keeps_clean_verdicts_too(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = json.loads((DEFAULT_DECKS_DIR / "gogyo" / "game.json").read_text(encoding="utf-8"))["rules"]
    assert schema.value_errors(rules, "rules/gogyo.schema.json") == []
    monkeypatch.setattr(schema, "_validator", lambda name: pytest.fail("validated again"))
    assert schema.value_errors(rules, "rules/gogyo.schema.json") == []
    assert not schema_verdicts.known_valid({**rules, "bogus": 1}, "rules/gogyo.schema.json")


def test_a_changed_schema_file_is_a_new_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "schema"
    shutil.copytree(SCHEMA_DIR, copy)
    monkeypatch.setattr(schema_verdicts, "SCHEMA_DIR", copy)
    schema_verdicts._stamp.cache_clear()
    try:
        before = schema_verdicts._stamp()
        path = copy / "cards.schema.json"
        path.write_text(path.read_text(encoding="utf-8").replace('"minimum": 1', '"minimum": 2', 1), encoding="utf-8")
        schema_verdicts._stamp.cache_clear()
        assert schema_verdicts._stamp() != before
    finally:
        schema_verdicts._stamp.cache_clear()


def test_a_build_of_unchanged_files_never_imports_jsonschema(cache_dir: Path) -> None:
    """The point of the verdicts: the second process loading gogyo takes them all from the cache."""
    script = ("import sys; from validator.loader import load_game; from validator.paths import DEFAULT_DECKS_DIR; "
              "load_game(DEFAULT_DECKS_DIR, 'gogyo'); print('jsonschema' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", script], env={**os.environ}, capture_output=True, text=True,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]
