"""sangokushi: exact odds against sampled frequencies, many seeded games under the invariants, clone
independence, determinism, the rulebook oracle and the data checks."""
from __future__ import annotations

import importlib.util
import math
import pickle
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from validator.engine.policies import GreedyPolicy, RandomPolicy
from validator.games.sangokushi import odds
from validator.games.sangokushi.claims import SangokushiOracle
from validator.games.sangokushi.policies import choose
from validator.games.sangokushi.state import FIELDS
from validator.simulate import play_game

_spec = importlib.util.spec_from_file_location("sangokushi_rules_tests", Path(__file__).with_name("test_sangokushi.py"))
assert _spec is not None and _spec.loader is not None
rules_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules_tests)
GAME = rules_tests.GAME


def within(observed: int, trials: int, p: Fraction) -> bool:
    """|observed - np| within five standard deviations (a false alarm about once in 3.5 million)."""
    mean = trials * float(p)
    return abs(observed - mean) <= 5 * math.sqrt(trials * float(p) * (1 - float(p))) + 1


def test_round_damage_is_the_dice_difference_table():
    dist = odds.round_damage(0)
    assert sum(dist.values()) == 1 and dist[0] == Fraction(1, 6) and dist[5] == dist[-5] == Fraction(1, 36)
    assert odds.round_damage_for(5, 3, 2, 0) == odds.round_damage(4)
    rows = odds.reference_rows(range(-1, 2))
    assert rows[1] == (0, Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))
    assert all(win + tie + lose == 1 for _, win, tie, lose in odds.reference_rows())


def test_small_distributions():
    rules = GAME.rules
    assert odds.capture_distribution(rules) == {"capture": Fraction(1, 6), "kill": Fraction(4, 6),
                                                "return": Fraction(1, 6)}
    assert odds.end_roll_probability(0) == 0 and odds.end_roll_probability(2) == Fraction(1, 3)
    assert odds.end_roll_probability(9) == 1
    assert odds.expectation(odds.recovery_distribution(3, 2)) == Fraction(17, 2)
    assert odds.extra_recruit_distribution(3, 0) == {1: Fraction(2, 6), 2: Fraction(3, 6), 3: Fraction(1, 6)}


class _Stop(Exception):
    pass


def test_engine_rounds_match_the_exact_odds(monkeypatch):
    """The first round of a battle between two fixed sides, played by the engine many times, against
    round_for_sides: each signed damage (and the tie) within five standard deviations."""
    from validator.games.sangokushi import battle

    if not battle.__file__.endswith(".py"):
        pytest.skip("battle.py compiled by `make fast` calls its own _absorb, unpatched (test_native plays both "
                    "builds alike)")
    t = rules_tests
    exact = odds.round_for_sides(GAME.rules, GAME.generals, [t.SOU, t.KAKO], [t.KANU, t.CHOHI])

    def first_damage(state):
        raise _Stop(state.damage if state.damaged == 1 else -state.damage)

    monkeypatch.setattr(battle, "_absorb", first_damage)
    trials, seen = 8000, Counter()
    rng = random.Random(11)
    for _ in range(trials):
        state = t.attack_jianye([t.SOU, t.KAKO], [t.KANU, t.CHOHI])
        state.chance = random.Random(rng.getrandbits(64))
        for card in (t.SOU, t.KAKO, t.KANU):
            state.apply_action(t.encode(t.COMMIT, card))
        try:
            state.apply_action(t.encode(t.COMMIT, t.CHOHI))  # the reveal; rounds run until the first damage
        except _Stop as stop:
            seen[0 if state.counts["ties"] else stop.args[0]] += 1
    assert sum(seen.values()) == trials and set(seen) <= set(exact)
    for damage, p in exact.items():
        assert within(seen[damage], trials, p), (damage, seen[damage], float(p) * trials)


def test_capture_die_frequencies_match():
    rules, rng = GAME.rules, random.Random(3)
    trials = 12000
    counts = Counter(rules.capture_die[int(rng.random() * 6)] for _ in range(trials))
    for result, p in odds.capture_distribution(rules).items():
        assert within(counts[result], trials, p)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players):
    ends = Counter()
    for seed in range(400):
        policies = [RandomPolicy() for _ in range(players)]
        record = play_game(GAME, policies, random.Random(seed), random.Random(seed + 10**6), first_player=None,
                           step_cap=3000, check_invariants=True)
        ends[record.end] += 1
    assert sum(ends.values()) == 400 and set(ends) <= {"target", "lord-death", "stalemate", "rounds", "cap"}
    assert ends["cap"] <= 4, ends


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_games_end_and_keep_every_invariant(players):
    ends = Counter()
    for seed in range(150):
        policies = [GreedyPolicy(choose) for _ in range(players)]
        record = play_game(GAME, policies, random.Random(seed), random.Random(seed + 7), first_player=None,
                           check_invariants=True)
        ends[record.end] += 1
    assert ends["cap"] == 0 and ends["target"] + ends["lord-death"] > 100, ends


def _playout(state, rng: random.Random, steps: int) -> list[int]:
    actions = []
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        state.apply_action(action)
        actions.append(action)
    return actions


def test_clone_is_independent():
    state = GAME.new_initial_state(random.Random(5), 4)
    _playout(state, random.Random(1), 60)
    before = (state.hands[0][:], state.owner[:], state.counts.copy(), state.phase)
    copy = state.clone()
    copy.chance = random.Random(9)  # clone shares the chance generator; give the copy its own to play on
    _playout(copy, random.Random(2), 200)
    assert (state.hands[0], state.owner, state.counts, state.phase) == before
    state.check_invariants()


def test_a_clone_and_a_pickle_have_every_field_and_share_nothing_that_changes():
    state = GAME.new_initial_state(random.Random(5), 4)
    _playout(state, random.Random(1), 60)
    copied = state.clone(), pickle.loads(pickle.dumps(state))
    assert copied[0].chance is state.chance and copied[1].chance.getstate() == state.chance.getstate()
    for copy in copied:
        for name in FIELDS:
            value = getattr(state, name)
            if name not in ("game", "chance", "rules", "gen", "board", "_legal"):  # shared, or listed anew
                assert getattr(copy, name) == value, name
            if isinstance(value, (list, dict)) and name != "_legal":
                assert getattr(copy, name) is not value, name
        rows, copied_rows = [*state.hands, *state.used, *state.sides, *state.up], [*copy.hands, *copy.used,
                                                                                    *copy.sides, *copy.up]
        assert all(a is not b for a, b in zip(rows, copied_rows))
        assert all(a is not b for a, b in zip(state.known, copy.known))
    if not hasattr(state, "__dict__"):
        pytest.skip("compiled by `make fast`: no __dict__ to compare (test_native plays both builds alike)")
    assert vars(state).keys() == set(FIELDS)  # FIELDS: what a pickle carries


def test_same_seeds_same_game():
    def run(seed: int) -> tuple[list[int], tuple[int, ...]]:
        state = GAME.new_initial_state(random.Random(seed), 4)
        actions = _playout(state, random.Random(seed), 5000)
        return actions, state.returns()

    assert run(3) == run(3) and run(3) != run(4)


def test_observation_hides_other_hands_and_face_down_choices():
    t = rules_tests
    state = t.attack_jianye([t.SOU, t.KAKO], [t.KANU, t.CHOHI])
    state.apply_action(t.encode(t.COMMIT, t.SOU))
    state.apply_action(t.encode(t.DONE))
    defender, attacker = state.observation(1), state.observation(0)
    assert defender.battle is not None and defender.battle.attack_cards == () and defender.battle.attack_count == 1
    assert attacker.battle is not None and attacker.battle.attack_cards == (t.SOU,)
    assert attacker.hand_counts == (1, 2) and attacker.hand == (t.KAKO,)
    state.apply_action(t.encode(t.COMMIT, t.KANU))
    assert state.observation(0).battle.defend_cards == () and state.observation(0).battle.defend_count == 1


def test_oracle_claims():
    oracle = SangokushiOracle(GAME)
    round_ = oracle.score(["戦闘", "方法:一騎討ち", "攻:曹操", "攻:夏侯惇", "防:関羽", "目:3", "目:5", "攻加:2"],
                          ordered=True).points
    assert round_ == {"attack": 5 + 4 + 3 + 2, "defence": 5 + 5, "damage": 4, "total": 4}
    assert oracle.score(["戦闘", "方法:計略", "攻:7", "防:荀彧", "目:1", "目:1"], ordered=True).points["total"] == 2
    recovery = oracle.score(["回復", "目:4", "使:曹操", "使:荀彧"], ordered=True).points
    assert recovery == {"politics": 6, "bonus": 2, "total": 12}
    assert oracle.score(["回復", "目:4", "内政:1", "使用済:3"], ordered=True).points["total"] == 3
    recruit = oracle.score(["追加徴兵", "目:4", "使:荀彧"], ordered=True).points
    assert recruit == {"politics": 3, "bonus": 0, "extra": 2, "total": 3}
    assert oracle.score(["追加徴兵", "目:4", "使:荀彧", "余裕:2"], ordered=True).points["total"] == 2
    with pytest.raises(ValueError, match="politics"):
        oracle.score(["追加徴兵", "目:4", "使:張飛"], ordered=True)
    limit = oracle.score(["制限", "人数:4", "エリア:成都", "エリア:江州", "保有:17"], ordered=True).points
    assert limit == {"limit": 16, "total": 1}
    assert oracle.score(["君主死亡", "死亡:3", "目:2"], ordered=True).points == {"dead": 3, "total": 1}
    assert oracle.score(["君主死亡", "死亡:1", "目:2"], ordered=True).points["total"] == 0
    with pytest.raises(ValueError):
        oracle.score(["決闘"], ordered=True)
    assert oracle.card_stacks(["戦闘", "攻:曹操", "目:3"]) == ((), ("g0",), ())
    assert {c.id for c in oracle.clarifications} == {c.id for c in rules_tests.CLARIFICATIONS}


def test_data_checks_on_the_deck_and_on_broken_cards():
    import dataclasses

    from validator.games.sangokushi.data import check
    from validator.loader import load_game
    from validator.paths import DEFAULT_DECKS_DIR

    model = load_game(DEFAULT_DECKS_DIR, "sangokushi")
    issues = list(check(model))
    assert not [i for i in issues if i.severity == "error"], [i.message for i in issues]
    assert sum(i.code == "sangokushi-deal" and i.severity == "info" for i in issues) == 5
    deck = next(d for d in model.decks if any("affiliation" in c.fields for c in d.cards))
    broken = []
    for card in deck.cards:
        fields = dict(card.fields)
        if fields["affiliation"] == "劉表":
            fields["lord"] = False
        if card is deck.cards[0]:
            fields["valor"] = 9
        broken.append(dataclasses.replace(card, fields=fields))
    short = dataclasses.replace(model, decks=(dataclasses.replace(deck, cards=tuple(broken[:60])),))
    codes = Counter(i.code for i in check(short) if i.severity == "error")
    assert codes["sangokushi-stat"] == 1 and codes["sangokushi-lord"] >= 1 and codes["sangokushi-deal"] >= 1
