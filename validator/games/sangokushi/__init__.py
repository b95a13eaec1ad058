"""三国志演義 war game (sangokushi): engine, data checks, greedy heuristic and rulebook oracle, as SPEC."""
from __future__ import annotations

from ...engine.scoring import from_oracle
from ...engine.spec import GameSpec
from .claims import SangokushiOracle
from .data import check
from .policies import choose
from .state import SangokushiGame

SPEC = GameSpec(name="sangokushi", engine=SangokushiGame.from_model, greedy=choose,
                oracle=SangokushiOracle.from_model, data_checks=check, rules_schema="rules/sangokushi.schema.json",
                scorer=from_oracle(SangokushiOracle.from_model, labels={
                    "total": "結果 result", "attack": "攻撃側合計 attacker total",
                    "defence": "防御側合計 defender total", "damage": "被害 damage", "politics": "内政 politics",
                    "bonus": "所属ボーナス bonus", "extra": "追加 extra cards", "limit": "保有枚数制限 limit",
                    "dead": "死亡した君主 dead lords"}))
