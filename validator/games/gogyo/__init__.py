"""五行中国史カードゲーム (gogyo): engine, scoring, greedy heuristic and rulebook oracle, exported as SPEC."""
from __future__ import annotations

from ...engine.scoring import from_oracle
from ...engine.spec import GameSpec
from .claims import GogyoOracle
from .policies import choose
from .state import GogyoGame

SPEC = GameSpec(name="gogyo", engine=GogyoGame.from_model, greedy=choose, oracle=GogyoOracle.from_model,
                rules_schema="rules/gogyo.schema.json",
                scorer=from_oracle(GogyoOracle.from_model, order_matters=True,
                                   labels={"dynasty": "王朝役 dynasty run", "element": "五行役 element run"}))
