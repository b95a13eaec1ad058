"""Fast gogyo playouts: a whole game in one tight loop over int lists, for simulate() without invariant checks.

The same rules as gogyo.GogyoState and the same decisions as the random and greedy policies: legal
actions are counted and ordered exactly as GogyoState.legal_actions() lists them (the random seat
indexes into that order without building the list), every draw comes from the same generator in
the same order, and greedy seats call the very decision functions of policies.gogyo_greedy with
what their observation holds. So a game's record equals the API engine's, seed for seed, which
tests/validator/games/test_gogyo_fast.py checks for 2, 3 and 4 players and mixed seats. Runs with
invariant checks keep using the API engine.

What makes it fast: hand keys kept per seat (memo keys and repeated-type tests in one integer),
the random seat's main choice read from a precomputed table when no card type repeats, its
declare-or-pass taken in the same iteration as the action before it, order-free bounds that
settle most scores, pass/declare counts derived from the step count, and face-up bookkeeping for
whole hands done only when a greedy seat can read it. The loop relies on what check_invariants
holds of GogyoState: in the main phase every hand and the field are full while the deck lasts.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...engine.api import Seat
from ...engine.playout import GREEDY, RANDOM, seat_kinds
from . import policies as gogyo_greedy
from .state import (_PAIRS, DECLARE, DECLARE_CHOICE, DESTROY, DRAW, DUEL, END_DECK, END_DECLARED, FIELD, GIVE,
                    GIVE_CHOICE, MAIN, NONE, PASS, PLUNDER, WIN_CHOICE, GogyoGame, distinct_pairs)

END_CAP = "cap"  # as validator.simulate.END_CAP (not imported: the harness imports this module)

# A game's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


def fast_playout(game: GogyoGame, policies: Sequence[Any]) -> FastGogyo | None:
    """The fast player for these seats' policies, or None when some seat or rule needs the API engine."""
    kinds = seat_kinds(policies, gogyo_greedy.choose)
    rules = game.rules
    if (kinds is None or rules.field_size > rules.hand_size  # field duplicates are read from hand-sized fields
            or game.table.deck_size <= len(kinds) * rules.hand_size + rules.field_size):
        return None
    return FastGogyo(game, kinds)


def _shuffle(rng: random.Random, cards: list[int], bits: Sequence[int]) -> None:
    """rng.shuffle(cards) as CPython's Random.shuffle does it (bits[i] = (i + 1).bit_length()); used
    only when FastGogyo has checked that the two agree."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = bits[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _shuffle_matches(size: int) -> bool:
    """Whether _shuffle draws and orders exactly as random.Random.shuffle (it does in CPython 3.11-3.13)."""
    bits = [(i + 1).bit_length() for i in range(size)]
    for seed in (0, 1, 2**64 - 59):
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = list(range(size)), list(range(size))
        _shuffle(ours, mine, bits)
        theirs.shuffle(reference)
        if mine != reference or ours.random() != theirs.random():
            return False
    return True


def _view(hands: list[list[int]], face_up: list[bool]) -> tuple[list[tuple[int, ...]], list[int]]:
    """What every seat sees (GogyoObservation.shown and .hidden): each hand's face-up cards, in hand
    order, and how many of its cards are face down."""
    shown = [tuple([c for c in hand if face_up[c]]) for hand in hands]
    return shown, [len(hand) - len(s) for hand, s in zip(hands, shown)]


def _distinct(cards: list[int], type_of: Sequence[int]) -> list[int]:
    """One card per card type, first copies first (GogyoState._distinct when a type repeats)."""
    seen: set[int] = set()
    out = []
    for card in cards:
        kind = type_of[card]
        if kind not in seen:
            seen.add(kind)
            out.append(card)
    return out


class FastGogyo:
    """Plays whole gogyo games for fixed seat kinds (RANDOM/GREEDY) and returns their record fields."""

    def __init__(self, game: GogyoGame, kinds: tuple[int, ...]) -> None:
        rules, table, scorer = game.rules, game.table, game.scorer
        if not game.min_players <= len(kinds) <= game.max_players:
            raise ValueError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {len(kinds)}")
        self.game = game
        self.randoms = tuple(kind == RANDOM for kind in kinds)
        self.next_seat = tuple((seat + 1) % len(kinds) for seat in range(len(kinds)))
        self.kit = gogyo_greedy.kit_for(game) if GREEDY in kinds else None
        self.weight = tuple(table.weight[t] for t in table.type_of)  # per physical card: its hand-key field
        dup = 0  # bits of a hand key that are set only when some card type appears twice or more
        for t, copies in enumerate(table.copies):
            if copies > 1:
                width = min(copies, rules.hand_size).bit_length()
                dup |= ((1 << width) - 2) * table.weight[t]
        self.dup_mask = dup
        dyn_weight, elem_weight = scorer.count_weights
        self.elem_bits = max(elem_weight).bit_length() + 3  # a hand's element-count key fits below this bit
        self.elem_mask = (1 << self.elem_bits) - 1
        self.dyn_ceiling, self.elem_ceiling = scorer.ceiling_tables()
        self.exact_bounds = scorer.bounds_exact
        self.counts = tuple(dyn_weight[t] << self.elem_bits | elem_weight[t] for t in table.type_of)  # per card
        self.beats = tuple(tuple(table.duel_value[table.type_of[a]] > table.duel_value[table.type_of[d]]
                                 for d in range(table.deck_size)) for a in range(table.deck_size))
        self.shuffle_bits = tuple((i + 1).bit_length() for i in range(table.deck_size))
        self.inline_shuffle = _shuffle_matches(table.deck_size)
        # The main-phase legal actions when no card type repeats in hand or field and the deck allows
        # every kind (more than `deck_floor` cards), in legal_actions() order, as (kind, a, b): hand
        # position a and field position b, or hand positions a and b (b = -1: one card), or the a-th
        # other seat.
        two_draws = rules.draw_max >= 2
        self.deck_floor = max(rules.duel_forbidden_deck_max, 1 if two_draws else 0)
        hand_size, field_size = rules.hand_size, rules.field_size
        self.plain = tuple([(FIELD, i, j) for i in range(hand_size) for j in range(field_size)]
                           + [(DRAW, i, -1) for i in range(hand_size)]
                           + [(DRAW, i, j) for i, j in (_PAIRS[hand_size] if two_draws else ())]
                           + [(DUEL, k, -1) for k in range(len(kinds) - 1)])
        if len(self.plain) < 2:  # the table path counts every main decision as a real choice
            self.deck_floor = table.deck_size

    def score(self, key: int, cards: Sequence[int], reach: int = 0) -> int:
        """Best-order total of physical cards whose hand key is `key` (GogyoGame.hand_score). With
        `reach`, a hand whose order-free ceiling stays below it may answer with that ceiling."""
        counts = self.counts
        both = 0
        for card in cards:
            both += counts[card]
        dyn_key, elem_key = both >> self.elem_bits, both & self.elem_mask
        dynasty, element = self.dyn_ceiling.get(dyn_key), self.elem_ceiling.get(elem_key)
        if dynasty is None or element is None:
            self.game.scorer.ceiling(dyn_key, elem_key)
            dynasty, element = self.dyn_ceiling[dyn_key], self.elem_ceiling[elem_key]
        if dynasty + element < reach or self.exact_bounds and not (dynasty and element):
            return dynasty + element  # exact when one kind scores 0 (Scorer.bounds_exact)
        scorer = self.game.scorer
        found = scorer.cached(key)
        if found is None:
            type_of = self.game.table.type_of
            found = scorer.total_counted(key, [type_of[c] for c in cards], dyn_key, elem_key)
        return found

    def reaches(self, key: int, cards: Sequence[int]) -> bool:
        """Whether the cards score the declaration threshold (the order-free ceiling settles most hands)."""
        threshold = self.game.rules.declare_threshold
        return self.score(key, cards, threshold) >= threshold

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        """One game from the shuffle to its end (or the step cap), as validator.simulate.play_game plays it."""
        game, kit, randoms, next_seat = self.game, self.kit, self.randoms, self.next_seat
        rules, type_of, weight, dup, beats = game.rules, game.table.type_of, self.weight, self.dup_mask, self.beats
        n, hand_size, field_size = len(randoms), rules.hand_size, rules.field_size
        duel_max, two_draws, all_pairs = rules.duel_forbidden_deck_max, rules.draw_max >= 2, len(_PAIRS[hand_size])
        score, reaches, rand = self.score, self.reaches, choice.random
        plain, deck_floor = self.plain, self.deck_floor
        watched = kit is not None  # face-up cards are read only by greedy seats: reveal whole hands only then
        plain_total = len(plain)
        both_of, bits, elem_mask = self.counts, self.elem_bits, self.elem_mask
        dyn_ceiling, elem_ceiling = self.dyn_ceiling.get, self.elem_ceiling.get
        threshold = rules.declare_threshold
        deck = list(range(len(type_of)))  # GogyoGame.new_initial_state and GogyoState.__init__
        if self.inline_shuffle and type(chance) is random.Random:
            _shuffle(chance, deck, self.shuffle_bits)
        else:
            chance.shuffle(deck)
        player = chance.randrange(n) if first_player is None else first_player
        dealt = len(deck) - n * hand_size - field_size
        top = deck[dealt:]  # the cards popped from the deck's end, in the order they are dealt
        del deck[dealt:]
        top.reverse()
        hands = [top[seat * hand_size:(seat + 1) * hand_size] for seat in range(n)]
        field = top[n * hand_size:]
        face_up = [True] * len(type_of)
        keys = [sum([weight[c] for c in hand]) for hand in hands]
        field_key = sum([weight[c] for c in field])
        first = turn_player = player
        own_turns = [0] * n
        counts = [0] * len(game.action_kinds)
        phase, turns, winner, loser, wrong, duels_won, end = MAIN, 1, -1, -1, 0, 0, ""
        steps = single = 0  # decisions taken; those with one legal action
        while steps < step_cap:
            steps += 1
            if phase == MAIN:
                hand = hands[player]  # a full hand, and a full field while the deck lasts (check_invariants)
                if randoms[player] and not (keys[player] & dup or field_key & dup) and len(deck) > deck_floor:
                    kind, a, b = plain[int(rand() * plain_total)]  # as below, read from the table
                    if kind == FIELD:
                        x, y = hand[a], field[b]
                    elif kind == DRAW:
                        x, y = hand[a], hand[b] if b >= 0 else NONE
                    else:
                        x, y = a if a < player else a + 1, NONE
                else:  # the general case: legal actions as GogyoState._main_actions lists them
                    if keys[player] & dup:
                        hd = _distinct(hand, type_of)
                        nh = len(hd)
                    else:
                        hd, nh = hand, hand_size
                    if field_key & dup:
                        fd = _distinct(field, type_of)
                        nf = len(fd)
                    else:
                        fd, nf = field, field_size
                    ndeck = len(deck)
                    pairs = None
                    if ndeck > 1 and two_draws:
                        if hd is hand:
                            npair = all_pairs
                        else:
                            pairs = distinct_pairs(hand, type_of)
                            npair = len(pairs)
                    else:
                        npair = 0
                    nfield = nh * nf
                    total = nfield + nh + npair + (n - 1 if ndeck > duel_max else 0)
                    if total < 2:
                        single += 1
                    if randoms[player]:
                        r = int(rand() * total)
                        if r < nfield:
                            kind, x, y = FIELD, hd[r // nf], fd[r % nf]
                        elif r < nfield + nh:
                            kind, x, y = DRAW, hd[r - nfield], NONE
                        elif r < nfield + nh + npair:
                            kind = DRAW
                            if pairs is None:
                                i, j = _PAIRS[len(hand)][r - nfield - nh]
                                x, y = hand[i], hand[j]
                            else:
                                x, y = pairs[r - nfield - nh]
                        else:
                            r -= nfield + nh + npair
                            kind, x, y = DUEL, r if r < player else r + 1, NONE
                    else:
                        draws = [DRAW << 14 | d << 7 | NONE for d in hd]
                        if npair:
                            if pairs is None:
                                draws += [DRAW << 14 | hand[i] << 7 | hand[j] for i, j in _PAIRS[len(hand)]]
                            else:
                                draws += [DRAW << 14 | a << 7 | b for a, b in pairs]
                        duels = [DUEL << 14 | s << 7 | NONE for s in range(n) if s != player and ndeck > duel_max]
                        action = gogyo_greedy.main_action(kit, hand, hd, fd, draws, duels,
                                                          lambda: _view(hands, face_up))
                        kind, x, y = action >> 14, action >> 7 & 127, action & 127
                counts[kind] += 1
                if kind == FIELD:
                    hand.remove(x)
                    field.remove(y)
                    hand.append(y)
                    face_up[y] = True
                    keys[player] += weight[y] - weight[x]
                    field_key -= weight[y]
                    if deck:  # refill the one free place
                        card = deck.pop()
                        face_up[card] = True
                        field.append(card)
                        field_key += weight[card]
                elif kind == DRAW:
                    hand.remove(x)
                    drawn = deck.pop()
                    face_up[drawn] = False
                    hand.append(drawn)
                    keys[player] += weight[drawn] - weight[x]
                    if y != NONE:
                        hand.remove(y)
                        drawn = deck.pop()
                        face_up[drawn] = False
                        hand.append(drawn)
                        keys[player] += weight[drawn] - weight[y]
                else:  # DUEL: both drawn cards are discarded face up; a tie goes to the defender
                    attack, defend = deck.pop(), deck.pop()
                    face_up[attack] = face_up[defend] = True
                    if beats[attack][defend]:
                        winner, loser = player, x
                        duels_won += 1
                    else:
                        winner, loser = x, player
                    if watched:
                        for card in hands[loser]:
                            face_up[card] = True
                    player = winner
                    phase = WIN_CHOICE
                    continue
            elif phase == DECLARE_CHOICE:
                hand = hands[player]
                if randoms[player]:
                    declare = int(rand() * 2) == 1
                elif not reaches(keys[player], hand):
                    declare = False  # declare_action's first test, taken without building the view
                else:
                    declare = gogyo_greedy.declare_action(kit, hand, player, *_view(hands, face_up),
                                                          tuple(tuple(s) for s in previous_scores)) >> 14 == DECLARE
                if declare:
                    if reaches(keys[player], hand):
                        end = END_DECLARED
                        break
                    wrong += 1  # a wrong declaration: the hand is turned face up, play goes on
                    for card in hand:
                        face_up[card] = True
                own_turns[turn_player] += 1
                turn_player = player = next_seat[turn_player]
                turns += 1
                phase = MAIN
                continue
            elif phase == WIN_CHOICE:
                own = hands[winner] if not keys[winner] & dup else _distinct(hands[winner], type_of)
                theirs = hands[loser] if not keys[loser] & dup else _distinct(hands[loser], type_of)
                plunders = len(own) * len(theirs)
                if plunders + len(theirs) < 2:
                    single += 1
                if randoms[player]:
                    r = int(rand() * (plunders + len(theirs)))
                    if r < plunders:
                        kind, x, y = PLUNDER, own[r // len(theirs)], theirs[r % len(theirs)]
                    else:
                        kind, x, y = DESTROY, NONE, theirs[r - plunders]
                else:
                    legal = [PLUNDER << 14 | d << 7 | t for d in own for t in theirs]
                    legal += [DESTROY << 14 | NONE << 7 | t for t in theirs]
                    action = gogyo_greedy.win_action(kit, hands[winner],
                                                     tuple([c for c in hands[loser] if face_up[c]]), legal)
                    kind, x, y = action >> 14, action >> 7 & 127, action & 127
                counts[kind] += 1
                if kind == PLUNDER:
                    hands[winner].remove(x)
                    hands[loser].remove(y)
                    hands[winner].append(y)
                    face_up[y] = True
                    keys[winner] += weight[y] - weight[x]
                else:
                    hands[loser].remove(y)
                keys[loser] -= weight[y]
                phase = GIVE_CHOICE
                continue
            else:  # GIVE_CHOICE: the winner hands a field card to the loser
                fd = field if not field_key & dup else _distinct(field, type_of)
                if len(fd) < 2:
                    single += 1
                if randoms[player]:
                    x = fd[int(rand() * len(fd))]
                else:
                    x = gogyo_greedy.give_action(kit, tuple([c for c in hands[loser] if face_up[c]]),
                                                 [GIVE << 14 | f << 7 | NONE for f in fd]) >> 7 & 127
                counts[GIVE] += 1
                field.remove(x)
                hands[loser].append(x)
                face_up[x] = True
                keys[loser] += weight[x]
                field_key -= weight[x]
                if deck:  # refill the one free place
                    card = deck.pop()
                    face_up[card] = True
                    field.append(card)
                    field_key += weight[card]
                player = turn_player
            # a field take, a draw or a give is complete (GogyoState._end_action)
            if not deck:
                end = END_DECK
                break
            if own_turns[turn_player]:
                if not randoms[player] or steps == step_cap:
                    phase = DECLARE_CHOICE
                    continue
                steps += 1  # a random seat declares or passes at once (the DECLARE_CHOICE branch's work)
                if rand() >= 0.5:  # int(rand() * 2) == 1: legal_actions() lists PASS, then DECLARE
                    hand = hands[player]
                    both = 0
                    for card in hand:
                        both += both_of[card]
                    dynasty, element = dyn_ceiling(both >> bits), elem_ceiling(both & elem_mask)
                    if ((dynasty is None or element is None or dynasty + element >= threshold)
                            and score(keys[player], hand, threshold) >= threshold):
                        end = END_DECLARED
                        break
                    wrong += 1
                    if watched:
                        for card in hand:
                            face_up[card] = True
            own_turns[turn_player] += 1
            turn_player = player = next_seat[turn_player]
            turns += 1
            phase = MAIN
        # Every step was one decision; those not counted above were declare-or-pass choices.
        counts[DECLARE] = wrong + (end == END_DECLARED)
        counts[PASS] = steps - sum(counts)
        scores = tuple([score(keys[seat], hands[seat]) for seat in range(n)])
        if end:
            top_score = max(scores)
            winners = tuple([seat for seat, s in enumerate(scores) if s == top_score])
        else:
            end, winners = END_CAP, ()
        return (turns, steps, end, scores, winners, first, tuple(counts), steps, steps - single,
                (("duels_won_by_attacker", duels_won), ("wrong_declarations", wrong)))
