"""Fast gogyo playouts: a whole game in one tight loop over int lists, for simulate() without invariant checks.

The same rules as gogyo.GogyoState and the same decisions as the random and greedy policies: legal
actions are counted and ordered exactly as GogyoState.legal_actions() lists them (the random seat
indexes into that order without building the list), every draw comes from the same generator in
the same order, and greedy seats call the very decision functions of policies.gogyo_greedy with
what their observation holds. So a game's record equals the API engine's, seed for seed, which
tests/validator/games/test_gogyo_fast.py checks for 2, 3 and 4 players and mixed seats. Runs with
invariant checks keep using the API engine.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine.api import Seat
from ..policies import gogyo_greedy
from ..policies.greedy import HEURISTICS, GreedyPolicy
from ..policies.random_policy import RandomPolicy
from .gogyo import (_PAIRS, DECLARE, DECLARE_CHOICE, DESTROY, DRAW, DUEL, END_DECK, END_DECLARED, FIELD, GIVE,
                    GIVE_CHOICE, MAIN, NONE, PASS, PLUNDER, WIN_CHOICE, GogyoGame)

RANDOM, GREEDY = 0, 1
_PASS = PASS << 14 | NONE << 7 | NONE
END_CAP = "cap"  # as validator.simulate.END_CAP (not imported: the harness imports this module)

# A game's record fields, in validator.simulate.GameRecord order.
RecordFields = tuple[int, int, str, tuple[int, ...], tuple[int, ...], int, tuple[int, ...], int, int,
                     tuple[tuple[str, int], ...]]


def seat_kinds(policies: Sequence[Any], game: GogyoGame) -> tuple[int, ...] | None:
    """RANDOM or GREEDY per seat when every policy is one this module reproduces exactly; else None."""
    kinds = []
    for policy in policies:
        if type(policy) is RandomPolicy:
            kinds.append(RANDOM)
        elif type(policy) is GreedyPolicy and HEURISTICS.get(game.name) is gogyo_greedy.choose:
            kinds.append(GREEDY)
        else:
            return None
    return tuple(kinds)


def fast_playout(game: GogyoGame, policies: Sequence[Any]) -> FastGogyo | None:
    """The fast player for these seats' policies, or None when some seat or rule needs the API engine."""
    kinds = seat_kinds(policies, game)
    if kinds is None or game.rules.field_size > game.rules.hand_size:
        return None
    return FastGogyo(game, kinds)


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


def _pairs(hand: list[int], type_of: Sequence[int]) -> list[tuple[int, int]]:
    """Two-card draws when a type repeats (GogyoState._pairs): one per pair of card types."""
    seen: set[tuple[int, int]] = set()
    out = []
    for i, j in _PAIRS[len(hand)]:
        a, b = hand[i], hand[j]
        key = (type_of[a], type_of[b]) if type_of[a] <= type_of[b] else (type_of[b], type_of[a])
        if key not in seen:
            seen.add(key)
            out.append((a, b))
    return out


class FastGogyo:
    """Plays whole gogyo games for fixed seat kinds (RANDOM/GREEDY) and returns their record fields."""

    def __init__(self, game: GogyoGame, kinds: tuple[int, ...]) -> None:
        rules, table = game.rules, game.table
        if not game.min_players <= len(kinds) <= game.max_players:
            raise ValueError(f"{game.name} is for {game.min_players}-{game.max_players} players, not {len(kinds)}")
        if rules.field_size > rules.hand_size:  # field duplicates are read from hand-sized count fields
            raise ValueError("the fast path needs a field no larger than a hand")
        self.game = game
        self.kinds = kinds
        self.kit = gogyo_greedy.kit_for(game) if GREEDY in kinds else None
        self.weight = tuple(table.weight[t] for t in table.type_of)  # per physical card: its hand-key field
        dup = 0  # bits of a hand key that are set only when some card type appears twice or more
        for t, copies in enumerate(table.copies):
            if copies > 1:
                width = min(copies, rules.hand_size).bit_length()
                dup |= ((1 << width) - 2) * table.weight[t]
        self.dup_mask = dup
        self.beats = tuple(tuple(table.duel_value[table.type_of[a]] > table.duel_value[table.type_of[d]]
                                 for d in range(table.deck_size)) for a in range(table.deck_size))

    def score(self, key: int, cards: Sequence[int]) -> int:
        """Best-order total of physical cards whose hand key is `key`."""
        scorer = self.game.scorer
        found = scorer.cached(key)
        if found is None:
            type_of = self.game.table.type_of
            found = scorer.total(key, [type_of[c] for c in cards])
        return found

    def play(self, chance: random.Random, choice: random.Random, first_player: Seat | None,
             previous_scores: Sequence[Sequence[int]], step_cap: int) -> RecordFields:
        """One game from the shuffle to its end (or the step cap), as validator.simulate.play_game plays it."""
        game, kinds, kit = self.game, self.kinds, self.kit
        rules, type_of, weight, dup, beats = game.rules, game.table.type_of, self.weight, self.dup_mask, self.beats
        n, hand_size, field_size = len(kinds), rules.hand_size, rules.field_size
        duel_max, two_draws, threshold = rules.duel_forbidden_deck_max, rules.draw_max >= 2, rules.declare_threshold
        main_action, declare_action = gogyo_greedy.main_action, gogyo_greedy.declare_action
        score, rand = self.score, choice.random
        previous = tuple(tuple(s) for s in previous_scores)
        deck = list(range(game.table.deck_size))  # GogyoGame.new_initial_state
        chance.shuffle(deck)
        player = chance.randrange(n) if first_player is None else first_player
        hands = [[deck.pop() for _ in range(hand_size)] for _ in range(n)]
        field = [deck.pop() for _ in range(field_size)]
        face_up = [True] * len(type_of)
        keys = [sum([weight[c] for c in hand]) for hand in hands]
        field_key = sum([weight[c] for c in field])
        first = turn_player = player
        own_turns = [0] * n
        counts = [0] * len(game.action_kinds)
        phase, turns, winner, loser, wrong, duels_won, end = MAIN, 1, -1, -1, 0, 0, ""
        steps = decisions = choices = 0
        while steps < step_cap:
            decisions += 1
            if phase == MAIN:
                hand = hands[player]
                hd = hand if not keys[player] & dup else _distinct(hand, type_of)
                fd = field if not field_key & dup else _distinct(field, type_of)
                nh, nf = len(hd), len(fd)
                ndeck = len(deck)
                pairs = None
                if ndeck >= 2 and two_draws:
                    if hd is hand:
                        npair = len(_PAIRS[len(hand)])
                    else:
                        pairs = _pairs(hand, type_of)
                        npair = len(pairs)
                else:
                    npair = 0
                nduel = n - 1 if ndeck > duel_max else 0
                total = nh * nf + nh + npair + nduel
                if total > 1:
                    choices += 1
                if kinds[player] == RANDOM:
                    r = int(rand() * total)
                    if r < nh * nf:
                        kind, x, y = FIELD, hd[r // nf], fd[r % nf]
                    else:
                        r -= nh * nf
                        if r < nh:
                            kind, x, y = DRAW, hd[r], NONE
                        else:
                            r -= nh
                            if r < npair:
                                kind = DRAW
                                if pairs is None:
                                    i, j = _PAIRS[len(hand)][r]
                                    x, y = hand[i], hand[j]
                                else:
                                    x, y = pairs[r]
                            else:
                                r -= npair
                                kind, x, y = DUEL, r if r < player else r + 1, NONE
                else:
                    draws = [DRAW << 14 | d << 7 | NONE for d in hd]
                    if npair:
                        if pairs is None:
                            draws += [DRAW << 14 | hand[i] << 7 | hand[j] for i, j in _PAIRS[len(hand)]]
                        else:
                            draws += [DRAW << 14 | a << 7 | b for a, b in pairs]
                    shown = [tuple([c for c in h if face_up[c]]) for h in hands]
                    action = main_action(kit, hand, [(d, f) for d in hd for f in fd], draws,
                                         [DUEL << 14 | s << 7 | NONE for s in range(n) if s != player] if nduel else [],
                                         shown, [len(h) - len(s) for h, s in zip(hands, shown)])
                    kind, x, y = action >> 14, action >> 7 & 127, action & 127
            elif phase == DECLARE_CHOICE:
                choices += 1
                if kinds[player] == RANDOM:
                    kind = DECLARE if int(rand() * 2) else PASS
                else:
                    hand = hands[player]
                    if score(keys[player], hand) < threshold:
                        kind = PASS  # declare_action's first test, taken without building the view
                    else:
                        shown = [tuple([c for c in h if face_up[c]]) for h in hands]
                        kind = declare_action(kit, hand, player, shown, [len(h) - len(s) for h, s in zip(hands, shown)],
                                              previous) >> 14
                x = y = NONE
            elif phase == WIN_CHOICE:
                own = _distinct(hands[winner], type_of)
                theirs = _distinct(hands[loser], type_of)
                legal = [PLUNDER << 14 | d << 7 | t for d in own for t in theirs]
                legal += [DESTROY << 14 | NONE << 7 | t for t in theirs]
                if len(legal) > 1:
                    choices += 1
                if kinds[player] == RANDOM:
                    action = legal[int(rand() * len(legal))]
                else:
                    action = gogyo_greedy.win_action(kit, hands[winner],
                                                     tuple([c for c in hands[loser] if face_up[c]]), legal)
                kind, x, y = action >> 14, action >> 7 & 127, action & 127
            else:  # GIVE_CHOICE
                legal = [GIVE << 14 | f << 7 | NONE for f in _distinct(field, type_of)]
                if len(legal) > 1:
                    choices += 1
                if kinds[player] == RANDOM:
                    action = legal[int(rand() * len(legal))]
                else:
                    action = gogyo_greedy.give_action(kit, tuple([c for c in hands[loser] if face_up[c]]), legal)
                kind, x, y = action >> 14, action >> 7 & 127, NONE
            counts[kind] += 1
            steps += 1
            # -- apply (GogyoState.apply_action) --------------------------------------------------
            end_action = False
            if kind == FIELD:
                hand = hands[player]
                hand.remove(x)
                field.remove(y)
                hand.append(y)
                face_up[y] = True
                keys[player] += weight[y] - weight[x]
                field_key -= weight[y]
                while len(field) < field_size and deck:
                    card = deck.pop()
                    face_up[card] = True
                    field.append(card)
                    field_key += weight[card]
                end_action = True
            elif kind == DRAW:
                hand = hands[player]
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
                end_action = True
            elif kind == PASS:
                own_turns[turn_player] += 1
                turn_player = player = (turn_player + 1) % n
                winner = loser = -1
                turns += 1
                phase = MAIN
            elif kind == DECLARE:
                hand = hands[turn_player]
                if score(keys[turn_player], hand) >= threshold:
                    phase, end = None, END_DECLARED
                    break
                wrong += 1
                for card in hand:
                    face_up[card] = True
                own_turns[turn_player] += 1
                turn_player = player = (turn_player + 1) % n
                winner = loser = -1
                turns += 1
                phase = MAIN
            elif kind == DUEL:
                attack, defend = deck.pop(), deck.pop()
                face_up[attack] = face_up[defend] = True
                if beats[attack][defend]:
                    winner, loser = player, x
                    duels_won += 1
                else:  # a tie goes to the defender
                    winner, loser = x, player
                for card in hands[loser]:
                    face_up[card] = True
                player = winner
                phase = WIN_CHOICE
            elif kind == PLUNDER:
                hands[winner].remove(x)
                hands[loser].remove(y)
                hands[winner].append(y)
                face_up[y] = True
                keys[winner] += weight[y] - weight[x]
                keys[loser] -= weight[y]
                phase = GIVE_CHOICE
            elif kind == DESTROY:
                hands[loser].remove(y)
                keys[loser] -= weight[y]
                phase = GIVE_CHOICE
            else:  # GIVE
                field.remove(x)
                hands[loser].append(x)
                face_up[x] = True
                keys[loser] += weight[x]
                field_key -= weight[x]
                while len(field) < field_size and deck:
                    card = deck.pop()
                    face_up[card] = True
                    field.append(card)
                    field_key += weight[card]
                player = turn_player
                end_action = True
            if end_action:  # GogyoState._end_action
                if not deck:
                    phase, end = None, END_DECK
                    break
                if own_turns[turn_player] > 0:
                    phase = DECLARE_CHOICE
                else:
                    own_turns[turn_player] += 1
                    turn_player = player = (turn_player + 1) % n
                    winner = loser = -1
                    turns += 1
                    phase = MAIN
        scores = tuple([score(keys[seat], hands[seat]) for seat in range(n)])
        if phase is None:
            top = max(scores)
            winners = tuple([seat for seat, s in enumerate(scores) if s == top])
        else:
            end, winners = END_CAP, ()
        return (turns, steps, end, scores, winners, first, tuple(counts), decisions, choices,
                (("duels_won_by_attacker", duels_won), ("wrong_declarations", wrong)))
