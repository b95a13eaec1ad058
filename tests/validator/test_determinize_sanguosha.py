"""sanguosha's determinizer (validator/games/sanguosha/determinize.py) and the mcts policy on it.

A dealt state must keep everything the seat has seen where it is — its hand, every public zone, the
known identities and generals, the pending decision inside its frame stack — deal only what it has
not seen, hand the future to a generator of its own, and be a function of the observation and the
seed alone. The observation's log (the table talk the deal is replayed from) must show no card the
seat did not see."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from positions import positions
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.sanguosha.determinize import determinize
from validator.games.sanguosha.rules import (
    EFFECT_INDEX,
    GIVE,
    HAND,
    NONE,
    P_GENERAL,
    P_GUANXING,
    P_WUGU,
    SKILL,
    SanguoshaObservation,
    unpack,
)
from validator.games.sanguosha.state import LOG_ASK, LOG_DUMP, LOG_POP, LOG_RAND, PUBLIC, SanguoshaState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate

RENDE = EFFECT_INDEX["rende"]
PLAYERS = range(2, 11)


@pytest.fixture(scope="module")
def sanguosha():
    return engine_for(load_game(DEFAULT_DECKS_DIR, "sanguosha"))


def _sampled(game, players: int, count: int) -> Iterator[SanguoshaState]:
    """`count` decisions from seeded random games at the table size, a few from each game."""
    seed = 0
    while count:
        for state in positions(game, 100 * players + seed, players, rate=0.04):
            yield state
            count -= 1
            if not count:
                return
        seed += 1


def _known_holdings(view: SanguoshaObservation) -> dict[int, int]:
    """Cards the seat knows another seat holds (a subset): taken face up into a hand (五穀), or handed
    over where the seat saw which card, and neither shown since nor possibly passed on unseen."""
    mine = dict(view.private_log)
    known: dict[int, int] = {}

    def forget(seat: int) -> None:
        for card in [card for card, holder in known.items() if holder == seat]:
            del known[card]

    for at, entry in enumerate(view.log):
        if entry[0] == LOG_ASK:
            kind, a, b, c, _ = unpack(mine.get(at, entry[4]))
            if entry[3][0] == P_WUGU:
                known[a] = entry[2]
            elif kind == GIVE and a < HAND:
                known[a] = b
            elif kind == SKILL and a == RENDE:
                if b < HAND:
                    known[b] = c
                else:
                    forget(entry[2])
            elif a < HAND:
                known.pop(a, None)
        elif entry[0] == LOG_RAND:
            card = entry[3] if entry[3] >= 0 else mine.get(at, -1)
            if card < 0:
                forget(entry[1])
            else:
                known.pop(card, None)
                if entry[2] >= 0:
                    known[card] = entry[2]
        elif entry[0] == LOG_POP:
            known.pop(entry[2] if entry[2] >= 0 else mine.get(at, -1), None)
        elif entry[0] == LOG_DUMP:
            for card in entry[2]:
                known.pop(card, None)
    return {card: holder for card, holder in known.items() if holder != view.seat}


def _unseen(state: SanguoshaState, me: int) -> set[int]:
    return {*state.deck, *(card for seat, hand in enumerate(state.hands) if seat != me for card in hand)}


@pytest.mark.parametrize("players", PLAYERS)
def test_a_dealt_state_keeps_all_the_seat_has_seen_and_deals_only_the_unseen(sanguosha, players: int) -> None:
    held = 0
    for seed, state in enumerate(_sampled(sanguosha, players, 60)):  # 540 positions over the table sizes
        held += _check_deal(state, random.Random(seed))
    assert held or players < 5  # known cards in others' hands do come up (五穀, hand-offs seen)


def _check_deal(state: SanguoshaState, rng: random.Random) -> int:
    """Deal from the seat to move's observation and check it against the real state; the number of
    cards known to be in other hands that were checked."""
    me, players = state.current_player(), state.n
    view = state.observation(me)
    dealt = determinize(view, rng)
    dealt.check_invariants()
    assert dealt.observation(me) == view  # all it has seen, the table talk included
    assert dealt.hands[me] == state.hands[me]
    assert (dealt.equip, dealt.judge, dealt.judge_as) == (state.equip, state.judge, state.judge_as)
    assert (dealt.discard, dealt.proc, len(dealt.deck)) == (state.discard, state.proc, len(state.deck))
    assert [len(hand) for hand in dealt.hands] == [len(hand) for hand in state.hands]
    assert (dealt.alive, dealt.lord, dealt.turns) == (state.alive, state.lord, state.turns)
    assert _unseen(dealt, me) == _unseen(state, me)  # the same cards hidden, dealt anew
    for seat in range(players):  # identities: the lord's, the dead's and its own kept; the rest dealt
        if seat == me or seat == state.lord or not state.alive[seat]:
            assert dealt.role[seat] == state.role[seat]
        if view.generals[seat] >= 0:  # and with a general the HP (a general chosen face down shows none)
            assert dealt.general[seat] == state.general[seat]
            assert (dealt.hp[seat], dealt.max_hp[seat]) == (state.hp[seat], state.max_hp[seat])
    assert sorted(dealt.role) == sorted(state.role)
    known = _known_holdings(view)
    for card, holder in known.items():  # a known card is never given to another seat
        assert card in state.hands[holder]
        assert card in dealt.hands[holder]
    assert (dealt.current_player(), dealt.prompt, dealt.turn_player) == (me, state.prompt, state.turn_player)
    assert list(dealt.legal_actions()) == list(state.legal_actions())
    assert dealt.chance is not state.chance and dealt.chance.getstate() != state.chance.getstate()
    return len(known)


def test_what_is_dealt_varies_and_the_observation_alone_decides_it(sanguosha) -> None:
    """A state the seat cannot tell from the real one gives it the same deals; its unseen cards, the
    hidden identities and the future chance do vary with the seed."""
    roles = checked = 0
    for players in (2, 5, 8):
        for state in [state for state in _sampled(sanguosha, players, 20) if state.turns][1:13:3]:
            checked += 1
            me = state.current_player()
            view = state.observation(me)
            other = determinize(view, random.Random(99))  # another game, alike to this seat
            assert other.observation(me) == view
            assert (other.hands, other.deck) != (state.hands, state.deck)
            first, second = determinize(view, random.Random(1)), determinize(other.observation(me), random.Random(1))
            assert (first.hands, first.deck, first.role, first.general, first.options) == \
                (second.hands, second.deck, second.role, second.general, second.options)
            assert first.chance.getstate() == second.chance.getstate()
            deals = [determinize(view, random.Random(n)) for n in range(5)]
            assert len({tuple(deal.deck) for deal in deals}) == 5
            assert len({deal.chance.random() for deal in deals}) == 5  # and what the deck does next
            roles += len({tuple(deal.role) for deal in deals}) > 1
    assert checked == 12 and roles  # hidden identities are dealt too


def test_a_dealt_state_plays_on_and_clones_alike(sanguosha) -> None:
    """A dealt state is a plain game: it plays to the end under its invariants, and a clone of it (which
    replays its history over its own chance log) plays on alike."""
    played = 0
    for players in (3, 6):
        for state in list(_sampled(sanguosha, players, 8))[::2]:
            played += 1
            dealt = determinize(state.observation(state.current_player()), random.Random(4))
            assert type(dealt) is SanguoshaState and dealt.tap is None
            copy = dealt.clone()
            assert (copy.hands, copy.deck, copy.legal) == (dealt.hands, dealt.deck, dealt.legal)
            moves = random.Random(5)
            while not dealt.is_terminal():
                action = dealt.legal_actions()[int(moves.random() * len(dealt.legal_actions()))]
                dealt.apply_action(action)
                copy.apply_action(action)
                dealt.check_invariants()
            assert copy.is_terminal() and copy.outcome() == dealt.outcome()
    assert played == 8


def test_the_log_shows_no_card_a_seat_could_not_see(sanguosha) -> None:
    """The observation's table talk: a card drawn, looked at or taken unseen shows only in the private
    half of those who saw it; a general chosen, a card handed on by 仁徳 or 遺計 or put back by 観星,
    only to the one who chose it (and the one handed it)."""
    for players in (4, 7):
        for state in positions(sanguosha, 11, players, rate=0.2):
            for seat in range(players):
                view = state.observation(seat)
                for entry in view.log:
                    if entry[0] == LOG_POP:
                        assert (entry[2] >= 0) == (entry[1] == PUBLIC)
                    elif entry[0] == LOG_RAND:
                        assert (entry[3] >= 0) == (entry[2] == PUBLIC)
                    elif entry[0] == LOG_ASK:
                        kind, a, b, _, _ = unpack(entry[4])
                        if entry[3][0] in (P_GENERAL, P_GUANXING) or kind == GIVE:
                            assert a == NONE
                        if kind == SKILL and a == RENDE:
                            assert b == NONE
                for at, _ in view.private_log:
                    entry = view.log[at]
                    if entry[0] == LOG_POP:
                        assert entry[1] == seat
                    elif entry[0] == LOG_RAND:
                        assert seat in entry[1:3]
                    else:
                        kind, a, b, c, _ = unpack(entry[4])
                        receiver = b if kind == GIVE else c if kind == SKILL else -1
                        assert seat in (entry[2], receiver)


def test_mcts_searches_sanguosha_and_a_seeded_match_repeats(sanguosha) -> None:
    assert find_policy("mcts:10", "sanguosha").name == "mcts:10"
    config = SimConfig(2, ("mcts:10", "greedy"), 2, seed=1, workers=1)
    one = simulate(sanguosha, config)
    assert len(one) == 2 and all(match.games and not match.timed_out for match in one)
    assert simulate(sanguosha, config) == one
