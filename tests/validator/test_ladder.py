"""The strength ladder (validator/ladder.py): pairs head to head, balance by strength, claims only
where intervals separate; and the variant study played again by stronger policies (strong_play)."""
from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.report_pdf import write_report_pdf
from validator.checks.simulation import check
from validator.engine.registry import engine_for
from validator.issues import json_path
from validator.ladder import LadderPlan, PairTest, _order_verdict, _reference, _seats_verdict, climb
from validator.loader import load_game
from validator.paths import DEFAULT_DECKS_DIR
from validator.sim_plan import SimulationPlan, run_plan
from validator.sim_result import LadderPair, SeatRate, StrengthRow, VariantComparison, VariantRow
from validator.variants import _conclusion_change


@pytest.fixture(scope="module")
def gogyo():
    return load_game(DEFAULT_DECKS_DIR, "gogyo")


def _base(players: int = 2) -> SimulationPlan:
    return SimulationPlan(players, 40, ("greedy",), seed=3, precision=0.0)


def test_a_ladder_plays_each_pair_and_each_rung_and_greedy_beats_random(gogyo) -> None:
    engine = engine_for(gogyo)
    ladder = LadderPlan(("random", "greedy"), 40, (30, 30), 2)
    one = climb(engine, _base(), ladder, workers=1)
    assert one == climb(engine, _base(), ladder, workers=2)  # the seed decides, not the workers
    (pair,) = one.pairs
    # greedy plays far better than chance: shown at the second look (every 10 matches; ten straight wins
    # cannot clear 50 % at an early look's width), the cap never reached
    assert (pair.stronger, pair.weaker, pair.matches, pair.reference, pair.looks) == ("greedy", "random", 20, 0.5, 4)
    assert pair.separated and pair.ci95[0] > 0.5
    assert one.order_shown and one.strongest_shown() == pair and "最も強い段は greedy" in one.strongest_ja()
    assert [row.policy for row in one.strengths] == ["random", "greedy"]
    assert all(row.matches == 30 and len(row.seats) == 2 for row in one.strengths)
    # a rung's row is its self-play: the same numbers as simulating it alone
    alone = run_plan(engine, replace(_base(), policies=("greedy",), matches=30))
    assert one.strengths[1].balance == alone.ludii.balance
    assert one.strengths[1].seats == alone.seats


def test_a_pair_that_cannot_be_shown_stops_as_soon_as_it_cannot(gogyo) -> None:
    """random "over" greedy loses nearly every match: after the first look not even winning every match
    left could lift it clear, so the pair stops there, not shown, and nothing above it counts as shown."""
    climbed = climb(engine_for(gogyo), _base(), LadderPlan(("greedy", "random"), 200, (0, 0), 2), workers=1)
    (pair,) = climbed.pairs
    assert (pair.matches, pair.separated) == (20, False) and pair.ci95[1] < 0.5
    assert climbed.strongest_shown() is None and "強いと示せた段はない" in climbed.strongest_ja()
    assert "no rung is shown stronger (random over greedy not shown in 20 matches)" == climbed.strongest()


def test_the_pair_test_asks_more_of_an_early_look_than_of_the_look_at_the_cap() -> None:
    test = PairTest.for_pair(0.25, 200)
    assert (test.every, test.looks) == (20, 10)
    # Haybittle-Peto: one-sided 0.05 % before the cap; the cap keeps 2.5 % less nine such looks (2.05 %)
    assert (round(test.z_early, 3), round(test.z_final, 3)) == (3.291, 2.044)
    assert test.verdict(14, 20, 20) is True  # 70 % of 20: clear of 25 % even at an early look's width
    assert test.verdict(8, 20, 20) is None  # 40 %: not yet, and still possible
    assert test.verdict(3, 20, 20) is None  # 15 % of 20: maybe no better than the bar, but not likely so yet
    assert test.verdict(0, 20, 20) is False  # 0 of 20: likely no better than the bar (one-sided 90 %)
    assert test.verdict(6.5, 40, 40) is None and test.verdict(9.5, 60, 60) is False  # 16 %: 40 matches are not enough
    assert test.verdict(45, 180, 180) is None  # 25 % after 180: 20 straight wins would still clear it at the cap
    assert test.verdict(64, 190, 190) is None  # 33.7 % before the cap: not at an early look's width
    assert test.verdict(64, 200, 200) is True  # 32 % at the cap: clear at the last look's width
    assert test.verdict(62, 200, 200) is False  # 31 % at the cap: not; at the cap it always decides
    assert PairTest.for_pair(0.5, 40).every == 10 and PairTest.for_pair(0.5, 40).looks == 4
    alone = PairTest.for_pair(0.5, 5)  # one look, at the cap: the plain one-sided 2.5 % of a 95 % interval
    assert alone.looks == 1 and round(alone.z_final, 2) == 1.96


@pytest.mark.parametrize(("rate", "at_most"), [(0.25, 0.025), (0.20, 0.0)])
def test_looking_often_does_not_show_a_rung_stronger_that_is_not(rate: float, at_most: float) -> None:
    """2,000 seeded pairs of a rung exactly as strong as the fair share (and one weaker), played as the
    ladder plays them: the share wrongly shown stronger stays within the one-sided 2.5 % the test allows."""
    shown = sum(_sequential(PairTest.for_pair(0.25, 200), rate, random.Random(seed))[0] for seed in range(2000))
    assert shown / 2000 <= at_most + 0.01


def test_a_clearly_stronger_rung_is_shown_long_before_the_cap() -> None:
    runs = [_sequential(PairTest.for_pair(0.25, 200), 0.5, random.Random(seed)) for seed in range(500)]
    assert sum(shown for shown, _ in runs) >= 495
    assert sum(played for _, played in runs) / len(runs) <= 60  # 200 a pair without the stop rule


def test_a_close_pair_is_judged_at_its_cap_nearly_as_one_plain_test() -> None:
    """A rung that truly wins 35 % against a 25 % share, capped at 200: one plain 95 % test at 200 matches
    shows it in 87.5 % of 2,000 seeded runs; the sequential test must come close (equal shares of the 2.5 %
    over ten looks, z 2.81 at every look, showed it in 74 % of these 1,000)."""
    runs = [_sequential(PairTest.for_pair(0.25, 200), 0.35, random.Random(seed)) for seed in range(1000)]
    assert sum(shown for shown, _ in runs) >= 850


def _sequential(test: PairTest, rate: float, rng: random.Random) -> tuple[bool, int]:
    """(shown, matches played) of one pair whose stronger seat wins each match with probability `rate`."""
    wins = played = 0
    while True:
        for _ in range(min(test.every, test.cap - played)):
            wins += rng.random() < rate
            played += 1
        verdict = test.verdict(wins, played, played)
        if verdict is not None:
            return verdict, played


def test_a_ladder_at_four_seats_puts_the_stronger_in_one_seat(gogyo) -> None:
    result = climb(engine_for(gogyo), _base(4), LadderPlan(("random", "greedy"), 20, (0, 0), 4), workers=1)
    (pair,) = result.pairs
    assert pair.reference == 0.25 and result.strengths == ()
    assert result.seats is None  # no self-play: nothing is said about balance by strength
    some = climb(engine_for(gogyo), _base(4), LadderPlan(("random", "greedy"), 20, (20, 0), 4), workers=1)
    assert [row.policy for row in some.strengths] == ["random"] and some.self_play == (20, 0)
    assert some.pairs == result.pairs


@pytest.mark.parametrize(("ladder", "message"), [
    (LadderPlan(("greedy",), 10, (10,), 2), "2 to 6 rungs, not 1"),
    (LadderPlan(("greedy", "random", "greedy"), 10, (10,) * 3, 2), "rung 'greedy' is given twice"),
    (LadderPlan(("random", "greedy"), 0, (10, 10), 2), "at least 1 match a pair"),
    (LadderPlan(("random", "greedy"), 10, (10, 10, 10), 2), "3 self-play counts for 2 rungs"),
])
def test_a_ladder_that_cannot_be_climbed_says_why(gogyo, ladder: LadderPlan, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        climb(engine_for(gogyo), _base(), ladder)


def test_a_team_games_fair_share_is_the_weaker_rungs_own_seat() -> None:
    rung = _strength("greedy", _seats((0.38, 0.46)))
    assert _reference("greedy", {"greedy": rung}, 8, True) == (0.42, (0.38, 0.46))
    assert _reference("greedy", {}, 4, False)[0] == 0.25
    with pytest.raises(ValueError, match="needs greedy's self_play"):
        _reference("greedy", {}, 8, True)


def _seats(*intervals: tuple[float, float]) -> tuple[SeatRate, ...]:
    return tuple(SeatRate(n + 1, 0.0, round((low + high) / 2, 6), (low, high))
                 for n, (low, high) in enumerate(intervals))


def _strength(policy: str, seats: tuple[SeatRate, ...]) -> StrengthRow:
    return StrengthRow(policy, 100, 100, 0.9, 0.5, 1.0, 0.9, seats, seats[0], 30.0, 10.0, ())


def test_the_ladder_claims_a_change_by_strength_only_where_intervals_separate() -> None:
    pair = LadderPair("mcts:100", "greedy", 100, 100, 0.5, (0.4, 0.6), 0.5, (0.5, 0.5), False)
    weak = _strength("greedy", _seats((0.40, 0.50), (0.50, 0.60)))
    same = _strength("mcts:100", _seats((0.45, 0.55), (0.45, 0.55)))
    moved = _strength("mcts:100", _seats((0.55, 0.65), (0.35, 0.45)))
    shown, order, order_ja = _order_verdict([pair], False)
    assert "公平な取り分" in order_ja and "基準の勝率" not in order_ja
    calm = _seats_verdict([weak, same])
    assert calm is not None
    assert not shown and "mcts:100 over greedy" in order and not calm.moved
    assert "言えない" in calm.text_ja
    shown, order, order_ja = _order_verdict([replace(pair, separated=True)], True)
    assert "weaker rung's own rate" in order and "基準の勝率" in order_ja and "公平な取り分" not in order_ja
    grown = _seats_verdict([weak, moved])
    assert grown is not None and shown and grown.moved
    assert "seat 1 45.0% → 60.0%" in grown.text and "手番順2 55.0%→40.0%" in grown.text_ja
    assert _seats_verdict([weak]) is None  # one strength measured: nothing to compare


def _study(*rows: tuple[str, float, tuple[SeatRate, ...]], policies: tuple[str, ...] = ("greedy",),
           ) -> VariantComparison:
    options = tuple(VariantRow(i, i.upper(), n == 0, 100, 0.05, b, s, (), 0.0, 0.0, 0.0, 0.0, 0.0, 30.0, 10.0)
                    for n, (i, b, s) in enumerate(rows))
    return VariantComparison("?", rows[0][0], "-", 100, 2, policies, 1, options, 1, rows[0][0], False, "-", "-")


def test_strong_play_says_whether_the_conclusion_changes() -> None:
    narrow, apart = _seats((0.45, 0.55), (0.45, 0.55)), _seats((0.60, 0.70), (0.30, 0.40))
    weak = _study(("a", 0.95, narrow), ("b", 0.70, apart), ("c", 0.93, narrow))
    same = _conclusion_change(weak, _study(("a", 0.9, narrow), ("b", 0.6, apart), ("c", 0.9, narrow),
                                           policies=("mcts:50",)))
    assert not same.conclusion_changed and "変わらない" in same.conclusion_ja and "「B」" in same.conclusion_ja
    lost = _conclusion_change(weak, _study(("a", 0.9, narrow), ("b", 0.8, narrow), ("c", 0.9, narrow),
                                           policies=("mcts:50",)))
    assert lost.changed_options == ("b",) and "区別できなくなる" in lost.conclusion_ja
    gained = _conclusion_change(weak, _study(("a", 0.9, narrow), ("b", 0.6, apart), ("c", 0.7, apart),
                                             policies=("mcts:50",)))
    assert gained.changed_options == ("c",) and "区別されるようになる" in gained.conclusion_ja
    flipped = _conclusion_change(weak, _study(("a", 0.6, narrow), ("b", 0.8, apart), ("c", 0.6, narrow),
                                              policies=("mcts:50",)))
    assert flipped.changed_options == ("b",) and "逆になる" in flipped.conclusion_ja


def _with_simulation(tmp_path: Path, game_id: str, extra: dict) -> Path:
    """A copy of a game whose game.json simulation block has `extra` merged in (a dict merged into a dict)."""
    import shutil

    folder = tmp_path / game_id
    shutil.copytree(DEFAULT_DECKS_DIR / game_id, folder)
    manifest = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    for key, value in extra.items():
        old = manifest["simulation"].get(key)
        manifest["simulation"][key] = {**old, **value} if isinstance(old, dict) else value
    (folder / "game.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_check_locates_a_ladder_and_a_strong_play_it_cannot_run(tmp_path: Path) -> None:
    wizard = {"rungs": ["random", "wizard"], "matches": 10, "self_play": 10}
    decks = _with_simulation(tmp_path / "a", "gogyo", {"ladder": wizard})
    issues = list(check(load_game(decks, "gogyo")))
    assert [json_path(i.location.pointer) for i in issues] == ["$.simulation.ladder"]
    assert "ladder: no policy 'wizard'" in issues[0].message
    decks = _with_simulation(tmp_path / "b", "jinzai",
                             {"variants": {"strong_play": {"policies": ["greedy", "greedy"], "matches": 10}}})
    issues = list(check(load_game(decks, "jinzai")))
    assert [json_path(i.location.pointer) for i in issues] == ["$.simulation.variants.strong_play.policies"]
    assert "2 policies for 4 seats" in issues[0].message


def test_the_report_prints_the_ladder(gogyo, tmp_path: Path) -> None:
    engine = engine_for(gogyo)
    base = _base()
    summary = run_plan(engine, replace(base, matches=20))
    summary = replace(summary, ladder=climb(engine, base, LadderPlan(("random", "greedy"), 20, (20, 20), 2), workers=1))
    from generator.pdfdoc import register_fonts

    fonts = register_fonts(gogyo.fonts)
    font = fonts.get("gothic", next(iter(fonts.values())))
    write_report_pdf(tmp_path / "report.pdf", summary, title="五行", font=font, bold=font)
    text = "".join(page.extract_text() for page in PdfReader(tmp_path / "report.pdf").pages)
    for words in ("強さの段階", "greedy 対 random", "強さごとの釣り合い", "全席が同じ方針", "判定", "逐次検定",
                  "強さが示された最も強い段は greedy"):
        assert words in text, words
    write_report_pdf(tmp_path / "plain.pdf", replace(summary, ladder=None, studies_not_run=("ladder", "strong_play")),
                     title="五行", font=font, bold=font)
    text = "".join(page.extract_text() for page in PdfReader(tmp_path / "plain.pdf").pages)
    flat = "".join(text.split())  # a justified line may end at any space, even the one in the command
    assert "強さの段階・別の方針での設計の比較も求めているが" in flat and "fudayabuild--studies" in flat


def test_random_is_seeded_here_only_through_the_plan() -> None:
    """climb draws nothing itself: the module-level generator is untouched by a ladder."""
    state = random.getstate()
    climb(engine_for(load_game(DEFAULT_DECKS_DIR, "gogyo")), _base(), LadderPlan(("random", "greedy"), 10, (0, 0), 2))
    assert random.getstate() == state
