"""sangokushi rules engine: scripted positions for every rule of sections 3-11 and one test per clarification.

Positions are built on a synthetic deck (a few named generals with chosen stats, fillers of stat 1 and
politics 0) and the reference map; dice are scripted through a chance generator whose random() returns
the faces queued (shuffles still come from its seed).
"""
from __future__ import annotations

import random
import re
import sys

from validator.games.sangokushi.game import SangokushiGame
from validator.games.sangokushi.phases import (
    CAPTURE_P,
    DAMAGE_P,
    DEFEND_P,
    DRAW_P,
    OVER,
    PAY_P,
    RESTORE_P,
    SHED_P,
    TURN,
)
from validator.games.sangokushi.rules import (
    ATTACK,
    CLARIFICATIONS,
    COMMIT,
    DAMAGE,
    DISCARD,
    DISMISS,
    DONE,
    DRAW,
    KEEP,
    PASS,
    PAY,
    RECOVER,
    RECRUIT,
    REFUSE,
    RELEASE,
    RESTORE,
    ROLL,
    SHED,
    SPEND,
    TAKE,
    SangokushiRules,
    encode,
)
from validator.games.sangokushi.state import SangokushiState
from validator.games.sangokushi.tables import Board, Generals

RULES = {"deal_size": {"2": 7, "3": 10, "4": 12, "5": 14, "6": 16},
         "affiliations": "魏前 魏中 魏後 蜀前 蜀中 蜀後 呉前 呉中 呉後 袁紹 董卓 劉表".split(),
         "method_die": [{"method": "duel", "generals": 1}, {"method": "duel", "generals": 2},
                        {"method": "battle", "generals": 1}, {"method": "battle", "generals": 2},
                        {"method": "scheme", "generals": 1}, {"method": "scheme", "generals": 2}],
         "capture_die": ["capture", "kill", "kill", "kill", "kill", "return"]}
# name, affiliation, lord, valor, command, strategy, politics
NAMED = [("曹操", "魏前", True, 5, 5, 5, 3), ("夏侯惇", "魏前", False, 4, 3, 2, 0), ("荀彧", "魏前", False, 1, 2, 5, 3),
         ("劉備", "蜀前", True, 3, 4, 3, 2), ("関羽", "蜀前", False, 5, 4, 3, 1), ("張飛", "蜀前", False, 5, 2, 1, 0),
         ("周瑜", "呉前", False, 2, 4, 5, 1), ("呂布", "董卓", False, 5, 3, 1, 0)]
SOU, KAKO, JUN, RYUBI, KANU, CHOHI, SHUYU, RYOFU = range(8)
AREA_NAMES: tuple[str, ...] = ()


def build_game() -> SangokushiGame:
    rules = SangokushiRules.from_mapping(RULES)
    rows = list(NAMED)
    for i in range(len(rows), 120):  # fillers: one lord per affiliation, then plain generals
        rows.append((f"将{i}", rules.affiliations[i % 12], i < 20, 1, 1, 1, 0))
    index = {a: k for k, a in enumerate(rules.affiliations)}
    generals = Generals(tuple(f"g{i}" for i in range(len(rows))), tuple(r[0] for r in rows),
                        tuple(index[r[1]] for r in rows), tuple(r[2] for r in rows),
                        {"valor": tuple(r[3] for r in rows), "command": tuple(r[4] for r in rows),
                         "strategy": tuple(r[5] for r in rows)},
                        tuple(r[6] for r in rows), tuple(1 + r[6] for r in rows))
    return SangokushiGame.build("sangokushi", rules, generals, reference_board(), (2, 6), (60, 120))


# The suggested map (shared/reference/sangokushi_map.json), held here so the rules tests do not depend on the
# deck's map file: areas with points, routes, start areas in the order 2.4 lists them, targets of 11.1.
AREAS = ("遼東1 幽州2 晋陽1 鄴3 北海1 陳留1 洛陽2 許昌3 宛2 下邳1 寿春1 合肥1 長安3 西涼1 漢中2 "
         "成都3 江州1 南中1 永安1 上庸1 襄陽2 江陵2 江夏1 長沙1 零陵1 柴桑1 建業3 会稽1 交州1")
ROUTES = ("遼東-幽州 遼東-北海 幽州-鄴 幽州-晋陽 晋陽-鄴 晋陽-洛陽 晋陽-長安 鄴-北海 鄴-陳留 北海-陳留 "
          "北海-下邳 陳留-洛陽 陳留-許昌 陳留-下邳 洛陽-許昌 洛陽-宛 洛陽-長安 許昌-宛 許昌-寿春 宛-長安 "
          "宛-襄陽 下邳-寿春 下邳-建業 寿春-合肥 合肥-建業 合肥-柴桑 長安-西涼 長安-漢中 西涼-漢中 漢中-成都 "
          "漢中-上庸 成都-江州 成都-南中 江州-南中 江州-永安 永安-江陵 上庸-襄陽 襄陽-江陵 襄陽-江夏 江陵-江夏 "
          "江陵-長沙 江夏-長沙 江夏-柴桑 長沙-零陵 長沙-柴桑 零陵-交州 柴桑-建業 柴桑-会稽 柴桑-交州 建業-会稽 "
          "南中-交州")
STARTS = ("成都", "建業", "幽州", "西涼", "江陵", "許昌")
TARGETS = {2: 23, 3: 17, 4: 14, 5: 12, 6: 11}


def reference_board() -> Board:
    names = tuple(token[:-1] for token in AREAS.split())
    index = {n: i for i, n in enumerate(names)}
    near: dict[str, list[int]] = {n: [] for n in names}
    for route in ROUTES.split():
        a, b = route.split("-")
        near[a].append(index[b])
        near[b].append(index[a])
    return Board(names, tuple(int(token[-1]) for token in AREAS.split()), tuple(tuple(near[n]) for n in names),
                 {k: tuple(index[s] for s in STARTS[:k]) for k in range(2, 7)}, TARGETS)


GAME = build_game()
BOARD = GAME.board
A = {name: i for i, name in enumerate(BOARD.names)}


class Dice(random.Random):
    """random() returns the queued die faces; with `strict`, an unexpected roll fails the test."""

    def __init__(self, seed: int = 0, strict: bool = True) -> None:
        super().__init__(seed)
        self.faces: list[int] = []
        self.strict = strict

    def roll(self, *faces: int) -> Dice:
        self.faces.extend(faces)
        return self

    def random(self) -> float:
        if self.faces:
            return (self.faces.pop(0) - 1) / 6 + 0.01
        if self.strict:
            raise AssertionError("a die was rolled that the test did not script")
        return super().random()


def position(players: int = 2, *, hands: dict[int, list[int]] | None = None, used: dict[int, list[int]] | None = None,
             areas: dict[str, int] | None = None, pool: list[int] | None = None, turn: int = 0) -> SangokushiState:
    """A state with exactly these hands, used piles, area owners (only those named) and pool; the rest is the deck."""
    state = GAME.new_initial_state(random.Random(0), players, first_player=turn)
    state.chance = Dice()  # every die from here on is scripted
    hands, used, pool = hands or {}, used or {}, pool or []
    state.hands = [list(hands.get(s, [])) for s in range(players)]
    state.used = [list(used.get(s, [])) for s in range(players)]
    state.pool = list(pool)
    taken = {c for cards in [*state.hands, *state.used, state.pool] for c in cards}
    state.deck = [c for c in range(len(GAME.generals)) if c not in taken]
    state.owner = [-1] * len(BOARD.names)
    state.points = [0] * players
    for name, seat in (areas or {}).items():
        state.owner[A[name]] = seat
        state.points[seat] += BOARD.points[A[name]]
    state._legal = None
    state.check_invariants()
    return state


def play(state: SangokushiState, *actions: int) -> None:
    for action in actions:
        state.apply_action(action)
        state.check_invariants()


def fillers(n: int, start: int = 40) -> list[int]:
    return list(range(start, start + n))


# -- 3: the turn -------------------------------------------------------------------------------------
def test_turn_offers_attack_recover_recruit_dismiss_pass():
    state = position(hands={0: [SOU, KAKO], 1: [KANU]}, used={0: [JUN]}, areas={"成都": 0, "建業": 1})
    kinds = {a >> 8 for a in state.legal_actions()}
    assert kinds == {ATTACK, RECOVER, RECRUIT, DISMISS, PASS}


def test_attack_only_next_to_own_areas():
    state = position(hands={0: [SOU, KAKO]}, areas={"成都": 0, "建業": 1})
    targets = sorted(a & 0xFF for a in state.legal_actions() if a >> 8 == ATTACK)
    assert targets == sorted(BOARD.neighbours[A["成都"]])


def test_a_player_without_areas_may_attack_anywhere():
    state = position(hands={0: [SOU, KAKO]}, areas={"建業": 1})
    targets = {a & 0xFF for a in state.legal_actions() if a >> 8 == ATTACK}
    assert targets == set(range(len(BOARD.names)))


def test_neutral_area_costs_two_hand_cards():
    state = position(hands={0: [SOU, KAKO, JUN]}, areas={"成都": 0, "建業": 1})
    play(state, encode(ATTACK, A["江州"]))
    assert state.phase == PAY_P
    play(state, encode(PAY, KAKO), encode(PAY, JUN))
    assert state.owner[A["江州"]] == 0 and sorted(state.used[0]) == [KAKO, JUN] and state.hands[0] == [SOU]
    assert state.points[0] == 4 and state.phase == TURN and state.turn_player == 1


# -- 4.6 and 5: refusal and battle -------------------------------------------------------------------
def attack_jianye(hand0: list[int], hand1: list[int], used: dict[int, list[int]] | None = None) -> SangokushiState:
    """Seat 0 holds 合肥 next to seat 1's 建業 and attacks it."""
    state = position(2, hands={0: hand0, 1: hand1}, used=used, areas={"合肥": 0, "建業": 1})
    play(state, encode(ATTACK, A["建業"]))
    return state


def test_clarification_refusal():
    state = attack_jianye([SOU, KAKO], [KANU])
    play(state, encode(COMMIT, SOU), encode(DONE))
    assert state.phase == DEFEND_P and encode(REFUSE) in state.legal_actions()
    play(state, encode(REFUSE))  # Dice is strict: no die is rolled
    assert state.owner[A["建業"]] == 0 and state.used[0] == [SOU] and state.hands[1] == [KANU]
    assert state.counts["refusals"] == 1 and state.counts["battles"] == 0
    empty = attack_jianye([SOU], [])
    play(empty, encode(COMMIT, SOU))  # the last hand card ends the selection; the empty defender refuses
    assert empty.owner[A["建業"]] == 0 and empty.counts["refusals"] == 1


def test_clarification_attack_needs_cards():
    state = position(hands={0: [SOU]}, areas={"合肥": 0, "建業": 1})
    targets = {a & 0xFF for a in state.legal_actions() if a >> 8 == ATTACK}
    assert targets == {A["建業"]}  # one card: no neutral area, but a held one
    assert not any(a >> 8 == ATTACK for a in position(hands={}, areas={"合肥": 0}).legal_actions())
    assert A["合肥"] not in {a & 0xFF for a in position(hands={0: [SOU]}, areas={"合肥": 0}).legal_actions()
                            if a >> 8 == ATTACK}


def test_clarification_neutral_choice():
    state = position(hands={0: [SOU, KAKO, JUN]}, areas={"成都": 0})
    play(state, encode(ATTACK, A["江州"]))
    assert set(state.legal_actions()) == {encode(PAY, c) for c in (SOU, KAKO, JUN)}


def test_battle_round_with_lord_bonus_and_capture():
    state = attack_jianye([SOU, KAKO], [KANU])
    play(state, encode(COMMIT, SOU), encode(COMMIT, KAKO))  # the last hand card ends the selection
    state.chance.roll(1, 3, 4, 1)  # 一騎討ち 1人: 5+3+2 (魏前 with a lord) against 5+4; then the capture die
    play(state, encode(COMMIT, KANU))
    assert state.counts["rounds"] == 1 and state.counts["attacker_wins"] == 1
    assert state.owner[A["建業"]] == 0 and state.phase == CAPTURE_P
    play(state, encode(KEEP, KANU))
    assert sorted(state.used[0]) == sorted([SOU, KAKO, KANU]) and state.counts["captures"] == 1


def test_clarification_two_generals_sum():
    state = attack_jianye([SOU, KAKO], [KANU, CHOHI])
    play(state, encode(COMMIT, SOU), encode(COMMIT, KAKO))
    # 一騎討ち 2人: (5+4)+2+2 = 13 against (5+5)+1+1 (蜀前 without its lord: +1) = 12 -> 1 damage
    state.chance.roll(2, 2, 1)
    play(state, encode(COMMIT, KANU), encode(COMMIT, CHOHI))
    assert state.phase == DAMAGE_P and state.damage == 1 and state.player == 1


def test_clarification_bonus_face_up():
    state = attack_jianye([SOU, KAKO], [KANU, CHOHI])
    play(state, encode(COMMIT, SOU), encode(COMMIT, KAKO))
    state.chance.roll(3, 1, 6)  # 合戦 1人: 5+1+2 = 8 against 4+6+1 = 11: the attacker takes 3
    play(state, encode(COMMIT, KANU), encode(COMMIT, CHOHI))
    assert state.phase == DAMAGE_P and state.damage == 3 and state.player == 0
    state.chance.roll(3, 5, 3)  # 曹操 down, 夏侯惇 alone has no bonus: 3+5 against 4+3+1 is a tie (not 10 to 8)
    state.chance.roll(3, 6, 1)  # 3+6 against 4+1+1 = 6: 3 damage, both 蜀前 cards (capacity 2 + 1) turn down
    state.chance.roll(6, 6)     # capture dice for 関羽 and 張飛: both return
    play(state, encode(DAMAGE, SOU))
    assert state.counts["ties"] == 1 and state.owner[A["建業"]] == 0
    assert sorted(state.used[1]) == [KANU, CHOHI] and state.counts["returns"] == 2


def test_clarification_best_generals():
    state = attack_jianye([JUN, SOU, KAKO], [RYOFU])
    play(state, encode(COMMIT, JUN), encode(COMMIT, KAKO), encode(DONE))
    state.chance.roll(5, 1, 1, 2)  # 計略 1人: the best is 荀彧 (5) +1 +1 (魏前, no lord up) = 7 vs 呂布 1+1
    play(state, encode(COMMIT, RYOFU))
    assert state.counts["kills"] == 1 and RYOFU in state.removed


def test_clarification_short_handed():
    state = attack_jianye([SOU], [KANU])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(2, 1, 1)  # 一騎討ち 2人 with one card each: 5+1 against 5+1, a tie
    state.chance.roll(2, 1, 2, 6)  # then 5+1 against 5+2: 曹操 takes 1, turns down, and returns (6)
    play(state, encode(COMMIT, KANU))
    assert state.counts["defender_wins"] == 1 and state.owner[A["建業"]] == 1 and state.used[0] == [SOU]


def test_clarification_tie():
    state = attack_jianye([SOU], [KANU])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 4, 4, 1, 6, 1, 6)  # tie, then 5+6 against 5+1: 5 damage; 関羽 returns
    play(state, encode(COMMIT, KANU))
    assert state.counts["ties"] == 1 and state.counts["rounds"] == 2 and state.counts["returns"] == 1


def test_clarification_damage_flip():
    state = attack_jianye([SOU], [KANU, SHUYU, CHOHI])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 5, 1)  # 5+5 against 5+1 (no bonus: mixed affiliations) = 4 damage
    play(state, encode(COMMIT, KANU), encode(COMMIT, SHUYU), encode(COMMIT, CHOHI))
    assert state.phase == DAMAGE_P and state.player == 1 and state.damage == 4
    assert set(state.legal_actions()) == {encode(DAMAGE, c) for c in (KANU, SHUYU, CHOHI)}
    play(state, encode(DAMAGE, KANU))  # 関羽 absorbs 2 (1 + politics 1): 2 left, the defender chooses again
    assert state.phase == DAMAGE_P and state.damage == 2 and state.up[1] == [SHUYU, CHOHI]
    state.chance.roll(1, 1, 6, 6)  # 周瑜 takes the 2; 張飛 stays up and wins the next round 5+6 to 5+1; 曹操 returns
    play(state, encode(DAMAGE, SHUYU))
    assert state.counts["defender_wins"] == 1 and state.used[0] == [SOU]
    overkill = attack_jianye([SOU], [CHOHI, RYOFU])
    play(overkill, encode(COMMIT, SOU))
    overkill.chance.roll(1, 6, 1, 2, 2)  # 5 damage on capacities 1 + 1: both down, the other 3 are lost
    play(overkill, encode(COMMIT, CHOHI), encode(COMMIT, RYOFU))
    assert overkill.counts["attacker_wins"] == 1 and overkill.counts["kills"] == 2


def test_damage_covered_by_one_card_leaves_the_rest_up():
    state = attack_jianye([SOU], [KANU, CHOHI])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 2, 1)  # 5+2 against 5+1 (蜀前 pair: +1) -> tie; then 5+3 vs 5+1+1 -> 1 damage
    state.chance.roll(1, 3, 1)
    play(state, encode(COMMIT, KANU), encode(COMMIT, CHOHI))
    assert state.phase == DAMAGE_P and state.damage == 1
    state.chance.roll(1, 1, 6, 6)  # next round: 5+1 against 5+6 (張飛 alone): the attacker's only card goes
    play(state, encode(DAMAGE, KANU))  # 2 capacity for 1 damage: 関羽 is down, its spare capacity lost
    assert state.counts["defender_wins"] == 1 and sorted(state.used[1]) == sorted([KANU, CHOHI])


def test_capture_checks_capture_kill_return():
    state = attack_jianye([SOU], [KANU, CHOHI, RYOFU])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1)  # 11 against 6 (no bonus): 5 damage turns all three (capacity 4) down
    state.chance.roll(1, 2, 6)  # capture dice: 関羽 captured, 張飛 killed, 呂布 returns
    play(state, encode(COMMIT, KANU), encode(COMMIT, CHOHI), encode(COMMIT, RYOFU))
    assert state.phase == CAPTURE_P and state.captured == [KANU]
    assert CHOHI in state.removed and RYOFU in state.used[1]
    play(state, encode(RELEASE, KANU))  # 6.5: the winner may release a captured card
    assert KANU in state.pool and state.phase == TURN


def test_clarification_capture_order():
    # seat 0 is at its limit (7 + 1 for 合肥) before the battle; the area it takes (+3) makes room for the capture
    state = attack_jianye([SOU], [KANU], used={0: fillers(7)})
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 1)
    play(state, encode(COMMIT, KANU))
    assert state.owner[A["建業"]] == 0 and state.phase == CAPTURE_P


def test_clarification_capture_choice():
    state = attack_jianye([SOU], [KANU])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 1)
    play(state, encode(COMMIT, KANU))
    assert state.phase == CAPTURE_P and set(state.legal_actions()) == {encode(KEEP, KANU), encode(RELEASE, KANU)}
    # 10.4: the defender wins at its limit (7 + 3): the captured 曹操 goes to the pool without a question
    full = attack_jianye([SOU], [KANU], used={1: fillers(9)})
    play(full, encode(COMMIT, SOU))
    full.chance.roll(1, 1, 6, 1)
    play(full, encode(COMMIT, KANU))
    assert SOU in full.pool and full.phase == TURN and full.counts["released"] == 1 and full.counts["captures"] == 1


def test_clarification_lord_death_roll():
    state = attack_jianye([SOU], [RYUBI])
    state.dead_lords = state.counts["lord_deaths"] = 1
    state.removed = [8]
    state.deck.remove(8)
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 2, 2)  # 劉備 killed (2nd dead lord); end roll 2 <= 2: the game ends
    play(state, encode(COMMIT, RYUBI))
    assert state.phase == OVER and state.end_reason == "lord-death" and state.counts["end_rolls"] == 1
    assert state.owner[A["建業"]] == 0  # the aftermath up to the area change was done first
    alive = attack_jianye([SOU], [RYUBI])
    play(alive, encode(COMMIT, SOU))
    alive.chance.roll(1, 6, 1, 1)  # 劉備 captured: no death, no end roll
    play(alive, encode(COMMIT, RYUBI))
    assert alive.dead_lords == 0 and alive.counts["end_rolls"] == 0 and alive.phase == CAPTURE_P


# -- 7: recovery -------------------------------------------------------------------------------------
def test_recovery_die_politics_and_bonus_never_the_spent_cards():
    used = fillers(7)
    state = position(hands={0: [SOU, JUN, KAKO]}, used={0: used}, areas={"成都": 0, "建業": 1})
    play(state, encode(RECOVER), encode(SPEND, SOU), encode(SPEND, JUN))
    state.chance.roll(1)  # 1 + politics 3 + 3 + 2 (魏前 with its lord) = 9: all seven come back, not the two spent
    play(state, encode(ROLL))
    assert sorted(state.hands[0]) == sorted([KAKO, *used]) and sorted(state.used[0]) == [SOU, JUN]
    assert state.phase == TURN and state.counts["restored"] == 7


def test_clarification_recover_choice():
    state = position(hands={0: [KAKO]}, used={0: fillers(5)}, areas={"成都": 0})
    play(state, encode(RECOVER), encode(SPEND, KAKO))
    state.chance.roll(2)  # 2 + 0: two of five come back; 夏侯惇, spent now, is not among the choices (7.7)
    play(state, encode(ROLL))
    assert state.phase == RESTORE_P and set(state.legal_actions()) == {encode(RESTORE, c) for c in fillers(5)}
    play(state, encode(RESTORE, 44), encode(RESTORE, 40))
    assert sorted(state.hands[0]) == [40, 44] and state.phase == TURN
    assert encode(RECOVER) not in position(hands={0: [SOU]}, areas={"成都": 0}).legal_actions()


# -- 8: recruit --------------------------------------------------------------------------------------
def test_recruit_draws_one_without_spending():
    state = position(hands={0: [KAKO]}, areas={"成都": 0})
    top = state.deck[-1]
    play(state, encode(RECRUIT), encode(ROLL))  # no die: nothing spent
    assert state.hands[0] == [KAKO, top] and state.phase == TURN


def test_clarification_extra_recruit():
    state = position(hands={0: [SOU, JUN, KAKO]}, areas={"成都": 0}, pool=[RYOFU])
    play(state, encode(RECRUIT))
    assert encode(SPEND, KAKO) in state.legal_actions()  # politics 0, but cards of politics >= 1 are in hand
    play(state, encode(SPEND, SOU))
    state.chance.roll(3)  # 3 + 3 = 6: two more cards, three in all
    play(state, encode(ROLL))
    assert state.phase == DRAW_P and state.pending == 3 and state.counts["extra_recruits"] == 1
    assert set(state.legal_actions()) == {encode(DRAW), encode(TAKE, RYOFU)}
    play(state, encode(TAKE, RYOFU))  # 呂布 from the pool (8.3); the pool is empty, so the rest come off the pile
    assert RYOFU in state.hands[0] and state.phase == TURN
    assert len(state.hands[0]) == 2 + 3 and state.used[0] == [SOU]
    # 8.9: with only politics-0 cards in hand, none may be spent
    bare = position(hands={0: [KAKO, CHOHI]}, areas={"成都": 0})
    play(bare, encode(RECRUIT))
    assert bare.legal_actions() == [encode(ROLL)]


def test_clarification_recruit_limit():
    state = position(hands={0: [SOU]}, used={0: fillers(9)}, areas={"成都": 0})  # 10 held, limit 7 + 3
    assert encode(RECRUIT) not in state.legal_actions()
    room = position(hands={0: [SOU, JUN]}, used={0: fillers(7)}, areas={"成都": 0})  # 9 held: room for one
    play(room, encode(RECRUIT), encode(SPEND, SOU), encode(SPEND, JUN))
    room.chance.roll(6)  # 6 + 6 + 2 = 14: four more, but the limit allows one (10.6)
    play(room, encode(ROLL))
    assert room.held(0) == 10 and room.phase == TURN and room.counts["drawn"] == 1


# -- 9: dismissal ------------------------------------------------------------------------------------
def test_clarification_dismiss_one():
    state = position(hands={0: [SOU, KAKO]}, areas={"成都": 0})
    play(state, encode(DISMISS))
    assert encode(DONE) not in state.legal_actions()
    play(state, encode(DISCARD, KAKO))
    assert encode(DONE) in state.legal_actions()
    play(state, encode(DONE))
    assert state.pool == [KAKO] and state.hands[0] == [SOU] and state.phase == TURN
    emptied = position(hands={0: [SOU]}, areas={"成都": 0})
    play(emptied, encode(DISMISS), encode(DISCARD, SOU))  # the hand is empty: the dismissal ends
    assert emptied.phase == TURN and emptied.pool == [SOU]


# -- 10: holding limits ------------------------------------------------------------------------------
def test_limit_is_deal_size_plus_area_points():
    state = position(4, areas={"成都": 0, "江州": 0, "建業": 1})
    assert [state.limit(s) for s in range(4)] == [12 + 4, 12 + 3, 12, 12]


def test_clarification_area_loss_discard():
    state = attack_jianye([SOU], [KANU], used={1: fillers(9)})  # seat 1: 10 held, limit 7 + 3
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 2)  # 関羽 is killed; 建業 lost: limit 7 with 9 held -> release 2
    play(state, encode(COMMIT, KANU))
    assert state.phase == SHED_P and state.player == 1 and len(state.legal_actions()) == 9
    play(state, encode(SHED, 40), encode(SHED, 41))
    assert state.held(1) == 7 and state.phase == TURN and 40 in state.pool and state.counts["shed"] == 2


# -- 11: the end -------------------------------------------------------------------------------------
def test_reaching_the_target_ends_the_game():
    areas = {"成都": 0, "長安": 0, "漢中": 0, "鄴": 0, "許昌": 0, "洛陽": 0, "宛": 0, "襄陽": 0, "江陵": 0,
             "建業": 1}  # 22 points, one short of 23
    state = position(hands={0: [SOU, KAKO]}, areas=areas)
    play(state, encode(ATTACK, A["江州"]), encode(PAY, SOU), encode(PAY, KAKO))
    assert state.phase == OVER and state.end_reason == "target" and state.outcome().winners == (0,)
    assert state.counts["end_target"] == 1 and state.returns()[0] >= 23


def test_lord_death_roll_above_the_dead_count_goes_on():
    state = attack_jianye([SOU], [RYUBI])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 2, 3)  # first dead lord, roll 3 > 1
    play(state, encode(COMMIT, RYUBI))
    assert state.phase == TURN and state.dead_lords == 1 and state.counts["end_rolls"] == 1


def test_clarification_end_scoring():
    state = attack_jianye([SOU], [RYUBI])
    play(state, encode(COMMIT, SOU))
    state.chance.roll(1, 6, 1, 2, 1)
    play(state, encode(COMMIT, RYUBI))
    outcome = state.outcome()
    assert outcome.reason == "lord-death" and outcome.scores == (4, 0) and outcome.winners == (0,)
    tied = position(hands={}, areas={"成都": 0, "建業": 1})
    play(tied, encode(PASS), encode(PASS))
    assert tied.outcome().winners == (0, 1)


def test_clarification_stalemate():
    state = position(3, hands={0: [SOU]}, areas={"成都": 0})
    play(state, encode(PASS), encode(PASS))
    assert state.phase == TURN
    play(state, encode(PASS))
    assert state.phase == OVER and state.end_reason == "stalemate" and state.counts["end_stalemate"] == 1
    late = position(2, hands={0: [SOU]}, areas={"成都": 0})
    late.turns = GAME.rules.round_limit * 2
    play(late, encode(DISMISS), encode(DISCARD, SOU))
    assert late.end_reason == "rounds" and late.counts["end_rounds"] == 1


def test_clarification_start_areas():
    seen = set()
    for seed in range(30):
        state = GAME.new_initial_state(random.Random(seed), 3)
        held = tuple(state.owner.index(s) for s in range(3))
        assert sorted(held) == sorted(BOARD.start_areas[3]) and all(len(h) == 10 for h in state.hands)
        seen.add((held, state.first_player))
    assert len(seen) > 6


def test_every_clarification_has_its_test():
    names = {name for name in dir(sys.modules[__name__]) if name.startswith("test_clarification_")}
    expected = {"test_clarification_" + re.sub(r"\W", "_", c.id) for c in CLARIFICATIONS}
    assert expected <= names, sorted(expected - names)
    assert len({c.id for c in CLARIFICATIONS}) == len(CLARIFICATIONS)
    assert all(c.ja and c.en for c in CLARIFICATIONS)
