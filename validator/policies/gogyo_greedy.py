"""Greedy gogyo play, like a careful person: build runs, take what scores, duel when it pays, declare when ahead.

Judged only from the observation: its own hand, the field, the face-up cards of everyone, pile
sizes and earlier games' scores. Hand values come from the game's exact best-order scorer; ties
are broken by "links" (pairs of cards that could neighbour each other in a run), so a hand that
scores nothing yet still keeps the cards most likely to grow into runs.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.api import Action
from ..games.gogyo import (DECLARE, DECLARE_CHOICE, DRAW, DUEL, FIELD, GIVE_CHOICE, MAIN, NONE, PASS, PLUNDER,
                           GogyoGame, GogyoObservation)

SCORE_WEIGHT = 100   # one point of score outweighs any number of links
DUEL_MARGIN = 3.0    # expected points a duel must add over the best quiet action
HIDDEN_CARD_GUESS = 4  # points a face-down card is assumed to add to an opponent's face-up cards


class _Kit:
    """Per-game lookups bound once: card weights and types, links, scorer, duel odds."""

    __slots__ = ("game", "type_of", "weight", "dyn_weight", "elem_weight", "links", "total", "cached",
                 "ceiling", "dyn_ceiling", "elem_ceiling", "threshold", "win_chance")

    def __init__(self, game: GogyoGame) -> None:
        table, scorer = game.table, game.scorer
        dyn_weight, elem_weight = scorer.count_weights
        self.game = game
        self.type_of = table.type_of
        self.weight = tuple(table.weight[t] for t in table.type_of)  # per physical card
        self.dyn_weight = tuple(dyn_weight[t] for t in table.type_of)
        self.elem_weight = tuple(elem_weight[t] for t in table.type_of)
        self.links = game.links
        self.total = scorer.total
        self.cached = scorer.cached
        self.ceiling = scorer.ceiling
        self.dyn_ceiling, self.elem_ceiling = scorer.ceiling_tables()
        self.threshold = game.rules.declare_threshold
        values = [table.duel_value[t] for t in table.type_of]
        n = len(values)
        ties = sum(values.count(v) * (values.count(v) - 1) for v in set(values)) / (n * (n - 1))
        self.win_chance = (1 - ties) / 2  # the attacker needs strictly more; ties go to the defender

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
        type_of, links = self.type_of, self.links
        types = [type_of[c] for c in cards]
        return {c: sum(links[t][u] for u in types) for c, t in zip(cards, types)}

    def links_to(self, card: int, cards: Sequence[int]) -> int:
        type_of, row = self.type_of, self.links[self.type_of[card]]
        return sum(row[type_of[c]] for c in cards)


class _Hand:
    """A hand with its memo key and count keys, to score one-card swaps cheaply."""

    __slots__ = ("kit", "cards", "key", "dyn_key", "elem_key")

    def __init__(self, kit: _Kit, cards: Sequence[int]) -> None:
        self.kit = kit
        self.cards = cards
        self.key = sum(kit.weight[c] for c in cards)
        self.dyn_key = sum(kit.dyn_weight[c] for c in cards)
        self.elem_key = sum(kit.elem_weight[c] for c in cards)

    def swap_score(self, out: int, into: int) -> int:
        """Exact score with `out` replaced by `into`."""
        kit = self.kit
        key = self.key - kit.weight[out] + kit.weight[into]
        found = kit.cached(key)
        if found is None:
            type_of = kit.type_of
            found = kit.total(key, [type_of[c] for c in self.cards if c != out] + [type_of[into]])
        return found

    def without(self, out: int) -> int:
        """Exact score of the other cards when `out` leaves the hand."""
        kit = self.kit
        key = self.key - kit.weight[out]
        found = kit.cached(key)
        if found is None:
            type_of = kit.type_of
            found = kit.total(key, [type_of[c] for c in self.cards if c != out])
        return found

    def best_swaps(self, swaps: Sequence[tuple[int, int]], floor: int) -> tuple[int, list[tuple[int, int]]]:
        """The best score above `floor` reachable by one of `swaps`, and every swap reaching it.
        Swaps are scored exactly in order of their ceilings, and only while the ceiling could win.
        A card whose ceiling next to the whole hand cannot beat `floor` is skipped at once. (Hot path:
        the ceiling lookups are inlined.)"""
        kit = self.kit
        dyn_get, elem_get, slow_ceiling = kit.dyn_ceiling.get, kit.elem_ceiling.get, kit.ceiling
        dyn_weight, elem_weight = kit.dyn_weight, kit.elem_weight
        dyn_key, elem_key = self.dyn_key, self.elem_key
        hopeful: dict[int, bool] = {}
        ranked = []
        for out, into in swaps:
            worth = hopeful.get(into)
            if worth is None:
                d, e = dyn_key + dyn_weight[into], elem_key + elem_weight[into]
                dynasty, element = dyn_get(d), elem_get(e)
                bound = slow_ceiling(d, e) if dynasty is None or element is None else dynasty + element
                worth = hopeful[into] = bound > floor
            if worth:
                d = dyn_key - dyn_weight[out] + dyn_weight[into]
                e = elem_key - elem_weight[out] + elem_weight[into]
                dynasty, element = dyn_get(d), elem_get(e)
                bound = slow_ceiling(d, e) if dynasty is None or element is None else dynasty + element
                if bound > floor:
                    ranked.append((bound, out, into))
        ranked.sort(reverse=True)
        best, found = floor, []
        for bound, out, into in ranked:
            if bound < best:
                break
            score = self.swap_score(out, into)
            if score > best:
                best, found = score, [(out, into)]
            elif score == best and score > floor:
                found.append((out, into))
        return best, found


_KITS: dict[int, tuple[GogyoGame, _Kit]] = {}


def _kit(game: GogyoGame) -> _Kit:
    entry = _KITS.get(id(game))
    if entry is None or entry[0] is not game:
        entry = _KITS[id(game)] = (game, _Kit(game))
    return entry[1]


def kit_for(game: GogyoGame) -> _Kit:
    """The per-game lookups of `game` (built once, then reused)."""
    return _kit(game)


def choose(obs: GogyoObservation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy action for the observation's phase."""
    kit = _kit(obs.game)
    if obs.phase == MAIN:
        swaps = [(a >> 7 & 127, a & 127) for a in legal if a >> 14 == FIELD]
        return main_action(kit, obs.hand, swaps, [a for a in legal if a >> 14 == DRAW],
                           [a for a in legal if a >> 14 == DUEL], obs.shown, obs.hidden)
    if obs.phase == DECLARE_CHOICE:
        return declare_action(kit, obs.hand, obs.seat, obs.shown, obs.hidden, obs.previous_scores)
    if obs.phase == GIVE_CHOICE:
        return give_action(kit, obs.shown[obs.duel_loser], legal)
    return win_action(kit, obs.hand, obs.shown[obs.duel_loser], legal)


# The decisions below read only what a seat may see: its own hand, everyone's face-up cards
# (`shown`, per seat, in hand order), how many cards each seat holds face down (`hidden`), earlier
# games' scores, and the legal actions of the phase split by kind, in legal-action order.

def main_action(kit: _Kit, hand: Sequence[int], swaps: Sequence[tuple[int, int]], draws: Sequence[Action],
                duels: Sequence[Action], shown: Sequence[Sequence[int]], hidden: Sequence[int]) -> Action:
    """Take a field card that raises the score (or keeps it and adds links); else draw; duel if it pays more.
    `swaps` are the field actions as (hand card out, field card in)."""
    held = _Hand(kit, hand)
    current = kit.score(hand)
    keep = {out: held.without(out) for out in hand}
    row = kit.links_within(hand)
    links = sum(row.values()) // 2
    best, improving = held.best_swaps(swaps, current)
    if not improving:  # nothing raises the score: swaps that surely keep it, judged by links
        improving = [(out, into) for out, into in swaps if keep[out] == current]
    type_of, type_links = kit.type_of, kit.links
    choice, choice_links = None, links if best == current else -1
    for out, into in improving:
        value = links - row[out] + kit.links_to(into, hand) - type_links[type_of[into]][type_of[out]]
        if value > choice_links:
            choice, choice_links = (out, into), value
    if choice is not None:
        quiet = FIELD << 14 | choice[0] << 7 | choice[1]
    else:
        quiet = _best_draw(hand, draws, keep, row, kit)
    if current < kit.threshold and best == current:
        duel = _duel_choice(hand, shown, hidden, duels, held, current, keep, kit)
        if duel is not None:
            return duel
    return quiet


def _best_draw(hand: Sequence[int], draws: Sequence[Action], keep: dict[int, int], row: dict[int, int],
               kit: _Kit) -> Action:
    """Throw away the card (or two) worth least to the rest; two when the second is dead weight too."""
    worst = -SCORE_WEIGHT * 100  # below any value a draw can have
    best_one, best_one_value, best_two, best_two_value = draws[0], worst, NONE, worst
    type_links, type_of = kit.links, kit.type_of
    for action in draws:
        first, second = action >> 7 & 127, action & 127
        if second == NONE:
            value = keep[first] * SCORE_WEIGHT - row[first]
            if value > best_one_value:
                best_one, best_one_value = action, value
        else:
            kept = [c for c in hand if c != first and c != second]
            value = (kit.score(kept) * SCORE_WEIGHT - row[first] - row[second]
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
    for action in duels:
        target = action >> 7 & 127
        shown = seen[target]
        threat = 0
        if hidden[target] == 0 and len(shown) == len(mine):
            theirs = kit.score(shown)
            if theirs >= kit.threshold and theirs > current:
                threat = theirs - min(kit.score([c for c in shown if c != t]) for t in shown)
        floor = current + max(0, int(needed - threat / 2))
        swaps = []
        for card in shown:  # a card that touches none of the kept cards cannot join a run
            row = kit.links[kit.type_of[card]]
            touching = kit.links_to(card, mine)
            swaps += [(out, card) for out in mine if touching > row[kit.type_of[out]]]
        gain, _ = hand.best_swaps(swaps, floor)
        value = (gain - current + threat / 2) - needed
        if (gain > floor or threat) and value > best_value:
            best, best_value = action, value
    return best


def declare_action(kit: _Kit, hand: Sequence[int], seat: int, shown: Sequence[Sequence[int]],
                   hidden: Sequence[int], previous_scores: Sequence[Sequence[int]]) -> Action:
    """Declare only with enough points and a total no face-up evidence says is beaten."""
    decline = PASS << 14 | NONE << 7 | NONE
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
    return DECLARE << 14 | NONE << 7 | NONE


def win_action(kit: _Kit, hand: Sequence[int], loser: Sequence[int], legal: Sequence[Action]) -> Action:
    """After winning a duel: plunder the card that helps us most, or destroy the loser's best card.
    `loser` is the loser's hand, all face up after the duel."""
    mine = kit.score(hand)
    swapper = _Hand(kit, hand)
    theirs = kit.score(loser)
    loss = {t: theirs - kit.score([c for c in loser if c != t]) for t in loser}
    best, best_value = legal[0], None
    for action in legal:
        kind, out, taken = action >> 14, action >> 7 & 127, action & 127
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
        card = action >> 7 & 127
        value = kit.score(list(loser) + [card]) * SCORE_WEIGHT + kit.links_to(card, loser)
        if best_value is None or value < best_value:
            best, best_value = action, value
    return best
