"""The mcts policy (validator/engine/search.py) and gogyo's determinizer (issue 15, first part).

A dealt state must keep everything the seat has seen where it is and deal only what it has not
seen; the search must be a function of the seed alone."""
from __future__ import annotations

import random

import pytest

from positions import positions
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for, known_games
from validator.games.gogyo.determinize import determinize
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate


@pytest.fixture(scope="module")
def gogyo():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_dealt_state_keeps_all_the_seat_has_seen_and_deals_only_the_unseen(gogyo, players: int) -> None:
    checked = 0
    for seed in range(12):
        for state in positions(gogyo, seed, players):
            me = state.current_player()
            observation = state.observation(me)
            dealt = determinize(observation, random.Random(seed))
            dealt.check_invariants()
            assert dealt.hands[me] == state.hands[me]  # its own hand, face-down cards included
            assert (dealt.field, dealt.discard, len(dealt.deck)) == (state.field, state.discard, len(state.deck))
            for seat in range(players):
                seen = [card for card in state.hands[seat] if state.is_face_up(card)]
                assert [card for card in dealt.hands[seat] if dealt.is_face_up(card)] == seen or seat == me
                assert len(dealt.hands[seat]) == len(state.hands[seat])
                if seat != me:  # a known card is never given to another seat, nor hidden
                    assert set(seen) <= set(dealt.hands[seat])
                    others_known = {c for s in range(players) if s != seat for c in state.hands[s]
                                    if state.is_face_up(c) or s == me}
                    assert not others_known & {c for c in dealt.hands[seat] if not dealt.is_face_up(c)}
            assert (dealt.phase, dealt.current_player(), dealt.turn_player) == (state.phase, me, state.turn_player)
            assert sorted(dealt.legal_actions()) == sorted(state.legal_actions())
            checked += 1
    assert checked > 50


def test_what_is_dealt_varies_and_the_observation_alone_decides_it(gogyo) -> None:
    """Two states a seat cannot tell apart give it the same deals; its unseen cards do vary."""
    for state in list(positions(gogyo, 3, 4))[5:8]:
        me = state.current_player()
        # the same table but for the cards `me` has not seen: the draw pile and the others' face-down cards
        slots = [(-1, i) for i in range(len(state.deck))] + [
            (seat, i) for seat in range(4) if seat != me for i, card in enumerate(state.hands[seat])
            if not state.is_face_up(card)]
        cards = [state.deck[i] if seat < 0 else state.hands[seat][i] for seat, i in slots]
        random.Random(9).shuffle(cards)
        hands, deck = [list(hand) for hand in state.hands], list(state.deck)
        for (seat, i), card in zip(slots, cards):
            if seat < 0:
                deck[i] = card
            else:
                hands[seat][i] = card
        face_down = [card for (seat, _), card in zip(slots, cards) if seat >= 0]
        face_down += [card for card in state.hands[me] if not state.is_face_up(card)]
        other = state.clone()
        other.set_cards(hands, state.field, deck, state.discard, face_down)
        assert other.deck != state.deck
        first = determinize(state.observation(me), random.Random(1))
        second = determinize(other.observation(me), random.Random(1))
        assert (first.hands, first.deck) == (second.hands, second.deck)
        decks = {tuple(determinize(state.observation(me), random.Random(n)).deck) for n in range(5)}
        assert len(decks) == 5


def test_mcts_names_and_engines_that_cannot_be_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    assert find_policy("mcts:30", "gogyo").name == "mcts:30"
    assert find_policy("mcts", "gogyo").name == "mcts:200"
    for name in ("mcts:lots", "mcts:²", "pimc:٣"):  # digits that are not ASCII are not whole numbers to int()
        with pytest.raises(ValueError, match=r"(mcts|pimc):N with N a whole number"):
            find_policy(name, "gogyo")
    with pytest.raises(ValueError, match="1 to 100,000 iterations, not 0"):
        find_policy("mcts:0", "gogyo")
    from dataclasses import replace

    from validator.engine import registry

    unsearchable = replace(registry.find_spec("sengoku"), determinize=None)  # a game package without the hook
    monkeypatch.setattr(registry, "find_spec", lambda name: unsearchable)
    with pytest.raises(ValueError, match="the sengoku rules engine cannot be searched yet"):
        find_policy("mcts:10", "sengoku")


@pytest.mark.slow
def test_mcts_games_depend_on_the_seed_alone_and_beat_random_play(gogyo) -> None:
    """A match's records are its seed's alone: the first four, played on two workers (two each), are those one
    worker played first (issue 28: four, not all twelve again; each worker still plays searched matches)."""
    one = simulate(gogyo, SimConfig(2, ("mcts:20", "random"), 12, seed=5, workers=1))
    two = simulate(gogyo, SimConfig(2, ("mcts:20", "random"), 4, seed=5, workers=2))
    assert two == one[:4]
    wins = sum(1 / len(match.winners) for match in one if 0 in match.winners)
    assert wins >= 10  # of 12 matches against a random player


def test_a_later_game_of_a_match_is_searched_for_the_match(gogyo) -> None:
    """In gogyo's second game the best two-game total wins: a seat 100 points ahead has won the match
    whoever wins the game, and that is what the search is credited with."""
    from validator.engine.playout import ending
    from validator.engine.search import match_winners

    for seed in range(5):
        rng = random.Random(seed)
        ahead = gogyo.new_initial_state(rng, 2, previous_scores=[(100, 0)])
        fresh = gogyo.new_initial_state(random.Random(seed), 2)
        for state in (ahead, fresh):
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
        assert match_winners(ahead) == (0,)
        assert match_winners(fresh) == ending(fresh)[2]  # a first game: the game itself


@pytest.mark.slow
@pytest.mark.parametrize("game_id", known_games())
@pytest.mark.parametrize(("search", "matches"), [("mcts:5", 4), ("pimc:3", 2)])
def test_every_game_can_be_searched_and_its_records_depend_on_the_seed_alone(game_id: str, search: str,
                                                                              matches: int) -> None:
    """One search seat (mcts or pimc) among greedy ones, on 1 and on 2 workers: the same records, match for match."""
    engine = engine_for(load_game(DEFAULT_DECKS_DIR, game_id))
    seats = (search,) + ("greedy",) * (engine.min_players - 1)
    one = simulate(engine, SimConfig(engine.min_players, seats, matches, seed=2, workers=1))
    assert one == simulate(engine, SimConfig(engine.min_players, seats, matches, seed=2, workers=2))
    assert all(match.games for match in one)


@pytest.mark.parametrize(("game_id", "players"), [("sanguosha", 5), ("sangokushi", 4)])
def test_a_search_that_stops_once_its_choice_is_settled_chooses_as_the_whole_budget(
        game_id: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """mcts stops once no other action can catch the most visited one: the same choice as all its iterations,
    at each of these positions, and fewer iterations at a quarter of them or more (about half, measured)."""
    import validator.engine.search as search

    engine = engine_for(load_game(DEFAULT_DECKS_DIR, game_id))
    policy = find_policy("mcts:40", engine.engine)
    dealt = 0

    def counting(observation, rng):
        nonlocal dealt
        dealt += 1
        return deal(observation, rng)
    deal, policy.determinize = policy.determinize, counting
    decisions = stopped = 0
    for seed in range(2):
        for state in positions(engine, seed, players, rate=0.05):
            legal = state.legal_actions()
            if len(legal) < 2:
                continue
            me = state.current_player()
            dealt = 0
            early = policy.choose(state.observation(me), legal, random.Random(seed))
            stopped += dealt < 40
            with monkeypatch.context() as patch:
                patch.setattr(search, "_settled", lambda root, left: False)
                dealt = 0
                assert policy.choose(state.observation(me), legal, random.Random(seed)) == early
                assert dealt == 40
            decisions += 1
    assert decisions >= 10 and stopped >= decisions // 4
