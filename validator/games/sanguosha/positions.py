"""三国殺 (sanguosha): the rules game of a deck folder, and positions (hands, equipment, HP, generals,
identities) for tests, benchmarks and the rulebook's worked examples.

`game_from_files` loads the deck (once per folder) and builds the engine with game.json's rules or
others given; the cards come from Deck.copies() like every engine's. `position` deals a state whose
set-up is fixed by hand and whose stack waits at the start of a chosen seat's play phase.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from ...engine.api import Seat
from ...loader import load_game
from ...model import Game as GameModel
from ...paths import DEFAULT_DECKS_DIR
from .flow import pick
from .game import SanguoshaGame
from .rules import CARD_INDEX, ROLES, SanguoshaRules
from .setup import Main
from .state import SanguoshaState
from .tables import Cards, Generals, model_rows
from .turn import RestOfTurn


@cache
def _model(folder: Path) -> GameModel:
    return load_game(folder.parent, folder.name)


def game_from_files(deck_dir: Path | None = None, rules: Mapping[str, Any] | None = None) -> SanguoshaGame:
    """The engine over a sanguosha deck (decks/sanguosha by default), with game.json's rules or `rules`."""
    model = _model((deck_dir or DEFAULT_DECKS_DIR / "sanguosha").resolve())
    table = SanguoshaRules.from_mapping(rules if rules is not None else model.rules)
    return SanguoshaGame.build(model.id, table, Cards.from_rows(model_rows(model, "card"), table.ex_cards),
                               Generals.from_rows(model_rows(model, "kingdom")), model.players, model.play_minutes)


class CardPicker:
    """Hands out distinct physical cards by slug (and optionally suit or rank) from a game's table."""

    def __init__(self, game: SanguoshaGame) -> None:
        self.game = game
        self.taken: set[int] = set()

    def __call__(self, slug: str, suit: str | None = None, rank: int | None = None, *, color: str | None = None) -> int:
        cards = self.game.cards
        want = CARD_INDEX[slug]
        for card in range(len(cards)):
            if card in self.taken or cards.kind[card] != want:
                continue
            if suit is not None and ("spade", "heart", "club", "diamond")[cards.suit[card]] != suit:
                continue
            if rank is not None and cards.rank[card] != rank:
                continue
            if color is not None and ("", "black", "red")[cards.color[card]] != color:
                continue
            self.taken.add(card)
            return card
        raise ValueError(f"no free {slug} {suit or ''} {rank or ''} {color or ''} card left")


def position(game: SanguoshaGame, generals: Sequence[str], roles: Sequence[str], *,
             hands: Mapping[Seat, Sequence[int]] | None = None, equipment: Mapping[Seat, Sequence[int]] | None = None,
             judge: Mapping[Seat, Sequence[tuple[int, str]]] | None = None, hp: Mapping[Seat, int] | None = None,
             dead: Sequence[Seat] = (), deck_top: Sequence[int] = (), turn: Seat = 0,
             seed: int = 0) -> SanguoshaState:
    """A state with the given generals (slugs) and roles per seat, cards placed, the rest of the deck below
    `deck_top` (its first card drawn first), waiting at `turn`'s play phase (sha_used 0)."""
    n = len(generals)
    st = SanguoshaState(game, random.Random(seed), n)
    st.deck, st.discard, st.proc = [], [], []
    st.hands = [[] for _ in range(n)]
    st.equip = [[-1, -1, -1, -1] for _ in range(n)]
    st.judge = [[] for _ in range(n)]
    st.judge_as = {}
    st.role = [ROLES.index(r) for r in roles]
    st.lord = st.role.index(0) if 0 in st.role else 0
    for seat, slug in enumerate(generals):
        pick(st, seat, game.generals.ids.index(slug))
    placed: list[int] = []
    for seat, cards in (hands or {}).items():
        st.hands[seat] = list(cards)
        for card in cards:
            st.known[card] = 1 << seat
        placed += cards
    for seat, cards in (equipment or {}).items():
        for card in cards:
            st.equip[seat][game.cards.slot[card]] = card
            placed.append(card)
    for seat, entries in (judge or {}).items():
        for card, slug in entries:
            st.judge[seat].append(card)
            st.judge_as[card] = CARD_INDEX[slug]
            placed.append(card)
    for seat, value in (hp or {}).items():
        st.hp[seat] = value
    for seat in dead:
        st.alive[seat] = False
    st.living = [s for s in range(n) if st.alive[s]]
    placed += deck_top
    rest = [c for c in range(len(game.cards)) if c not in set(placed)]
    st.deck = rest[::-1] + list(deck_top)[::-1]
    st.turn_player, st.turns = turn, 1
    st.sha_used, st.sha_in_play, st.luoyi, st.zhuge_used = 0, False, False, False
    st.once = frozenset()
    loop = Main(seat=turn)
    loop.pc = 5  # after the set-up turn: the next seat's turn
    st.start(loop, RestOfTurn(turn))
    return st
