"""人材登用 (jinzai, working title): engine, scoring, greedy heuristic and rulebook oracle, exported as SPEC."""
from __future__ import annotations

from ...engine.scoring import from_oracle
from ...engine.spec import GameSpec
from .claims import JinzaiOracle
from .policies import choose
from .state import JinzaiGame

SPEC = GameSpec(name="jinzai", engine=JinzaiGame.from_model, greedy=choose, oracle=JinzaiOracle.from_model,
                rules_schema="rules/jinzai.schema.json",
                scorer=from_oracle(JinzaiOracle.from_model, labels={
                    "total": "価値 value of the public tiles", "columns": "列の点 columns",
                    "bonus": "5種類ボーナス kinds bonus", "vp": "組み合わせの勝利点 set VP"}))
