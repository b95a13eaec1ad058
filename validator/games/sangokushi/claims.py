"""sangokushi rulebook oracle: the engine's answer to a worked example, so the rulebook cannot claim a
number the rules do not give. An adapter over the engine's own functions (battle.py, economy's
formulas, the rules table); it adds no rules.

Token syntax — the first token names the example, the rest are `key:value` (a full-width colon too);
a general may be named wherever a number is asked, and its printed stat is used:

- `戦闘 方法:一騎討ち 攻:関羽 攻:張飛 防:呂布 目:5 目:2 [攻加:1] [防加:2]` — one battle round (5.5-5.12):
  attacker's generals (one or two, added), defender's, the attacker's die then the defender's, bonuses
  (default 0). Parts: attack, defence (the totals), damage (what the lower side takes), total (= damage).
- `回復 目:4 使:荀彧 使:郭嘉 [加:1] [使用済:6]` — a recovery (7.2-7.6): the die, the spent cards (or
  `内政:3`); the bonus is worked out from the named cards unless `加` says it. Parts: politics, bonus,
  total (cards that may come back; at most `使用済` when given).
- `追加徴兵 目:4 使:荀彧 [加:1] [余裕:2]` — a recruit with the extra recruit (8.5-8.9, 10.6). Parts:
  politics, bonus, extra (cards added by the extra recruit), total (cards drawn, capped by `余裕`, the
  room under the holding limit, when given).
- `制限 人数:4 エリア:成都 エリア:江州 保有:17` (or `規定:12`, `点:4`) — the holding limit (10.3/10.5).
  Parts: limit, total (cards to release).
- `君主死亡 死亡:3 目:2` — the end roll (11.2). Parts: dead, total (1 when the game ends, else 0).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model import Game as GameModel
from .battle import affiliation_bonus
from .game import SangokushiGame
from .rules import CLARIFICATIONS, METHOD_LABELS, METHODS

if TYPE_CHECKING:
    from ...engine.claims import ClarificationRef, HandScoreClaim

KINDS = ("戦闘", "回復", "追加徴兵", "制限", "君主死亡")
_METHOD_BY_LABEL = {label: method for method, label in METHOD_LABELS.items()}


@dataclass(frozen=True)
class SangokushiOracle:
    game: SangokushiGame
    parts: tuple[str, ...] = ("attack", "defence", "damage", "politics", "bonus", "extra", "limit", "dead",
                              "total")

    @classmethod
    def from_model(cls, model: GameModel) -> SangokushiOracle:
        return cls(SangokushiGame.from_model(model))

    @property
    def clarifications(self) -> tuple[ClarificationRef, ...]:
        from ...engine.claims import ClarificationRef

        return tuple(ClarificationRef(c.id, c.ja) for c in CLARIFICATIONS)

    def score(self, tokens: Sequence[str], *, ordered: bool) -> HandScoreClaim:
        """The example's numbers; the order of the key:value tokens only matters for the two dice (`目`)."""
        from ...engine.claims import HandScoreClaim

        if not tokens or tokens[0] not in KINDS:
            raise ValueError(f"an example starts with one of {', '.join(KINDS)}, not {tokens[:1]}")
        values = self._pairs(tokens[1:])
        kind = tokens[0]
        if kind == "戦闘":
            points = self._round(values)
        elif kind in ("回復", "追加徴兵"):
            points = self._spend(values, recruit=kind == "追加徴兵")
        elif kind == "制限":
            points = self._limit(values)
        else:
            dead, die = self._one_int(values, "死亡"), self._one_int(values, "目")
            points = {"dead": dead, "total": int(die <= dead)}
        return HandScoreClaim(points, tuple(tokens))

    def card_stacks(self, tokens: Sequence[str]) -> tuple[tuple[str, ...], ...]:
        """The card each token names (a general), or no card (keywords and numbers)."""
        index = self._names()
        stacks = []
        for token in tokens:
            _, _, value = token.replace("：", ":").partition(":")
            stacks.append((self.game.generals.ids[index[value]],) if value in index else ())
        return tuple(stacks)

    # -- the claims -------------------------------------------------------------------------------
    def _round(self, values: dict[str, list[str]]) -> dict[str, int]:
        label = self._one(values, "方法")
        if label not in _METHOD_BY_LABEL:
            raise ValueError(f"方法:{label} is not a method ({', '.join(_METHOD_BY_LABEL)})")
        stat = METHODS[_METHOD_BY_LABEL[label]]
        dice = [self._int(v) for v in values.get("目", [])]
        if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
            raise ValueError("a round needs two dice, 目:attacker then 目:defender, each 1-6")
        sides = []
        for key in ("攻", "防"):
            generals = values.get(key, [])
            if not 1 <= len(generals) <= 2:
                raise ValueError(f"{key}: one or two generals (or stats) per side, got {len(generals)}")
            sides.append(sum(self._stat(v, stat) for v in generals))
        attack = sides[0] + dice[0] + self._int_or(values, "攻加", 0)
        defence = sides[1] + dice[1] + self._int_or(values, "防加", 0)
        return {"attack": attack, "defence": defence, "damage": abs(attack - defence), "total": abs(attack - defence)}

    def _spend(self, values: dict[str, list[str]], *, recruit: bool) -> dict[str, int]:
        die = self._one_int(values, "目")
        if not 1 <= die <= 6:
            raise ValueError(f"目:{die} is not a die face")
        cards = [self._card(v) for v in values.get("使", [])]
        politics = sum(self.game.generals.politics[c] for c in cards) + self._int_or(values, "内政", 0)
        known = "加" in values
        bonus = self._int_or(values, "加", 0) if known else affiliation_bonus(self.game.rules, self.game.generals,
                                                                             cards)
        total = die + politics + bonus
        if not recruit:
            used = self._int_or(values, "使用済", total)
            return {"politics": politics, "bonus": bonus, "total": min(total, used)}
        gen, need = self.game.generals, self.game.rules.extra_recruit_min_politics
        if cards and not any(gen.politics[c] >= need for c in cards):
            raise ValueError(f"an extra recruit needs a card of politics {need} or more (8.9)")
        extra = total // self.game.rules.extra_recruit_divisor
        room = self._int_or(values, "余裕", 1 + extra)
        return {"politics": politics, "bonus": bonus, "extra": extra, "total": max(0, min(1 + extra, room))}

    def _limit(self, values: dict[str, list[str]]) -> dict[str, int]:
        if "人数" in values:
            players = self._one_int(values, "人数")
            if players not in self.game.rules.deal_size:
                raise ValueError(f"人数:{players}: the rules deal for {sorted(self.game.rules.deal_size)} players")
            base = self.game.rules.deal_size[players]
        else:
            base = self._one_int(values, "規定")
        board = self.game.board
        area_points = 0
        for name in values.get("エリア", []):
            if name not in board.names:
                raise ValueError(f"エリア:{name} is not an area of the map")
            area_points += board.points[board.names.index(name)]
        limit = base + area_points + self._int_or(values, "点", 0)
        held = self._one_int(values, "保有")
        return {"limit": limit, "total": max(0, held - limit)}

    # -- parsing ----------------------------------------------------------------------------------
    @staticmethod
    def _pairs(tokens: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for token in tokens:
            key, colon, value = token.replace("：", ":").partition(":")
            if not colon or not key or not value:
                raise ValueError(f"{token!r} is not key:value")
            out.setdefault(key, []).append(value)
        return out

    def _names(self) -> dict[str, int]:
        return {name: card for card, name in enumerate(self.game.generals.names)}

    def _card(self, value: str) -> int:
        index = self._names()
        if value not in index:
            raise ValueError(f"{value!r} is not a general of the deck")
        return index[value]

    def _stat(self, value: str, stat: str) -> int:
        return int(value) if value.isdigit() else self.game.generals.stat[stat][self._card(value)]

    @staticmethod
    def _int(value: str) -> int:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a number") from None

    def _one(self, values: dict[str, list[str]], key: str) -> str:
        found = values.get(key, [])
        if len(found) != 1:
            raise ValueError(f"the example needs exactly one {key}:…")
        return found[0]

    def _one_int(self, values: dict[str, list[str]], key: str) -> int:
        return self._int(self._one(values, key))

    def _int_or(self, values: dict[str, list[str]], key: str, default: int) -> int:
        return self._one_int(values, key) if key in values else default
