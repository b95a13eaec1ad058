"""三国殺 (sanguosha): a whole game built from one seat's observation, for a search that may not peek.

What the seat has seen stays as it is: its own hand and identity, every public zone (equipment, judge
areas, the discard pile, the cards being resolved), HP, the dead, the lord, the generals, the turn and
the pending decision — a 閃 asked for inside a 決闘 inside a turn resumes exactly there. What it has not
seen is dealt anew: the order of the draw pile, the other seats' hands, the identities still hidden
(the roles the table size leaves once the lord's, the dead's and its own are known, dealt among the
unknown seats), the generals offered to the others, and those chosen face down before its own.

The pending decision is a suspended stack of generator frames (flow.py), which only replaying the game
from its deal can rebuild. So the state keeps the table talk (state.LOG_*): the public log of what the
whole table saw happen — each decision with any card the others did not see masked, and without the
passes that would tell a seat could have answered; each card drawn, judged, taken at random or thrown
away by the dead — and each seat's private half (its own masked choices, what it drew or was handed).
The observation carries both, and nothing else is read. A deal replays the log twice:

1. A sketch (`_Sketch`) plays the game again over *tokens*, one per physical card, whose faces are
   unknown until the log shows them: a token is tied to a card when the seat sees it (a judgement or
   五穀 card turned up, a card drawn or taken by the seat, a card used, played, discarded or thrown
   away). The next logged decision's card is tied *ahead* — to a token of its seat's hand, or to the
   next one the seat draws — before the engine decides whether that seat is asked at all (it asks
   for 閃 only a seat holding one); such a tie gives way if another shown card needs the token. A
   face can only come from its token's *group*: the first deck holds every card, a reshuffle exactly
   the cards of the discard pile it was made from; within a group untied tokens are alike. What the
   seat did not see decided is chosen: a general chosen face down (from the seat's offer), the card
   仁徳 or 遺計 hands on, the order 観星 puts cards back (each placed card followed down the deck to
   its draw, to fit what that draw shows), the card taken at random from another's hand. A known card
   moves only when the later unseen hand-offs leave it no other way to where the log next shows it;
   else uniformly among the tokens that least deepen either hand's shortfall of the groups the log
   shows it playing later. At the end each group's untied tokens get its remaining cards, shuffled.
2. The game (`_follow`) is a plain SanguoshaState replaying the sketch's faces (its shuffles and
   random picks) and the logged decisions, with a NEW chance generator seeded from the policy's `rng`
   for everything after. Its own observation must equal the seat's, logs included.

A blind choice the log contradicts later (a card shown where no token of its group, or not the known
card, can be) makes the deal fail, and the next one is steered at the unseen hand-off blamed
(`Inconsistent.hint`: move a card of that group there, or that known card, or not). Over about 30,000
positions of seeded greedy and random games at 2-10 players, ~98 % of the deals fit at once and every
position dealt within the tries (ATTEMPTS; beyond them a RuntimeError, never a state that does not fit).

Where the deal is not the seat's exact belief: hidden cards are uniform given the log (the others'
habits are not read into it, as in every determinizer here); the unseen hand-off of a card the seat
knew, and the group an unseen hand-off takes, are settled by look-ahead and steered rejection rather
than by weighing every path the cards could have taken; an unseen 観星 is ordered to fit the draws
the log shows, not over all orders that would. For a seat that is not the one deciding
(observation.deciding false), the deal must also give the decider what makes its pending decision
exist (a 閃 to play, say); that is only found by rejection, and may fail.
"""
from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, cast

from ...engine.api import Action, Seat
from .rules import (
    CONVERT,
    DISCARD,
    EFFECT_INDEX,
    GENERAL,
    GIVE,
    HAND,
    LORD,
    P_GENERAL,
    P_GUANXING,
    P_OPTION,
    P_TRIGGER,
    PASS_ACTION,
    PICK,
    RESPOND,
    SKILL,
    USE,
    SanguoshaObservation,
    act,
    unpack,
)
from .state import (
    DRAW,
    HIDDEN_PASSES,
    LOG_ASK,
    LOG_DUMP,
    LOG_POP,
    LOG_RAND,
    SanguoshaGame,
    SanguoshaState,
)
from .tables import Cards

ATTEMPTS = 30  # deals tried before giving up (each a replay; a deal is almost always right the first time)
_RENDE = EFFECT_INDEX["rende"]
_GUICAI = EFFECT_INDEX["guicai"]
DECK, ELSEWHERE = -2, -3  # where a card shows up next, besides a seat's hand
BLANK = (-1, -1, 0, -1, -1, 0)  # an untied token's kind, suit, rank, colour, slot and range: no card at all

Prompt = tuple[int, int, int, int]
Entry = tuple[Any, ...]


Hints = dict[int, dict[int, bool]]  # log index of an unseen hand-off -> {a group, or -1 - a card: take it?}
# An unseen hand-off: (log index, from, to, group and card of the token moved, groups and cards offered);
# -1 for none: a tied token has a card and no group, an untied one no card.
Move = tuple[int, Seat, Seat, int, int, frozenset[int], frozenset[int]]


class _Reached(Exception):
    """The sketch is at the decision the observation waits at (raised: its legal actions may be stale)."""


class Inconsistent(Exception):
    """This deal ran against the log (a blind choice proved wrong later): deal again, steered by `hint`."""

    def __init__(self, hint: tuple[int, bool, int] | None = None) -> None:
        super().__init__()
        self.hint = hint


def determinize(observation: SanguoshaObservation, rng: random.Random) -> SanguoshaState:
    """A state the observing seat cannot tell from the real one, what it has not seen dealt at random."""
    hints: Hints = {}
    for _ in range(ATTEMPTS):
        try:
            return _deal(observation, rng, hints)
        except Inconsistent as failed:
            if failed.hint is None:
                hints.clear()  # nothing left to learn from: start over, the dice fall otherwise
            else:
                at, take, key = failed.hint
                hints.setdefault(at, {})[key] = take
    raise RuntimeError(f"sanguosha: no deal fits seat {observation.seat}'s log in {ATTEMPTS} tries")


def _deal(view: SanguoshaObservation, rng: random.Random, hints: Hints) -> SanguoshaState:
    sketch = _Sketch(view, rng, hints)
    chances, answers = sketch.settle()
    return _follow(view, chances, answers, random.Random(rng.getrandbits(64)))


# -- reading actions --------------------------------------------------------------------------------------
def card_of(action: Action) -> int:
    """The card a decision names (-1: none, or hidden from the log)."""
    kind, a, b, _, _ = unpack(action)
    if kind in (USE, CONVERT, RESPOND, DISCARD, GIVE, PICK):
        return a if a < HAND else -1
    if kind == SKILL and a == _RENDE:
        return b if b < HAND else -1
    return -1


def with_card(action: Action, card: int) -> Action:
    """The decision naming `card` instead (in the operand card_of reads)."""
    kind, a, b, c, d = unpack(action)
    if kind == SKILL:
        return act(kind, a, card, c, d)
    return act(kind, card, b, c, d)


def is_masked(action: Action, code: int) -> bool:
    """Whether the log shows this decision without its card (state.masked)."""
    kind, a, _, _, _ = unpack(action)
    return code in (P_GENERAL, P_GUANXING) or kind == GIVE or (kind == SKILL and a == _RENDE)


def from_hand(action: Action, code: int) -> bool:
    """Whether the card of a logged decision comes from the deciding seat's own hand or equipment."""
    kind, a, _, _, _ = unpack(action)
    return kind in (USE, CONVERT, RESPOND, DISCARD) or (kind == SKILL and a == _RENDE) or \
        (kind == PICK and code == P_OPTION)


def whole(entry: Entry, at: int, mine: dict[int, int]) -> Action:
    """A logged decision as the seat knows it: whole if it made or received it, else as logged."""
    action: Action = mine[at] if at in mine else entry[4]
    return action


def mentions(log: Sequence[Entry], mine: dict[int, int]) -> dict[int, tuple[list[int], list[int]]]:
    """Per card the log shows: the indices of its appearances and where each time (a seat's hand, the
    deck, elsewhere) — to see where a card the seat knows has to be next."""
    found: dict[int, tuple[list[int], list[int]]] = {}

    def note(card: int, at: int, where: int) -> None:
        if card >= 0:
            indices, places = found.setdefault(card, ([], []))
            indices.append(at)
            places.append(where)

    for at, entry in enumerate(log):
        kind = entry[0]
        if kind == LOG_ASK:
            code, action = entry[3][0], whole(entry, at, mine)
            note(card_of(action), at, entry[2] if from_hand(action, code) else ELSEWHERE)
        elif kind == LOG_POP:
            note(entry[2] if entry[2] >= 0 else mine.get(at, -1), at, DECK)
        elif kind == LOG_RAND:
            note(entry[3] if entry[3] >= 0 else mine.get(at, -1), at, entry[1])
        elif kind == LOG_DUMP:
            for card in entry[2]:
                note(card, at, entry[1])
    return found


def handoffs(log: Sequence[Entry], mine: dict[int, int]) -> list[tuple[int, int, int]]:
    """(log index, from seat, to seat) of every hand card handed on that the seat did not see: taken at
    random between two others, or given by 仁徳 between two others."""
    found = []
    for at, entry in enumerate(log):
        if at in mine:
            continue
        if entry[0] == LOG_RAND and entry[2] >= 0:
            found.append((at, entry[1], entry[2]))
        elif entry[0] == LOG_ASK:
            kind, a, _, c, _ = unpack(entry[4])
            if kind == SKILL and a == _RENDE:
                found.append((at, entry[2], c))
    return found


# -- the set-up -------------------------------------------------------------------------------------------
def deal_roles(view: SanguoshaObservation, counts: Sequence[int], rng: random.Random) -> list[int]:
    """Identities per seat: the known ones kept, the table size's others dealt among the unknown seats."""
    left = [role for role, count in enumerate(counts) for _ in range(count)]
    for role in view.roles:
        if role >= 0:
            left.remove(role)
    rng.shuffle(left)
    return [role if role >= 0 else left.pop() for role in view.roles]


def deal_others(view: SanguoshaObservation, lords: int, pool: Sequence[int], k: int, lord: Seat,
                rng: random.Random) -> list[int]:
    """The shuffled non-lord generals whose first k the lord is offered: the seat's own offer if it is the
    lord; else the lord's pick among them when it is not a lord general, none the seat knows elsewhere."""
    if view.seat == lord:
        head = list(view.general_options[lords:])
    else:
        pick = view.generals[lord]
        forced = [pick] if pick >= 0 and pick in pool else []
        banned = {*view.general_options, *(g for s, g in enumerate(view.generals) if s != lord), *forced}
        free = [g for g in pool if g not in banned]
        rng.shuffle(free)
        head = forced + free[:k - len(forced)]
        rng.shuffle(head)
    tail = [g for g in pool if g not in head]
    rng.shuffle(tail)
    return head + tail


def deal_rest(view: SanguoshaObservation, pool: Sequence[int], seats: Sequence[Seat], per: int,
              rng: random.Random) -> list[int]:
    """The shuffled generals dealt `per` to each seat in `seats`: the seat's own offer where it is, each
    known pick somewhere in its chooser's share, the rest at random."""
    slots: list[list[int]] = [[-1] * per for _ in seats]
    fixed: set[int] = set()
    for i, seat in enumerate(seats):
        if seat == view.seat:
            slots[i] = list(view.general_options)
            fixed.update(view.general_options)
        elif view.generals[seat] >= 0:
            slots[i][int(rng.random() * per)] = view.generals[seat]
            fixed.add(view.generals[seat])
    free = [g for g in pool if g not in fixed]
    rng.shuffle(free)
    order = [g if g >= 0 else free.pop() for slot in slots for g in slot]
    return order + free


def _blank(cards: Cards) -> tuple[Cards, list[list[int]]]:
    """A card table whose faces the sketch fills in as tokens are tied (lists under the tuple types), and
    its columns; an untied token looks like no card at all."""
    n = len(cards)
    columns = [[blank] * n for blank in BLANK]
    table = Cards(cards.ids, *(cast("tuple[int, ...]", column) for column in columns))
    return table, columns


# -- 1. the sketch ----------------------------------------------------------------------------------------
class _Sketch(SanguoshaState):
    """The game played again over tokens, each tied to a card when the log shows it (module docstring)."""

    def __init__(self, view: SanguoshaObservation, rng: random.Random, hints: Hints) -> None:
        game: SanguoshaGame = view.game
        self.hints = hints                                     # what earlier deals learnt (Inconsistent.hint)
        self.moves: list[Move] = []                            # the unseen hand-offs so far
        self.view, self.me, self.rng, self.real = view, view.seat, rng, game.cards
        self.book: Sequence[Entry] = view.log
        self.mine: dict[int, int] = dict(view.private_log)
        self.asks = [at for at, entry in enumerate(self.book) if entry[0] == LOG_ASK]
        self.seen = mentions(self.book, self.mine)
        self.passes = handoffs(self.book, self.mine)
        self.at = 0                                            # the next log entry to meet
        size = len(game.cards)
        self.face = [-1] * size                                # token -> the card it is tied to, or -1
        self.group = [0] * size                                # token -> the group its face comes from
        self.faces: list[list[int]] = [[-1] for _ in range(size)]  # token -> its face per shuffle it went through
        self.token: dict[int, int] = {}                        # card -> the token tied to it
        self.pools: list[set[int]] = [set(range(size))]        # group -> cards not tied yet
        self.chances: list[tuple[str, Any]] = []               # shuffles and random picks, for the replay
        self.answers: dict[int, tuple[Action, int, int]] = {}  # log index -> (decision, token, its shuffle)
        self.demand: tuple[Seat, int] | None = None            # the next logged decision's card, still untied
        self.held: tuple[int, Seat, int] | None = None         # or tied ahead: (token, seat, card), undone if need be
        self.handed = (-1, -1)                                 # (token, to whom) the decision just answered hands on
        self.plan: list[int] = []                              # a hidden 観星's tokens, in the order put back
        self.shuffles = 0
        table, self.columns = _blank(game.cards)
        try:
            super().__init__(replace(game, cards=table), random.Random(0), len(view.hp), tap=_Sketch.answer)
        except _Reached:
            return
        raise Inconsistent  # the game ended, or waits at another decision

    # tokens and their faces
    def fits(self, token: int, card: int) -> bool:
        face = self.face[token]
        return face == card if face >= 0 else card in self.pools[self.group[token]]

    def tie(self, token: int, card: int) -> None:
        if self.face[token] == card:
            return
        self.release(card)
        if not self.fits(token, card):
            raise Inconsistent
        self.pools[self.group[token]].remove(card)
        self.face[token] = self.faces[token][-1] = card
        self.token[card] = token
        for column, real in zip(self.columns, (self.real.kind, self.real.suit, self.real.rank, self.real.color,
                                               self.real.slot, self.real.range)):
            column[token] = real[card]

    def release(self, card: int) -> None:
        """A card tied ahead for the next decision shows up elsewhere first: the early tie is undone."""
        if self.held is not None and self.held[2] == card:
            self.untie(self.held[0])
            self.held = None

    def untie(self, token: int) -> None:
        card = self.face[token]
        self.pools[self.group[token]].add(card)
        del self.token[card]
        self.face[token] = self.faces[token][-1] = -1
        for column, blank in zip(self.columns, BLANK):
            column[token] = blank

    def place(self, card: int, tokens: Iterable[int], seat: Seat = -1) -> int:
        """The token among `tokens` (`seat`'s hand) that is `card` (tied to it now if need be; a token
        tied ahead for the next decision gives way, that decision's card tied again elsewhere)."""
        tokens = list(tokens)
        token = self.token.get(card)
        if token is not None and token not in tokens:
            self.release(card)
            token = self.token.get(card)
        if token is not None:
            if token not in tokens:
                raise self.misplaced(card)
            return token
        for token in tokens:
            if self.face[token] < 0 and card in self.pools[self.group[token]]:
                self.tie(token, card)
                return token
        if self.held is None or self.held[0] not in tokens:
            raise Inconsistent(self.blame(seat, card))
        token, seat, wanted = self.held
        self.untie(token)
        self.held = None
        self.tie(token, card)
        self.ahead(seat, wanted)
        return token

    def reaches(self, card: int, source: Seat, dest: Seat) -> tuple[bool, bool]:
        """Whether `card`, staying in `source`'s hand or going to `dest`'s, can be in the hand the log
        next shows it leaving, through the unseen hand-offs logged before then."""
        indices, places = self.seen.get(card, ((), ()))
        i = bisect.bisect_left(indices, self.at)
        if i == len(places) or places[i] < 0:
            return True, True
        until, goal = indices[i], places[i]
        stay, go = {source}, {dest}
        for j in range(bisect.bisect_left(self.passes, (self.at,)), len(self.passes)):
            at, giver, taker = self.passes[j]
            if at >= until:
                break
            for reach in (stay, go):
                if giver in reach:
                    reach.add(taker)
        return goal in stay, goal in go

    def choose(self, at: int, tokens: Sequence[int], source: int, dest: int) -> int:
        """A token moved unseen from `source` to `dest` by log entry `at` (a card tied ahead among them
        untied first, and tied again after, to another); noted, to be blamed if a later card finds no
        token of its group where it is shown."""
        held = self.held
        if held is not None and held[0] in tokens:
            self.release(held[2])
            self.demand = held[1], held[2]
        groups = frozenset(self.group[t] if self.face[t] < 0 else -1 for t in tokens)
        cards = frozenset(self.face[t] for t in tokens)
        loose = self.face[:]  # before the pick ties one ahead
        token, forced = self.pick(at, tokens, source, dest)
        if forced:  # nothing to steer here
            groups, cards = frozenset({-1}), frozenset({loose[token]})
        self.moves.append((at, source, dest, self.group[token] if loose[token] < 0 else -1, loose[token],
                           groups, cards))
        if self.held is None and self.demand is not None:
            self.ahead(*self.demand, handed=(token, dest))
        return token

    def blame(self, seat: Seat, card: int) -> tuple[int, bool, int] | None:
        """The unseen hand-off to steer in the next deal, `card` having found no token of its group in
        `seat`'s hand: one out of the hand that took a token of the group though it could have taken
        another, or into it that brought another though it could have brought one — or, if it had none
        to bring, one that left its giver without. Mostly the latest, else any: deals that keep failing
        try them all (None when none is left to steer)."""
        found: list[tuple[int, bool, int]] = []
        self.trace(seat, self.pool_of(card), len(self.book), 3, found)
        if len(found) > 1 and self.rng.random() < 0.5:
            return found[int(self.rng.random() * len(found))]
        return found[0] if found else None

    def misplaced(self, card: int) -> Inconsistent:
        """A known card is not in the hand that shows it: the next deal flips the latest unseen hand-off
        that had it among others to choose from (moving it, or not)."""
        for at, _, _, _, moved, _, cards in reversed(self.moves):
            if card in cards and len(cards) > 1 and -1 - card not in self.hints.get(at, {}):
                return Inconsistent((at, moved != card, -1 - card))
        return Inconsistent()

    def trace(self, seat: Seat, group: int, before: int, depth: int, found: list[tuple[int, bool, int]]) -> None:
        for at, source, dest, moved, _, groups, _ in reversed(self.moves):
            if at >= before:
                continue
            fresh = group not in self.hints.get(at, {})  # steered once for the group, then only looked through
            if fresh and source == seat and moved == group and len(groups) > 1:
                found.append((at, False, group))
            elif dest == seat and moved != group:
                if fresh and group in groups:
                    found.append((at, True, group))
                elif depth > 0 and source >= 0:
                    self.trace(source, group, at, depth - 1, found)

    def pick(self, at: int, tokens: Sequence[int], source: int, dest: int) -> tuple[int, bool]:
        """The token, and whether it had to be it: a known card that can reach where the log shows it
        next only by going goes; one that can only by staying stays. Else as earlier deals' hints say;
        else the next decision's card if `dest` plays it; else uniformly among the tokens that least
        deepen the two hands' shortfall of untied tokens for the hidden cards the log shows them playing
        later (a known card not shown again deepens nothing; leaving `source` short counts double:
        `dest` may yet draw one)."""
        staying, cost = [], {}
        for token in tokens:
            if self.face[token] >= 0:
                stay, go = self.reaches(self.face[token], source, dest)
                if go and not stay:
                    return token, True
                if stay and not go:
                    staying.append(token)
        steered = [t for t in tokens if t not in staying and all(
            (self.face[t] == -1 - key if key < 0 else self.face[t] < 0 and self.group[t] == key) == take
            for key, take in self.hints.get(at, {}).items())]
        if steered and len(steered) < len(tokens):
            return steered[int(self.rng.random() * len(steered))], False
        short = self.shortfall(source) if source >= 0 else {}
        wanted = self.shortfall(dest) if dest >= 0 else {}
        for token in tokens:
            group = self.group[token]
            cost[token] = 0 if self.face[token] >= 0 else \
                2 * (short.get(group, -1) >= 0) - (wanted.get(group, 0) > 0)
        free = [t for t in tokens if t not in staying] or list(tokens)
        least = min(cost[t] for t in free)
        free = [t for t in free if cost[t] == least]
        if self.demand is not None and self.demand[0] == dest:
            for token in free:
                if self.face[token] < 0 and self.fits(token, self.demand[1]):
                    self.tie_ahead(token)
                    return token, False
        return free[int(self.rng.random() * len(free))], False

    def shortfall(self, seat: Seat) -> dict[int, int]:
        """Per group: how many more of its hidden cards the log shows leaving `seat`'s hand later than the
        seat holds untied tokens of it (≥ 0: it cannot spare one)."""
        lack: dict[int, int] = {}
        for card, (indices, places) in self.seen.items():
            if card in self.token:
                continue
            i = bisect.bisect_left(indices, self.at)
            if i < len(places) and places[i] == seat:
                group = self.pool_of(card)
                lack[group] = lack.get(group, 0) + 1
        for token in self.hands[seat]:
            if self.face[token] < 0:
                lack[self.group[token]] = lack.get(self.group[token], 0) - 1
        return lack

    def pool_of(self, card: int) -> int:
        return next((g for g, pool in enumerate(self.pools) if card in pool), -1)

    def stuck(self) -> Inconsistent:
        """The replay left the log: most likely the next decision's card never reached its hand — a
        hidden card (self.demand), or a known one that went elsewhere."""
        if self.demand is not None:
            return Inconsistent(self.blame(*self.demand))
        i = bisect.bisect_left(self.asks, self.at)
        if i < len(self.asks):
            entry = self.book[self.asks[i]]
            card = card_of(whole(entry, self.asks[i], self.mine))
            token = self.token.get(card)
            if token is not None and from_hand(entry[4], entry[3][0]) and token not in self.owned(entry[2]):
                return self.misplaced(card)
        return Inconsistent()

    def entry(self, kind: int) -> tuple[int, Entry]:
        at = self.at
        if at >= len(self.book) or self.book[at][0] != kind:
            raise self.stuck()
        self.at += 1
        return at, self.book[at]

    def shown_to_me(self, at: int, public: int) -> int:
        return public if public >= 0 else self.mine.get(at, -1)

    # the chance and card events of the flow
    def shuffle(self, cards: list[int]) -> None:
        count, self.shuffles = self.shuffles, self.shuffles + 1
        if count >= 3:
            self.regroup(cards, first=count == 3)
            return
        rules, gens, view = self.rules, self.gens, self.view
        if count == 0:
            order = deal_roles(view, rules.identity_table[self.n], self.rng)
        elif count == 1:
            lords = sum(gens.lord)
            order = deal_others(view, lords, cards, rules.lord_choices_random, self.role.index(LORD), self.rng)
        else:
            seats = self.order_from(self.lord)[1:]
            per = min(rules.general_choices, len(cards) // max(1, self.n - 1))
            order = deal_rest(view, cards, seats, per, self.rng)
        if sorted(order) != sorted(cards):
            raise Inconsistent
        cards[:] = order
        self.chances.append(("cards", list(order)))

    def regroup(self, tokens: list[int], first: bool) -> None:
        """The deck is made: of every token (untied, group 0), or of the discard pile's, all shown, which
        start a new group of their faces. Their order does not matter: untied tokens are alike."""
        if not first:
            if any(self.face[t] < 0 for t in tokens):
                raise Inconsistent
            group = len(self.pools)
            self.pools.append({self.face[t] for t in tokens})
            for token in tokens:
                del self.token[self.face[token]]
                self.face[token] = -1
                self.group[token] = group
                self.faces[token].append(-1)
                for column, blank in zip(self.columns, BLANK):
                    column[token] = blank
            if self.demand is None and self.held is None:
                self.expect()  # the next decision's card may have been on the pile, and be drawn now
        self.chances.append(("tokens", [(t, len(self.faces[t]) - 1) for t in tokens]))

    def random_hand_card(self, victim: Seat, taker: Seat) -> int:
        at, entry = self.entry(LOG_RAND)
        if entry[1] != victim or entry[2] != taker:
            raise Inconsistent
        hand = self.hands[victim]
        card = self.shown_to_me(at, entry[3])
        token = self.place(card, hand, victim) if card >= 0 else self.choose(at, hand, victim, taker)
        self.chances.append(("index", hand.index(token)))
        return token

    def randbelow(self, n: int) -> int:
        raise Inconsistent  # every random pick goes through random_hand_card

    def note_pop(self, viewer: Seat, card: int, why: int) -> None:
        at, entry = self.entry(LOG_POP)
        if entry[1] != viewer or entry[3] != why:
            raise Inconsistent
        face = self.shown_to_me(at, entry[2])
        if face >= 0:
            self.tie(card, face)
        elif why == DRAW and self.demand is not None and self.demand[0] == viewer and self.fits(card, self.demand[1]):
            self.tie_ahead(card)

    def note_dump(self, seat: Seat, cards: list[int]) -> None:
        _, entry = self.entry(LOG_DUMP)
        if entry[1] != seat or len(entry[2]) != len(cards):
            raise Inconsistent
        left = list(cards)
        for face in entry[2]:
            left.remove(self.place(face, left, seat))
        cards.sort(key=self.face.__getitem__)  # face up in card order, as the flow does (it sorted tokens)

    def note_ask(self, seat: Seat, prompt: Prompt, action: Action) -> None:
        return  # the sketch keeps no log of its own

    # decisions
    @staticmethod
    def answer(st: SanguoshaState, seat: Seat, legal: list[Action], prompt: Prompt) -> Action | None:
        assert isinstance(st, _Sketch)
        return st.decide(seat, legal, prompt)

    def decide(self, seat: Seat, legal: list[Action], prompt: Prompt) -> Action:
        """The logged decision when this is it; at the log's end, stop at the seat's pending decision;
        else a pass that the log does not show (a seat asked only because of a card it may not hold)."""
        shown = self.as_logged(prompt)
        if self.at < len(self.book):
            entry = self.book[self.at]
            if entry[0] == LOG_ASK and entry[1] == self.turns and entry[2] == seat and entry[3] == shown:
                self.at += 1
                action = self.resolve(self.at - 1, entry, legal)
                self.expect()
                return action
        elif (seat == self.me) == self.view.deciding and shown == self.view.prompt:
            raise _Reached
        if prompt[0] in HIDDEN_PASSES:
            return PASS_ACTION
        raise self.stuck()

    def as_logged(self, prompt: Prompt) -> Prompt:
        """The prompt with its card (鬼才's judgement card) as the card, not the token."""
        if prompt[0] == P_TRIGGER and prompt[1] == _GUICAI:
            return prompt[0], prompt[1], prompt[2], self.face[prompt[3]]
        return prompt

    def resolve(self, at: int, entry: Entry, legal: list[Action]) -> Action:
        seat, prompt = entry[2], entry[3]
        shown: Action = entry[4]
        code = prompt[0]
        if code == P_GENERAL:
            general = self.view.generals[seat]
            action = act(GENERAL, general) if general >= 0 else legal[int(self.rng.random() * len(legal))]
            if action not in legal:
                raise Inconsistent
            self.answers[at] = (action, -1, 0)
            return action
        if is_masked(shown, code):
            return self.hand_over(at, seat, shown, code, legal)
        card = card_of(shown)
        if card < 0:
            return shown
        token = self.token.get(card)
        if token is None:
            token = self.place(card, self.owned(seat), seat)
        action = with_card(shown, token)
        if action not in legal and token not in self.owned(seat):
            raise self.misplaced(card)
        return action

    def hand_over(self, at: int, seat: Seat, shown: Action, code: int, legal: list[Action]) -> Action:
        """A card moved unseen (仁徳, 遺計, 観星): the one the seat saw if it did, else one chosen."""
        kind, a, b, c, _ = unpack(shown)
        if kind == SKILL:
            tokens, dest = list(self.hands[seat]), c
        else:
            tokens, dest = sorted({card_of(action) for action in legal}), (b if kind == GIVE else DECK)
        whole = self.mine.get(at)
        if whole is not None:
            token = self.place(card_of(whole), tokens, seat if kind == SKILL else -1)
        elif code == P_GUANXING:
            if len(self.plan) != len(tokens):
                self.plan = self.stack(at, tokens)
            token = self.plan.pop(0)
        else:
            token = self.choose(at, tokens, seat if kind == SKILL else ELSEWHERE, dest)
        action = with_card(shown, token)
        if action not in legal:
            raise Inconsistent
        self.answers[at] = (action, token, len(self.faces[token]) - 1)
        self.handed = token, dest
        return action

    def stack(self, at: int, tokens: Sequence[int]) -> list[int]:
        """The order a hidden 観星 puts its tokens back in: a token goes where a later draw the seat saw
        shows a card it can be, or where a seat short of its group draws it unseen (the first draws
        served first). The log tells where
        each goes (top or bottom) and every card taken off the deck since, so each place is followed
        down to its draw (lost if another hidden 観星 takes it)."""
        if at + len(tokens) > len(self.book):  # the log ends amid it: nothing drawn after to go by
            order = list(tokens)
            self.rng.shuffle(order)
            return order
        wheres = [unpack(self.book[at + i][4])[2] for i in range(len(tokens))]
        deck: list[int] = [-1] * len(self.deck)
        for i, where in enumerate(wheres):
            deck.insert(len(deck) if where == 0 else 0, i)
        shown, drawer, when = [-1] * len(tokens), [-1] * len(tokens), [len(self.book)] * len(tokens)
        for j in range(at + len(tokens), len(self.book)):
            entry = self.book[j]
            if entry[0] == LOG_POP:
                if not deck:
                    break
                slot = deck.pop()
                if slot >= 0:
                    shown[slot] = self.shown_to_me(j, entry[2])
                    drawer[slot] = entry[1] if entry[3] == DRAW else -1
                    when[slot] = j
            elif entry[0] == LOG_ASK and entry[3][0] == P_GUANXING:
                deck.insert(len(deck) if unpack(entry[4])[2] == 0 else 0, -1)
        left = list(tokens)
        self.rng.shuffle(left)
        order = [-1] * len(tokens)
        lacks: dict[Seat, dict[int, int]] = {}
        for i in sorted(range(len(tokens)), key=lambda i: (shown[i] < 0, drawer[i] < 0, when[i])):
            if shown[i] >= 0:
                fitting = [t for t in left if self.fits(t, shown[i])]
            elif drawer[i] >= 0:
                lack = lacks.setdefault(drawer[i], self.shortfall(drawer[i]))
                fitting = [t for t in left if self.face[t] < 0 and lack.get(self.group[t], 0) > 0]
                if fitting:
                    lack[self.group[fitting[0]]] -= 1
            else:
                fitting = []
            order[i] = (fitting or left)[0]
            left.remove(order[i])
        return order

    def expect(self) -> None:
        """Tie the next logged decision's card, if hidden so far, to a token of its seat's hand now —
        before the engine decides whether that seat is asked at all — or, failing one, to the next
        token the seat draws or is handed (self.demand). The tie is held: until that decision, a card
        shown leaving the hand may take the token, and the card is tied again."""
        self.demand = self.held = None
        handed, self.handed = self.handed, (-1, -1)
        i = bisect.bisect_left(self.asks, self.at)
        if i == len(self.asks):
            return
        at = self.asks[i]
        entry = self.book[at]
        action = whole(entry, at, self.mine)
        card = card_of(action)
        if card >= 0 and card not in self.token and from_hand(action, entry[3][0]):
            self.ahead(entry[2], card, handed)

    def ahead(self, seat: Seat, card: int, handed: tuple[int, Seat] = (-1, -1)) -> None:
        """Tie `card` ahead to a token of `seat`'s hand — counting the one being handed (token, to whom)
        as already where it goes — else wait for one (self.demand)."""
        self.demand = (seat, card)
        moving, dest = handed
        tokens = [t for t in self.hands[seat] if t != moving] + ([moving] if dest == seat else [])
        for token in tokens:
            if self.face[token] < 0 and self.fits(token, card):
                self.tie_ahead(token)
                return

    def tie_ahead(self, token: int) -> None:
        assert self.demand is not None
        seat, card = self.demand
        self.tie(token, card)
        self.demand, self.held = None, (token, seat, card)

    # the end
    def settle(self) -> tuple[list[object], dict[int, Action]]:
        """Faces for the untied tokens, group by group at random; the replay's chance and decisions."""
        for group, pool in enumerate(self.pools):
            loose = [t for t in range(len(self.face)) if self.face[t] < 0 and self.group[t] == group]
            cards = sorted(pool)
            if len(cards) != len(loose):
                raise Inconsistent
            self.rng.shuffle(cards)
            for token, card in zip(loose, cards):
                self.faces[token][-1] = card
        chances: list[object] = []
        for kind, value in self.chances:
            if kind == "tokens":
                chances.append([self.faces[t][shuffle] for t, shuffle in value])
            else:
                chances.append(value)
        answers = {at: action if token < 0 else with_card(action, self.faces[token][shuffle])
                   for at, (action, token, shuffle) in self.answers.items()}
        return chances, answers


# -- 2. the game ------------------------------------------------------------------------------------------
class _Follower:
    """Answers a replaying state's decisions from the log (and the sketch's choices), keeping the ones a
    player would have been asked for as the state's history."""

    def __init__(self, view: SanguoshaObservation, answers: dict[int, Action]) -> None:
        self.book, self.answers, self.me, self.prompt = view.log, answers, view.seat, view.prompt
        self.deciding = view.deciding
        self.history: list[Action] = []

    def __call__(self, st: SanguoshaState, seat: Seat, legal: list[Action], prompt: Prompt) -> Action | None:
        at = len(st.log)  # the state logs as it goes: its log so far is the real one's start
        if at < len(self.book):
            entry = self.book[at]
            if entry[0] == LOG_ASK and entry[1] == st.turns and entry[2] == seat and entry[3] == prompt:
                return self.take(self.answers.get(at, entry[4]), legal)
        elif (seat == self.me) == self.deciding and prompt == self.prompt:
            if len(legal) < 2:
                raise Inconsistent  # no decision here in this deal (another seat's hand lacks the options)
            return None
        if prompt[0] in HIDDEN_PASSES:
            return self.take(PASS_ACTION, legal)
        raise Inconsistent

    def take(self, action: Action, legal: list[Action]) -> Action:
        if action not in legal:
            raise Inconsistent
        if len(legal) > 1:
            self.history.append(action)
        return action


def _follow(view: SanguoshaObservation, chances: list[object], answers: dict[int, Action],
            chance: random.Random) -> SanguoshaState:
    """The dealt game: a plain state replayed over the sketch's faces, `chance` its generator from now on."""
    follower = _Follower(view, answers)
    state = SanguoshaState(view.game, chance, len(view.hp), replay=chances, tap=follower)
    if state.over or chances:
        raise Inconsistent
    state.tap, state._replay, state.history = None, None, follower.history
    if state.observation(view.seat) != view:
        raise Inconsistent
    return state
