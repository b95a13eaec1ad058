"""sanguosha's rulebook oracle answers the seed's own worked numbers (distance, attack range, horses,
the lord's HP, the 桃 a dying player needs) through the engine, and refuses examples it cannot read."""
from __future__ import annotations

import pytest

from validator.engine.claims import TOTAL
from validator.games.sanguosha.claims import SanguoshaOracle
from validator.games.sanguosha.rules import CLARIFICATIONS
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR


@pytest.fixture(scope="module")
def oracle() -> SanguoshaOracle:
    return SanguoshaOracle.from_model(load_game(DEFAULT_DECKS_DIR, "sanguosha"))


def points(oracle: SanguoshaOracle, *tokens: str) -> dict[str, int]:
    return dict(oracle.score(tokens, ordered=True).points)


@pytest.mark.parametrize(("target", "distance"), [("B", 1), ("H", 1), ("C", 2), ("G", 2), ("D", 3), ("F", 3),
                                                  ("E", 4)])
def test_eight_players_around_a_table(oracle: SanguoshaOracle, target: str, distance: int) -> None:
    """The seed: A to B/H 1, C/G 2, D/F 3, E 4; without a weapon only the neighbours are in reach."""
    assert points(oracle, "距離", "8人", f"A→{target}") == {
        "distance": distance, "range": 1, "reach": int(distance == 1), TOTAL: distance}


@pytest.mark.parametrize(("target", "distance"), [("G", 1), ("F", 2), ("E", 3), ("B", 1)])
def test_a_dead_seat_leaves_the_count(oracle: SanguoshaOracle, target: str, distance: int) -> None:
    assert points(oracle, "距離", "8人", f"A→{target}", "H死亡")["distance"] == distance


def test_qinglong_reaches_all_but_the_seat_opposite(oracle: SanguoshaOracle) -> None:
    assert points(oracle, "届く相手", "8人", "Aから", "A：青龍偃月刀") == {"range": 3, "targets": 6, TOTAL: 6}
    assert points(oracle, "距離", "8人", "A→D", "A：青龍偃月刀")["reach"] == 1
    assert points(oracle, "距離", "8人", "A→E", "A：青龍偃月刀")["reach"] == 0


def test_a_minus_horse_shortens_but_never_below_one(oracle: SanguoshaOracle) -> None:
    """The seed: A→H 1−1 = 0 counts as 1, A→G 2−1 = 1, and 青龍偃月刀 then reaches E at 4−1 = 3."""
    assert points(oracle, "距離", "8人", "A→H", "A：−1馬")["distance"] == 1
    assert points(oracle, "距離", "8人", "A→G", "A：赤兎")["distance"] == 1
    assert points(oracle, "距離", "8人", "A→E", "A：青龍偃月刀", "A：−1馬")["reach"] == 1
    assert points(oracle, "届く相手", "8人", "Aから", "A：青龍偃月刀", "A：-1馬")["targets"] == 7


def test_a_plus_horse_lengthens_the_way_to_its_rider(oracle: SanguoshaOracle) -> None:
    """The seed: H→A 1+1 = 2 (out of H's reach), G→A 2+1 = 3; E with 青龍偃月刀 and −1 to A: 4−1+1 = 4 > 3."""
    assert points(oracle, "距離", "8人", "H→A", "A：＋1馬") == {"distance": 2, "range": 1, "reach": 0, TOTAL: 2}
    assert points(oracle, "距離", "8人", "G→A", "A：絶影")["distance"] == 3
    assert points(oracle, "距離", "8人", "A→H", "A：＋1馬")["distance"] == 1  # one's own +1 horse does not count
    assert points(oracle, "距離", "8人", "E→A", "E：青龍偃月刀", "E：−1馬", "A：＋1馬") == {
        "distance": 4, "range": 3, "reach": 0, TOTAL: 4}


def test_weapon_ranges_come_from_the_card_data(oracle: SanguoshaOracle) -> None:
    ranges = {"諸葛連弩": 1, "青釭剣": 2, "雌雄双股剣": 2, "丈八蛇矛": 3, "方天画戟": 4, "麒麟弓": 5}
    for weapon, reach in ranges.items():
        assert points(oracle, "届く相手", "10人", "Aから", f"A：{weapon}")["range"] == reach, weapon


@pytest.mark.parametrize(("players", "token", "hp"), [
    (5, "主公：曹操", 5), (5, "主公：郭嘉", 4), (4, "主公：曹操", 4), (2, "主公：孫権", 4), (10, "主公：劉備", 5),
    (8, "忠臣：曹操", 4), (8, "反賊：諸葛亮", 3),
])
def test_the_lord_s_extra_hp_from_five_players(oracle: SanguoshaOracle, players: int, token: str, hp: int) -> None:
    """The seed: 曹操 as lord 4+1, 郭嘉 as lord 3+1; not with 4 players or fewer; only the lord."""
    assert points(oracle, "体力上限", f"{players}人", token) == {"hp": hp, TOTAL: hp}


@pytest.mark.parametrize(("tokens", "hp", "peaches"), [
    (("体力：1", "ダメージ：3"), -2, 3),
    (("体力：2", "ダメージ：1"), 1, 0),
    (("体力：1", "ダメージ：1"), 0, 1),
    (("体力：3", "失う：1", "上限：4"), 2, 0),
    (("体力：1", "失う：1"), 0, 1),
])
def test_the_dying_player_needs_peaches_up_to_one_hp(oracle: SanguoshaOracle, tokens: tuple[str, ...], hp: int,
                                                     peaches: int) -> None:
    """The seed: at 1 HP a 閃電 (3 damage) leaves −2, and three 桃 bring the player back to 1."""
    assert points(oracle, "瀕死", *tokens) == {"hp": hp, "peaches": peaches, TOTAL: peaches}


@pytest.mark.parametrize("tokens", [
    (),
    ("射程", "8人"),
    ("距離", "8人", "A→A"),
    ("距離", "8人", "A→J"),
    ("距離", "11人", "A→B"),
    ("距離", "8人"),
    ("距離", "8人", "A→E", "A死亡"),
    ("距離", "8人", "A→E", "A：殺"),
    ("距離", "8人", "A→E", "A：村正"),
    ("届く相手", "8人", "A→E"),
    ("体力上限", "5人"),
    ("体力上限", "5人", "主公：織田信長"),
    ("瀕死", "体力：1"),
    ("瀕死", "体力：1", "ダメージ：1", "失う：1"),
    ("瀕死", "体力：x", "ダメージ：1"),
    ("瀕死", "体力：1", "ダメージ：20"),
])
def test_unreadable_examples_are_refused(oracle: SanguoshaOracle, tokens: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        oracle.score(tokens, ordered=True)


def test_shown_cards_are_the_named_equipment(oracle: SanguoshaOracle) -> None:
    stacks = oracle.card_stacks(["距離", "8人", "E→A", "E：青龍偃月刀", "A：＋1馬"])
    assert stacks[:3] == ((), (), ())
    assert stacks[3] == ("qinglong-spade-5",)
    assert len(stacks[4]) == 1 and stacks[4][0].startswith(("jueying", "dilu", "zhuahuang"))


def test_clarifications_are_the_engine_s(oracle: SanguoshaOracle) -> None:
    assert [c.id for c in oracle.clarifications] == [c.id for c in CLARIFICATIONS]
    assert all(c.text for c in oracle.clarifications)
