"""sanguosha: each of the 40 standard skills on a set-up position (魏 蜀 呉 群, in CONTRACT.md's order)."""
from __future__ import annotations

import json

from validator.games.sanguosha.options import trig
from validator.games.sanguosha.positions import CardPicker, game_from_files, position
from validator.games.sanguosha.rules import (
    CONVERT,
    DISCARD,
    EFFECT_INDEX,
    GIVE,
    GUOHE,
    LEBU,
    NONE,
    OPTION,
    P_PLAY,
    P_SHA,
    P_SHAN,
    P_TAO,
    PASS,
    PICK,
    RESPOND,
    SHA,
    SHAN,
    SKILL,
    TAO,
    TARGET,
    USE,
    act,
)
from validator.games.sanguosha.skills import IMPLEMENTED_SKILLS
from validator.paths import DEFAULT_DECKS_DIR

RULES = json.loads((DEFAULT_DECKS_DIR / "sanguosha" / "game.json").read_text(encoding="utf-8"))["rules"]
GAME = game_from_files(rules={**RULES, "ex_cards": "add"})
PLAIN = "huanggai"
P = act(PASS)
ROLES = ["lord", "rebel", "loyalist", "renegade", "rebel"]


def setup(n=4, at=None, roles=None, **kw):
    generals = [PLAIN] * n
    for seat, slug in (at or {}).items():
        generals[seat] = slug
    return position(GAME, generals, roles or ROLES[:n], **kw)


def at_play(st, seat=0):
    return st.current_player() == seat and st.prompt[0] == P_PLAY


def use(st, card, t1=NONE, t2=NONE):
    st.apply_action(act(USE, card, t1, t2))


def skill(st, slug, a=NONE, b=NONE, c=NONE):
    st.apply_action(act(SKILL, EFFECT_INDEX[slug], a, b, c))


def test_every_skill_of_the_generals_is_implemented():
    assert {s for ss in GAME.generals.skills for s in ss} == IMPLEMENTED_SKILLS and len(IMPLEMENTED_SKILLS) == 40


# -- 魏 -----------------------------------------------------------------------------------------------
def test_jianxiong_takes_the_card_that_dealt_the_damage():
    pick = CardPicker(GAME)
    s = pick("sha")
    st = setup(at={1: "caocao"}, hands={0: [s]})
    use(st, s, 1)
    st.apply_action(trig("jianxiong"))
    assert st.hands[1] == [s] and st.hp[1] == 3


def test_jianxiong_takes_the_shandian_that_struck():
    """閃電's card dealt the damage, so 奸雄 may take it (it used to be discarded before the damage)."""
    pick = CardPicker(GAME)
    sd, hit = pick("shandian"), pick("sha", "spade", 7)
    st = setup(3, at={1: "caocao"}, judge={1: [(sd, "shandian")]}, deck_top=[hit])
    st.apply_action(P)  # seat 0 ends its turn; 曹操's judge phase: ♠7 strikes for 3
    assert st.hp[1] == 1 and st.current_player() == 1 and st.legal_actions() == [trig("jianxiong"), P]
    st.apply_action(trig("jianxiong"))
    assert sd in st.hands[1] and sd not in st.discard and hit in st.discard


def test_hujia_asks_wei_players_for_shan():
    pick = CardPicker(GAME)
    s, shan = pick("sha"), pick("shan")
    st = setup(at={0: "caocao", 2: "xuchu"}, hands={3: [s], 2: [shan]}, turn=3)
    use(st, s, 0)
    assert st.current_player() == 0 and st.legal_actions() == [trig("hujia"), P]
    st.apply_action(trig("hujia"))
    assert st.current_player() == 2 and st.prompt[0] == P_SHAN
    st.apply_action(act(RESPOND, shan))
    assert st.hp[0] == st.max_hp[0]


def test_fankui_takes_a_card_of_the_source():
    pick = CardPicker(GAME)
    s, x = pick("sha"), pick("tao")
    st = setup(at={1: "simayi"}, hands={0: [s, x]})
    use(st, s, 1)
    st.apply_action(trig("fankui"))
    assert st.hands[1] == [x] and not st.hands[0]


def test_guicai_replaces_a_judgement_card():
    pick = CardPicker(GAME)
    lebu, spade, heart = pick("lebu"), pick("sha", "spade"), pick("tao", "heart")
    st = setup(at={2: "simayi"}, hands={2: [heart]}, judge={1: [(lebu, "lebu")]}, deck_top=[spade])
    st.apply_action(P)  # seat 0 ends; seat 1 judges 楽不思蜀 with ♠ ...
    assert st.current_player() == 2
    st.apply_action(act(RESPOND, heart))  # ... which 鬼才 replaces with ♥
    assert st.counts["turns_skipped_lebu"] == 0 and heart in st.discard and spade in st.discard


def test_ganglie_judges_and_the_source_takes_damage():
    pick = CardPicker(GAME)
    s, spade = pick("sha"), pick("sha", "spade")
    st = setup(at={1: "xiahoudun"}, hands={0: [s]}, deck_top=[spade])
    use(st, s, 1)
    st.apply_action(trig("ganglie"))
    assert st.hp[0] == 3 and st.hp[1] == 3


def test_ganglie_source_may_discard_two_instead():
    pick = CardPicker(GAME)
    s, spade, x, y = pick("sha"), pick("sha", "spade"), pick("tao"), pick("tao")
    st = setup(at={1: "xiahoudun"}, hands={0: [s, x, y]}, deck_top=[spade])
    use(st, s, 1)
    st.apply_action(trig("ganglie"))
    st.apply_action(act(OPTION, 0))
    st.apply_action(act(DISCARD, x))
    assert st.hp[0] == 4 and not st.hands[0]


def test_tuxi_takes_hand_cards_instead_of_drawing():
    pick = CardPicker(GAME)
    x, y = pick("tao"), pick("shan")
    st = setup(at={1: "zhangliao"}, hands={0: [x], 2: [y]})
    st.apply_action(P)
    st.apply_action(trig("tuxi"))
    st.apply_action(act(TARGET, 0))
    st.apply_action(act(TARGET, 2))
    assert {x, y} <= set(st.hands[1]) and len(st.hands[1]) == 2  # nothing drawn besides


def test_luoyi_draws_one_less_for_plus_one_damage():
    pick = CardPicker(GAME)
    s = pick("sha")
    st = setup(at={0: "xuchu"}, hands={0: [s]}, turn=3)
    st.apply_action(P)  # seat 3 ends; seat 0's draw phase
    st.apply_action(trig("luoyi"))
    assert len(st.hands[0]) == 2
    use(st, s, 1)
    assert st.hp[1] == 2


def test_tiandu_keeps_the_judgement_card():
    pick = CardPicker(GAME)
    lebu, spade = pick("lebu"), pick("sha", "spade")
    st = setup(at={1: "guojia"}, judge={1: [(lebu, "lebu")]}, deck_top=[spade])
    st.apply_action(P)
    st.apply_action(trig("tiandu"))
    assert spade in st.hands[1]


def test_yiji_gives_the_top_two_cards():
    pick = CardPicker(GAME)
    s, x, y = pick("sha"), pick("tao"), pick("tao")
    st = setup(at={1: "guojia"}, hands={0: [s]}, deck_top=[x, y])
    use(st, s, 1)
    st.apply_action(trig("yiji"))
    st.apply_action(act(GIVE, x, 1))
    st.apply_action(act(GIVE, y, 2))
    assert st.hands[1] == [x] and st.hands[2] == [y]


def test_qingguo_black_hand_card_as_shan():
    pick = CardPicker(GAME)
    s, black = pick("sha"), pick("sha", color="black")
    st = setup(at={1: "zhenji"}, hands={0: [s], 1: [black]})
    use(st, s, 1)
    assert act(CONVERT, black, SHAN) in st.legal_actions()
    st.apply_action(act(CONVERT, black, SHAN))
    assert st.hp[1] == st.max_hp[1] and black in st.discard


def test_luoshen_keeps_black_judgements_until_a_red():
    pick = CardPicker(GAME)
    b1, b2, red = pick("sha", "spade"), pick("sha", "club"), pick("tao", "heart")
    st = setup(at={1: "zhenji"}, deck_top=[b1, b2, red])
    st.apply_action(P)
    for _ in range(3):
        st.apply_action(trig("luoshen"))
    assert {b1, b2} <= set(st.hands[1]) and red in st.discard and len(st.hands[1]) == 4


# -- 蜀 -----------------------------------------------------------------------------------------------
def test_rende_gives_cards_and_heals_at_two():
    pick = CardPicker(GAME)
    x, y = pick("tao"), pick("shan")
    st = setup(at={0: "liubei"}, hands={0: [x, y]}, hp={0: 2})
    skill(st, "rende", x, 1)
    assert st.hp[0] == 2
    skill(st, "rende", y, 2)
    assert st.hp[0] == 3 and x in st.hands[1] and y in st.hands[2]


def test_jijiang_asks_shu_players_for_sha():
    pick = CardPicker(GAME)
    nm, s = pick("nanman"), pick("sha")
    st = setup(at={0: "liubei", 1: "zhaoyun"}, hands={3: [nm], 1: [s]}, turn=3)
    use(st, nm)
    assert st.current_player() == 0 and st.prompt[0] == P_SHA
    st.apply_action(trig("jijiang"))
    st.apply_action(act(RESPOND, s))
    assert st.hp[0] == st.max_hp[0] and st.hp[1] == 3  # 趙雲 then had no 殺 for himself


def test_jijiang_in_the_lords_own_play_phase_gets_him_a_sha_to_use():
    """激将's text: 「殺」が必要なとき — using one in his play phase too (clarification jijiang-play)."""
    pick = CardPicker(GAME)
    s, shan = pick("sha"), pick("shan")
    st = setup(at={0: "liubei", 2: "zhaoyun"}, hands={0: [shan], 2: [s]})  # 劉備 holds no 殺 of his own
    assert at_play(st) and act(SKILL, EFFECT_INDEX["jijiang"], 1) in st.legal_actions()
    skill(st, "jijiang", 1)
    assert st.current_player() == 2 and st.prompt == (P_SHA, 1, SHA, 1)  # 趙雲, for seat 0 (+1)
    st.apply_action(act(RESPOND, s))
    assert st.hp[1] == 3 and st.counts["sha_used"] == 1 and st.sha_used == 1  # the lord's 殺, counted
    assert s in st.discard and at_play(st)
    jijiang = EFFECT_INDEX["jijiang"]
    assert not any(a >> 28 == SKILL and a >> 21 & 127 == jijiang for a in st.legal_actions())  # 殺 limit reached


def test_jijiang_nobody_answers_and_it_is_not_offered_again_that_phase():
    pick = CardPicker(GAME)
    s, shan = pick("sha"), pick("shan")
    st = setup(at={0: "liubei", 2: "zhaoyun"}, hands={0: [shan], 2: [s]})
    skill(st, "jijiang", 1)
    st.apply_action(P)  # 趙雲 keeps his 殺
    assert at_play(st) and st.hp[1] == 4 and st.sha_used == 0
    assert act(SKILL, EFFECT_INDEX["jijiang"], 1) not in st.legal_actions()


def test_wusheng_red_card_as_sha():
    pick = CardPicker(GAME)
    red = pick("tao", "diamond")
    st = setup(at={0: "guanyu"}, hands={0: [red]})
    st.apply_action(act(CONVERT, red, SHA, 1))
    assert st.hp[1] == 3 and st.counts["sha_used"] == 1


def test_wusheng_cannot_spend_the_red_zhuge_on_a_sha_beyond_the_limit_it_lifts():
    pick = CardPicker(GAME)
    zhuge, s, duel = pick("zhuge", "diamond"), pick("sha"), pick("juedou", "spade")
    st = setup(at={0: "guanyu"}, hands={0: [s, duel]}, equipment={0: [zhuge]})
    assert act(CONVERT, zhuge, SHA, 1) in st.legal_actions()  # the first 殺 of the phase: it may
    use(st, s, 1)  # seat 1 holds no 閃: hit
    assert at_play(st) and st.sha_used == 1 and st.hp[1] == 3
    assert not any(a >> 28 == CONVERT and a >> 21 & 127 == zhuge for a in st.legal_actions())


def test_paoxiao_any_number_of_sha():
    pick = CardPicker(GAME)
    s1, s2 = pick("sha"), pick("sha")
    st = setup(at={0: "zhangfei"}, hands={0: [s1, s2]})
    use(st, s1, 1)
    use(st, s2, 1)
    assert st.hp[1] == 2
    st.check_invariants()


def test_guanxing_arranges_the_top_cards():
    st = setup(at={1: "zhugeliang"})
    top4 = st.deck[-4:][::-1]  # the next four cards, top first
    st.apply_action(P)
    st.apply_action(trig("guanxing"))
    for card in top4:  # each on top in turn: the last placed ends up on top
        st.apply_action(act(PICK, card, 0))
    assert st.hands[1] == [top4[3], top4[2]]


def test_kongcheng_no_sha_or_juedou_at_an_empty_hand():
    pick = CardPicker(GAME)
    s, duel = pick("sha"), pick("juedou")
    st = setup(at={1: "zhugeliang"}, hands={0: [s, duel]})
    assert not [a for a in st.legal_actions() if a >> 28 == USE and a >> 14 & 127 == 1]


def test_longdan_shan_as_sha_and_sha_as_shan():
    pick = CardPicker(GAME)
    shan, s, s2 = pick("shan"), pick("sha"), pick("sha")
    st = setup(at={0: "zhaoyun"}, hands={0: [shan], 1: [s2]})
    st.apply_action(act(CONVERT, shan, SHA, 1))
    assert st.hp[1] == 3
    st = setup(at={1: "zhaoyun"}, hands={0: [s], 1: [s2]})
    use(st, s, 1)
    st.apply_action(act(CONVERT, s2, SHAN))
    assert st.hp[1] == 4


def test_mashu_minus_one_distance():
    st = setup(6, at={0: "machao"}, roles=ROLES + ["rebel"])
    assert st.dist(0, 2) == 1 and st.dist(2, 0) == 2


def test_tieji_red_judgement_makes_sha_undodgeable():
    pick = CardPicker(GAME)
    s, shan, red = pick("sha"), pick("shan"), pick("tao", "heart")
    st = setup(at={0: "machao"}, hands={0: [s], 1: [shan]}, deck_top=[red])
    use(st, s, 1)
    st.apply_action(trig("tieji"))
    assert st.hp[1] == 3 and shan in st.hands[1]


def test_jizhi_draws_on_a_trick():
    pick = CardPicker(GAME)
    wz = pick("wuzhong")
    st = setup(at={0: "huangyueying"}, hands={0: [wz]})
    use(st, wz)
    st.apply_action(trig("jizhi"))
    assert len(st.hands[0]) == 3


def test_qicai_tricks_ignore_distance():
    pick = CardPicker(GAME)
    shun, x = pick("shunshou"), pick("tao")
    st = setup(at={0: "huangyueying"}, hands={0: [shun], 2: [x]})
    assert act(USE, shun, 2) in st.legal_actions()


# -- 呉 -----------------------------------------------------------------------------------------------
def test_zhiheng_discards_and_draws_as_many_once_a_turn():
    pick = CardPicker(GAME)
    x, y, z = pick("tao"), pick("shan"), pick("shan")
    st = setup(at={0: "sunquan"}, hands={0: [x, y, z]})
    skill(st, "zhiheng")
    st.apply_action(act(DISCARD, x))
    st.apply_action(act(DISCARD, y))
    st.apply_action(P)
    assert len(st.hands[0]) == 3 and {x, y} <= set(st.discard)
    assert act(SKILL, EFFECT_INDEX["zhiheng"]) not in st.legal_actions()


def test_jiuyuan_wu_tao_heals_the_lord_one_more():
    pick = CardPicker(GAME)
    s, tao = pick("sha"), pick("tao")
    st = setup(at={0: "sunquan", 2: "ganning"}, hands={1: [s], 2: [tao]}, hp={0: 1}, turn=1)
    use(st, s, 0)
    assert st.current_player() == 2 and st.prompt[0] == P_TAO
    st.apply_action(act(RESPOND, tao))
    assert st.hp[0] == 2


def test_qixi_black_card_as_guohe():
    pick = CardPicker(GAME)
    black, x = pick("sha", color="black"), pick("tao")
    st = setup(at={0: "ganning"}, hands={0: [black], 2: [x]})
    st.apply_action(act(CONVERT, black, GUOHE, 2))
    assert x in st.discard and black in st.discard


def test_keji_skips_the_discard_phase_without_sha():
    pick = CardPicker(GAME)
    cards = [pick("tao") for _ in range(5)] + [pick("wuzhong")]
    st = setup(at={0: "lvmeng"}, hands={0: cards})
    st.apply_action(P)  # no 殺 this play phase
    st.apply_action(trig("keji"))
    assert len(st.hands[0]) == 6 and st.turn_player == 1


def test_kurou_loses_one_and_draws_two():
    st = setup(at={0: PLAIN})
    skill(st, "kurou")
    assert st.hp[0] == 3 and len(st.hands[0]) == 2


def test_yingzi_draws_one_more():
    st = setup(at={1: "zhouyu"})
    st.apply_action(P)
    st.apply_action(trig("yingzi"))
    assert len(st.hands[1]) == 3


def test_fanjian_named_suit_wrong_deals_damage():
    pick = CardPicker(GAME)
    spade = pick("sha", "spade")
    st = setup(at={0: "zhouyu"}, hands={0: [spade]})
    skill(st, "fanjian", 1)
    st.apply_action(act(OPTION, 1))  # names ♥
    assert spade in st.hands[1] and st.hp[1] == 3


def test_guose_diamond_as_lebu():
    pick = CardPicker(GAME)
    diamond = pick("shan", "diamond")
    st = setup(at={0: "daqiao"}, hands={0: [diamond]})
    st.apply_action(act(CONVERT, diamond, LEBU, 2))
    assert st.judge[2] == [diamond] and st.judge_as[diamond] == LEBU


def test_liuli_passes_the_sha_on():
    pick = CardPicker(GAME)
    s, x = pick("sha"), pick("tao")
    st = setup(at={1: "daqiao"}, hands={0: [s], 1: [x]})
    use(st, s, 1)
    st.apply_action(act(TARGET, 2))
    assert st.hp[2] == 3 and st.hp[1] == 3 and x in st.discard


def test_qianxun_no_shunshou_or_lebu():
    pick = CardPicker(GAME)
    shun, lebu, x = pick("shunshou"), pick("lebu"), pick("tao")
    st = setup(at={1: "luxun"}, hands={0: [shun, lebu], 1: [x]})
    assert act(USE, shun, 1) not in st.legal_actions() and act(USE, lebu, 1) not in st.legal_actions()


def test_lianying_draws_after_the_last_hand_card():
    pick = CardPicker(GAME)
    s = pick("sha")
    st = setup(at={0: "luxun"}, hands={0: [s]})
    use(st, s, 1)
    st.apply_action(trig("lianying"))
    assert len(st.hands[0]) == 1 and st.hp[1] == 3


def test_jieyin_discards_two_heals_both():
    pick = CardPicker(GAME)
    x, y = pick("tao"), pick("shan")
    st = setup(at={0: "sunshangxiang"}, hands={0: [x, y]}, hp={0: 1, 2: 2})
    skill(st, "jieyin", 2)
    st.apply_action(act(DISCARD, x))
    assert st.hp[0] == 2 and st.hp[2] == 3 and not st.hands[0]


def test_xiaoji_draws_two_per_equipment_lost():
    pick = CardPicker(GAME)
    w1, w2 = pick("qilin"), pick("zhuge")
    st = setup(at={0: "sunshangxiang"}, hands={0: [w2]}, equipment={0: [w1]})
    use(st, w2)
    st.apply_action(trig("xiaoji"))
    assert len(st.hands[0]) == 2


# -- 群 -----------------------------------------------------------------------------------------------
def test_jijiu_red_card_as_tao_outside_his_turn():
    pick = CardPicker(GAME)
    s, red = pick("sha"), pick("shan", "heart")
    st = setup(at={2: "huatuo"}, hands={0: [s], 2: [red]}, hp={1: 1})
    use(st, s, 1)
    assert st.current_player() == 2 and act(CONVERT, red, TAO) in st.legal_actions()
    st.apply_action(act(CONVERT, red, TAO))
    assert st.alive[1] and st.hp[1] == 1


def test_qingnang_discards_one_heals_one():
    pick = CardPicker(GAME)
    x = pick("shan")
    st = setup(at={0: "huatuo"}, hands={0: [x]}, hp={3: 2})
    skill(st, "qingnang", 3)
    assert st.hp[3] == 3 and x in st.discard


def test_wushuang_needs_two_shan_and_two_sha():
    pick = CardPicker(GAME)
    s, shan = pick("sha"), pick("shan")
    st = setup(at={0: "lvbu"}, hands={0: [s], 1: [shan]})
    use(st, s, 1)
    st.apply_action(act(RESPOND, shan))  # one 閃 is not enough
    assert st.hp[1] == 3
    duel, s1 = pick("juedou"), pick("sha")
    st = setup(at={0: "lvbu"}, hands={0: [duel], 1: [s1]})
    use(st, duel, 1)
    st.apply_action(act(RESPOND, s1))
    assert st.hp[1] == 3 and st.hp[0] == 4


def test_lijian_two_males_duel_without_wuxie():
    pick = CardPicker(GAME)
    x, w = pick("tao"), pick("wuxie")
    st = setup(at={0: "diaochan"}, hands={0: [x], 3: [w]})
    skill(st, "lijian", 1, 2)  # seat 2 duels seat 1; no 無懈可撃 window for seat 3
    assert st.hp[1] == 3 and st.hands[3] == [w] and x in st.discard


def test_biyue_draws_at_the_end_phase():
    st = setup(at={0: "diaochan"})  # nothing to play: the play phase ends at once, 閉月 is offered
    st.apply_action(trig("biyue"))
    assert len(st.hands[0]) == 1 and st.turn_player == 1 and st.prompt[0] in (P_PLAY, 6)
