"""gogyo rules engine: scoring facts, legal actions, scripted duels and declarations, seeded games with invariants."""
from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from validator.engine.api import TERMINAL
from validator.games.gogyo import rules as gogyo
from validator.games.gogyo.cards import ANY, BREAK, SKIP
from validator.games.gogyo.game import GogyoGame
from validator.games.gogyo.rules import (
    DECLARE,
    DECLARE_CHOICE,
    DESTROY,
    DRAW,
    DUEL,
    FIELD,
    GIVE,
    GIVE_CHOICE,
    KIND_SHIFT,
    MAIN,
    MASK,
    NONE,
    PASS,
    PLUNDER,
    WIN_CHOICE,
    encode,
)
from validator.games.gogyo.scoring import best_unordered_run, longest_run, order_points
from validator.games.gogyo.state import GogyoState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate


@pytest.fixture(scope="module")
def model():
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


@pytest.fixture(scope="module")
def game(model) -> GogyoGame:
    return GogyoGame.from_model(model)


def types(game: GogyoGame, text: str) -> tuple[int, ...]:
    return tuple(game.table.labels.index(token) for token in text.split())


def points(game: GogyoGame, text: str) -> tuple[int, int]:
    """(dynasty, element) points of the cards in exactly the written order."""
    return order_points(types(game, text), game.table, game.scorer.rules)


# -- scoring -----------------------------------------------------------------------------------

def test_perfect_hand_scores_46(game):
    best = game.best_order(types(game, "夏木 殷火 周土 秦金 漢水"))
    assert (best.total, best.dynasty, best.element) == (46, 26, 20)
    assert game.labels(best.order) == ["夏木", "殷火", "周土", "秦金", "漢水"]


def test_seed_worked_example_in_its_order_scores_16(game):
    # 閥 is skipped, 天 stands for 晋⑥: 漢⑤ 天 隋⑦ is a 3-card dynasty run (10);
    # 火 土 閥-as-金 is a 3-card element run (6), then 天 breaks it.
    assert points(game, "唐火 漢土 閥 天 隋金") == (10, 6)


def test_seed_worked_example_best_order_is_18(game):
    hand = types(game, "唐火 漢土 閥 天 隋金")
    best = game.best_order(hand)
    assert best.total >= 16
    assert (best.total, best.dynasty, best.element) == (18, 18, 0)  # 漢⑤ 天⑥ 隋⑦ 唐⑧ with 閥 skipped
    assert points(game, " ".join(game.labels(best.order))) == (18, 0)
    assert game.hand_score(_cards(game, hand)) == 18


def _cards(game: GogyoGame, hand: Sequence[int]) -> list[int]:
    """Physical cards for a list of types (distinct copies of repeated types)."""
    free = {t: [c for c, u in enumerate(game.table.type_of) if u == t] for t in set(hand)}
    return [free[t].pop() for t in hand]


def test_dynasty_runs_do_not_wrap_from_qing_to_xia(game):
    assert longest_run([11, 12, 1, 2], 12, False) == 2
    hand = types(game, "元木 明木 清木 夏木 殷木")  # all 木: no element run
    assert game.best_order(hand).total == 10  # only 元明清; 清→夏 does not continue


def test_element_runs_wrap_from_water_to_wood(game):
    assert longest_run([4, 5, 1, 2], 5, True) == 4
    best = game.best_order(types(game, "夏金 秦水 唐木 清火 宋金"))
    assert (best.total, best.element) == (13, 13)  # 金水木火


def test_heaven_breaks_element_runs(game):
    assert longest_run([1, BREAK, 2, 3], 5, True) == 2
    assert points(game, "夏木 殷火 天 周土 秦金") == (10, 0)
    assert game.best_order(types(game, "夏木 殷火 天 周土 秦金")).total == 39  # 天 last as 漢: 26 + 木火土金 13


def test_faction_is_skipped_in_dynasty_runs_and_any_element(game):
    assert longest_run([1, SKIP, 2, SKIP, 3], 12, False) == 3
    assert points(game, "夏木 閥 殷火 周土 宋木") == (10, 6)  # 閥 as 木 before 火 土
    assert longest_run([ANY, ANY, ANY], 5, True) == 3


def test_heaven_is_any_dynasty_but_not_past_the_ends(game):
    assert longest_run([ANY, 1, 2], 12, False) == 2  # nothing comes before 夏
    assert longest_run([11, 12, ANY], 12, False) == 2  # nothing comes after 清
    assert longest_run([ANY, ANY, ANY], 12, False) == 3
    assert best_unordered_run([12, ANY, ANY], 12, False) == 3


def test_only_the_longest_run_of_each_kind_counts(game):
    assert points(game, "夏木 殷火 周土 宋木 元火") == (10, 6)  # 夏殷周 and 宋元: only the 3 counts
    assert points(game, "夏木 殷火 唐土 宋木 元火") == (10, 6)  # 木火 then 土, 木火: only 木火土 counts


def test_fast_scorer_matches_exhaustive_orders(game):
    rng = random.Random(7)
    deck = list(range(66))
    for _ in range(400):
        hand = [game.table.type_of[c] for c in rng.sample(deck, rng.choice((3, 4, 5)))]
        assert game.scorer.total_of(hand) == game.best_order(hand).total, game.labels(hand)


def test_totals_are_unique_sums_so_the_breakdown_is_unique(game):
    rules = game.scorer.rules
    sums = [d + e for d in set(rules.dynasty_points) for e in set(rules.element_points)]
    assert len(sums) == len(set(sums))
    assert 29 not in sums and 30 in sums  # the highest total below the threshold is 26


def test_parse_hand_errors(game):
    with pytest.raises(ValueError, match="not an element"):
        game.parse_hand("唐x 漢土 閥 天 隋金".split())
    with pytest.raises(ValueError, match="not a dynasty"):
        game.parse_hand("X火 漢土 閥 天 隋金".split())
    with pytest.raises(ValueError, match="has 5 cards, got 4"):
        game.parse_hand("唐火 漢土 閥 天".split())
    with pytest.raises(ValueError, match="天 appears 4 times, but the deck has 3"):
        game.parse_hand("天 天 天 天 隋金".split())
    with pytest.raises(ValueError, match="唐火 appears 2 times"):
        game.parse_hand("唐火 唐火 閥 天 隋金".split())


def test_card_table_comes_from_the_deck(game):
    table = game.table
    assert table.deck_size == 66
    assert "".join(table.dynasty_names) == "夏殷周秦漢晋隋唐宋元明清"
    assert sorted(table.copies[table.labels.index(x)] for x in ("天", "閥")) == [3, 3]


def test_rule_numbers_come_from_game_json(model):
    changed = dataclasses.replace(model, rules={**model.rules, "hand_size": 4, "field_size": 3})
    state = GogyoGame.from_model(changed).new_initial_state(random.Random(1), 2)
    assert [len(h) for h in state.hands] == [4, 4] and len(state.field) == 3
    with pytest.raises(ValueError, match="rules lack 'field_size'"):
        rules = {k: v for k, v in model.rules.items() if k != "field_size"}
        GogyoGame.from_model(dataclasses.replace(model, rules=rules))


# -- scripted states ---------------------------------------------------------------------------

def scripted(game: GogyoGame, hands: Sequence[str], field: str, deck: str = "", *, deck_size: int | None = None,
             turn_player: int = 0, own_turns: Sequence[int] | None = None, face_down: Sequence[str] = ()) -> GogyoState:
    """A state with these hands and field; `deck` lists its top cards, last drawn first; other cards go
    to the discard pile (or fill the deck's bottom up to `deck_size`)."""
    state = game.new_initial_state(random.Random(0), len(hands), first_player=turn_player)
    free = {t: [c for c, u in enumerate(game.table.type_of) if u == t] for t in range(len(game.table.labels))}

    def take(text: str) -> list[int]:
        return [free[game.table.labels.index(token)].pop() for token in text.split()]
    hand_cards = [take(h) for h in hands]
    field_cards = take(field)
    top = take(deck)
    rest = [c for pile in free.values() for c in pile]
    bottom_size = 0 if deck_size is None else deck_size - len(top)
    down = [next(c for h in hand_cards for c in h if game.table.labels[game.table.type_of[c]] == token)
            for token in face_down]
    state.set_cards(hand_cards, field_cards, rest[:bottom_size] + top, rest[bottom_size:], face_down=down)
    state.own_turns = list(own_turns or [0] * len(hands))
    state.check_invariants()
    return state


HANDS4 = ["夏木 殷火 周土 秦金 宋水", "唐火 漢土 閥 天 隋金", "明木 明火 明土 明金 明水", "元木 元火 元土 元金 元水"]


def kinds(state: GogyoState) -> set[int]:
    return {a >> KIND_SHIFT for a in state.legal_actions()}


def card(state: GogyoState, token: str, pile: Sequence[int]) -> int:
    return next(c for c in pile if state.card_label(c) == token)


def test_no_duel_when_the_deck_holds_two_or_fewer(game):
    assert DUEL not in kinds(scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=2))
    assert DUEL in kinds(scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=3))


def test_only_one_card_drawn_when_the_deck_holds_one(game):
    one = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=1)
    assert all(a & MASK == NONE for a in one.legal_actions() if a >> KIND_SHIFT == DRAW)
    two = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=2)
    assert sum(a >> KIND_SHIFT == DRAW and a & MASK != NONE for a in two.legal_actions()) == 10


def test_identical_cards_are_one_choice(game):
    state = scripted(game, ["天 天 閥 閥 夏木", "殷木 殷火 殷土 殷金 殷水"], "晋木 天 晋土 晋金", deck_size=10)
    legal = state.legal_actions()
    assert len(legal) == len(set(legal))
    assert sum(a >> KIND_SHIFT == FIELD for a in legal) == 3 * 4  # 3 distinct hand cards x 4 distinct field cards
    assert sum(a >> KIND_SHIFT == DRAW and a & MASK != NONE for a in legal) == 5  # 天天 天閥 天夏 閥閥 閥夏


def test_no_declaration_on_the_first_own_turn(game):
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=20)
    state.apply_action(state.legal_actions()[0])
    assert state.phase == MAIN and state.current_player() == 1  # straight to the next player
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=20, own_turns=[1, 0, 0, 0])
    state.apply_action(state.legal_actions()[0])
    assert state.phase == DECLARE_CHOICE and state.current_player() == 0
    assert set(state.legal_actions()) == {encode(DECLARE), encode(PASS)}


def test_wrong_declaration_reveals_the_hand_and_play_continues(game):
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=20, own_turns=[1, 0, 0, 0],
                     face_down=["秦金", "宋水"])
    hand = list(state.hands[0])
    state.apply_action(encode(FIELD, card(state, "周土", hand), card(state, "晋木", state.field)))
    assert state.game.hand_score(state.hands[0]) == 13  # 金水木火 only
    assert not state.is_face_up(card(state, "秦金", hand))
    state.apply_action(encode(DECLARE))
    assert not state.is_terminal() and state.current_player() == 1 and state.phase == MAIN
    assert all(state.is_face_up(c) for c in state.hands[0])
    assert state.counters()["wrong_declarations"] == 1
    assert all(c in state.observation(2).shown[0] for c in state.hands[0])


def test_declaration_at_the_threshold_ends_the_game(game):
    # 夏木 殷火 周土 唐金 宋水: dynasty 3 (10) + element 5 (20) = 30
    state = scripted(game, ["夏木 殷火 周土 唐金 元水", "唐火 漢土 閥 天 隋金"], "宋水 晋火 晋土 晋金",
                     deck_size=20, own_turns=[1, 1])
    hand = state.hands[0]
    state.apply_action(encode(FIELD, card(state, "元水", hand), card(state, "宋水", state.field)))
    assert state.game.hand_score(state.hands[0]) == 30
    state.apply_action(encode(DECLARE))
    assert state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == ()
    outcome = state.outcome()
    assert outcome.reason == "declaration" and outcome.scores[0] == 30 and outcome.winners == (0,)


def test_declaration_threshold_boundary(model):
    # 26 is the highest total below 30, so the boundary is shown with the threshold moved to 26 and 27
    for threshold, ends in ((26, True), (27, False)):
        game = GogyoGame.from_model(dataclasses.replace(model, rules={**model.rules, "declare_threshold": threshold}))
        state = scripted(game, ["夏木 殷木 周木 秦木 元火", "唐火 漢土 閥 天 隋金"], "漢木 晋火 晋土 晋金",
                         deck_size=20, own_turns=[1, 1])
        state.apply_action(encode(FIELD, card(state, "元火", state.hands[0]), card(state, "漢木", state.field)))
        assert game.hand_score(state.hands[0]) == 26
        state.apply_action(encode(DECLARE))
        assert state.is_terminal() is ends


def test_game_ends_when_an_action_empties_the_deck(game):
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", deck_size=1, own_turns=[1, 1, 1, 1])
    state.apply_action(encode(FIELD, state.hands[0][0], state.field[0]))
    assert state.is_terminal() and state.outcome().reason == "empty-deck"
    assert len(state.field) == 4 and not state.deck  # the last card refilled the field; no declaration
    state.check_invariants()


def duel(game: GogyoGame, attacker_draw: str, defender_draw: str) -> GogyoState:
    # the attacker draws first, from the top (the end of the list)
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", f"宋土 {defender_draw} {attacker_draw}", deck_size=10)
    state.apply_action(encode(DUEL, 2))
    return state


def test_duel_tie_goes_to_the_defender(game):
    state = duel(game, "唐木", "唐土")
    assert (state.winner, state.loser) == (2, 0) and state.current_player() == 2 and state.phase == WIN_CHOICE
    assert [state.card_label(c) for c in state.discard[-2:]] == ["唐木", "唐土"]  # both duel cards discarded
    assert all(state.is_face_up(c) for c in state.hands[0])  # the loser's hand is revealed
    assert len(state.deck) == 8


@pytest.mark.parametrize(("attack", "defend", "winner"), [("天", "夏水", 2), ("夏水", "閥", 0), ("閥", "天", 2),
                                                          ("清木", "隋木", 0)])
def test_duel_compares_circled_numbers_heaven_and_faction_zero(game, attack, defend, winner):
    assert duel(game, attack, defend).winner == winner


def test_duel_plunder_then_loser_takes_the_winners_field_pick(game):
    state = duel(game, "清木", "隋木")  # the attacker (seat 0) wins against seat 2
    plunder = encode(PLUNDER, card(state, "夏木", state.hands[0]), card(state, "明火", state.hands[2]))
    assert plunder in state.legal_actions()
    state.apply_action(plunder)
    assert [len(h) for h in state.hands] == [5, 5, 4, 5] and state.phase == GIVE_CHOICE
    assert "明火" in [state.card_label(c) for c in state.hands[0]]
    state.check_invariants()
    pick = card(state, "晋土", state.field)
    assert set(state.legal_actions()) == {encode(GIVE, f) for f in state.field}
    state.apply_action(encode(GIVE, pick))
    assert pick in state.hands[2] and state.is_face_up(pick)
    assert [len(h) for h in state.hands] == [5, 5, 5, 5] and len(state.field) == 4 and len(state.deck) == 7
    assert state.current_player() == 1  # the attacker's first turn: no declaration, next seat plays
    state.check_invariants()


def test_duel_destroy_discards_a_loser_card(game):
    state = duel(game, "宋木", "宋火")  # tie: the defender (seat 2) wins and destroys
    state.apply_action(encode(DESTROY, NONE, card(state, "殷火", state.hands[0])))
    assert [len(h) for h in state.hands] == [4, 5, 5, 5] and state.card_label(state.discard[-1]) == "殷火"
    assert state.current_player() == 2 and state.phase == GIVE_CHOICE
    state.apply_action(state.legal_actions()[0])
    assert [len(h) for h in state.hands] == [5, 5, 5, 5] and state.current_player() == 1


def test_observation_hides_face_down_cards(game):
    state = scripted(game, HANDS4, "晋木 晋火 晋土 晋金", "隋木 隋火", deck_size=10)
    state.apply_action(encode(DRAW, state.hands[0][0], state.hands[0][1]))
    drawn = state.hands[0][-2:]
    mine, theirs = state.observation(0), state.observation(1)
    assert set(drawn) <= set(mine.hand)
    assert not set(drawn) & set(theirs.shown[0]) and theirs.hidden[0] == 2
    assert not hasattr(theirs, "deck") and theirs.deck_size == 8


def test_match_winner_rule(game):
    assert game.match_winners([(30, 20), (15, 20)]) == (0,)
    assert game.match_winners([(20, 30), (20, 10)]) == (0,)  # 40 each: the higher second game wins
    assert game.match_winners([(20, 20, 5), (20, 20, 5)]) == (0, 1)  # still tied: a shared win
    assert game.next_first_player(3, 4) == 0


def test_clarifications_are_stated():
    ids = {c.id for c in gogyo.CLARIFICATIONS}
    assert {"faction-typo", "duel-cards", "deck-empty", "second-game-start", "wrong-declaration"} <= ids
    assert all(c.ja and c.en for c in gogyo.CLARIFICATIONS)


# -- seeded games --------------------------------------------------------------------------------

@pytest.mark.parametrize(("policy", "matches", "players"), [("random", 400, 2), ("random", 300, 3), ("random", 300, 4),
                                                           ("greedy", 100, 2), ("greedy", 150, 4),
                                                           ("greedy,random,random", 100, 3)])
def test_seeded_games_keep_every_invariant_at_every_step(game, policy, matches, players):
    policies = tuple(policy.split(",")) if "," in policy else (policy,) * players
    config = SimConfig(players, policies, matches, seed=11, check_invariants=True)
    records = simulate(game, config)  # check_invariants: conservation, sizes, legality after every step
    games = [g for m in records for g in m.games]
    assert len(games) == 2 * matches
    assert all(g.end in ("declaration", "empty-deck") for g in games)  # none hit the cap
    assert all(len(m.winners) >= 1 for m in records)


def test_random_play_covers_every_action_kind(game):
    records = simulate(game, SimConfig(4, ("random",) * 4, 100, seed=3))
    totals = [sum(g.actions[i] for m in records for g in m.games) for i in range(len(game.action_kinds))]
    assert all(totals[kind] > 0 for kind in (FIELD, DRAW, DUEL, PLUNDER, DESTROY, GIVE, DECLARE, PASS))
    assert any(dict(g.counters)["wrong_declarations"] for m in records for g in m.games)


def test_second_game_starts_with_the_next_seat(game):
    for record in simulate(game, SimConfig(3, ("random",) * 3, 20, seed=5)):
        first, second = record.games
        assert second.first_player == (first.first_player + 1) % 3


def test_first_players_are_spread(game):
    starts = [m.first_player for m in simulate(game, SimConfig(4, ("random",) * 4, 200, seed=9))]
    assert set(starts) == {0, 1, 2, 3}


def test_other_run_rules_fall_back_to_trying_every_order(model):
    wrapping = GogyoGame.from_model(dataclasses.replace(model, rules={**model.rules, "dynasty_wraps": True}))
    hand = types(wrapping, "元木 明木 清木 夏木 殷木")
    assert wrapping.scorer.total_of(hand) == wrapping.best_order(hand).total == 26  # 元明清夏殷 now runs on
    rng = random.Random(3)
    for _ in range(100):
        hand = [wrapping.table.type_of[c] for c in rng.sample(range(66), 5)]
        assert wrapping.scorer.total_of(hand) == wrapping.best_order(hand).total


def test_greedy_draws_when_nothing_scores_and_nothing_helps(game):
    from validator.games.gogyo.policies import choose
    # no run of 3, every card links to another; no field card scores or links more than a card it
    # would replace; no duel (deck of 2): the greedy must draw (a regression: it once chose nothing)
    state = scripted(game, ["夏木 殷木 唐木 宋木 明水", "元木 元火 元土 元金 元水"], "秦土 漢土 晋土 清土", deck_size=2)
    assert game.hand_score(state.hands[0]) == 0
    action = choose(state.observation(0), state.legal_actions(), random.Random(0))
    assert action in state.legal_actions() and action >> KIND_SHIFT == DRAW


def test_greedy_takes_the_field_card_that_scores(game):
    from validator.games.gogyo.policies import choose
    state = scripted(game, ["夏木 殷火 周土 唐金 元水", "元木 元火 元土 元金 明水"], "宋水 晋火 晋土 秦金", deck_size=2)
    action = choose(state.observation(0), state.legal_actions(), random.Random(0))
    state.apply_action(action)
    assert game.hand_score(state.hands[0]) == 38  # 夏殷周秦 (18) + 木火土金水 (20): took 秦金 for 唐金
