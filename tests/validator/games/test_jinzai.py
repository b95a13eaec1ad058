"""人材登用 (jinzai): scoring, VP, each tile effect, duplicate bids, judging, and seeded playouts with invariants."""
from __future__ import annotations

import random

import pytest

from validator.engine.registry import engine_for
from validator.games import jinzai as jz
from validator.games.jinzai_rules import (BID_HAND, BID_PUBLIC, CLARIFICATIONS, GIVE, PICK, ROTATE, STAR,
                                          STAR_TAKE, TAKE_BID, TAKE_POOL, decode, encode)
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.policies import find_policy

S = 0  # trickster kind


@pytest.fixture(scope="module")
def game():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "jinzai"))


def cols(**columns):
    """Columns from keyword c1..c7 -> list of kinds bottom to top."""
    return [list(columns.get(f"c{n}", [])) for n in range(1, 8)]


# -- data -------------------------------------------------------------------------------------------
def test_tiles_and_default_assignment(game):
    kinds = game.table.kinds
    assert len(kinds) == 32 and all(kinds.count(k) == 4 for k in range(8))
    assert game.table.type_of == ("*", "文", "文", "武", "文", "武", "武", "文")
    assert len(game.tiles_for(3)) == 24 and not {4, 5} & {kinds[t] for t in game.tiles_for(3)}


def test_clarifications_have_ids_and_both_languages():
    ids = [c.id for c in CLARIFICATIONS]
    assert len(ids) == len(set(ids)) >= 10
    assert all(c.ja and c.en for c in CLARIFICATIONS)


# -- scoring ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("column, number, value", [
    ([7], 7, 7), ([7, 7], 7, -7),          # 文官: 1 tile +n, 2 tiles -n
    ([6], 6, -6), ([6, 6], 6, 6),          # 武官: 1 tile -n, 2 tiles +n
    ([3, 3, 3], 3, 0), ([4, 4, 4], 4, 0),  # 3 tiles: 0
    ([5, 5, 5, 5], 5, 10), ([1, 1, S, 1, 1], 1, 10),  # 4 or more: 10
    ([6, S], 6, 0),                        # a trickster on top: the column is absent
    ([6, S, 6], 6, 0),                     # a trickster under a tile counts as one tile: 3 tiles
    ([S, 7], 7, -7),                       # * under 7 makes two 文7s
    ([], 2, 0),
])
def test_column_values(game, column, number, value):
    assert game.scoring.column_value(number, column) == value


def test_five_kinds_bonus_and_absent_columns(game):
    sc = game.scoring
    five = cols(c1=[1], c2=[2], c3=[3, 3], c4=[4], c7=[7])
    assert sc.total(five) == 1 + 2 + 3 + 4 + 7 + 5
    four = cols(c1=[1], c2=[2], c3=[3, 3], c4=[4], c7=[7, S])  # 7 topped by * is absent
    assert sc.total(four) == 1 + 2 + 3 + 4


def test_set_vp(game):
    sc = game.scoring
    assert sc.set_vp(cols(c5=[5, 5, 5, 5], c7=[7])) == 1                 # four of a kind
    assert sc.set_vp(cols(c1=[1], c2=[2], c3=[3], c4=[4], c5=[5])) == 1  # five kinds
    assert sc.set_vp(cols(c1=[1], c7=[7])) == -1                          # 文 only
    assert sc.set_vp(cols(c3=[3], c6=[6, 6])) == -1                       # 武 only
    assert sc.set_vp(cols(c3=[3], c7=[7, S])) == -1                       # 7 absent: 武 only
    assert sc.set_vp(cols()) == -1                                        # nothing counts as one type only


def test_game_vp_ranks_ties_and_three_players(game):
    sc = game.scoring
    mixed = cols(c3=[3], c7=[7])  # set VP 0
    sets = [mixed] * 4
    assert sc.game_vp((10, 8, 5, 1), sets) == (2, 1, 0, -1)
    assert sc.game_vp((10, 10, 5, 1), sets) == (2, 2, 0, -1)   # tie for 1st: both +2, no 2nd
    assert sc.game_vp((10, 8, 8, 1), sets) == (2, 1, 1, -1)
    assert sc.game_vp((10, 8, 1, 1), sets) == (2, 1, 0, 0)     # tie for 3rd: nobody is 4th
    assert sc.game_vp((9, 5, 1), [mixed] * 3) == (2, 0, 0)     # 3 players: 2nd and 3rd get 0


# -- scripted scenarios -----------------------------------------------------------------------------
def setup(game, n=4, *, hands, columns=None, pool=(), start=0):
    """A state in round 1's bidding with the given hands (topped up to 4 from unused tiles), columns and
    pool (kinds); the rest set aside."""
    state = game.new_initial_state(random.Random(0), n, first_player=start)
    free = {k: [t for t in game.tiles_for(n) if game.table.kinds[t] == k] for k in range(8)}
    take = lambda kinds: [free[k].pop() for k in kinds]  # noqa: E731
    state.cols = [[take(c) for c in (columns[s] if columns else cols())] for s in range(n)]
    state.pool = take(pool)
    state.hands = [take(h) for h in hands]
    for hand in state.hands:
        while len(hand) < 4:
            hand += take([max(free, key=lambda k: (len(free[k]), k))])
    state.picked = [[] for _ in range(n)]
    state.aside = [t for ts in free.values() for t in ts]
    state.stage, state.round, state.start = jz.SETUP, 0, start
    state._begin_round()
    state._set_player()
    return state


def kinds_of(game, tiles):
    return sorted(game.table.kinds[t] for t in tiles)


def test_pool_side_compares_the_sums_of_each_type(game):
    """The seed's three examples, then the decisions it leaves open (clarification "pool-side")."""
    assert game.side_for([7, 6]) == jz.SIDE_BUN      # 例1: 文7・武6
    assert game.side_for([7, 3, 5]) == jz.SIDE_BU    # 例2: 文7・武3・武5, 7 < 3 + 5
    assert game.side_for([7, S]) == jz.SIDE_BUN      # 例3: 文7・*
    assert game.side_for([6, 3]) == jz.SIDE_BU and game.side_for([1, 2]) == jz.SIDE_BUN  # one type only
    assert game.side_for([1, 2, 3]) == jz.SIDE_BU    # 3 = 3: the highest single number, 武3, decides
    assert game.side_for([4, 1, 5]) == jz.SIDE_BU    # 5 = 5: 武5 is the highest
    assert game.side_for([7, 4, 6, 5]) == jz.SIDE_BUN  # 11 = 11: 文7 is the highest
    assert game.side_for([S, S]) == jz.SIDE_BUN and game.side_for([S, 6, 1]) == jz.SIDE_BU  # * adds nothing


def test_duplicate_only_when_forced_and_ranked_last(game):
    hands = [[5, 7, 7, 3], [5, 6, 1, 3], [6, 6, 5, 5], [4, 4, 4, 4]]
    state = setup(game, hands=hands, pool=[7, 6])
    state.apply_action(encode(BID_HAND, 5))
    legal = state.legal_actions()
    assert encode(BID_HAND, 5) not in legal and encode(BID_HAND, 6) in legal  # not forced: no duplicate
    state.apply_action(encode(BID_HAND, 6))
    assert state.legal_actions() == [encode(BID_HAND, 5), encode(BID_HAND, 6)]  # seat 2: only 5s and 6s, forced
    state.apply_action(encode(BID_HAND, 5))
    assert state.dup[2]
    state.apply_action(encode(BID_HAND, 4))
    # 文 space (7 beats 6): 6 > 5 > 4, the duplicate is last and becomes the next start player
    assert state.places == [1, 0, 3] and state.next_start == 2


def test_two_takes_second_and_bu_space_ranks_low_first(game):
    hands = [[6], [2], [3], [5]]
    state = setup(game, hands=hands, columns=[cols(c7=[7])] * 4, pool=[6, 3])  # 武 space
    for k in (6, 2, 3, 5):
        state.apply_action(encode(BID_HAND, k))
        if state.phase() == GIVE:  # the 3's gift
            state.apply_action(encode(GIVE, 6, 0))
    assert state.pool_side == jz.SIDE_BU
    assert state.places == [2, 1, 3] and state.next_start == 0


def test_trickster_takes_from_pool_ranks_low_and_starts_next(game):
    hands = [[S], [7], [6], [4]]
    state = setup(game, hands=hands, columns=[cols(c5=[5])] * 4, pool=[7, 3])
    state.apply_action(encode(BID_HAND, S))
    assert state.phase() == STAR_TAKE and set(state.legal_actions()) == {encode(STAR_TAKE, 3), encode(STAR_TAKE, 7)}
    state.apply_action(encode(STAR_TAKE, 7))
    assert state.kind_columns(0)[6] == [7] and kinds_of(game, state.pool) == [3]
    for k in (7, 6, 4):
        state.apply_action(encode(BID_HAND, k))
    assert state.places == [1, 2, 3] and state.next_start == 0  # * below every number, yet next SP


def test_trickster_goes_on_a_filled_column_and_counts_under_a_tile(game):
    hands = [[S], [4], [6], [2]]
    state = setup(game, hands=hands, columns=[cols(c6=[6], c7=[7])] + [cols(c5=[5])] * 3, pool=[7])
    state.apply_action(encode(BID_PUBLIC, 6, S))  # put out the public 7, the * joins the public tiles
    assert state.phase() == STAR and set(state.legal_actions()) == {encode(STAR, 5)}  # only column 6 is filled
    state.apply_action(encode(STAR, 5))
    assert state.kind_columns(0)[5] == [6, S]
    assert game.scoring.total(state.kind_columns(0)) == 0


def test_rotate_passes_a_bun_number_among_its_holders(game):
    columns = [cols(c7=[7], c3=[3]), cols(c7=[7, 7]), cols(c3=[3]), cols(c7=[S, 7], c4=[4])]
    hands = [[1], [6], [6], [6]]
    state = setup(game, hands=hands, columns=columns, pool=[6])
    state.apply_action(encode(BID_HAND, 1))
    assert state.phase() == ROTATE
    assert {decode(a)[1] for a in state.legal_actions()} == {7}  # 4 has one holder only
    state.apply_action(encode(ROTATE, 7, 0))  # clockwise among holders 0 -> 1 -> 3 -> 0
    assert [state.kind_columns(s)[6] for s in range(4)] == [[7], [7], [], [S, 7, 7]]


def test_rotate_counter_clockwise(game):
    columns = [cols(c7=[7]), cols(c7=[7, 7]), cols(), cols(c7=[7])]
    state = setup(game, hands=[[1], [6], [6], [6]], columns=columns, pool=[6])
    state.apply_action(encode(BID_HAND, 1))
    state.apply_action(encode(ROTATE, 7, 1))  # 0 -> 3 -> 1 -> 0
    assert [len(state.kind_columns(s)[6]) for s in range(4)] == [2, 1, 0, 1]


def test_three_gives_a_top_tile(game):
    columns = [cols(c6=[6], c7=[7, 7])] + [cols(c5=[5])] * 3
    state = setup(game, hands=[[3], [6], [4], [2]], columns=columns, pool=[7])
    state.apply_action(encode(BID_HAND, 3))
    assert state.phase() == GIVE
    assert {decode(a)[1] for a in state.legal_actions()} == {5, 6}
    state.apply_action(encode(GIVE, 6, 2))
    assert state.kind_columns(0)[6] == [7] and state.kind_columns(2)[6] == [7]


def test_acquire_pool_or_others_bid_and_leftovers_become_the_pool(game):
    hands = [[7], [6], [5], [4]]
    state = setup(game, hands=hands, columns=[cols(c3=[3])] * 4, pool=[7, 6])
    for k in (7, 6, 5, 4):
        state.apply_action(encode(BID_HAND, k))
    assert state.player == 0
    assert set(state.legal_actions()) == {encode(TAKE_POOL)} | {encode(TAKE_BID, s) for s in (1, 2, 3)}
    state.apply_action(encode(TAKE_POOL))
    assert encode(TAKE_POOL) not in state.legal_actions()
    state.apply_action(encode(TAKE_BID, 0))
    state.apply_action(encode(TAKE_BID, 3))
    assert state.round == 2 and kinds_of(game, state.pool) == [5, 6]
    assert state.start == 3 and state.player == 3


def test_setup_picks_are_hidden_until_all_chose(game):
    state = game.new_initial_state(random.Random(3), 4, first_player=1)
    assert state.phase() == PICK and state.player == 1
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.observation(2).picked == () and len(state.observation(1).picked) == 1
    assert all(not any(col) for col in state.observation(2).columns[1])


# -- playouts ---------------------------------------------------------------------------------------
def play(game, n, seed, policy_names):
    rng = random.Random(seed)
    policies = [find_policy(name) for name in policy_names]
    state = game.new_initial_state(rng, n)
    state.check_invariants()
    steps = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = list(state.legal_actions())
        assert legal and len(legal) == len(set(legal))
        action = policies[seat].choose(state.observation(seat), legal, rng)
        assert action in legal
        state.apply_action(action)
        state.check_invariants()
        steps += 1
        assert steps < 1000
    return state


@pytest.mark.parametrize("n", [3, 4])
def test_many_random_and_greedy_matches_keep_invariants(game, n):
    for seed in range(400):  # ~1,700 games over both player counts
        names = ["random"] * n if seed % 4 else ["greedy", "random", "greedy", "random"][:n]
        state = play(game, n, seed, names)
        outcome = state.outcome()
        assert max(outcome.scores) >= game.rules.vp_to_win or outcome.reason == jz.END_MAX_GAMES


def test_same_seed_same_match(game):
    a, b = play(game, 4, 11, ["greedy"] * 4), play(game, 4, 11, ["greedy"] * 4)
    assert a.outcome() == b.outcome() and a.game_totals == b.game_totals


def test_greedy_beats_random(game):
    wins = 0
    for seed in range(200):
        outcome = play(game, 4, seed, ["greedy", "random", "random", "random"]).outcome()
        wins += 0 in outcome.winners
    assert wins > 80


def test_three_players_use_24_tiles_one_set_aside_and_two_places(game):
    state = game.new_initial_state(random.Random(8), 3, first_player=0)
    assert len(state.pool) == 2 and len(state.aside) == 1
    assert all(len(h) == 7 for h in state.hands)
    while state.stage != jz.ACQUIRING:
        state.apply_action(state.legal_actions()[0])
    assert len(state.places) == 2
