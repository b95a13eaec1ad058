"""sengoku's determinizer (validator/games/sengoku/determinize.py), which lets the mcts policy search it.

A dealt state must keep everything the seat has seen, deal only what it has not seen within what the public
rules allow, offer the same choices, and depend on the observation and the seed alone."""
from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest

from positions import positions
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.sengoku.determinize import determinize
from validator.games.sengoku.rules import DISCARD, REVEAL, STEAL
from validator.games.sengoku.state import SengokuGame, SengokuState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate


@pytest.fixture(scope="module")
def game() -> SengokuGame:
    return cast(SengokuGame, engine_for(load_game(DEFAULT_DECKS_DIR, "sengoku")))


def _types(state: SengokuState, cards: list[int]) -> list[int]:
    return sorted(state.table.type_of[card] for card in cards)


def _unseen_types(state: SengokuState, me: int) -> Counter[int]:
    """The types of the cards `me` has not seen: the others' hands and the pile."""
    cards = [c for seat, hand in enumerate(state.hands) if seat != me for c in hand] + state.pile
    return Counter(state.table.type_of[card] for card in cards)


def _play_out(state: SengokuState, seed: int) -> None:
    """Random moves to the end, invariants checked: a dealt state is a state like any other."""
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
        state.check_invariants()


@pytest.mark.parametrize("variant", ["base", "riichi"])
def test_a_dealt_state_keeps_all_the_seat_has_seen_and_deals_only_the_unseen(game: SengokuGame,
                                                                             variant: str) -> None:
    game = game.with_rules(variant=variant)
    checked, phases = 0, Counter[int]()
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(4):
            for state in positions(game, seed, players):
                me = state.current_player()
                observation = state.observation(me)
                dealt = determinize(observation, random.Random(seed))
                dealt.check_invariants()
                # all it has seen, public history included, reads the same; whose decision and its choices too
                assert dealt.observation(me) == observation
                assert (dealt.current_player(), dealt.phase) == (me, state.phase)
                assert list(dealt.legal_actions()) == list(state.legal_actions())
                assert (dealt.turn_number(), dealt.counters()) == (state.turn_number(), state.counters())
                assert (dealt.turn_player, dealt.first_player) == (state.turn_player, state.first_player)
                assert _types(dealt, dealt.hands[me]) == _types(state, state.hands[me])
                assert _types(dealt, dealt.discards) == _types(state, state.discards)  # (the order: observation)
                for seat in range(players):
                    assert _types(dealt, dealt.shown_cards[seat]) == _types(state, state.shown_cards[seat])
                    assert len(dealt.hands[seat]) == len(state.hands[seat])
                assert len(dealt.pile) == len(state.pile)
                # the unseen cards are dealt among the unseen places only: no known card moves or hides
                assert _unseen_types(dealt, me) == _unseen_types(state, me)
                # and within what public play allows
                for seat in range(players):
                    hand = tuple(_types(dealt, dealt.hands[seat]))
                    if seat == me or not hand:
                        continue
                    if variant == "base" and state.clean[seat]:
                        assert game.table.packing(hand) == 0
                    if variant == "riichi" and not state.riichi[seat]:
                        assert not game.table.is_ready(hand)
                # nothing mutable is shared with the real state, and no generator is kept to foresee chance
                assert dealt.pile is not state.pile and dealt.counts is not state.counts
                assert not any(isinstance(value, random.Random) for value in vars(dealt).values())
                if checked % 7 == 0:
                    _play_out(dealt, seed)
                checked += 1
                phases[state.phase] += 1
    assert checked > 150
    assert phases[DISCARD] and phases[STEAL] and (phases[REVEAL] or variant == "riichi")


def _relabelled(state: SengokuState, me: int, seed: int) -> SengokuState:
    """The same table as `me` sees it, the cards it has not seen dealt otherwise: other copies of each type
    in every place, the others' hands and the pile swapped among themselves."""
    rng = random.Random(seed)
    by_type: dict[int, list[int]] = {}
    for card, t in enumerate(state.table.type_of):
        by_type.setdefault(t, []).append(card)
    rename: dict[int, int] = {}
    for cards in by_type.values():
        renamed = cards[:]
        rng.shuffle(renamed)
        rename.update(zip(cards, renamed))
    hands = [[rename[c] for c in hand] for hand in state.hands]
    pile = [rename[c] for c in state.pile]
    slots = [(-1, i) for i in range(len(pile))] + [
        (seat, i) for seat in range(state.num_players) if seat != me for i in range(len(hands[seat]))]
    cards = [pile[i] if seat < 0 else hands[seat][i] for seat, i in slots]
    rng.shuffle(cards)
    for (seat, i), card in zip(slots, cards):
        if seat < 0:
            pile[i] = card
        else:
            hands[seat][i] = card
    other = state.clone()
    other.set_cards(hands, pile, [rename[c] for c in state.discards],
                    [[rename[c] for c in cards] for cards in state.shown_cards])
    other.live = rename[state.live] if state.live >= 0 else -1
    return other


def test_what_is_dealt_varies_and_the_observation_alone_decides_it(game: SengokuGame) -> None:
    """Two states a seat cannot tell apart give it the same deals; its unseen cards do vary with the seed."""
    tried = 0
    for players in (2, 4, 6):
        for state in list(positions(game, 3, players, rate=0.3))[::4]:
            me = state.current_player()
            other = _relabelled(state, me, players)
            assert other.pile != state.pile or len(state.pile) < 2
            assert other.observation(me) == state.observation(me)
            first = determinize(state.observation(me), random.Random(1))
            second = determinize(other.observation(me), random.Random(1))
            assert (first.hands, first.pile, first.discards, first.shown_cards, first.live) == (
                second.hands, second.pile, second.discards, second.shown_cards, second.live)
            deals = [determinize(state.observation(me), random.Random(n)) for n in range(5)]
            if len(state.pile) > 2:  # the future draws differ, and so do the others' hands
                assert len({tuple(dealt.pile) for dealt in deals}) == 5
                assert len({tuple(tuple(sorted(hand)) for hand in dealt.hands) for dealt in deals}) > 1
            tried += 1
    assert tried >= 10


def test_a_steal_window_asks_the_dealt_seats_in_the_engine_order(game: SengokuGame) -> None:
    """After the seat passes, the window goes on with the dealt hands: the seats after it (up to the
    discarder) that can steal in the dealt state, in seat order from the discarder."""
    found = waiting = 0
    for seed in range(6):
        for state in positions(game, seed, 5, rate=1.0):
            if state.phase != STEAL:
                continue
            me = state.current_player()
            dealt = determinize(state.observation(me), random.Random(seed))
            after = [(state.discarder + i) % 5 for i in range(1, 5)]
            later = after[after.index(me) + 1:]
            completions = game.steal_names[dealt.table.type_of[dealt.live]]
            able = [seat for seat in later
                    if any(dealt.counts[seat][a] and dealt.counts[seat][b] > d for _, a, b, d in completions)]
            assert [seat for seat, _ in dealt.candidates] == able
            found, waiting = found + 1, waiting + bool(able)
    assert found > 20 and waiting


def test_mcts_plays_sengoku_the_same_for_the_same_seed(game: SengokuGame) -> None:
    assert find_policy("mcts:10", "sengoku").name == "mcts:10"
    config = SimConfig(game.min_players, ("mcts:10",) + ("greedy",) * (game.min_players - 1), 2, seed=1, workers=1)
    one = simulate(game, config)
    assert len(one) == 2 and not any(match.timed_out for match in one)
    assert simulate(game, config) == one


def test_a_seat_that_cannot_be_dealt_a_nameless_hand_is_left_for_the_engine_to_check(
        game: SengokuGame, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback (never needed in practice): with one try per deal, the seats are drawn one by one, and
    one whose hand still holds a name is marked unchecked, so its next draw lays the name out."""
    import sys

    module = sys.modules[determinize.__module__]
    monkeypatch.setattr(module, "MAX_TRIES", 1)
    unchecked = 0
    for seed in range(3):
        for state in positions(game, seed, 6):
            me = state.current_player()
            dealt = determinize(state.observation(me), random.Random(seed))
            dealt.check_invariants()
            assert list(dealt.legal_actions()) == list(state.legal_actions())
            for seat in range(6):
                if state.clean[seat] and not dealt.clean[seat]:
                    assert seat != me and dealt.table.packing(tuple(_types(dealt, dealt.hands[seat]))) > 0
                    unchecked += 1
    assert unchecked
