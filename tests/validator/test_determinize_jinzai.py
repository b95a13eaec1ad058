"""jinzai's determinizer (validator/games/jinzai/determinize.py), which lets the mcts policy search it.

A dealt match keeps where it is everything the seat has seen (its own hand and picks, the whole public
table and its bookkeeping) and what the table knows of a hidden hand (a forced duplicate shows it holds
only kinds already put out); it deals only the unseen tiles, in the same places and numbers, and deals
the match's later games from a chance generator of its own. It is a function of the observation and
the seed alone."""
from __future__ import annotations

import random

import pytest

from positions import positions
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.jinzai.determinize import Slot, constrained_deal, deal, determinize
from validator.games.jinzai.rules import BID_HAND, decode, encode
from validator.games.jinzai.state import ACQUIRING, FIELDS, SETUP
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate

# A state's hidden places (and its chance); `_outer`/`_inner` are stale unless the decision has a product part.
HIDDEN = frozenset({"hands", "held", "picked", "aside", "chance", "_outer", "_inner"})
DECISION = frozenset({"_singles", "_count"})  # another seat's options come from its hidden hand


@pytest.fixture(scope="module")
def jinzai():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "jinzai"))


def _public(state, also: frozenset[str] = frozenset()) -> dict[str, str]:
    return {name: repr(getattr(state, name)) for name in FIELDS if name not in HIDDEN | also}


def _hidden_kinds(state, me: int) -> list[int]:
    """Per kind, the tiles in places `me` cannot see: the others' hands and picks, the set-aside tiles."""
    places = [state.aside, *(state.hands[s] for s in range(state.num_players) if s != me),
              *(state.picked[s] for s in range(state.num_players) if s != me)]
    return [sum(place[kind] for place in places) for kind in range(len(state.aside))]


def _forced_duplicate(jinzai):
    """Round 1 of 3 players, seat 2 forced to put out a duplicate: its hand (6 6 7 7) and its column tops
    (6, 7) are all kinds seats 0 and 1 just put out. Seat 1 is then the first to acquire."""
    state = jinzai.new_initial_state(random.Random(0), 3, first_player=0)
    empty: list[list[int]] = [[] for _ in range(7)]
    state.set_position(hands=[[6, 1, 2, 3], [7, 1, 2, 3], [6, 6, 7, 7]],
                       columns=[[[1], [2], [3], *empty[3:]], [[1], [2], [3], *empty[3:]],
                                [*empty[:5], [0, 6], [7]]],
                       pool=[0, 0], start=0)
    for kind in (6, 7):
        state.apply_action(encode(BID_HAND, kind))
    # the kind each legal bid puts out (a BID_PUBLIC's x is a column, whose number is one more)
    put_out = {decode(a)[1] + (decode(a)[0] != BID_HAND) for a in state.legal_actions()}
    assert put_out == {6, 7}  # from the hand or the column tops: nothing fresh is left
    state.apply_action(encode(BID_HAND, 6))
    assert state.dup == [False, False, True] and state.stage == ACQUIRING and state.current_player() == 1
    state.check_invariants()  # the real hand holds what the table inferred
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_a_dealt_match_keeps_all_the_seat_has_seen_and_deals_only_the_unseen(jinzai, players: int) -> None:
    checked = hidden_picks = 0
    for seed in range(10):
        for state in positions(jinzai, seed, players):
            me = state.current_player()
            observation = state.observation(me)
            before, chance = _public(state), state.chance.getstate()
            dealt = determinize(observation, random.Random(seed))
            assert _public(state) == before and state.chance.getstate() == chance  # the real match untouched
            dealt.check_invariants()
            assert dealt.observation(me) == observation
            assert _public(dealt) == _public(state)  # the whole table, its bookkeeping, whose turn, the match so far
            assert (dealt.hands[me], dealt.picked[me]) == (state.hands[me], state.picked[me])
            for seat in range(players):
                assert sum(dealt.hands[seat]) == sum(state.hands[seat])
                assert sum(dealt.picked[seat]) == sum(state.picked[seat])
                assert not dealt.held[seat] & ~state.may_hold[seat]  # what the table knows of a hand
            assert _hidden_kinds(dealt, me) == _hidden_kinds(state, me)  # only the unseen tiles are moved
            assert (dealt.current_player(), dealt.phase()) == (me, state.phase())
            assert dealt.legal_actions() == state.legal_actions()
            assert (dealt.counters(), dealt.returns(), dealt.turn_number()) == (
                state.counters(), state.returns(), state.turn_number())
            assert dealt.chance is not state.chance
            for viewer in range(players):  # any seat's view, on the others' turns too
                seen = determinize(state.observation(viewer), random.Random(seed))
                seen.check_invariants()
                assert seen.observation(viewer) == state.observation(viewer)
                assert _public(seen, DECISION) == _public(state, DECISION)
                assert _hidden_kinds(seen, viewer) == _hidden_kinds(state, viewer)
            hidden_picks += state.stage == SETUP and any(sum(state.picked[s]) for s in range(players) if s != me)
            checked += 1
    assert checked > 50 and hidden_picks > 0


def test_what_a_forced_duplicate_showed_stays_with_its_seat(jinzai) -> None:
    """Seat 2's hand can hold only 6s and 7s, and seat 1 has seen every 6 and 7 but three: those three
    are seat 2's, in every deal, while the other unseen tiles move between seat 0's hand and the aside."""
    state = _forced_duplicate(jinzai)
    assert state.may_hold[2] == 1 << 6 | 1 << 7 and state.hands[2] == [0, 0, 0, 0, 0, 0, 1, 2]
    others = set()
    for seed in range(40):
        dealt = determinize(state.observation(1), random.Random(seed))
        dealt.check_invariants()
        assert dealt.hands[2] == state.hands[2] and dealt.legal_actions() == state.legal_actions()
        others.add((tuple(dealt.hands[0]), tuple(dealt.aside)))
    assert len(others) == 4  # the one set-aside tile is any of seat 0's three and the *
    for seed in range(40):  # the fallback deal respects the constraint too
        slots = [Slot(0, False, 3, -1), Slot(2, False, 3, 1 << 6 | 1 << 7)]
        (zero, two), aside = constrained_deal([0, 1, 2, 3, 6, 7, 7], slots, random.Random(seed))
        assert sorted(two) == [6, 7, 7] and sorted(zero + aside) == [0, 1, 2, 3]


def test_a_deal_is_uniform_when_nothing_constrains_it() -> None:
    """Unconstrained, the first shuffle is the deal: each tile lands in each place equally often."""
    slots = [Slot(0, False, 2, -1), Slot(1, True, 1, -1)]
    rng, seen = random.Random(3), {0: 0, 1: 0, 2: 0}
    for _ in range(3000):
        (hand, picks), aside = deal([0, 1, 2, 3], slots, rng)
        assert len(hand) == 2 and len(picks) == 1 and len(aside) == 1
        seen[0 if 0 in hand else 1 if 0 in picks else 2] += 1
    assert abs(seen[0] - 1500) < 150 and abs(seen[1] - 750) < 110 and abs(seen[2] - 750) < 110


def test_the_observation_alone_decides_the_deal_and_chance_is_its_own(jinzai) -> None:
    """Two matches a seat cannot tell apart give it the same deals; deals and later chance vary with the
    seed; the dealt match never draws from the real generator."""
    compared = varied = 0
    for state in list(positions(jinzai, 7, 4))[3:12]:
        me = state.current_player()
        hidden = [(s, picks) for s in range(4) if s != me for picks in (False, True)]
        tiles = [k for kind, count in enumerate(_hidden_kinds(state, me)) for k in [kind] * count]
        other, rng = state.clone(chance=random.Random(5)), random.Random(11)
        while True:  # the unseen tiles shuffled among the same places, as the table allows
            rng.shuffle(tiles)
            places, at = {}, 0
            for seat, picks in hidden:
                size = sum((state.picked if picks else state.hands)[seat])
                places[seat, picks], at = tiles[at:at + size], at + size
            if all(state.may_hold[seat] >> k & 1 for seat, _ in hidden for k in places[seat, False]):
                break
        for (seat, picks), kinds in places.items():
            counts = (other.picked if picks else other.hands)[seat]
            counts[:] = [kinds.count(k) for k in range(len(counts))]
            if not picks:
                other.held[seat] = sum(1 << k for k in set(kinds))
        other.aside = [tiles[at:].count(k) for k in range(len(other.aside))]
        other.check_invariants()
        assert other.observation(me) == state.observation(me)
        compared += other.hands != state.hands or other.aside != state.aside
        first = determinize(state.observation(me), random.Random(1))
        second = determinize(other.observation(me), random.Random(1))
        assert _public(first) == _public(second) and first.chance.getstate() == second.chance.getstate()
        assert (first.hands, first.picked, first.aside) == (second.hands, second.picked, second.aside)
        deals = [determinize(state.observation(me), random.Random(n)) for n in range(6)]
        if len(tiles) > max(map(len, [*places.values(), tiles[at:]])):  # more than one place holds unseen tiles
            assert len({repr((d.hands, d.picked, d.aside)) for d in deals}) > 1
            varied += 1
        assert len({d.chance.random() for d in deals}) == 6
        real = state.chance.getstate()
        dealt, choice = deals[0], random.Random(2)
        games = dealt.games_played
        while not dealt.is_terminal() and dealt.games_played == games:  # on into the next deal
            legal = dealt.legal_actions()
            dealt.apply_action(legal[int(choice.random() * len(legal))])
        assert state.chance.getstate() == real
    assert compared > 5 and varied > 5


def test_mcts_plays_jinzai_and_depends_on_the_seed_alone(jinzai) -> None:
    assert find_policy("mcts:10", "jinzai").name == "mcts:10"
    config = SimConfig(3, ("mcts:10", "greedy", "greedy"), 2, seed=1, workers=1)
    one, two = simulate(jinzai, config), simulate(jinzai, config)
    assert one == two and len(one) == 2
    assert all(not match.timed_out and match.winners for match in one)
