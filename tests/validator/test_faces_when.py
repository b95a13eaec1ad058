"""`when` and `unless` on template elements: null stands for a field the card does not have.

sanguosha's generals have one or two skills (skill2_* only on the second kind): the first skill's
box is large when there is no second skill (`when: {"skill2_id": null}`), and the two-skill boxes
are drawn only for cards that have one (`unless: {"skill2_id": null}`).
"""
from __future__ import annotations

from pathlib import Path

from validator.faces import is_drawn
from validator.issues import Location
from validator.model import Element

HERE = Location(Path("layout.json"))


def element(**conditions: object) -> Element:
    return Element("rect", {"type": "rect", **conditions}, HERE)


def test_no_condition_is_always_drawn() -> None:
    assert is_drawn(element(), {})
    assert is_drawn(element(), {"skill2_id": "hujia"})


def test_when_null_means_the_field_is_absent() -> None:
    single = element(when={"skill2_id": None})
    assert is_drawn(single, {"skill1_id": "wusheng"})
    assert not is_drawn(single, {"skill1_id": "jianxiong", "skill2_id": "hujia"})


def test_unless_skips_cards_that_match_every_value() -> None:
    double = element(unless={"skill2_id": None})
    assert not is_drawn(double, {"skill1_id": "wusheng"})
    assert is_drawn(double, {"skill1_id": "jianxiong", "skill2_id": "hujia"})
    both = element(unless={"kingdom": "魏", "hp": 3})
    assert not is_drawn(both, {"kingdom": "魏", "hp": 3})
    assert is_drawn(both, {"kingdom": "魏", "hp": 4})


def test_when_and_unless_together() -> None:
    e = element(when={"lord": True}, unless={"skill2_tag": "主公技"})
    assert is_drawn(e, {"lord": True, "skill2_tag": "主公技・鎖定技"})
    assert not is_drawn(e, {"lord": True, "skill2_tag": "主公技"})
    assert not is_drawn(e, {"lord": False})
