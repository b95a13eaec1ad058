"""sangokushi exact odds, by enumerating the dice (fractions.Fraction, no sampling).

A battle round compares stat + die + bonus per side (5.6-5.12), so only the difference of the two
sides' stat + bonus — the *edge* — matters: `round_damage(edge)` is the whole table a printed
reference card needs, and `reference_rows` is that card's data. The capture check, the lord-death
end roll, the recovery count and the extra recruit have their own small distributions. The greedy
policy reads these to judge an attack; the tests hold the engine's sampled frequencies against them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from .battle import affiliation_bonus, side_strength
from .rules import METHODS, SangokushiRules
from .tables import Generals

FACES = range(1, 7)
SIXTH = Fraction(1, 6)


def round_damage(edge: int) -> dict[int, Fraction]:
    """Signed damage of one round for an attacker whose stat + bonus exceeds the defender's by `edge`:
    positive -> the defender takes that much, negative -> the attacker does, 0 -> a tie (5.12)."""
    out: dict[int, Fraction] = {}
    for a in FACES:
        for d in FACES:
            damage = edge + a - d
            out[damage] = out.get(damage, Fraction(0)) + SIXTH * SIXTH
    return dict(sorted(out.items()))


def round_damage_for(attack_stat: int, defence_stat: int, attack_bonus: int = 0,
                     defence_bonus: int = 0) -> dict[int, Fraction]:
    """round_damage for given stats (one general's, or two added) and affiliation bonuses."""
    return round_damage(attack_stat + attack_bonus - defence_stat - defence_bonus)


def reference_rows(edges: Iterable[int] = range(-6, 7)) -> list[tuple[int, Fraction, Fraction, Fraction]]:
    """(edge, P(attacker deals damage), P(tie), P(attacker takes damage)) per edge: a reference card's table."""
    rows = []
    for edge in edges:
        dist = round_damage(edge)
        win = sum((p for d, p in dist.items() if d > 0), Fraction(0))
        tie = dist.get(0, Fraction(0))
        rows.append((edge, win, tie, 1 - win - tie))
    return rows


def round_for_sides(rules: SangokushiRules, gen: Generals, attack_up: Sequence[int],
                    defence_up: Sequence[int]) -> dict[int, Fraction]:
    """Signed damage of the next round between two sets of face-up cards, over the method die too (5.5)."""
    out: dict[int, Fraction] = {}
    a_bonus = affiliation_bonus(rules, gen, attack_up)
    d_bonus = affiliation_bonus(rules, gen, defence_up)
    for method, generals in rules.method_die:
        stat = gen.stat[METHODS[method]]
        edge = (side_strength(gen, attack_up, stat, generals) + a_bonus
                - side_strength(gen, defence_up, stat, generals) - d_bonus)
        for damage, p in round_damage(edge).items():
            out[damage] = out.get(damage, Fraction(0)) + SIXTH * p
    return dict(sorted(out.items()))


def capture_distribution(rules: SangokushiRules) -> dict[str, Fraction]:
    """6.1: the chance of each capture-check result."""
    out: dict[str, Fraction] = {}
    for result in rules.capture_die:
        out[result] = out.get(result, Fraction(0)) + SIXTH
    return out


def end_roll_probability(dead_lords: int) -> Fraction:
    """11.2: the game ends when the die shows at most the number of dead lords."""
    return Fraction(min(max(dead_lords, 0), 6), 6)


def recovery_distribution(politics: int, bonus: int = 0) -> dict[int, Fraction]:
    """7.2-7.6: used cards a recovery may bring back, for the spent cards' politics and bonus."""
    return {die + politics + bonus: SIXTH for die in FACES}


def extra_recruit_distribution(politics: int, bonus: int = 0, divisor: int = 3) -> dict[int, Fraction]:
    """8.5: extra cards an extra recruit draws (before the holding limit)."""
    out: dict[int, Fraction] = {}
    for die in FACES:
        extra = (die + politics + bonus) // divisor
        out[extra] = out.get(extra, Fraction(0)) + SIXTH
    return out


def expectation(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))
