"""sanguosha rules engine: distance and range (the seed's 8-player examples), every card on a set-up
position, 無懈可撃 chains, dying and rescue, rewards and penalties, both ends of the game, setup."""
from __future__ import annotations

import json
import random

import pytest

from validator.engine.api import TERMINAL
from validator.games.sanguosha.options import trig
from validator.games.sanguosha.positions import CardPicker, game_from_files, position
from validator.games.sanguosha.rules import (
    CONVERT,
    DISCARD,
    HAND,
    NONE,
    OPTION,
    P_PLAY,
    P_SHA,
    P_SHAN,
    P_TAO,
    P_WUXIE,
    PASS,
    PICK,
    RESPOND,
    SHA,
    TARGET,
    USE,
    act,
    distance,
)
from validator.games.sanguosha.state import FIELDS
from validator.paths import DEFAULT_DECKS_DIR

RULES = json.loads((DEFAULT_DECKS_DIR / "sanguosha" / "game.json").read_text(encoding="utf-8"))["rules"]
GAME = game_from_files(rules={**RULES, "ex_cards": "add"})
PLAIN = "huanggai"   # 苦肉 only adds a play option; nothing of his triggers on its own
P = PASS_ACTION = act(PASS)


def setup(n=4, roles=None, generals=None, **kw):
    roles = roles or ["lord", "rebel", "loyalist", "renegade", "rebel", "rebel", "loyalist", "rebel", "loyalist",
                      "renegade"][:n]
    return position(GAME, generals or [PLAIN] * n, roles, **kw)


def use(st, card, t1=NONE, t2=NONE):
    st.apply_action(act(USE, card, t1, t2))


def at_play(st, seat=0):
    return st.current_player() == seat and st.prompt[0] == P_PLAY


# -- distance ---------------------------------------------------------------------------------------
def test_distance_examples_of_the_seed():
    seats = list(range(8))  # A..H
    a, b, c, d, e, f, g, h = seats
    assert [distance(seats, a, t) for t in (b, h, c, g, d, f, e)] == [1, 1, 2, 2, 3, 3, 4]
    alive = [a, b, c, d, e, f, g]  # H dead
    assert (distance(alive, a, g), distance(alive, a, f), distance(alive, a, e)) == (1, 2, 3)
    assert [t for t in seats[1:] if distance(seats, a, t) <= 3] == [b, c, d, f, g, h]  # 青龍偃月刀 (3)
    assert distance(seats, a, h, minus_horse=1) == 1 and distance(seats, a, g, minus_horse=1) == 1
    assert distance(seats, a, e, minus_horse=1) == 3
    assert distance(seats, h, a, plus_horse=1) == 2 and distance(seats, g, a, plus_horse=1) == 3
    assert distance(seats, e, a, minus_horse=1, plus_horse=1) == 4 > 3  # E with 青龍 and -1 cannot reach A


def test_state_distance_counts_horses_the_living_and_the_weapon():
    pick = CardPicker(GAME)
    qinglong, chitu, dilu = pick("qinglong"), pick("chitu"), pick("dilu")
    st = setup(8, equipment={0: [qinglong, chitu], 4: [dilu]})
    assert [st.dist(0, t) for t in range(1, 8)] == [1, 1, 2, 4, 2, 1, 1]  # E: 4 - 1 + 1
    assert st.attack_range(0) == 3 and st.dist(0, 4) > st.attack_range(0)
    st2 = setup(8, dead=[7])
    assert (st2.dist(0, 6), st2.dist(0, 5), st2.dist(0, 4)) == (1, 2, 3)


# -- 殺 and 閃 ----------------------------------------------------------------------------------------
def test_sha_hits_or_is_dodged_and_only_one_per_turn():
    pick = CardPicker(GAME)
    s1, s2, shan = pick("sha"), pick("sha"), pick("shan")
    st = setup(4, hands={0: [s1, s2], 1: [shan]})
    assert act(USE, s1, 2) not in st.legal_actions()  # seat 2 is 2 away, range 1
    use(st, s1, 1)
    assert st.current_player() == 1 and st.prompt[0] == P_SHAN
    st.apply_action(act(RESPOND, shan))
    assert st.hp[1] == 4 and at_play(st)
    assert not any(a >> 28 == USE for a in st.legal_actions())  # the second 殺 waits for next turn
    assert st.sha_used == 1


def test_sha_without_shan_deals_one_damage():
    pick = CardPicker(GAME)
    s1 = pick("sha")
    st = setup(4, hands={0: [s1]})
    use(st, s1, 3)
    assert st.hp[3] == 3 and s1 in st.discard


def test_zhuge_allows_any_number_of_sha():
    pick = CardPicker(GAME)
    zhuge, s1, s2, s3 = pick("zhuge"), pick("sha"), pick("sha"), pick("sha")
    st = setup(4, hands={0: [s1, s2, s3]}, equipment={0: [zhuge]})
    for card in (s1, s2, s3):
        use(st, card, 1)
    assert st.hp[1] == 1 and st.sha_used == 3
    st.check_invariants()


def test_tao_heals_only_a_wounded_user():
    pick = CardPicker(GAME)
    tao = pick("tao")
    st = setup(4, hands={0: [tao]})
    assert act(USE, tao) not in st.legal_actions()
    st = setup(4, hands={0: [tao]}, hp={0: 2})
    use(st, tao)
    assert st.hp[0] == 3


# -- tricks -----------------------------------------------------------------------------------------
def test_juedou_alternates_sha_starting_with_the_target():
    pick = CardPicker(GAME)
    duel, a1, b1, b2 = pick("juedou"), pick("sha"), pick("sha"), pick("sha")
    st = setup(4, hands={0: [duel, a1], 2: [b1, b2]})
    use(st, duel, 2)  # any distance
    assert st.current_player() == 2 and st.prompt[0] == P_SHA
    st.apply_action(act(RESPOND, b1))
    assert st.current_player() == 0
    st.apply_action(act(RESPOND, a1))
    st.apply_action(act(RESPOND, b2))
    assert st.hp[0] == 3 and st.hp[2] == 4  # the user ran out of 殺 first


def test_guohe_discards_equipment_or_a_random_hand_card_and_shunshou_takes_at_distance_one():
    pick = CardPicker(GAME)
    guohe, shun, horse, c1 = pick("guohe"), pick("shunshou"), pick("jueying"), pick("shan")
    st = setup(4, hands={0: [guohe, shun], 2: [c1]}, equipment={2: [horse]})
    assert act(USE, shun, 2) not in st.legal_actions()  # distance 2 (+1 horse: 3)
    use(st, guohe, 2)
    assert set(st.legal_actions()) == {act(PICK, HAND, 2), act(PICK, horse, 2)}
    st.apply_action(act(PICK, horse, 2))
    assert horse in st.discard and st.equip[2][2] == -1
    st2 = setup(4, hands={0: [shun], 1: [c1]})
    use(st2, shun, 1)
    assert st2.hands[0] == [c1] and not st2.hands[1]  # only a hand card: taken at random without asking


def test_wuzhong_draws_two():
    pick = CardPicker(GAME)
    wz = pick("wuzhong")
    st = setup(4, hands={0: [wz]})
    top = st.deck[-2:]
    use(st, wz)
    assert sorted(st.hands[0]) == sorted(top)


def test_nanman_asks_each_other_player_from_the_left_for_sha():
    pick = CardPicker(GAME)
    nm, s2 = pick("nanman"), pick("sha")
    st = setup(4, hands={0: [nm], 2: [s2]})
    use(st, nm)
    assert st.hp[1] == 3 and st.current_player() == 2 and st.prompt[0] == P_SHA
    st.apply_action(act(RESPOND, s2))
    assert (st.hp[0], st.hp[1], st.hp[2], st.hp[3]) == (4, 3, 4, 3)


def test_wanjian_asks_for_shan():
    pick = CardPicker(GAME)
    wj, shan = pick("wanjian"), pick("shan")
    st = setup(3, hands={0: [wj], 2: [shan]})
    use(st, wj)
    st.apply_action(act(RESPOND, shan))
    assert (st.hp[1], st.hp[2]) == (3, 4)


def test_taoyuan_heals_every_wounded_player():
    pick = CardPicker(GAME)
    ty = pick("taoyuan")
    st = setup(4, hands={0: [ty]}, hp={0: 2, 2: 1, 3: 4})
    use(st, ty)
    assert st.hp == [3, 4, 2, 4]


def test_wugu_turns_up_one_card_per_player_and_each_picks_in_order():
    pick = CardPicker(GAME)
    wg, x, y, z = pick("wugu"), pick("tao"), pick("shan"), pick("sha")
    st = setup(3, hands={0: [wg]}, deck_top=[x, y, z])
    use(st, wg)
    assert st.current_player() == 0
    st.apply_action(act(PICK, x))
    assert st.current_player() == 1
    st.apply_action(act(PICK, z))
    assert st.hands == [[x], [z], [y]]


def test_jiedao_holder_uses_sha_or_gives_the_weapon():
    pick = CardPicker(GAME)
    jd, sword, s1 = pick("jiedao"), pick("qinggang"), pick("sha")
    st = setup(4, hands={0: [jd], 1: [s1]}, equipment={1: [sword]})
    use(st, jd, 1, 2)
    assert st.current_player() == 1 and st.prompt[0] == P_SHA
    st.apply_action(act(RESPOND, s1))
    assert st.hp[2] == 3
    st = setup(4, hands={0: [jd], 1: [s1]}, equipment={1: [sword]})
    use(st, jd, 1, 2)
    st.apply_action(P)
    assert sword in st.hands[0] and st.equip[1][0] == -1


def test_wuxie_cancels_and_a_second_wuxie_cancels_the_first():
    pick = CardPicker(GAME)
    wz, w1, w2 = pick("wuzhong"), pick("wuxie"), pick("wuxie")
    st = setup(4, hands={0: [wz], 2: [w1], 3: [w2]})
    use(st, wz)
    assert st.current_player() == 2 and st.prompt[0] == P_WUXIE
    st.apply_action(act(RESPOND, w1))
    assert st.current_player() == 3
    st.apply_action(act(RESPOND, w2))
    assert len(st.hands[0]) == 2  # the effect stands: 無中生有 drew 2
    st = setup(4, hands={0: [wz], 2: [w1], 3: [w2]})
    use(st, wz)
    st.apply_action(act(RESPOND, w1))
    st.apply_action(P)
    assert st.hands[0] == [] and at_play(st)


def test_lebu_skips_the_play_phase_unless_a_heart_is_judged():
    pick = CardPicker(GAME)
    lebu, spade, heart = pick("lebu"), pick("sha", "spade"), pick("shan", "heart")
    st = setup(2, roles=["lord", "rebel"], hands={0: [lebu]}, deck_top=[spade])
    use(st, lebu, 1)
    st.apply_action(P)  # seat 0 ends its play phase; seat 1's turn: judgement ♠ → no play phase
    assert st.counts["turns_skipped_lebu"] == 1 and st.turn_player == 0
    st = setup(2, roles=["lord", "rebel"], hands={0: [lebu]}, deck_top=[heart])
    use(st, lebu, 1)
    st.apply_action(P)
    assert st.turn_player == 1 and st.counts["turns_skipped_lebu"] == 0


def test_shandian_strikes_on_spade_2_to_9_else_moves_on():
    pick = CardPicker(GAME)
    sd, hit, miss = pick("shandian"), pick("sha", "spade", 7), pick("sha", "heart")
    st = setup(3, judge={1: [(sd, "shandian")]}, deck_top=[hit])
    st.apply_action(P)
    assert st.hp[1] == 1 and sd in st.discard
    st = setup(3, judge={1: [(sd, "shandian")]}, deck_top=[miss])
    st.apply_action(P)
    assert st.judge[2] == [sd] and st.hp[1] == 4


def test_equipment_replaces_the_slot():
    pick = CardPicker(GAME)
    w1, w2 = pick("qilin"), pick("zhuge")
    st = setup(4, hands={0: [w1, w2]})
    use(st, w1)
    assert st.attack_range(0) == 5
    use(st, w2)
    assert st.equip[0][0] == w2 and w1 in st.discard


# -- weapons and armour ---------------------------------------------------------------------------------
def test_bagua_judges_red_as_shan_and_qinggang_ignores_it():
    pick = CardPicker(GAME)
    s1, bagua, red = pick("sha"), pick("bagua"), pick("tao", "heart")
    st = setup(4, hands={0: [s1]}, equipment={1: [bagua]}, deck_top=[red])
    use(st, s1, 1)
    st.apply_action(trig("bagua"))
    assert st.hp[1] == 4
    sword = pick("qinggang")
    st = setup(4, hands={0: [s1]}, equipment={0: [sword], 1: [bagua]}, deck_top=[red])
    use(st, s1, 1)
    assert st.hp[1] == 3


def test_renwang_blocks_black_sha():
    pick = CardPicker(GAME)
    black, red, shield = pick("sha", color="black"), pick("sha", color="red"), pick("renwang")
    st = setup(4, hands={0: [black]}, equipment={1: [shield]})
    use(st, black, 1)
    assert st.hp[1] == 4
    st = setup(4, hands={0: [red]}, equipment={1: [shield]})
    use(st, red, 1)
    assert st.hp[1] == 3


def test_cixiong_target_discards_or_user_draws():
    pick = CardPicker(GAME)
    s1, sword, c = pick("sha"), pick("cixiong"), pick("tao")
    st = setup(4, generals=[PLAIN, "huangyueying", PLAIN, PLAIN], hands={0: [s1], 1: [c]}, equipment={0: [sword]})
    use(st, s1, 1)
    st.apply_action(trig("cixiong"))
    assert st.current_player() == 1
    st.apply_action(act(OPTION, 0))
    assert len(st.hands[0]) == 1


def test_qinglong_follows_a_dodged_sha_and_guanshi_forces_it():
    pick = CardPicker(GAME)
    s1, s2, blade, shan = pick("sha"), pick("sha"), pick("qinglong"), pick("shan")
    st = setup(4, hands={0: [s1, s2], 1: [shan]}, equipment={0: [blade]})
    use(st, s1, 1)
    st.apply_action(act(RESPOND, shan))
    st.apply_action(act(RESPOND, s2))  # 青龍: another 殺
    assert st.hp[1] == 3
    axe, x, y = pick("guanshi"), pick("tao"), pick("tao")
    st = setup(4, hands={0: [s1, x, y], 1: [shan]}, equipment={0: [axe]})
    use(st, s1, 1)
    st.apply_action(act(RESPOND, shan))
    st.apply_action(trig("guanshi"))
    st.apply_action(act(DISCARD, x))  # the second card (y) is the only one left: taken without asking
    assert st.hp[1] == 3 and {x, y} <= set(st.discard)


def test_zhangba_two_hand_cards_as_sha():
    from validator.games.sanguosha.rules import EFFECT_INDEX, SKILL

    pick = CardPicker(GAME)
    spear, x, y = pick("zhangba"), pick("tao"), pick("shan")
    st = setup(4, hands={0: [x, y]}, equipment={0: [spear]})
    st.apply_action(act(SKILL, EFFECT_INDEX["zhangba"], 2))
    st.apply_action(act(DISCARD, x))
    assert st.hp[2] == 3 and not st.hands[0] and st.sha_used == 1


def test_hanbing_discards_two_cards_instead_of_damage():
    pick = CardPicker(GAME)
    s1, sword, a, b = pick("sha"), pick("hanbing"), pick("tao"), pick("jueying")
    st = setup(4, hands={0: [s1], 1: [a]}, equipment={0: [sword], 1: [b]})
    use(st, s1, 1)
    st.apply_action(trig("hanbing"))
    st.apply_action(act(PICK, b, 1))
    assert st.hp[1] == 4 and not st.hands[1] and st.equip[1][2] == -1


def test_fangtian_last_card_takes_two_more_targets():
    pick = CardPicker(GAME)
    s1, halberd = pick("sha"), pick("fangtian")
    st = setup(5, hands={0: [s1]}, equipment={0: [halberd]})
    use(st, s1, 1)
    st.apply_action(act(TARGET, 2))
    st.apply_action(act(TARGET, 4))
    assert (st.hp[1], st.hp[2], st.hp[3], st.hp[4]) == (3, 3, 4, 3)


def test_qilin_discards_a_horse_of_the_damaged_target():
    pick = CardPicker(GAME)
    s1, bow, horse = pick("sha"), pick("qilin"), pick("dilu")
    st = setup(4, hands={0: [s1]}, equipment={0: [bow], 2: [horse]})
    use(st, s1, 2)
    st.apply_action(act(PICK, horse))
    assert horse in st.discard and st.hp[2] == 3


# -- dying, death, the end --------------------------------------------------------------------------------
def test_dying_player_is_rescued_by_tao_from_anyone():
    pick = CardPicker(GAME)
    s1, tao = pick("sha"), pick("tao")
    st = setup(4, hands={0: [s1], 2: [tao]}, hp={1: 1})
    use(st, s1, 1)
    assert st.current_player() == 2 and st.prompt[:2] == (P_TAO, 1)
    st.apply_action(act(RESPOND, tao))
    assert st.alive[1] and st.hp[1] == 1


def test_rebel_killer_draws_three_and_lord_killing_loyalist_loses_everything():
    pick = CardPicker(GAME)
    s1, s2, horse = pick("sha"), pick("sha"), pick("chitu")
    st = setup(5, hands={0: [s1]}, hp={1: 1})
    use(st, s1, 1)
    assert not st.alive[1] and len(st.hands[0]) == 3 and st.counts["rebel_rewards"] == 1
    tao = pick("tao")
    st = setup(5, hands={0: [s2, tao]}, equipment={0: [horse]}, hp={1: 1},
               roles=["lord", "loyalist", "rebel", "rebel", "renegade"])
    use(st, s2, 1)
    assert st.current_player() == 0 and st.prompt[:2] == (P_TAO, 1)  # the lord may save him
    st.apply_action(P)
    assert not st.alive[1] and not st.hands[0] and st.equip[0] == [-1, -1, -1, -1]
    assert st.counts["lord_penalties"] == 1


def test_lord_death_rebels_win_or_the_renegade_alone():
    pick = CardPicker(GAME)
    s1 = pick("sha")
    st = setup(4, hands={1: [s1]}, hp={0: 1}, turn=1)
    use(st, s1, 0)
    assert st.is_terminal() and st.outcome().reason == "lord-killed" and st.outcome().winners == (1,)
    assert st.current_player() == TERMINAL and st.returns() == (0, 1, 0, 0)
    st = setup(4, hands={3: [s1]}, hp={0: 1}, dead=[1, 2], turn=3)
    use(st, s1, 0)
    assert st.outcome().reason == "renegade-alone" and st.outcome().winners == (3,)


def test_all_rebels_and_renegades_dead_lord_and_loyalists_win():
    pick = CardPicker(GAME)
    s1 = pick("sha")
    st = setup(4, hands={0: [s1]}, hp={3: 1}, dead=[1])
    use(st, s1, 3)
    assert st.outcome().reason == "rebels-and-renegades-dead" and st.outcome().winners == (0, 2)


# -- setup ------------------------------------------------------------------------------------------------
def test_setup_lord_first_with_extra_hp_and_choices():
    for n in (4, 5, 9, 10):
        st = GAME.new_initial_state(random.Random(n), n)
        lord = st.role.index(0)
        assert st.current_player() == lord and len(st.options[lord]) == 3 + RULES["lord_choices_random"]
        assert sum(st.gens.lord[g] for g in st.options[lord]) == 3
        st.apply_action(st.legal_actions()[0])
        while st.prompt[0] == 0 and not st.is_terminal():
            seat = st.current_player()
            assert len(st.options[seat]) == (3 if n < 10 else 2)  # 24 left: 3 each for 8 seats, 2 for 9
            st.apply_action(st.legal_actions()[0])
        base = st.gens.hp[st.general[lord]]
        assert st.max_hp[lord] == base + (1 if n >= 5 else 0)
        assert all(len(h) >= 4 for h in st.hands) and st.turn_player == lord


def test_the_generals_the_lord_declined_go_back_among_the_others_offers():
    """The seed: 主公が選ばなかった4枚を残りの20枚と合わせて — everyone but the lord draws from the 24."""
    declined_offered = 0
    for seed in range(40):
        st = GAME.new_initial_state(random.Random(seed), 9)
        lord = st.current_player()
        lord_options = st.options[lord]
        st.apply_action(st.legal_actions()[0])
        chosen = st.general[lord]
        offered = [g for seat in range(9) if seat != lord for g in st.options[seat]]
        assert len(offered) == 8 * 3 and len(set(offered)) == 24 and chosen not in offered
        declined_offered += len(set(lord_options) & set(offered))
        assert set(offered) == set(range(len(st.gens))) - {chosen}
    assert declined_offered == 40 * (len(lord_options) - 1)


def test_a_clone_has_every_field_and_shares_nothing_that_changes():
    st = GAME.new_initial_state(random.Random(3), 5)
    for _ in range(60):
        st.apply_action(st.legal_actions()[-1])
    copy = st.clone()
    if not hasattr(st, "__dict__"):
        pytest.skip("compiled by `make fast`: no __dict__ to compare (test_native plays both builds alike)")
    assert vars(copy).keys() == vars(st).keys() == set(FIELDS)  # FIELDS: what a pickle carries
    for name, value in vars(st).items():
        if isinstance(value, (list, dict, set)):
            assert vars(copy)[name] is not value, name
            assert name == "stack" or vars(copy)[name] == value, name  # frames compare field by field below
    assert [type(f) for f in copy.stack] == [type(f) for f in st.stack]
    assert all(a is not b and vars(a) == vars(b) for a, b in zip(copy.stack, st.stack))


def test_identities_follow_the_table():
    for n in range(2, 11):
        st = GAME.new_initial_state(random.Random(n), n)
        row = RULES["identity_table"][str(n)]
        assert [st.role.count(r) for r in range(4)] == [row[k] for k in ("lord", "loyalist", "rebel", "renegade")]


def test_observation_hides_other_hands_and_identities():
    st = GAME.new_initial_state(random.Random(4), 6)
    while st.turns == 0:
        st.apply_action(st.legal_actions()[0])
    obs = st.observation(1)
    assert obs.hand == tuple(st.hands[1]) and obs.role == st.role[1]
    assert all(r == -1 for s, r in enumerate(obs.roles) if s not in (1, st.lord))
    assert not hasattr(obs, "hands")


def test_conversions_are_actions():
    pick = CardPicker(GAME)
    red = pick("tao", "heart")
    st = setup(4, generals=["guanyu", PLAIN, PLAIN, PLAIN], hands={0: [red]})
    assert act(CONVERT, red, SHA, 1) in st.legal_actions()


def test_public_record_never_reveals_a_hidden_identity():
    pick = CardPicker(GAME)
    s1, s2 = pick("sha"), pick("sha")
    st = setup(4, hands={1: [s1]}, turn=1)  # seat 2 is a hidden loyalist
    use(st, s1, 2)
    assert st.hp[2] == 3 and st.observation(0).hostility[1] == 0  # hurting an unknown says nothing
    st = setup(4, hands={1: [s2]}, turn=1)
    use(st, s2, 0)
    assert st.observation(3).hostility[1] == 1  # hurting the (revealed) lord does
