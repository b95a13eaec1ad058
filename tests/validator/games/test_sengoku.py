"""漢字と家紋の戦国武将 (sengoku): each rule and clarification in a hand-made situation, then seeded playouts."""
from __future__ import annotations

import random

import pytest

from validator import simulate as harness
from validator.engine.api import TERMINAL
from validator.engine.playout import END_CAP
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.sengoku.policies import choose as greedy_choose
from validator.games.sengoku.rules import (
    ACTION_KINDS,
    CLARIFICATIONS,
    DISCARD,
    PASS_ACTION,
    REVEAL,
    STEAL,
    SengokuRules,
    decode,
    encode,
)
from validator.games.sengoku.state import SengokuGame, SengokuState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR

FILLER = "石田 加藤 井伊 柴田 丹羽 浅井 明智 謙 景 綱 興 清 正 直".split()  # cards that make no name together


@pytest.fixture(scope="module")
def game() -> SengokuGame:
    return engine_for(load_game(DEFAULT_DECKS_DIR, "sengoku"))


def make(game: SengokuGame, hands: list[str], draws: str = "", *, first: int = 0, short: bool = False,
         **rules: object) -> SengokuState:
    """A state dealt `hands` (space-separated type labels) with `draws` on top of the pile, in draw order.
    short: the pile holds only `draws` (the other cards wait in the discard pile, out of play)."""
    assert len({len(hand.split()) for hand in hands}) == 1, "every hand has the same size"
    g = game.with_rules(hand_size=len(hands[0].split()), **rules)
    table = g.table
    free: dict[str, list[int]] = {}
    for card, t in enumerate(table.type_of):
        free.setdefault(table.type_label[t], []).append(card)
    deal = [free[label].pop() for hand in hands for label in hand.split()]
    drawn = [free[label].pop() for label in draws.split()]
    rest = sorted(c for cards in free.values() for c in cards)
    st = SengokuState(g, list(reversed(deal + drawn + rest)), len(hands), first)
    if short:
        gone = set(rest)
        st.pile = [c for c in st.pile if c not in gone]
        st.discards = rest + st.discards
    st.check_invariants()
    return st


def name(st: SengokuState, label: str) -> int:
    return st.table.name_label.index(label)


def kind_of(st: SengokuState, label: str) -> int:
    return st.table.type_label.index(label)


def act(st: SengokuState, kind: int, label: str = "") -> None:
    """Play an action by its label (a warlord for reveal/steal, a card for discard); it must be legal."""
    x = kind_of(st, label) if kind == DISCARD else name(st, label) if label else 0
    action = encode(kind, x)
    assert action in st.legal_actions(), (st.action_to_string(action), st.legal_actions())
    st.apply_action(action)
    st.check_invariants()


def labels(st: SengokuState) -> list[str]:
    return sorted(st.action_to_string(a) for a in st.legal_actions())


# -- data -------------------------------------------------------------------------------------------
def test_clarifications_have_ids_and_both_languages():
    ids = [c.id for c in CLARIFICATIONS]
    assert len(ids) == len(set(ids)) >= 12
    assert all(c.ja and c.en for c in CLARIFICATIONS)


def test_table_from_the_deck(game):
    t = game.table
    assert len(t.type_of) == 120 and len(t.names) == 40
    assert sum(t.copies[i] for i in range(t.num_types) if not t.is_given[i]) == 40
    assert t.crests[kind_of_label(t, "信")] == 4 and t.crests[kind_of_label(t, "武田")] == 0


def kind_of_label(table, label: str) -> int:
    return table.type_label.index(label)


def test_identical_cards(game):
    """clarification "identical-cards": a 信 printed for 織田信長 completes 武田信玄 like Shingen's own."""
    t = game.table
    model = load_game(DEFAULT_DECKS_DIR, "sengoku")
    cards = [c for d in model.decks for c in d.cards if c.fields.get("kind") in ("surname", "given")]
    nobunaga_shin = next(i for i, c in enumerate(cards) if c.id == "oda-nobunaga-mei1")
    assert t.type_label[t.type_of[nobunaga_shin]] == "信"
    st = make(game, ["武田 玄 石田", "加藤 井伊 柴田"], "信")
    assert labels(st) == ["公開: 武田信玄"]


def test_max_players(game):
    """clarification "max-players": hand_size x players must leave a draw pile: 9 at 12 cards, 13 at 9."""
    assert game.max_players == 9 and game.box_players == (2, 6)
    assert game.with_rules(hand_size=9).max_players == 13
    st = game.new_initial_state(random.Random(1), 9)
    assert len(st.pile) == 120 - 9 * 12 - 1
    with pytest.raises(ValueError):
        game.new_initial_state(random.Random(1), 10)


def test_rules_from_mapping_rejects_bad_settings():
    with pytest.raises(ValueError):
        SengokuRules.from_mapping({"hand_size": 10, "name_size": 3})
    with pytest.raises(ValueError):
        SengokuRules.from_mapping({"hand_size": 12, "name_size": 3, "variant": "mahjong"})
    assert SengokuRules.from_mapping({"hand_size": 12, "name_size": 3}).variant == "base"


# -- the turn ----------------------------------------------------------------------------------------
def test_reveal_mandatory_and_choice(game):
    """clarification "reveal-mandatory": completed names must be laid out, one at a time, the player
    choosing when one card could complete several; a dealt name waits for its holder's turn."""
    st = make(game, ["武田 信 玄 勝 頼 石田", "豊臣 秀 吉 加藤 井伊 柴田"], "丹羽")
    assert labels(st) == ["公開: 武田信玄", "公開: 武田勝頼"]       # one 武田: either name, not both
    act(st, REVEAL, "武田勝頼")
    assert st.phase == DISCARD and st.shown[0] == [name(st, "武田勝頼")]
    assert len(st.hands[0]) == 4 and not st.shown[1]            # seat 1's dealt 豊臣秀吉 is still in hand
    act(st, DISCARD, "丹羽")
    assert st.player == 1 and labels(st) == ["公開: 豊臣秀吉"]


def test_discard_any(game):
    """clarification "discard-any": every card type held may be discarded, the one just drawn too; the
    discard stays in the discard pile."""
    st = make(game, ["石田 加藤 井伊", "柴田 丹羽 浅井"], "謙 景")
    assert labels(st) == sorted(f"捨てる: {x}" for x in ("石田", "加藤", "井伊", "謙"))
    act(st, DISCARD, "謙")
    assert st.table.type_of[st.discards[-1]] == kind_of(st, "謙") and st.player == 1 and st.turns == 2


def test_steal_complete(game):
    """clarification "steal-complete": only a player completing a name with the discard may take it; the
    name is laid out at once and the stealer discards one, keeping a multiple of three."""
    st = make(game, ["武田 石田 加藤", "信 玄 井伊", "信 柴田 丹羽"], "浅井")
    act(st, DISCARD, "武田")
    assert st.player == 1 and labels(st) == ["横取り: 武田信玄", "見送る"]  # seat 2 holds one 信 only
    act(st, STEAL, "武田信玄")
    assert st.shown[1] == [name(st, "武田信玄")] and st.phase == DISCARD and len(st.hands[1]) == 1
    act(st, DISCARD, "井伊")
    assert st.hands[1] == [] and st.zero_order == [1] and st.counters()["steals"] == 1


def test_steal_order(game):
    """clarification "steal-order": claims are settled by seat order from the seat after the discarder."""
    st = make(game, ["信 玄 石田", "信 虎 加藤", "武田 井伊 柴田", "勝 頼 丹羽"], "浅井 明智 謙", first=2)
    act(st, DISCARD, "武田")                                    # seat 2 discards: seat 3, then 0, then 1
    assert st.player == 3 and labels(st) == ["横取り: 武田勝頼", "見送る"]
    st.apply_action(PASS_ACTION)
    assert st.player == 0 and labels(st) == ["横取り: 武田信玄", "見送る"]
    st.apply_action(PASS_ACTION)
    assert st.player == 1
    act(st, STEAL, "武田信虎")
    assert st.counters()["steals"] == 1


def test_steal_chain_and_draw_order(game):
    """clarification "steal-chain": the stealer's discard may be stolen, even by the first discarder;
    the next draw stays with the player after the turn player."""
    st = make(game, ["武田 秀 吉", "信 玄 豊臣", "石田 加藤 井伊"], "浅井 明智")
    act(st, DISCARD, "武田")
    act(st, STEAL, "武田信玄")                                  # seat 1 steals, lays out, discards 豊臣
    act(st, DISCARD, "豊臣")
    assert st.player == 0 and labels(st) == ["横取り: 豊臣秀吉", "見送る"]
    act(st, STEAL, "豊臣秀吉")
    assert st.hands[0] == [] or st.phase == DISCARD
    act(st, DISCARD, "浅井")                                    # seat 0 empties its hand
    assert st.zero_order == [1, 0]
    assert st.is_terminal() and st.end_reason == "all-out"      # only seat 2 still holds cards


def test_draw_order_after_steal(game):
    st = make(game, ["武田 石田 加藤", "井伊 柴田 丹羽", "信 玄 浅井"], "明智 謙 景")
    act(st, DISCARD, "武田")
    assert st.player == 2
    act(st, STEAL, "武田信玄")
    act(st, DISCARD, "浅井")
    assert st.player == 1 and st.turn_player == 1 and st.turns == 2  # seat 1 draws next, not seat 0


def test_pile_end(game):
    """clarification "pile-end": the game ends once the last drawn card is discarded and its steal
    window (steals included) has closed."""
    st = make(game, ["石田 加藤 井伊", "信 玄 柴田"], "武田", short=True)
    assert not st.pile
    act(st, DISCARD, "武田")
    assert not st.is_terminal() and st.player == 1              # the window is still open
    act(st, STEAL, "武田信玄")
    act(st, DISCARD, "柴田")
    assert st.is_terminal() and st.current_player() == TERMINAL
    assert st.outcome().reason == "all-out" and st.outcome().winners == (1,)


def test_pile_empty_ranking(game):
    st = make(game, ["石田 加藤 井伊", "柴田 丹羽 浅井"], "謙", short=True)
    act(st, DISCARD, "謙")
    assert st.is_terminal() and st.outcome().reason == "pile-empty"
    assert st.outcome().winners == (0, 1) and st.counters()["tie_shared"] == 1  # no given cards: shared


def test_zero_out(game):
    """clarification "zero-out": a player at zero is out (no draws, no steals); the order of reaching
    zero ranks them."""
    st = make(game, ["武田 信 石田", "豊臣 秀 加藤", "井伊 柴田 丹羽"], "玄 吉 浅井 明智 謙 景 綱")
    act(st, REVEAL, "武田信玄")
    act(st, DISCARD, "石田")
    assert st.zero_order == [0] and st.player == 1
    act(st, REVEAL, "豊臣秀吉")
    act(st, DISCARD, "加藤")
    assert st.zero_order == [0, 1]
    assert st.is_terminal() and st.outcome().reason == "all-out"
    assert st.outcome().scores == (2, 1, 0) and st.outcome().winners == (0,)


def test_zero_player_skipped(game):
    st = make(game, ["武田 信 石田", "豊臣 秀 加藤", "井伊 柴田 丹羽"], "玄 浅井 明智 謙")
    act(st, REVEAL, "武田信玄")
    act(st, DISCARD, "石田")
    act(st, DISCARD, "浅井")                                    # seat 1
    act(st, DISCARD, "明智")                                    # seat 2
    assert st.player == 1 and st.turns == 4                     # seat 0 is out, seat 1 draws again


def test_tie_break_rules(game):
    """clarification "tie-break": (1) equal given counts -> fewer crests; (2) different counts -> the
    one with more keeps its fewest-crest cards down to the other's count; still equal -> shared."""
    t = game.table
    k = lambda *xs: [kind_of_label(t, x) for x in xs]  # noqa: E731
    assert t.compare_tied(k("信", "玄"), k("長", "玄")) == (-1, 1)      # 5 against 6 crests
    assert t.compare_tied(k("長", "玄"), k("信", "玄")) == (1, 1)
    assert t.compare_tied(k("武田", "信"), k("玄", "虎")) == (1, 2)    # 信 4 against the better of 玄 1, 虎 1
    assert t.compare_tied(k("武田", "長"), k("信", "玄")) == (1, 2)    # 長 5 against 玄 1
    assert t.compare_tied(k("武田", "玄"), k("虎", "村")) == (0, 2)    # 1 against 1: shared
    assert t.compare_tied(k("武田", "織田"), k("石田", "加藤")) == (0, 1)


def test_tie_group_of_three(game):
    st = make(game, ["信 長 石田", "玄 虎 加藤", "村 勝 井伊"], "柴田", short=True)
    act(st, DISCARD, "石田")
    assert st.is_terminal()
    # seat 1 (玄 虎 加藤: 2 crests) beats both; seat 2 (村 勝 井伊: 4) beats seat 0 (信 長 + 柴田: 9)
    assert st.outcome().scores == (0, 2, 1) and st.outcome().winners == (1,)
    assert st.counters()["tie_rule1"] == 3


def test_trade_not_modelled():
    """clarification "trade": no trade actions exist; the simulation plays without trades."""
    assert "trade" not in ACTION_KINDS
    assert any(c.id == "trade" for c in CLARIFICATIONS)


# -- the riichi variant ------------------------------------------------------------------------------
def test_riichi_declare(game):
    """clarification "riichi-declare": riichi is declared when the hand is one card from complete, on the
    deal or after a discard; names stay hidden (no reveal step)."""
    st = make(game, ["武田 信 石田", "豊臣 秀 加藤"], "井伊 柴田 丹羽", variant="riichi")
    assert st.riichi == [True, True]
    st = make(game, ["武田 信 玄 石田 加藤 井伊", "豊臣 秀 謙 景 綱 興"], "勝", variant="riichi")
    assert st.phase == DISCARD and not st.riichi[0]             # 武田信玄 complete but hidden
    act(st, DISCARD, "石田")
    assert not st.riichi[0]
    st = make(game, ["武田 信 玄 豊臣 秀 加藤", "柴田 丹羽 浅井 謙 景 綱"], "井伊", variant="riichi")
    assert st.riichi == [True, False]
    act(st, DISCARD, "井伊")
    assert st.riichi[0] and st.counters()["riichi"] == 1


def test_riichi_win_by_draw(game):
    """clarification "riichi-win": in riichi, drawing the last card lays everything out and wins at once."""
    st = make(game, ["武田 信 玄 豊臣 秀 加藤", "柴田 丹羽 浅井 謙 景 綱"], "石田 興 吉", variant="riichi")
    act(st, DISCARD, "石田")
    act(st, DISCARD, "柴田")
    assert st.is_terminal() and st.outcome().reason == "riichi-win" and st.outcome().winners == (0,)
    assert sorted(st.shown[0]) == sorted([name(st, "武田信玄"), name(st, "豊臣秀吉")]) and st.hands[0] == []
    assert st.counters()["riichi_wins"] == 1 and st.counters()["emptied"] == 1


def test_riichi_win_by_steal(game):
    st = make(game, ["吉 石田 加藤 井伊 柴田 丹羽", "豊臣 秀 武田 信 玄 浅井"], "明智", variant="riichi")
    assert st.riichi == [False, True]
    act(st, DISCARD, "吉")
    assert st.player == 1 and labels(st) == ["横取り: 豊臣秀吉", "見送る"]
    act(st, STEAL, "豊臣秀吉")
    assert st.is_terminal() and st.outcome().winners == (1,) and st.hands[1] == []


def test_riichi_steal_reveals_only_that_name(game):
    st = make(game, ["吉 石田 加藤 井伊 柴田 丹羽", "豊臣 秀 武田 信 浅井 明智"], "謙", variant="riichi")
    act(st, DISCARD, "吉")
    act(st, STEAL, "豊臣秀吉")
    assert st.shown[1] == [name(st, "豊臣秀吉")] and st.phase == DISCARD and len(st.hands[1]) == 4


@pytest.mark.parametrize("option, reason, winners", [("draw", "draw", (0, 1)), ("ranked", "draw-ranked", (0,))])
def test_riichi_draw(game, option, reason, winners):
    """clarification "riichi-draw": no winner when the pile runs out is 流局; ranked, the hands less their
    completed names are compared (seat 0: 3 cards left after 武田信玄, seat 1: 6)."""
    st = make(game, ["武田 信 玄 石田 加藤 井伊", "柴田 丹羽 浅井 謙 景 綱"], "明智", short=True,
              variant="riichi", riichi_draw=option)
    act(st, DISCARD, "明智")
    assert st.is_terminal() and st.outcome().reason == reason and st.outcome().winners == winners
    assert st.counters()["draws"] == 1


# -- seeded playouts ---------------------------------------------------------------------------------
@pytest.mark.slow  # thousands of games (16 s): make test runs them; the quick loop's goldens play sengoku too
@pytest.mark.parametrize("variant", ["base", "riichi"])
@pytest.mark.parametrize("policy, games", [("random", 150), ("greedy", 25)])
def test_seeded_games_keep_invariants(game, variant, policy, games):
    """Thousands of seeded games over 2..max players, invariants checked after every step."""
    g = game.with_rules(variant=variant)
    ends: set[str] = set()
    for players in range(2, g.max_players + 1):
        config = harness.SimConfig(players, (policy,) * players, games, seed=players, check_invariants=True)
        for match in harness.simulate(g, config):
            record = match.games[0]
            assert record.end != END_CAP and match.winners
            ends.add(record.end)
            assert record.turns <= 120
    assert ends <= {"pile-empty", "all-out", "riichi-win", "draw"}


def test_nine_card_hands(game):
    g = game.with_rules(hand_size=9)
    config = harness.SimConfig(13, ("random",) * 13, 30, seed=5, check_invariants=True)
    assert all(m.winners for m in harness.simulate(g, config))


def test_determinism_by_seed(game):
    for variant in ("base", "riichi"):
        g = game.with_rules(variant=variant)
        config = harness.SimConfig(4, ("greedy", "random", "greedy", "random"), 30, seed=11)
        assert harness.simulate(g, config) == harness.simulate(g, config)


def test_greedy_always_steals_and_sees_only_its_observation(game):
    st = make(game, ["武田 石田 加藤", "信 玄 井伊"], "浅井")
    act(st, DISCARD, "武田")
    obs = st.observation(1)
    assert obs.live == kind_of(st, "武田") and obs.hand == st.hand_types(1)
    action = greedy_choose(obs, st.legal_actions(), random.Random(0))
    assert decode(action) == (STEAL, name(st, "武田信玄"))
    assert find_policy("greedy", "sengoku").choose(obs, st.legal_actions(), random.Random(0)) == action


def test_greedy_beats_random(game):
    config = harness.SimConfig(4, ("greedy", "random", "random", "random"), 60, seed=2)
    wins = sum(0 in m.winners for m in harness.simulate(game, config))
    assert wins > 35


def test_rule_settings_from_game_json(game):
    model = load_game(DEFAULT_DECKS_DIR, "sengoku")
    assert game.rules == SengokuRules.from_mapping(model.rules)
    assert game.rules.hand_size in model.rules["hand_size_options"]
    assert game.rules.variant == model.rules.get("variant", "base")


# -- the engine's shape: codec, chance, clone, indexed legal actions, whole-game playout -------------
def test_actions_are_laid_out_by_the_codec():
    from validator.engine.actions import ActionCodec
    from validator.games.sengoku.rules import CODEC, PASS

    assert CODEC == ActionCodec(1, 8)
    assert encode(DISCARD, 5) == DISCARD << 8 | 5 == CODEC.encode(DISCARD, 5)
    assert PASS_ACTION == PASS << 8 and decode(encode(STEAL, 39)) == (STEAL, 39) == CODEC.decode(encode(STEAL, 39))


def test_chance_comes_only_from_the_generator_passed_in(game):
    """The deal is rng.shuffle's, drawn from the given generator (a subclass takes rng.shuffle itself),
    and neither the deal nor a simulation touches the module-level generator."""
    class Subclass(random.Random):
        pass

    random.seed(123)
    before = random.getstate()
    for seed in range(5):
        inline, plain = game.new_initial_state(random.Random(seed), 4), game.new_initial_state(Subclass(seed), 4)
        assert inline.pile == plain.pile and inline.hands == plain.hands and inline.player == plain.player
        deck = list(range(len(game.table.type_of)))
        reference = random.Random(seed)
        reference.randrange(4)
        reference.shuffle(deck)
        assert deck[:len(inline.pile)] == inline.pile
    harness.simulate(game, harness.SimConfig(4, ("greedy", "random", "random", "greedy"), 5, seed=3))
    assert random.getstate() == before


def snapshot(st: SengokuState) -> tuple[object, ...]:
    return (st.phase, st.player, list(st.legal_actions()), st.pile[:], st.discards[:], st.hands, st.counters(),
            [st.observation(s) for s in range(st.num_players)], st.turn_number(), st.returns())


@pytest.mark.parametrize("variant", ["base", "riichi"])
def test_clone_is_independent_and_replays_the_same(game, variant):
    g = game.with_rules(variant=variant)
    for seed in range(6):
        st = g.new_initial_state(random.Random(seed), 4)
        choice = random.Random(seed)
        for _ in range(30):
            legal = st.legal_actions()
            st.apply_action(legal[int(choice.random() * len(legal))])
        before = snapshot(st)
        copy = st.clone()
        assert snapshot(copy) == before
        played = []
        while not copy.is_terminal():
            legal = copy.legal_actions()
            played.append(legal[int(choice.random() * len(legal))])
            copy.apply_action(played[-1])
            copy.check_invariants()
        assert snapshot(st) == before                       # playing on the copy left the original alone
        st.check_invariants()
        for action in played:
            st.apply_action(action)
        assert st.outcome() == copy.outcome() and snapshot(st) == snapshot(copy)


@pytest.mark.parametrize("variant", ["base", "riichi"])
def test_legal_count_and_legal_at_index_the_legal_actions(game, variant):
    g = game.with_rules(variant=variant)
    for seed in range(10):
        st, choice = g.new_initial_state(random.Random(seed), 5), random.Random(seed)
        while not st.is_terminal():
            n = st.legal_count()
            assert n == len(st.legal_actions()) and [st.legal_at(i) for i in range(n)] == list(st.legal_actions())
            st.apply_action(st.legal_at(int(choice.random() * n)))
        assert st.legal_count() == 0


@pytest.mark.parametrize("variant, seats, cap", [
    ("base", ("random",) * 4, 1000), ("base", ("random",) * 2, 1000), ("base", ("random",) * 9, 1000),
    ("base", ("greedy", "random", "random"), 1000), ("riichi", ("random",) * 4, 1000),
    ("riichi", ("random", "greedy", "random"), 1000), ("base", ("random",) * 4, 40),
])
def test_fast_playout_records_equal_the_state_api(game, variant, seats, cap):
    """RulesGame.fast_playout plays whole games through the same State: every record equals the one
    simulate's generic loop builds with the policies (capped games included)."""
    g = game.with_rules(variant=variant)
    policies = [find_policy(name, "sengoku") for name in seats]
    fast = harness.fast_playout(g, policies)
    assert fast is not None
    matches = 40 if "greedy" in seats else 150
    for index in range(matches):
        slow = harness.play_match(g, policies, 7, index, step_cap=cap)
        assert harness.play_match(g, policies, 7, index, step_cap=cap, fast=fast) == slow


def test_fast_playout_only_for_the_policies_it_plays(game):
    class Other:
        name, needs_observation = "other", False

        def choose(self, observation, legal, rng):
            return legal[0]

    assert harness.fast_playout(game, [find_policy("random", "sengoku"), Other()]) is None


def test_checked_and_unchecked_runs_agree(game):
    """Invariant checks make simulate() play through the generic loop; without them the fast playout plays."""
    for variant, names in (("base", ("random",) * 4), ("riichi", ("greedy", "random", "random"))):
        config = harness.SimConfig(len(names), names, 40, seed=9)
        g = game.with_rules(variant=variant)
        checked = harness.SimConfig(len(names), names, 40, seed=9, check_invariants=True)
        assert harness.simulate(g, config) == harness.simulate(g, checked)
