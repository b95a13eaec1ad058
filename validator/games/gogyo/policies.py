"""Greedy gogyo play, like a careful person: build runs, take what scores, duel when it pays, declare when ahead.

Judged only from the observation: its own hand, the field, the face-up cards of everyone, pile
sizes and earlier games' scores. Hand values come from the game's exact best-order scorer; ties
are broken by "links" (pairs of cards that could neighbour each other in a run), so a hand that
scores nothing yet still keeps the cards most likely to grow into runs.
"""
from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ...engine.api import Action
from .rules import (
    DECLARE,
    DECLARE_CHOICE,
    DRAW,
    DUEL,
    FIELD,
    GIVE_CHOICE,
    KIND_SHIFT,
    MAIN,
    MASK,
    NONE,
    PASS,
    PLUNDER,
    SHIFT,
    GogyoObservation,
    encode,
)

if TYPE_CHECKING:
    from .game import GogyoGame

SCORE_WEIGHT = 100   # one point of score outweighs any number of links
DUEL_MARGIN = 3.0    # expected points a duel must add over the best quiet action
HIDDEN_CARD_GUESS = 4  # points a face-down card is assumed to add to an opponent's face-up cards
_PASS, _DECLARE = encode(PASS), encode(DECLARE)
_DRAW_KIND, _DUEL_KIND = DRAW << KIND_SHIFT, DUEL << KIND_SHIFT  # the smallest draw and duel actions


class _Kit:
    """Per-game lookups bound once: card weights and types, links, scorer, duel odds."""

    __slots__ = ("game", "type_of", "weight", "links", "link_rows", "total", "cached",
                 "total_counted", "ceiling", "dyn_ceiling", "elem_ceiling", "exact_bounds", "counts", "bits", "low",
                 "bounds", "threshold", "win_chance")

    def __init__(self, game: GogyoGame) -> None:
        table, scorer = game.table, game.scorer
        type_of = table.type_of
        self.game = game
        self.type_of = type_of
        self.weight = tuple(table.weight[t] for t in type_of)  # per physical card
        self.links = game.links
        self.link_rows = tuple(tuple(game.links[t][u] for u in type_of) for t in type_of)  # physical x physical
        self.total = scorer.total
        self.cached = scorer.cached
        self.total_counted = scorer.total_counted
        self.ceiling = scorer.ceiling
        self.dyn_ceiling, self.elem_ceiling = scorer.ceiling_tables()
        self.exact_bounds = scorer.bounds_exact
        cards = game.tables.cards  # both count keys of a hand in one integer: dynasty << bits | element
        self.counts, self.bits, self.low = cards.counts, cards.elem_bits, cards.elem_mask
        self.bounds: dict[int, int] = {}  # both count keys -> ceiling << 1 | whether it is the exact score
        self.threshold = game.rules.declare_threshold
        values = [table.duel_value[t] for t in type_of]
        n = len(values)
        ties = sum(values.count(v) * (values.count(v) - 1) for v in set(values)) / (n * (n - 1))
        self.win_chance = (1 - ties) / 2  # the attacker needs strictly more; ties go to the defender

    def bound(self, both: int) -> int:
        """The order-free ceiling of a hand whose count keys are `both`, shifted left one bit, the low bit
        set when that ceiling is the hand's exact score (one kind of run scores 0: Scorer.bounds_exact)."""
        found = self.bounds.get(both)
        if found is None:
            dyn_key, elem_key = both >> self.bits, both & self.low
            ceiling = self.ceiling(dyn_key, elem_key)
            exact = self.exact_bounds and not (self.dyn_ceiling[dyn_key] and self.elem_ceiling[elem_key])
            found = self.bounds[both] = ceiling << 1 | exact
        return found

    def score(self, cards: Sequence[int]) -> int:
        weight = self.weight
        key = 0
        for card in cards:
            key += weight[card]
        found = self.cached(key)
        if found is None:
            type_of = self.type_of
            found = self.total(key, [type_of[c] for c in cards])
        return found

    def links_within(self, cards: Sequence[int]) -> dict[int, int]:
        """For each card, its links to the other cards."""
        rows = self.link_rows
        within = {}
        for card in cards:
            row = rows[card]
            links = 0
            for other in cards:
                links += row[other]
            within[card] = links
        return within

    def links_to(self, card: int, cards: Sequence[int]) -> int:
        row = self.link_rows[card]
        links = 0
        for other in cards:
            links += row[other]
        return links


class _Hand:
    """A hand with its memo key and count keys, to score one- and two-card changes cheaply. A change
    whose order-free bound gives one kind of run 0 points scores exactly that bound (the scorer's own
    first answer), so it is read from the bound without building the new hand."""

    __slots__ = ("kit", "cards", "key", "both")

    def __init__(self, kit: _Kit, cards: Sequence[int]) -> None:
        weight, counts = kit.weight, kit.counts
        key = both = 0
        for card in cards:
            key += weight[card]
            both += counts[card]
        self.kit, self.cards, self.key, self.both = kit, cards, key, both

    def _exact(self, key: int, both: int, out: int, gone: int, into: int) -> int:
        """Exact score of the hand less `out` and `gone` plus `into` (NONE: no such card), whose keys are given."""
        kit = self.kit
        bound = kit.bounds.get(both)
        if bound is None:
            bound = kit.bound(both)
        if bound & 1:
            return bound >> 1
        return self._ordered(key, both, out, gone, into)

    def _ordered(self, key: int, both: int, out: int, gone: int, into: int) -> int:
        """_exact for a hand whose order-free bound is not its score: the scorer's memo, or its search."""
        kit = self.kit
        found = kit.cached(key)
        if found is None:
            type_of = kit.type_of
            types = [type_of[c] for c in self.cards if c != out and c != gone]
            if into != NONE:
                types.append(type_of[into])
            found = kit.total_counted(key, types, both >> kit.bits, both & kit.low)
        return found

    def current(self) -> int:
        """Exact score of the hand itself."""
        return self._exact(self.key, self.both, NONE, NONE, NONE)

    def swap_score(self, out: int, into: int) -> int:
        """Exact score with `out` replaced by `into`."""
        kit = self.kit
        return self._exact(self.key - kit.weight[out] + kit.weight[into],
                           self.both - kit.counts[out] + kit.counts[into], out, NONE, into)

    def without(self, out: int, gone: int = NONE) -> int:
        """Exact score of the other cards when `out` (and `gone`, if given) leave the hand."""
        kit = self.kit
        weight, counts = kit.weight, kit.counts
        if gone == NONE:
            return self._exact(self.key - weight[out], self.both - counts[out], out, NONE, NONE)
        return self._exact(self.key - weight[out] - weight[gone], self.both - counts[out] - counts[gone],
                           out, gone, NONE)

    def hopeful(self, into: int, floor: int) -> bool:
        """Whether some swap bringing in `into` could beat `floor`: the bound of the hand plus `into`
        (more cards never lower a bound) does."""
        return self.kit.bound(self.both + self.kit.counts[into]) >> 1 > floor

    def _ranked(self, swaps: Sequence[tuple[int, Sequence[int]]], floor: int) -> list[tuple[int, int, int, int, int]]:
        """(bound, out, into, bound is exact, count keys) of every swap (per card in: the cards it may
        replace) whose order-free bound beats `floor`, best bound first. A card in that is not
        `hopeful` is skipped at once. (Hot path: the lookups are inlined.)"""
        kit = self.kit
        known, bound, counts, both = kit.bounds.get, kit.bound, kit.counts, self.both
        ranked = []
        for into, outs in swaps:
            both_in = both + counts[into]
            found = known(both_in)
            if found is None:
                found = bound(both_in)
            if found >> 1 <= floor:
                continue
            for out in outs:
                after = both_in - counts[out]
                found = known(after)
                if found is None:
                    found = bound(after)
                if found >> 1 > floor:
                    ranked.append((found >> 1, out, into, found & 1, after))
        ranked.sort(reverse=True)  # (out, into) never repeats, so the keys after it never decide the order
        return ranked

    def best_swaps(self, swaps: Sequence[tuple[int, Sequence[int]]], floor: int) -> tuple[int, list[tuple[int, int]]]:
        """The best score above `floor` reachable by one swap, and every (out, into) reaching it, in
        order of their bounds (then cards, highest first). Swaps are scored exactly in that order,
        and only while the bound could win."""
        best, found = floor, []
        weight, key = self.kit.weight, self.key
        for bound, out, into, known, both in self._ranked(swaps, floor):
            if bound < best:
                break
            score = bound if known else self._ordered(key - weight[out] + weight[into], both, out, NONE, into)
            if score > best:
                best, found = score, [(out, into)]
            elif score == best and score > floor:
                found.append((out, into))
        return best, found

    def best_gain(self, swaps: Sequence[tuple[int, Sequence[int]]], floor: int) -> int:
        """best_swaps(swaps, floor)[0]: the best score, without listing the swaps reaching it."""
        best = floor
        weight, key = self.kit.weight, self.key
        for bound, out, into, known, both in self._ranked(swaps, floor):
            if bound <= best:
                break
            score = bound if known else self._ordered(key - weight[out] + weight[into], both, out, NONE, into)
            if score > best:
                best = score
        return best


_KITS: dict[int, tuple[GogyoGame, _Kit]] = {}


def _kit(game: GogyoGame) -> _Kit:
    entry = _KITS.get(id(game))
    if entry is None or entry[0] is not game:
        entry = _KITS[id(game)] = (game, _Kit(game))
    return entry[1]


def choose(obs: GogyoObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy action for the observation's phase."""
    kit = _kit(obs.game)
    if obs.phase == MAIN:
        # The engine lists the field takes (every hand card x every field card, hand-card major), then
        # the draws, then the duels: kinds ascend, so the blocks are found by bisection.
        draws_from = bisect_left(legal, _DRAW_KIND)
        duels_from = bisect_left(legal, _DUEL_KIND, draws_from)
        outs = list(dict.fromkeys([a >> SHIFT & MASK for a in legal[:draws_from]]))
        intos = [a & MASK for a in legal[:draws_from // len(outs)]] if outs else []
        return main_action(kit, obs.hand, outs, intos, legal[draws_from:duels_from], legal[duels_from:],
                           lambda: (obs.shown, obs.hidden))
    if obs.phase == DECLARE_CHOICE:
        return declare_action(kit, obs.hand, obs.seat, obs.shown, obs.hidden, obs.previous_scores)
    if obs.phase == GIVE_CHOICE:
        return give_action(kit, obs.shown[obs.duel_loser], legal)
    return win_action(kit, obs.hand, obs.shown[obs.duel_loser], legal)


# The decisions below read only what a seat may see: its own hand, everyone's face-up cards
# (`shown`, per seat, in hand order), how many cards each seat holds face down (`hidden`), earlier
# games' scores, and the legal actions of the phase split by kind, in legal-action order.

View = Callable[[], tuple[Sequence[Sequence[int]], Sequence[int]]]  # () -> (shown, hidden), asked only if needed


def main_action(kit: _Kit, hand: Sequence[int], outs: Sequence[int], intos: Sequence[int], draws: Sequence[Action],
                duels: Sequence[Action], view: View) -> Action:
    """Take a field card that raises the score (or keeps it and adds links); else draw; duel if it pays more.
    The field actions are every (out, into) of `outs` (hand cards, one per type) x `intos` (field cards);
    `view` gives the face-up cards, read only when a duel is weighed."""
    held = _Hand(kit, hand)
    current = held.current()
    row = kit.links_within(hand)
    links = sum(row.values()) // 2
    best, improving = held.best_swaps([(into, outs) for into in intos], current)
    keep: dict[int, int] = {}  # what the rest scores without each card: read only when nothing improves
    if not improving:  # nothing raises the score: swaps that surely keep it, judged by links
        keep = {out: held.without(out) for out in hand}
        improving = [(out, into) for out in outs if keep[out] == current for into in intos]
    type_of, type_links = kit.type_of, kit.links
    choice, choice_links = None, links if best == current else -1
    touching: dict[int, int] = {}
    for out, into in improving:
        into_links = touching.get(into)
        if into_links is None:
            into_links = touching[into] = kit.links_to(into, hand)
        value = links - row[out] + into_links - type_links[type_of[into]][type_of[out]]
        if value > choice_links:
            choice, choice_links = (out, into), value
    if choice is not None:
        quiet = FIELD << KIND_SHIFT | choice[0] << SHIFT | choice[1]
    else:
        quiet = _best_draw(held, draws, keep, row, kit)
    if current < kit.threshold and best == current:
        duel = _duel_choice(hand, *view(), duels, held, current, keep, kit)
        if duel is not None:
            return duel
    return quiet


def _best_draw(held: _Hand, draws: Sequence[Action], keep: dict[int, int], row: dict[int, int],
               kit: _Kit) -> Action:
    """Throw away the card (or two) worth least to the rest; two when the second is dead weight too."""
    worst = -SCORE_WEIGHT * 100  # below any value a draw can have
    best_one, best_one_value, best_two, best_two_value = draws[0], worst, NONE, worst
    type_links, type_of = kit.links, kit.type_of
    for action in draws:
        first, second = action >> SHIFT & MASK, action & MASK
        if second == NONE:
            value = keep[first] * SCORE_WEIGHT - row[first]
            if value > best_one_value:
                best_one, best_one_value = action, value
        else:
            value = (held.without(first, second) * SCORE_WEIGHT - row[first] - row[second]
                     + type_links[type_of[first]][type_of[second]])
            if value > best_two_value:
                best_two, best_two_value = action, value
    if best_two != NONE and best_two_value >= best_one_value - 1:
        return best_two
    return best_one


def _duel_choice(mine: Sequence[int], seen: Sequence[Sequence[int]], hidden: Sequence[int], duels: Sequence[Action],
                 hand: _Hand, current: int, keep: dict[int, int], kit: _Kit) -> Action | None:
    """A duel whose expected gain beats drawing: plunder a face-up card, or break a leader's hand."""
    win = kit.win_chance
    risk = current - min(keep.values())  # the winner takes our most valuable card
    needed = (DUEL_MARGIN + (1 - win) * risk / 2) / win  # points a won duel must bring
    best, best_value = None, 0.0
    rows = kit.link_rows
    for action in duels:
        target = action >> SHIFT & MASK
        shown = seen[target]
        threat = 0
        if hidden[target] == 0 and len(shown) == len(mine):
            theirs = kit.score(shown)
            if theirs >= kit.threshold and theirs > current:
                threat = theirs - min(kit.score([c for c in shown if c != t]) for t in shown)
        floor = current + max(0, int(needed - threat / 2))
        swaps = []
        for card in shown:
            if not hand.hopeful(card, floor):
                continue
            row = rows[card]  # a card that touches none of the kept cards cannot join a run
            touching = 0
            for out in mine:
                touching += row[out]
            swaps.append((card, [out for out in mine if touching > row[out]]))
        gain = hand.best_gain(swaps, floor)
        value = (gain - current + threat / 2) - needed
        if (gain > floor or threat) and value > best_value:
            best, best_value = action, value
    return best


def declare_action(kit: _Kit, hand: Sequence[int], seat: int, shown: Sequence[Sequence[int]],
                   hidden: Sequence[int], previous_scores: Sequence[Sequence[int]]) -> Action:
    """Declare only with enough points and a total no face-up evidence says is beaten."""
    decline = _PASS
    mine = kit.score(hand)
    if mine < kit.threshold:
        return decline
    earlier = [sum(column) for column in zip(*previous_scores)] or [0] * len(shown)
    my_total = earlier[seat] + mine
    for other, cards in enumerate(shown):
        if other == seat:
            continue
        guess = (kit.score(cards) if cards else 0) + HIDDEN_CARD_GUESS * hidden[other]
        if earlier[other] + guess > my_total:
            return decline
    return _DECLARE


def win_action(kit: _Kit, hand: Sequence[int], loser: Sequence[int], legal: Sequence[Action]) -> Action:
    """After winning a duel: plunder the card that helps us most, or destroy the loser's best card.
    `loser` is the loser's hand, all face up after the duel."""
    mine = kit.score(hand)
    swapper = _Hand(kit, hand)
    theirs = kit.score(loser)
    loss = {t: theirs - kit.score([c for c in loser if c != t]) for t in loser}
    best, best_value = legal[0], None
    for action in legal:
        kind, out, taken = action >> KIND_SHIFT, action >> SHIFT & MASK, action & MASK
        value = loss[taken] * SCORE_WEIGHT
        if kind == PLUNDER:
            value += (swapper.swap_score(out, taken) - mine) * SCORE_WEIGHT + kit.links_to(taken, hand)
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def give_action(kit: _Kit, loser: Sequence[int], legal: Sequence[Action]) -> Action:
    """Hand the loser the field card that helps them least."""
    best, best_value = legal[0], None
    for action in legal:
        card = action >> SHIFT & MASK
        value = kit.score(list(loser) + [card]) * SCORE_WEIGHT + kit.links_to(card, loser)
        if best_value is None or value < best_value:
            best, best_value = action, value
    return best
