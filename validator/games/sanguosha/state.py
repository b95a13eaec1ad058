"""三国殺 (sanguosha): the state of one game — zones, identities, generals, HP, the stack of pending
rules steps (stack.py) and the decision they wait for — and the small queries the rules ask of it
(distance, attack range, who holds what).

Everything here is plain data: lists of ints, the frames' fields, the chance generator. clone() copies
it in microseconds and a state pickles. The chance generator is shared by a state and its clones until
one of them draws, which first takes its own copy (so clones play on independently and alike, and a
clone that never draws costs no copy).

What each seat knows of the cards in other hands is kept per card (`known`: a bit per seat that saw
the card go into the hand it is in), so determinize.py can deal a seat's unseen cards anew and leave
the ones it knows where they are.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ...engine.api import TERMINAL, Action, Outcome, Seat
from ...engine.chance import shuffle, shuffle_bits
from .invariants import check
from .rules import ARMOR_SLOT, IDENTITY_KIND, LORD, MINUS_SLOT, PLUS_SLOT, ROLE_NAMES, WEAPON_SLOT, SanguoshaObservation
from .stack import ASK, Frame, GameOver, Got, Halt, TurnEnd
from .views import describe, observe

if TYPE_CHECKING:
    from .game import SanguoshaGame

COUNTERS = ("reshuffles", "deaths", "damage", "healed", "sha_used", "shan_played", "tricks_used", "wuxie_played",
            "judgements", "skills_used", "cards_drawn", "turns_skipped_lebu", "shandian_hits", "lord_penalties",
            "rebel_rewards")


class SanguoshaState:
    """One game in progress; apply_action mutates it in place, clone() copies it."""

    def __init__(self, game: SanguoshaGame, chance: random.Random, num_players: int, *, blank: bool = False) -> None:
        self.game, self.chance, self.n = game, chance, num_players
        if blank:  # clone() sets every other field
            return
        self.chance_shared = False                   # the generator is also a clone's: copy it before drawing
        self.rules, self.cards, self.gens = game.rules, game.cards, game.generals
        n = num_players
        cards = self.cards
        self.kind, self.suit, self.rank, self.color = cards.kind, cards.suit, cards.rank, cards.color
        self.deck: list[int] = list(range(len(cards)))
        self.discard: list[int] = []
        self.proc: list[int] = []                    # cards being used, played or judged (処理中)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[int] = [0] * len(cards)     # per card in a hand: the seats that know it is there (bits)
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
        self.once: frozenset[str] = frozenset()      # play-phase skills used this turn
        self.rende_given = 0
        self.hostility = [0] * n                     # for the heuristic: damage to the lord's side minus to foes
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.winners: tuple[Seat, ...] = ()
        self.reason = ""
        self.over = False
        self.steps = 0                               # actions applied (an observation names the step it shows)
        self.stack: list[Frame] = []
        self.ret: Got = None                         # what the last finished frame returned
        self.seat: Seat = 0
        self.legal: list[Action] = []
        self.prompt: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._bits = shuffle_bits(len(cards))

    # -- chance -----------------------------------------------------------------------------------
    def _own_chance(self) -> random.Random:
        if self.chance_shared:
            own = random.Random()
            own.setstate(self.chance.getstate())
            self.chance, self.chance_shared = own, False
        return self.chance

    def shuffle(self, cards: list[int]) -> None:
        """Shuffle in place with the chance generator."""
        shuffle(self._own_chance(), cards, self._bits if len(cards) == len(self._bits) else None)

    def randbelow(self, n: int) -> int:
        """A uniform index below n from the chance generator."""
        return int(self._own_chance().random() * n)

    def random_hand_card(self, victim: Seat) -> int:
        """A card of the victim's hand at random; the caller moves it and says who sees where it goes
        (flow.lose's `mask`: the taker and the victim, or everyone when it goes face up)."""
        hand = self.hands[victim]
        return hand[self.randbelow(len(hand))]

    # -- the stack ----------------------------------------------------------------------------------
    def ask(self, seat: Seat, legal: list[Action], prompt: tuple[int, int, int, int]) -> Frame:
        """Set up `seat`'s decision among `legal` and return ASK (a single legal action is taken at once)."""
        self.seat, self.legal, self.prompt = seat, legal, prompt
        return ASK

    def done(self, value: Got = None) -> Frame | None:
        """Finish the running frame with `value` (what the frame below receives): a step ends with
        `return st.done(value)`, the None that tells the stack the frame is finished."""
        self.ret = value
        return None

    def start(self, *frames: Frame) -> None:
        """Run the rules from `frames` (the set-up, or a position's turn loop with its turn above it) to the
        first decision."""
        self.stack = list(frames)
        self._run(None)

    def begin(self, frame: Frame | None) -> None:
        """Run one rules step on its own (claims.py, tests): it runs over a Halt, so the state waits at the
        step's decisions (answer them with apply_action) and has no legal action once the step is done."""
        if frame is not None:
            self.start(Halt(), frame)
        else:
            self.stack, self.legal = [], []

    def _run(self, got: Got) -> None:
        stack = self.stack
        push, pop = stack.append, stack.pop
        while True:
            try:
                while True:
                    child = stack[-1].step(self, got)
                    if child is None:
                        pop()
                        got = self.ret
                    elif child is ASK:
                        legal = self.legal
                        if len(legal) != 1:
                            return
                        got = legal[0]
                    else:
                        push(child)
                        got = None
            except GameOver:
                self.over, self.legal, self.seat = True, [], TERMINAL
                stack.clear()
                return
            except TurnEnd:
                while not stack[-1].turn_host:
                    stack.pop()
                got = None

    def play(self, action: Action) -> None:
        """apply_action for an action known to be legal (the engine's own playout loop)."""
        self.steps += 1
        self._run(action)

    def apply_action(self, action: Action) -> None:
        if self.over:
            raise ValueError("the game is over")
        if action not in self.legal:
            raise ValueError(f"illegal action {self.action_to_string(action)} ({action})")
        self.steps += 1
        self._run(action)

    def clone(self) -> SanguoshaState:
        """Every field set one by one (a state compiled by mypyc has no __dict__ to copy)."""
        other = SanguoshaState(self.game, self.chance, self.n, blank=True)
        self.chance_shared = other.chance_shared = True
        other.rules, other.cards, other.gens, other._bits = self.rules, self.cards, self.gens, self._bits
        other.kind, other.suit, other.rank, other.color = self.kind, self.suit, self.rank, self.color
        other.lord, other.turn_player, other.turns, other.steps = self.lord, self.turn_player, self.turns, self.steps
        other.sha_used, other.sha_in_play, other.zhuge_used = self.sha_used, self.sha_in_play, self.zhuge_used
        other.luoyi, other.once, other.rende_given = self.luoyi, self.once, self.rende_given
        other.winners, other.reason, other.over = self.winners, self.reason, self.over
        other.ret, other.seat, other.prompt = self.ret, self.seat, self.prompt
        other.deck, other.discard, other.proc = self.deck[:], self.discard[:], self.proc[:]
        other.hands = [hand[:] for hand in self.hands]
        other.known = self.known[:]
        other.equip = [slots[:] for slots in self.equip]
        other.judge = [area[:] for area in self.judge]
        other.judge_as = self.judge_as.copy()
        other.role, other.general, other.options = self.role[:], self.general[:], self.options[:]
        other.skills, other.hp, other.max_hp = self.skills[:], self.hp[:], self.max_hp[:]
        other.alive, other.living, other.hostility = self.alive[:], self.living[:], self.hostility[:]
        other.counts = self.counts.copy()
        other.stack = [frame.copy() for frame in self.stack]
        other.legal = self.legal[:]
        return other

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled field by field (compiled by mypyc, a state has no __dict__ for pickle to take)."""
        return _unpickle, (tuple(getattr(self, name) for name in FIELDS),)

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
        return {IDENTITY_KIND: tuple(ROLE_NAMES[r] for r in self.role),
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
        return observe(self, player)

    def action_to_string(self, action: Action) -> str:
        return describe(self, action)

    def check_invariants(self) -> None:
        check(self)


# Every field of a state, for pickling (tests check the list against an interpreted state's fields).
FIELDS = ("game", "chance", "n", "chance_shared", "rules", "cards", "gens", "kind", "suit", "rank", "color", "deck",
          "discard", "proc", "hands", "known", "equip", "judge", "judge_as", "role", "general", "options", "skills",
          "hp", "max_hp", "alive", "living", "lord", "turn_player", "turns", "sha_used", "sha_in_play", "zhuge_used",
          "luoyi", "once", "rende_given", "hostility", "counts", "winners", "reason", "over", "steps", "stack", "ret",
          "seat", "legal", "prompt", "_bits")


def _unpickle(values: tuple[object, ...]) -> SanguoshaState:
    game, chance, n = values[:3]
    state = SanguoshaState(game, chance, n, blank=True)  # type: ignore[arg-type]
    for name, value in zip(FIELDS, values):
        setattr(state, name, value)
    return state


__all__ = ["FIELDS", "GameOver", "SanguoshaState", "TurnEnd"]
