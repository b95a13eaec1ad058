"""sanguosha's card data: the real deck is clean, and each broken copy gives exactly one located line.

Each bad case copies decks/sanguosha into tmp_path, breaks one thing by editing the file's text (so
line numbers stay those of the real files) and loads it with the project's loader. Schema errors
come from the loader; counts from the composition check; EX, identity-table and skill errors from
validator.games.sanguosha.data. The copies use a stub layout per deck and no rulebook, so these
tests check the data alone, whatever state the layouts are in.
"""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from validator.checks import composition
from validator.games.sanguosha import data as sanguosha_data
from validator.issues import DeckError, Issue
from validator.loader import load_game

ROOT = Path(__file__).resolve().parents[3]
SANGUOSHA = ROOT / "decks" / "sanguosha"
FACES = ("card", "general", "identity", "health", "back")
STUB_LAYOUT = {
    "$schema": "../../schema/layout.schema.json",
    "card": {"size": "poker"},
    "back": "back",
    "templates": {face: {"elements": []} for face in FACES},
}


def _engine_known() -> bool:
    from validator.engine.registry import find_spec

    try:
        find_spec("sanguosha")
    except (ValueError, TypeError, ImportError):
        return False
    return True


def deck_copy(tmp_path: Path, edits: dict[str, Callable[[str], str]] | None = None) -> Path:
    """decks/ folder holding a copy of sanguosha with `edits` (file name -> text edit) applied."""
    decks = tmp_path / "decks"
    target = decks / "sanguosha"
    shutil.copytree(SANGUOSHA, target, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (target / "stub-layout.json").write_text(json.dumps(STUB_LAYOUT), encoding="utf-8")
    game = json.loads((target / "game.json").read_text(encoding="utf-8"))
    game["components"] = [dict(c, layout="stub-layout.json") for c in game["components"] if c["kind"] == "deck"]
    if not _engine_known():
        game["rules"].pop("engine", None)
    text = json.dumps(game, ensure_ascii=False, indent=1)
    (target / "game.json").write_text(text + "\n", encoding="utf-8")
    for name, edit in (edits or {}).items():
        path = target / name
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return decks


def issues_of(decks: Path) -> list[Issue]:
    try:
        game = load_game(decks, "sanguosha")
    except DeckError as exc:
        return list(exc.issues)
    return [*composition.check(game), *sanguosha_data.check(game)]


def replace_once(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        return text.replace(old, new)
    return edit


def line_of(decks: Path, name: str, needle: str) -> int:
    lines = (decks / "sanguosha" / name).read_text(encoding="utf-8").splitlines()
    found = [n for n, line in enumerate(lines, 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def only_issue(decks: Path) -> Issue:
    found = issues_of(decks)
    errors = [i for i in found if i.severity == "error"]
    assert len(errors) == 1, [i.render(decks.parent) for i in errors]
    return errors[0]


# -- the real deck ---------------------------------------------------------------------------------
def test_real_deck_data_is_clean(tmp_path: Path) -> None:
    found = [i for i in issues_of(deck_copy(tmp_path)) if i.severity == "error"]
    assert not found, [i.render(tmp_path) for i in found]


def test_real_deck_counts() -> None:
    cards = json.loads((SANGUOSHA / "cards.json").read_text(encoding="utf-8"))["cards"]
    physical = [(c["fields"]["card"], c["fields"]["ex"]) for c in cards for _ in range(c.get("qty", 1))]
    assert len(physical) == 108 and sum(1 for _, ex in physical if ex) == 4
    names = [slug for slug, ex in physical if not ex]
    assert (names.count("sha"), names.count("shan"), names.count("tao")) == (30, 15, 8)
    generals = json.loads((SANGUOSHA / "generals.json").read_text(encoding="utf-8"))["cards"]
    skills = [c["fields"][k] for c in generals for k in ("skill1_id", "skill2_id") if k in c["fields"]]
    assert len(generals) == 25 and len(skills) == 40 == len(set(skills))


# -- broken copies: one located line each ----------------------------------------------------------
def test_weapon_without_range(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"cards.json": replace_once(
        '"rank_label": "6", "range": 2, "text": "鎖定技。あなたの「殺」は対象の防具を無視する。"',
        '"rank_label": "6", "text": "鎖定技。あなたの「殺」は対象の防具を無視する。"')})
    issue = only_issue(decks)
    assert issue.location.file.name == "cards.json"
    assert issue.location.line == line_of(decks, "cards.json", '"id": "qinggang-spade-6"')
    assert issue.location.pointer.endswith("/fields")


def test_suit_star(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"cards.json": replace_once(
        '"id": "sha-spade-7", "face": "card", "fields": {"card": "sha", "name": "殺", "category": "basic", '
        '"subtype": "basic", "type_line": "基本", "suit": "spade"',
        '"id": "sha-spade-7", "face": "card", "fields": {"card": "sha", "name": "殺", "category": "basic", '
        '"subtype": "basic", "type_line": "基本", "suit": "star"')})
    issue = only_issue(decks)
    assert issue.location.line == line_of(decks, "cards.json", '"id": "sha-spade-7"')
    assert issue.location.pointer.endswith("/fields/suit") and "star" in issue.message


def test_identity_row_not_adding_up(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"game.json": replace_once(
        '"5": {\n    "lord": 1,\n    "loyalist": 1,\n    "rebel": 2,',
        '"5": {\n    "lord": 1,\n    "loyalist": 1,\n    "rebel": 3,')})
    issue = only_issue(decks)
    assert issue.code == "sanguosha-identity-table"
    assert issue.location.file.name == "game.json" and issue.location.pointer == "/rules/identity_table/5"
    assert issue.location.line == line_of(decks, "game.json", '"5": {')
    assert "add up to 6" in issue.message


def test_identity_row_beyond_the_box(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"game.json": replace_once(
        '"10": {\n    "lord": 1,\n    "loyalist": 3,\n    "rebel": 4,\n    "renegade": 2',
        '"10": {\n    "lord": 1,\n    "loyalist": 3,\n    "rebel": 5,\n    "renegade": 1')})
    issue = only_issue(decks)
    assert issue.location.pointer == "/rules/identity_table/10" and "rebel (5 > 4)" in issue.message


def test_ex_replaces_a_card_of_another_suit(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"cards.json": replace_once(
        '"replaces": "cixiong-spade-2 bagua-spade-2"', '"replaces": "cixiong-spade-2 bagua-club-2"')})
    issue = only_issue(decks)
    assert issue.code == "sanguosha-ex-replaces" and "bagua-club-2" in issue.message
    assert issue.location.pointer.endswith("/fields/replaces")
    assert issue.location.line == line_of(decks, "cards.json", '"id": "hanbing-spade-2"')


def test_composition_count_off(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"cards.json": replace_once(
        '{"name": "殺", "where": {"ex": false, "card": "sha"}, "count": 30}',
        '{"name": "殺", "where": {"ex": false, "card": "sha"}, "count": 31}')})
    issue = only_issue(decks)
    assert issue.code == "composition" and "found 30" in issue.message
    assert issue.location.line == line_of(decks, "cards.json", '"name": "殺", "where"')


def test_duplicate_skill_id(tmp_path: Path) -> None:
    decks = deck_copy(tmp_path, {"generals.json": replace_once('"skill1_id": "qixi"', '"skill1_id": "guose"')})
    found = [i for i in issues_of(decks) if i.code == "sanguosha-skill-id"]
    assert len(found) == 1 and found[0].message == "skill id 'guose' of daqiao is already ganning's"
    assert found[0].location.line == line_of(decks, "generals.json", '"id": "daqiao"')


@pytest.mark.parametrize("skills, expected", [
    ({"jianxiong", "not_a_skill"}, ["not_a_skill"]),
    (None, []),
])
def test_engine_skills_belong_to_generals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          skills: set[str] | None, expected: list[str]) -> None:
    monkeypatch.setattr(sanguosha_data, "_implemented_skills", lambda: skills)
    found = [i for i in issues_of(deck_copy(tmp_path)) if i.code == "sanguosha-skill-unknown"]
    assert [i.message.split("'")[1] for i in found] == expected

