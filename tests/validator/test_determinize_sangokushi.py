"""sangokushi's determinizer (validator/games/sangokushi/determinize.py) and the table's memory it reads
(knowledge.py), for the mcts policy.

A dealt state must keep everything the seat has seen where it is, keep every card the table knows a
seat holds with that seat, deal only what the seat has not seen, resume at the pending decision with
the same legal actions, roll new dice, and be a function of the observation and the seed alone."""
from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from validator.engine.policies import find_policy
from validator.engine.registry import engine_for
from validator.games.sangokushi import knowledge
from validator.games.sangokushi.determinize import determinize
from validator.games.sangokushi.game import SangokushiGame
from validator.games.sangokushi.phases import (
    ATTACK_P,
    CAPTURE_P,
    DAMAGE_P,
    DEFEND_P,
    DRAW_P,
    RESTORE_P,
    TURN,
)
from validator.games.sangokushi.policies import choose
from validator.games.sangokushi.rules import TAKE, decode
from validator.games.sangokushi.state import SangokushiState
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.simulate import SimConfig, simulate


@pytest.fixture(scope="module")
def sangokushi() -> SangokushiGame:
    game = engine_for(load_game(DEFAULT_DECKS_DIR, "sangokushi"))
    assert isinstance(game, SangokushiGame)
    return game


def _games(game: SangokushiGame, seed: int, players: int) -> Iterator[tuple[SangokushiState, random.Random]]:
    """Every decision of a seeded game, mostly the greedy heuristic's moves (so battles, recoveries and pool
    draws happen) with random ones mixed in, before the move is made."""
    rng = random.Random(seed)
    state = game.new_initial_state(rng, players)
    while not state.is_terminal():
        yield state, rng
        legal = state.legal_actions()
        if rng.random() < 0.7:
            state.apply_action(choose(state.observation(state.current_player()), legal, rng))
        else:
            state.apply_action(legal[int(rng.random() * len(legal))])


def _positions(game: SangokushiGame, seed: int, players: int, rate: float = 0.1) -> Iterator[SangokushiState]:
    """Mid-game states at a fraction of the decisions, copied."""
    for state, rng in _games(game, seed, players):
        if rng.random() < rate:
            yield state.clone()


def _hidden_places(state: SangokushiState, seat: int) -> dict[int, list[int]]:
    """`seat`'s cards by the knowledge places (hand, used, chosen, battle side face down, still restorable)."""
    eligible = state.eligible if state.player == seat else []
    side = state.sides[0] if state.seats[0] == seat and not state.revealed else []
    return {knowledge.HAND: state.hands[seat], knowledge.USED: [c for c in state.used[seat] if c not in eligible],
            knowledge.ELIGIBLE: eligible, knowledge.SPENT: state.spent if state.spent_owner == seat else [],
            knowledge.SIDE: side}


def _public(state: SangokushiState) -> tuple[object, ...]:
    """What every seat sees of a state, its knowledge of the holdings included."""
    return (state.pool, state.removed, state.captured, state.owner, state.points, len(state.deck),
            [len(h) for h in state.hands], [len(u) for u in state.used], len(state.spent), state.spent_owner,
            len(state.eligible), state.phase, state.player, state.turn_player, state.turns, state.passes_in_row,
            state.pending, state.area, state.seats, state.revealed, state.method, state.damage, state.shed_seat,
            state.dead_lords, state.starts, [len(side) for side in state.sides], state.known,
            state.sides if state.revealed else None, state.up if state.revealed else None)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_dealt_state_keeps_all_the_seat_has_seen_and_deals_only_the_unseen(sangokushi, players: int) -> None:
    checked, phases, known = 0, set(), 0
    for seed in range(4):
        for state in _positions(sangokushi, seed, players):
            me = state.current_player()
            observation = state.observation(me)
            dealt = determinize(observation, random.Random(seed))
            dealt.check_invariants()  # the table's knowledge included: each known card where it may be
            assert dealt.observation(me) == observation  # all the seat sees, exactly
            assert _public(dealt) == _public(state)
            assert _hidden_places(dealt, me) == _hidden_places(state, me)
            assert dealt.used[me] == state.used[me]
            for seat in range(players):
                for card, places in state.known[seat].items():  # a known card stays with its seat
                    assert knowledge.place_of(dealt, seat, card) & places
                    known += 1
                if seat != me:
                    for place, cards in _hidden_places(state, seat).items():
                        assert len(_hidden_places(dealt, seat)[place]) == len(cards)
            assert dealt.current_player() == me
            assert dealt.legal_actions() == state.legal_actions()
            assert dealt.chance is not state.chance
            phases.add(state.phase)
            checked += 1
    assert checked > 50 and known > 50
    assert {TURN, ATTACK_P, DEFEND_P} <= phases


def test_every_pending_decision_resumes_exactly(sangokushi) -> None:
    """Battles stop for a damage or capture choice, recoveries for the cards to restore, recruits for the
    draws: a dealt state continues from that very step, with the same choices."""
    seen: set[int] = set()
    wanted = {DAMAGE_P, CAPTURE_P, RESTORE_P, DRAW_P, DEFEND_P}
    for seed in range(40):
        for state in _positions(sangokushi, seed, 2 + seed % 5, rate=0.5):
            if state.phase in wanted:
                me = state.current_player()
                dealt = determinize(state.observation(me), random.Random(seed))
                dealt.check_invariants()
                assert dealt.legal_actions() == state.legal_actions()
                assert (dealt.damage, dealt.captured, dealt.eligible, dealt.pending) == (
                    state.damage, state.captured, state.eligible, state.pending)
                seen.add(state.phase)
        if seen == wanted:
            break
    assert seen == wanted


def test_a_seat_not_to_move_gets_a_consistent_deal_too(sangokushi) -> None:
    for seed in range(6):
        for state in _positions(sangokushi, seed, 4, rate=0.05):
            for seat in range(4):
                dealt = determinize(state.observation(seat), random.Random(seed))
                dealt.check_invariants()
                assert dealt.observation(seat) == state.observation(seat)
                assert dealt.current_player() == state.current_player()


def test_the_table_remembers_cards_shown_in_battle_and_taken_from_the_pool(sangokushi) -> None:
    """After a battle the cards that stayed in play are known to be in a used pile; a card taken from the
    face-up pool is known to be in the taker's hand."""
    battles = takes = 0
    for seed in range(30):
        shown: list[int] = []
        for state, _ in _games(sangokushi, seed, 3):
            if state.revealed and not shown:
                shown = state.sides[0] + state.sides[1]
            elif shown and not state.sides[0] and not state.sides[1]:
                for card in shown:
                    holders = [seat for seat in range(3) if card in state.used[seat]]
                    if holders:
                        assert state.known[holders[0]][card] == knowledge.USED
                        battles += 1
                shown = []
            taker = state.current_player()
            if state.phase == DRAW_P and len(state.legal_actions()) > 1:
                take = next(a for a in state.legal_actions() if decode(a)[0] == TAKE)
                card = decode(take)[1]
                after = state.clone()
                after.apply_action(take)
                assert after.known[taker][card] == knowledge.HAND
                takes += 1
    assert battles > 20 and takes > 5


def test_states_the_seat_cannot_tell_apart_give_the_same_deals(sangokushi) -> None:
    """Swap the cards `me` has not seen and the table does not know among their hidden places: the
    observation is the same, and so is every deal; the dice of the real state are never read."""
    compared = 0
    for seed in range(3):
        for state in list(_positions(sangokushi, seed, 4))[3:9]:
            me = state.current_player()
            other = _with_unseen_cards_swapped(state, me, random.Random(seed))
            other.chance = random.Random(12345)
            assert other.observation(me) == state.observation(me)
            if other.deck == state.deck and other.hands == state.hands:
                continue
            first = determinize(state.observation(me), random.Random(7))
            second = determinize(other.observation(me), random.Random(7))
            assert _cards(first) == _cards(second)
            assert first.chance.random() == second.chance.random()
            compared += 1
    assert compared > 10


def _with_unseen_cards_swapped(state: SangokushiState, me: int, rng: random.Random) -> SangokushiState:
    """A copy in which the cards `me` has not seen and the table does not know are permuted among themselves."""
    other = state.clone()
    observation = state.observation(me)
    visible = {*observation.hand, *observation.used, *observation.spent, *observation.pool, *observation.removed,
               *observation.table.captured, *(card for known in state.known for card in known)}
    if observation.battle is not None:
        visible |= {*observation.battle.attack_cards, *observation.battle.defend_cards}
    free = sorted(set(range(len(state.gen))) - visible)
    shuffled = free[:]
    rng.shuffle(shuffled)
    swap = dict(zip(free, shuffled))

    def mapped(cards: list[int]) -> list[int]:
        return [swap.get(card, card) for card in cards]
    other.deck, other.hands, other.used = mapped(state.deck), [mapped(h) for h in state.hands], [
        mapped(u) for u in state.used]
    other.spent, other.eligible, other.sides = mapped(state.spent), mapped(state.eligible), [
        mapped(side) for side in state.sides]
    other.up = [mapped(up) for up in state.up]
    other.check_invariants()
    return other


def _cards(state: SangokushiState) -> tuple[object, ...]:
    return state.deck, state.hands, state.used, state.spent, state.sides, state.eligible


def test_deals_and_dice_vary_with_the_seed(sangokushi) -> None:
    for state in list(_positions(sangokushi, 5, 3))[4:8]:
        observation = state.observation(state.current_player())
        deals = [determinize(observation, random.Random(seed)) for seed in range(5)]
        assert len({tuple(dealt.deck) for dealt in deals}) == 5
        assert len({tuple(tuple(hand) for hand in dealt.hands) for dealt in deals}) == 5
        rolls = {tuple(dealt.d6() for _ in range(20)) for dealt in deals}
        assert len(rolls) == 5
        real = state.clone()
        assert tuple(real.d6() for _ in range(20)) not in rolls  # never the real state's future dice
        assert determinize(observation, random.Random(3)).deck == deals[3].deck  # a seed gives the same deal


def test_a_finished_game_is_not_dealt(sangokushi) -> None:
    state = next(iter(_positions(sangokushi, 1, 2)))
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="finished game"):
        determinize(state.observation(0), random.Random(1))


def test_mcts_plays_sangokushi_and_depends_on_the_seed_alone(sangokushi) -> None:
    assert find_policy("mcts:10", "sangokushi").name == "mcts:10"
    config = SimConfig(2, ("mcts:10", "greedy"), 2, seed=1, workers=1)
    one = simulate(sangokushi, config)
    assert len(one) == 2 and all(not match.timed_out for match in one)
    assert simulate(sangokushi, config) == one
