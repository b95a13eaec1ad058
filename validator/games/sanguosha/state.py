"""三国殺 (sanguosha): the rules game (built from the deck model) and the state — zones, the decision
driver, chance, and the small queries (distance, attack range, who may be targeted).

The rules run as one generator (flow.py) that yields at every decision: the pending decision is its
suspended frame stack (a 殺 inside a 決闘 inside a turn), `seat`/`legal`/`prompt` describe the top one,
and apply_action sends the chosen action in. Every chance draw (shuffles, random hand picks) is logged,
so clone() rebuilds an independent copy by replaying the actions over the logged draws.

A frame stack cannot be copied or dealt, only replayed; so the state also keeps the table talk: a
public log of what everyone saw happen (decisions with the card each seat may not see masked, cards
drawn, judged, taken at random, thrown away by the dead) and per seat the private half of it (its own
masked choices, the cards it drew or was handed). A seat's observation carries both, and
determinize.py replays them into a game that seat cannot tell from this one.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...engine.api import TERMINAL, Action, Outcome, Seat
from ...engine.chance import shuffle, shuffle_bits
from ...engine.match import FixedGamesMatch
from ...model import Game as GameModel
from .rules import (
    ACTION_KINDS,
    ARMOR_SLOT,
    EFFECT_INDEX,
    GAME,
    GENERAL,
    GIVE,
    K_SHIFT,
    LORD,
    MINUS_SLOT,
    NONE,
    P_GENERAL,
    P_GUANXING,
    P_PLAY,
    P_SHA,
    P_SHAN,
    P_TAO,
    P_WUXIE,
    PASS_ACTION,
    PICK,
    PLUS_SLOT,
    ROLE_NAMES,
    SKILL,
    WEAPON_SLOT,
    SanguoshaObservation,
    SanguoshaRules,
    act,
    unpack,
)
from .tables import Cards, Generals, model_rows

COUNTERS = ("reshuffles", "deaths", "damage", "healed", "sha_used", "shan_played", "tricks_used", "wuxie_played",
            "judgements", "skills_used", "cards_drawn", "turns_skipped_lebu", "shandian_hits", "lord_penalties",
            "rebel_rewards")


# The public log's entries (SanguoshaState.log), each a tuple starting with its kind:
LOG_ASK = 0    # (LOG_ASK, turn, seat, prompt, action): a decision (also one taken for want of a choice)
LOG_POP = 1    # (LOG_POP, viewer, card, why): the deck's top card, seen by all (viewer PUBLIC) or by one
LOG_RAND = 2   # (LOG_RAND, victim, taker, card): a hand card taken at random, seen by all (taker PUBLIC) or two
LOG_DUMP = 3   # (LOG_DUMP, seat, cards): hand cards thrown face up on the pile all at once (death, penalty)
PUBLIC = -1    # a viewer or taker: everyone sees the card; a hidden card is logged as -1
DRAW, JUDGE, LOOK = range(3)  # why a card left the deck: drawn, judged or turned up (五穀), looked at (観星 遺計)
# Passes on prompts that come only to a seat that could answer (閃 殺 桃 無懈可撃, a play phase with a
# play): at the table everybody is asked and says no, so such a pass is not logged (it would tell).
HIDDEN_PASSES = frozenset({P_SHAN, P_SHA, P_TAO, P_WUXIE, P_PLAY})
_RENDE = EFFECT_INDEX["rende"]
_MAYBE_MASKED = frozenset({GIVE, SKILL})

Tap = Callable[["SanguoshaState", Seat, list[Action], tuple[int, int, int, int]], "Action | None"]


def masked(action: Action, code: int) -> tuple[Action, Seat]:
    """The public face of a decision and the one other seat that sees it whole (-1: none): a general
    is chosen face down, a 仁徳 or 遺計 card is handed over unseen by the rest, 観星 puts cards back
    unseen (only where: top or bottom). Any other decision is public as it is."""
    kind, a, b, c, _ = unpack(action)
    if code == P_GENERAL:
        return act(GENERAL), -1
    if code == P_GUANXING:
        return act(PICK, NONE, b), -1
    if kind == GIVE:
        return act(GIVE, NONE, b), b
    if kind == SKILL and a == _RENDE:
        return act(SKILL, a, NONE, c), c
    return action, -1


class GameOver(Exception):
    """Raised through the flow when a death ends the game."""


class TurnEnd(Exception):
    """Raised through the flow when the turn player dies: the turn ends at once."""


@dataclass(frozen=True)
class SanguoshaGame(FixedGamesMatch):
    """Immutable rules, card and general tables; deals new games."""

    engine: ClassVar[str] = "sanguosha"
    team_victory: ClassVar[bool] = True
    name: str
    rules: SanguoshaRules
    cards: Cards
    generals: Generals
    min_players: int
    max_players: int
    play_minutes: tuple[int, int]
    action_kinds: tuple[str, ...] = ACTION_KINDS

    @classmethod
    def from_model(cls, model: GameModel) -> SanguoshaGame:
        rules = SanguoshaRules.from_mapping(model.rules)
        cards = Cards.from_rows(model_rows(model, "card"), rules.ex_cards)
        generals = Generals.from_rows(model_rows(model, "kingdom"))
        return cls.build(model.id, rules, cards, generals, model.players, model.play_minutes)

    @classmethod
    def build(cls, name: str, rules: SanguoshaRules, cards: Cards, generals: Generals, players: tuple[int, int],
              play_minutes: tuple[int, int]) -> SanguoshaGame:
        low, high = players
        missing = [n for n in range(low, high + 1) if n not in rules.identity_table]
        if missing:
            raise ValueError(f"{name}: identity_table has no row for {missing} players")
        if not any(generals.lord) or len(generals) < high + rules.lord_choices_random:
            raise ValueError(f"{name}: {len(generals)} generals cannot serve {high} players")
        return cls(name, rules, cards, generals, low, high, play_minutes)

    def new_initial_state(self, rng: random.Random, num_players: int, *, first_player: Seat | None = None,
                          previous_scores: Sequence[Sequence[int]] = ()) -> SanguoshaState:
        if not self.min_players <= num_players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {num_players}")
        return SanguoshaState(self, rng, num_players)

    def action_kind(self, action: Action) -> int:
        return action >> K_SHIFT


Flow = Generator[None, int, None]


class SanguoshaState:
    """One game in progress; apply_action mutates it in place, clone() replays into a copy (with its own
    copy of the chance generator, so the two play on independently and alike)."""

    def __init__(self, game: SanguoshaGame, chance: random.Random, num_players: int,
                 replay: list[object] | None = None, tap: Tap | None = None) -> None:
        from .flow import main

        self.game, self.chance, self.n = game, chance, num_players
        self.tap = tap  # answers decisions in place of the caller while determinize.py rebuilds a game
        self.rules, self.cards, self.gens = game.rules, game.cards, game.generals
        n = num_players
        cards = self.cards
        self.kind, self.suit, self.rank, self.color = cards.kind, cards.suit, cards.rank, cards.color
        self.deck: list[int] = list(range(len(self.cards)))
        self.discard: list[int] = []
        self.proc: list[int] = []                    # cards being used, played or judged (処理中)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.equip: list[list[int]] = [[-1, -1, -1, -1] for _ in range(n)]
        self.judge: list[list[int]] = [[] for _ in range(n)]
        self.judge_as: dict[int, int] = {}           # card in a judge area -> the delayed trick it acts as
        self.role: list[int] = [0] * n
        self.general: list[int] = [-1] * n
        self.options: list[tuple[int, ...]] = [() for _ in range(n)]
        self.skills: list[frozenset[str]] = [frozenset()] * n
        self.hp: list[int] = [0] * n
        self.max_hp: list[int] = [0] * n
        self.alive: list[bool] = [True] * n
        self.living: list[Seat] = list(range(n))     # living seats in seat order
        self.lord: Seat = 0
        self.turn_player: Seat = -1
        self.turns = 0
        self.sha_used = 0
        self.sha_in_play = False                     # 克己: 殺 used or played during this play phase
        self.zhuge_used = False                      # a 殺 beyond the limit was used (諸葛連弩 or 咆哮)
        self.luoyi = False
        self.once: set[str] = set()                  # play-phase skills used this turn
        self.rende_given = 0
        self.hostility = [0] * n                     # for the heuristic: damage to the lord's side minus to foes
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.winners: tuple[Seat, ...] = ()
        self.reason = ""
        self.over = False
        self.history: list[Action] = []
        self.chance_log: list[object] = []
        self.log: list[tuple[Any, ...]] = []           # the public log (LOG_* entries)
        self.private: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per seat: (log index, card or action)
        self._replay = replay
        self.seat: Seat = 0
        self.legal: list[Action] = []
        self.prompt: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._bits = shuffle_bits(len(self.cards))
        self.flow: Flow = main(self)
        self._send(None)

    # -- chance -----------------------------------------------------------------------------------
    def shuffle(self, cards: list[int]) -> None:
        """Shuffle in place with the chance generator (or the replayed order), logging the result."""
        if self._replay is not None:
            order = self._replay.pop(0)
            assert isinstance(order, list)
            cards[:] = order
        else:
            shuffle(self.chance, cards, self._bits if len(cards) == len(self._bits) else None)
        self.chance_log.append(cards[:])

    def randbelow(self, n: int) -> int:
        """A uniform index below n from the chance generator (or the replay), logged."""
        if self._replay is not None:
            drawn = self._replay.pop(0)
            assert isinstance(drawn, int)
            value = drawn
        else:
            value = int(self.chance.random() * n)
        self.chance_log.append(value)
        return value

    def random_hand_card(self, victim: Seat, taker: Seat) -> int:
        """A card of the victim's hand at random, logged as seen by the taker and the victim (by all
        when `taker` is PUBLIC: the card goes face up)."""
        hand = self.hands[victim]
        card = hand[self.randbelow(len(hand))]
        if taker == PUBLIC:
            self.log.append((LOG_RAND, victim, PUBLIC, card))
        else:
            at = len(self.log)
            self.private[victim].append((at, card))
            self.private[taker].append((at, card))
            self.log.append((LOG_RAND, victim, taker, -1))
        return card

    # -- the table talk -----------------------------------------------------------------------------
    def note_ask(self, seat: Seat, prompt: tuple[int, int, int, int], action: Action) -> None:
        """Log a decision as the table sees it (a pass that would tell a seat could answer: not at all)."""
        code = prompt[0]
        if action == PASS_ACTION and code in HIDDEN_PASSES:
            return
        shown = action
        if code == P_GENERAL or code == P_GUANXING or action >> K_SHIFT in _MAYBE_MASKED:
            shown, also = masked(action, code)
            if shown != action:
                at = len(self.log)
                self.private[seat].append((at, action))
                if also >= 0 and also != seat:
                    self.private[also].append((at, action))
        self.log.append((LOG_ASK, self.turns, seat, prompt, shown))

    def note_pop(self, viewer: Seat, card: int, why: int) -> None:
        """Log the deck's top card leaving it, seen by everyone or by `viewer` alone."""
        if viewer == PUBLIC:
            self.log.append((LOG_POP, PUBLIC, card, why))
        else:
            self.private[viewer].append((len(self.log), card))
            self.log.append((LOG_POP, viewer, -1, why))

    def note_dump(self, seat: Seat, cards: list[int]) -> None:
        """Log a hand going face up onto the discard pile at once (in card order: see flow.die)."""
        self.log.append((LOG_DUMP, seat, tuple(cards)))

    # -- driver -----------------------------------------------------------------------------------
    def _send(self, action: Action | None) -> None:
        try:
            self.flow.send(action)  # type: ignore[arg-type]
        except GameOver:
            self.over = True
            self.legal = []
            self.seat = TERMINAL

    def apply_action(self, action: Action) -> None:
        if self.over:
            raise ValueError("the game is over")
        if action not in self.legal:
            raise ValueError(f"illegal action {self.action_to_string(action)} ({action})")
        self.history.append(action)
        self._send(action)

    def clone(self) -> SanguoshaState:
        chance = random.Random()
        chance.setstate(self.chance.getstate())
        copy = SanguoshaState(self.game, chance, self.n, list(self.chance_log))
        for action in self.history:
            copy.apply_action(action)
        copy._replay = None
        return copy

    def current_player(self) -> Seat:
        return TERMINAL if self.over else self.seat

    def legal_actions(self) -> Sequence[Action]:
        return self.legal

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> tuple[int, ...]:
        won = set(self.winners)
        return tuple(1 if seat in won else 0 for seat in range(self.n))

    def outcome(self) -> Outcome:
        if not self.over:
            raise ValueError("the game is not over")
        return Outcome(self.returns(), self.winners, self.reason, self.turns)

    def turn_number(self) -> int:
        return max(1, self.turns)

    def counters(self) -> Mapping[str, int]:
        return self.counts

    def seat_labels(self) -> dict[str, tuple[str, ...]]:
        """Each seat's identity and general, so the report can compare win rates by them."""
        return {"身分": tuple(ROLE_NAMES[r] for r in self.role),
                "武将": tuple(self.gens.names[g] if g >= 0 else "" for g in self.general)}

    # -- queries ----------------------------------------------------------------------------------
    def dist(self, source: Seat, target: Seat) -> int:
        """Distance with horses and 馬術 (the pure rule: rules.distance)."""
        if source == target:
            return 0
        living = self.living
        gap = living.index(source) - living.index(target)
        if gap < 0:
            gap = -gap
        gap = min(gap, len(living) - gap)
        if self.equip[source][MINUS_SLOT] >= 0:
            gap -= 1
        if "mashu" in self.skills[source]:
            gap -= 1
        if self.equip[target][PLUS_SLOT] >= 0:
            gap += 1
        return gap if gap > 1 else 1

    def attack_range(self, seat: Seat, without: int = -1) -> int:
        weapon = self.equip[seat][WEAPON_SLOT]
        return self.cards.range[weapon] if weapon >= 0 and weapon != without else 1

    def weapon(self, seat: Seat) -> int:
        """The slug index of the seat's weapon, or -1."""
        card = self.equip[seat][WEAPON_SLOT]
        return self.kind[card] if card >= 0 else -1

    def armor(self, seat: Seat) -> int:
        card = self.equip[seat][ARMOR_SLOT]
        return self.kind[card] if card >= 0 else -1

    def has_cards(self, seat: Seat, judge: bool = False) -> bool:
        if self.hands[seat] or self.equip[seat] != [-1, -1, -1, -1]:
            return True
        return judge and bool(self.judge[seat])

    def owned(self, seat: Seat) -> list[int]:
        """Hand and equipment cards (what 'a card of yours' means)."""
        return self.hands[seat] + [c for c in self.equip[seat] if c >= 0]

    def order_from(self, seat: Seat) -> list[Seat]:
        """Living seats in seat order starting with `seat` (itself first when alive)."""
        return [(seat + i) % self.n for i in range(self.n) if self.alive[(seat + i) % self.n]]

    def next_alive(self, seat: Seat) -> Seat:
        for i in range(1, self.n + 1):
            if self.alive[(seat + i) % self.n]:
                return (seat + i) % self.n
        return seat

    def is_lord(self, seat: Seat) -> bool:
        return self.role[seat] == LORD

    # -- views ------------------------------------------------------------------------------------
    def observation(self, player: Seat) -> SanguoshaObservation:
        from .views import observe

        return observe(self, player)

    def action_to_string(self, action: Action) -> str:
        from .views import describe

        return describe(self, action)

    def check_invariants(self) -> None:
        from .invariants import check

        check(self)


_ = GAME
