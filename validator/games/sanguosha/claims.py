"""sanguosha rulebook oracle: the engine's answer to a worked example, so the rulebook cannot print a
distance, an HP or a number of 桃 the rules do not give. An adapter that sets up a table in a real
engine state and asks the engine's own functions (SanguoshaState.dist and attack_range, turn.sha_targets,
cards.equip, flow.pick, flow.damage / lose_hp and the dying loop); it adds no rules.

Token syntax — the first token names the example, the rest describe the table. Seats are the letters
A, B, C, … in seat order (A is seat 0); a colon may be full-width (：) or ASCII (:).

- `距離 8人 A→E [H死亡] [A：青龍偃月刀] [E：−1馬] [A：＋1馬]` — from one seat to another: the players,
  the two seats, dead seats, equipment (a card name, or −1馬 / ＋1馬 for any horse of that kind).
  Parts: distance, range (the measurer's attack range), reach (1 when 殺 may target the other seat,
  else 0), total (= distance).
- `届く相手 8人 Aから [H死亡] [A：青龍偃月刀] …` — whom one seat's 殺 reaches. Parts: range, targets (how
  many living players 殺 may target), total (= targets).
- `体力上限 5人 主公：曹操` (or 忠臣：郭嘉, 反賊：…, 内奸：…) — the HP limit a general starts with.
  Parts: hp, total (= hp).
- `瀕死 体力：1 ダメージ：3` (or `失う：3` for HP lost without damage; `上限：4` the HP limit, default
  the HP) — the dying loop, every 桃 used by the dying player. Parts: hp (after the blow), peaches
  (桃 needed to survive), total (= peaches).
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Game as GameModel
from .cards import equip
from .damage import damage, lose_hp
from .flow import pick
from .game import SanguoshaGame
from .options import sha_targets
from .rules import CARD_NAMES, CLARIFICATIONS, MINUS_SLOT, P_TAO, PASS_ACTION, PLUS_SLOT, ROLE_NAMES, TAO
from .stack import Frame
from .state import SanguoshaState

if TYPE_CHECKING:
    from ...engine.claims import ClarificationRef, HandScoreClaim

KINDS = ("距離", "届く相手", "体力上限", "瀕死")
SEAT_LETTERS = "ABCDEFGHIJ"
HORSES = {"−1馬": MINUS_SLOT, "-1馬": MINUS_SLOT, "＋1馬": PLUS_SLOT, "+1馬": PLUS_SLOT}
_PLAYERS = re.compile(r"^(\d+)人$")
_PAIR = re.compile(r"^([A-J])→([A-J])$")
_FROM = re.compile(r"^([A-J])から$")
_DEAD = re.compile(r"^([A-J])死亡$")


@dataclass
class _Table:
    """An example's table as read from its tokens."""

    players: int = 0
    source: int = -1
    target: int = -1
    dead: tuple[int, ...] = ()
    equipment: tuple[tuple[int, int], ...] = ()   # (seat, card id)


@dataclass(frozen=True)
class SanguoshaOracle:
    game: SanguoshaGame
    parts: tuple[str, ...] = ("distance", "range", "reach", "targets", "hp", "peaches", "total")

    @classmethod
    def from_model(cls, model: GameModel) -> SanguoshaOracle:
        return cls(SanguoshaGame.from_model(model))

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        from ...engine.claims import ClarificationRef

        return tuple(ClarificationRef(c.id, c.ja) for c in CLARIFICATIONS)

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        """The example's numbers; the order of the tokens after the first does not matter."""
        from ...engine.claims import HandScoreClaim

        if not tokens or tokens[0] not in KINDS:
            raise ValueError(f"an example starts with one of {', '.join(KINDS)}, not {list(tokens[:1])}")
        kind, rest = tokens[0], tokens[1:]
        if kind == "距離":
            points = self._distance(self._table(rest, pair=True))
        elif kind == "届く相手":
            points = self._targets(self._table(rest, pair=False))
        elif kind == "体力上限":
            points = self._hp_limit(rest)
        else:
            points = self._dying(rest)
        return HandScoreClaim(points, tuple(tokens))

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The card an equipment token names (`A：青龍偃月刀`), or no card."""
        stacks: list[tuple[str, ...]] = []
        for token in tokens:
            key, colon, value = _split(token)
            if colon and key in SEAT_LETTERS and key:
                stacks.append((self.game.cards.ids[self._equipment_card(value)],))
            else:
                stacks.append(())
        return tuple(stacks)

    # -- the claims -------------------------------------------------------------------------------
    def _distance(self, table: _Table) -> dict[str, int]:
        st = self._state(table)
        if not (st.alive[table.source] and st.alive[table.target]):
            raise ValueError("distance is measured between two living seats")
        distance, reach = st.dist(table.source, table.target), st.attack_range(table.source)
        hit = int(table.target in sha_targets(st, table.source))
        return {"distance": distance, "range": reach, "reach": hit, "total": distance}

    def _targets(self, table: _Table) -> dict[str, int]:
        st = self._state(table)
        if not st.alive[table.source]:
            raise ValueError(f"seat {SEAT_LETTERS[table.source]} is dead")
        targets = len(sha_targets(st, table.source))
        return {"range": st.attack_range(table.source), "targets": targets, "total": targets}

    def _hp_limit(self, tokens: Sequence[str]) -> dict[str, int]:
        players, role, general = 0, -1, -1
        for token in tokens:
            key, colon, value = _split(token)
            if (found := _PLAYERS.match(token)) is not None:
                players = int(found.group(1))
            elif colon and key in ROLE_NAMES:
                role, general = ROLE_NAMES.index(key), self._general(value)
            else:
                raise ValueError(f"{token!r} is neither N人 nor 身分：武将 (e.g. 主公：曹操)")
        if general < 0:
            raise ValueError("the example needs one 身分：武将 token, e.g. 主公：曹操")
        st = self._new_state(players)
        st.role[0] = role
        pick(st, 0, general)
        return {"hp": st.max_hp[0], "total": st.max_hp[0]}

    def _dying(self, tokens: Sequence[str]) -> dict[str, int]:
        values: dict[str, int] = {}
        for token in tokens:
            key, colon, value = _split(token)
            if not colon or key not in ("体力", "ダメージ", "失う", "上限") or key in values:
                raise ValueError(f"{token!r}: a dying example takes 体力：N, then ダメージ：N or 失う：N, and "
                                 "at most one 上限：N")
            values[key] = _int(value)
        if "体力" not in values or ("ダメージ" in values) == ("失う" in values):
            raise ValueError("a dying example needs 体力：N and one of ダメージ：N or 失う：N")
        hp = values["体力"]
        st = self._new_state(self.game.min_players)
        st.hp[0], st.max_hp[0] = hp, values.get("上限", hp)
        st.hands[0] = [c for c in range(len(self.game.cards)) if self.game.cards.kind[c] == TAO]
        flow = damage(st, 0, -1, values["ダメージ"]) if "ダメージ" in values else lose_hp(st, 0, values["失う"])
        after: int | None = None
        used = 0
        for prompt in _decisions(st, flow):
            if prompt != P_TAO:
                raise ValueError(f"the engine asked an unexpected decision ({prompt}) while dying")
            after = st.hp[0] if after is None else after   # the HP the blow left, before any 桃
            used += 1
        if not st.alive[0]:
            raise ValueError(f"a player at {after} HP needs more 桃 than the deck's {used}")
        return {"hp": st.hp[0] if after is None else after, "peaches": used, "total": used}

    # -- setting up a table -----------------------------------------------------------------------
    def _table(self, tokens: Sequence[str], *, pair: bool) -> _Table:
        table = _Table()
        dead: list[int] = []
        equipment: list[tuple[int, int]] = []
        for token in tokens:
            key, colon, value = _split(token)
            if (found := _PLAYERS.match(token)) is not None:
                table.players = int(found.group(1))
            elif pair and (found := _PAIR.match(token)) is not None:
                table.source, table.target = (SEAT_LETTERS.index(found.group(i)) for i in (1, 2))
            elif not pair and (found := _FROM.match(token)) is not None:
                table.source = SEAT_LETTERS.index(found.group(1))
            elif (found := _DEAD.match(token)) is not None:
                dead.append(SEAT_LETTERS.index(found.group(1)))
            elif colon and len(key) == 1 and key in SEAT_LETTERS:
                equipment.append((SEAT_LETTERS.index(key), self._equipment_card(value)))
            else:
                raise ValueError(f"{token!r} is none of N人, {'X→Y' if pair else 'Xから'}, X死亡, X：装備")
        if table.source < 0:
            raise ValueError(f"the example names no seat ({'X→Y' if pair else 'Xから'})")
        if pair and table.source == table.target:
            raise ValueError("the two seats of a distance are the same seat")
        seats = [table.source, table.target, *dead, *(seat for seat, _ in equipment)]
        if table.players and max(seats) >= table.players:
            raise ValueError(f"seat {SEAT_LETTERS[max(seats)]} is not at a table of {table.players}")
        table.dead, table.equipment = tuple(dead), tuple(equipment)
        return table

    def _state(self, table: _Table) -> SanguoshaState:
        """A fresh engine state with the example's dead seats removed and its equipment in place."""
        st = self._new_state(table.players)
        for seat in table.dead:
            st.alive[seat] = False
            st.living.remove(seat)
        for seat, card in table.equipment:
            st.proc.append(card)
            for prompt in _decisions(st, equip(st, seat, card)):
                raise ValueError(f"the engine asked a decision ({prompt}) while equipping")
        return st

    def _new_state(self, players: int) -> SanguoshaState:
        game = self.game
        if not game.min_players <= players <= game.max_players:
            raise ValueError(f"the example needs N人 with N from {game.min_players} to {game.max_players}")
        return game.new_initial_state(random.Random(0), players)

    def _equipment_card(self, name: str) -> int:
        cards = self.game.cards
        if name in HORSES:
            found = [c for c in range(len(cards)) if cards.slot[c] == HORSES[name]]
        elif name in CARD_NAMES:
            kind = CARD_NAMES.index(name)
            found = [c for c in range(len(cards)) if cards.kind[c] == kind and cards.slot[c] >= 0]
        else:
            found = []
        if not found:
            raise ValueError(f"{name!r} is no equipment card of the deck (or −1馬 / ＋1馬)")
        return found[0]

    def _general(self, name: str) -> int:
        names = self.game.generals.names
        if name not in names:
            raise ValueError(f"{name!r} is not a general of the deck")
        return names.index(name)


def _decisions(st: SanguoshaState, step: Frame | None) -> Iterator[int]:
    """Run one rules step to its end, yielding the prompt code of each decision it asks; every decision
    is answered with the first legal action that is not a pass (a 桃, when dying)."""
    st.begin(step)
    while st.legal:
        yield st.prompt[0]
        st.apply_action(next((a for a in st.legal if a != PASS_ACTION), PASS_ACTION))


def _split(token: str) -> tuple[str, bool, str]:
    key, colon, value = token.replace("：", ":").partition(":")
    return key, bool(colon and key and value), value


def _int(value: str) -> int:
    try:
        return int(value.replace("−", "-"))
    except ValueError:
        raise ValueError(f"{value!r} is not a number") from None
