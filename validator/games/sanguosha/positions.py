"""三国殺 (sanguosha): build the rules game straight from the deck's card files, and set up positions
(hands, equipment, HP, generals, identities) for tests and the rulebook's worked examples.

`game_from_files` reads cards.json, generals.json and game.json "rules" without the full loader (so
it works while layouts or the rulebook are unfinished). `position` deals a state whose setup is fixed
by hand and whose flow waits at the start of a chosen seat's play phase.
"""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...engine.api import Seat
from ...paths import DEFAULT_DECKS_DIR
from .flow import pick
from .game import SanguoshaGame
from .rules import CARD_INDEX, ROLES, SanguoshaRules
from .setup import Main
from .state import SanguoshaState
from .tables import Cards, Generals
from .turn import RestOfTurn


def _rows(path: Path) -> list[tuple[str, Mapping[str, Any]]]:
    cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
    return [(c["id"], c["fields"]) for c in cards for _ in range(int(c.get("qty", 1)))]


def game_from_files(deck_dir: Path | None = None, rules: Mapping[str, Any] | None = None) -> SanguoshaGame:
    """The engine over decks/sanguosha's card files (rules: game.json's unless given)."""
    folder = deck_dir or DEFAULT_DECKS_DIR / "sanguosha"
    manifest = json.loads((folder / "game.json").read_text(encoding="utf-8"))
    table = SanguoshaRules.from_mapping(rules if rules is not None else manifest["rules"])
    players = (int(manifest["players"]["min"]), int(manifest["players"]["max"]))
    minutes = (int(manifest["play_minutes"]["min"]), int(manifest["play_minutes"]["max"]))
    return SanguoshaGame.build(manifest["id"], table, Cards.from_rows(_rows(folder / "cards.json"), table.ex_cards),
                               Generals.from_rows(_rows(folder / "generals.json")), players, minutes)


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
