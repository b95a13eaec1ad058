"""sanguosha's determinizer (validator/games/sanguosha/determinize.py) and the mcts policy on it.

A dealt state must keep everything the seat has seen where it is — its hand, every public zone, the
known identities and generals, the cards it knows another seat holds, the stack of pending steps —
deal only what it has not seen, hand the future to a generator of its own, and be a function of what
the seat has seen and the seed alone (two states the seat cannot tell apart deal alike)."""
from __future__ import annotations

import pickle
import random
from collections.abc import Iterator

import pytest

from positions import positions
from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.sanguosha.determinize import determinize
from validator.games.sanguosha.positions import CardPicker, game_from_files, position
from validator.games.sanguosha.rules import EFFECT_INDEX, PASS_ACTION, SKILL, USE, act
from validator.games.sanguosha.state import SanguoshaState
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


def _known_holdings(state: SanguoshaState, me: int) -> dict[int, int]:
    """Cards the state records `me` as knowing in another seat's hand (the scenario tests below check
    that record against what the seat saw)."""
    bit = 1 << me
    return {card: seat for seat, hand in enumerate(state.hands) if seat != me for card in hand
            if state.known[card] & bit}


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
    assert dealt.observation(me) == view  # all it has seen
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
    known = _known_holdings(state, me)
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
    """A dealt state is a plain game: it plays to the end under its invariants, and a clone of it, or a
    copy through pickle, plays on alike."""
    played = 0
    for players in (3, 6):
        for state in list(_sampled(sanguosha, players, 8))[::2]:
            played += 1
            dealt = determinize(state.observation(state.current_player()), random.Random(4))
            assert type(dealt) is SanguoshaState
            copy = dealt.clone() if played % 2 else pickle.loads(pickle.dumps(dealt))
            assert (copy.hands, copy.deck, copy.legal) == (dealt.hands, dealt.deck, dealt.legal)
            moves = random.Random(5)
            while not dealt.is_terminal():
                action = dealt.legal_actions()[int(moves.random() * len(dealt.legal_actions()))]
                dealt.apply_action(action)
                copy.apply_action(action)
                dealt.check_invariants()
            assert copy.is_terminal() and copy.outcome() == dealt.outcome()
    assert played == 8


def test_a_stale_or_foreign_view_is_refused(sanguosha) -> None:
    state = next(_sampled(sanguosha, 4, 1))
    me = state.current_player()
    view = state.observation(me)
    with pytest.raises(ValueError, match="only the deciding seat"):
        determinize(state.observation((me + 1) % 4), random.Random(1))
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="as it stands"):
        determinize(view, random.Random(1))


GAME = game_from_files()


def _two(hand0, hand1, **kw):
    return position(GAME, ["liubei", "caocao", "sunquan", "simayi"], ["lord", "rebel", "loyalist", "renegade"],
                    hands={0: hand0, 1: hand1}, **kw)


def test_a_card_handed_over_by_rende_stays_known_to_giver_and_taker_only() -> None:
    pick = CardPicker(GAME)
    gift, kept = pick("tao"), pick("shan")
    st = _two([gift, kept], [pick("sha")])
    st.apply_action(act(SKILL, EFFECT_INDEX["rende"], gift, 1))
    assert gift in st.hands[1]
    assert st.known[gift] == 0b11  # the giver (seat 0) and the taker (seat 1); not seats 2 and 3
    for n in range(20):
        assert gift in determinize(st.observation(0), random.Random(n)).hands[1]
    for _ in range(200):  # play on (passing) until seat 2 or 3, who did not see the gift, decides
        if st.current_player() in (2, 3) and gift in st.hands[1]:
            break
        st.apply_action(st.legal_actions()[0])
    else:
        pytest.fail("no decision of seat 2 or 3 while 劉備's gift was still in seat 1's hand")
    assert st.known[gift] & 0b1100 == 0
    seat = st.current_player()
    moved = sum(gift not in determinize(st.observation(seat), random.Random(n)).hands[1] for n in range(20))
    assert moved > 10  # to them it is one of the unseen cards, dealt anew


def test_a_card_taken_face_up_is_known_to_everyone_and_a_drawn_one_to_its_drawer() -> None:
    pick = CardPicker(GAME)
    steal, target_card = pick("shunshou"), pick("bagua")
    st = _two([steal], [], equipment={1: [target_card]})
    st.apply_action(act(USE, steal, 1))  # its one card, the armour, is taken face up (no choice to make)
    assert target_card in st.hands[0] and st.known[target_card] == -1
    st.apply_action(PASS_ACTION)
    while st.current_player() != 1 or st.prompt[0] != 1:
        st.apply_action(st.legal_actions()[0])
    assert len(st.hands[1]) == 2 and all(st.known[c] == 0b10 for c in st.hands[1])  # drawn: its own
    dealt = determinize(st.observation(1), random.Random(3))
    assert target_card in dealt.hands[0]


def test_mcts_searches_sanguosha_and_a_seeded_match_repeats(sanguosha) -> None:
    assert find_policy("mcts:10", "sanguosha").name == "mcts:10"
    config = SimConfig(2, ("mcts:10", "greedy"), 2, seed=1, workers=1)
    one = simulate(sanguosha, config)
    assert len(one) == 2 and all(match.games and not match.timed_out for match in one)
    assert simulate(sanguosha, config) == one
