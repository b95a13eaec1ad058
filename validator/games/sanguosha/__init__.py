"""三国殺 (sanguosha): identity-mode rules engine, data checks and role-aware heuristic, as SPEC."""
from __future__ import annotations

from ...engine.spec import GameSpec
from .claims import SanguoshaOracle
from .data import check
from .policies import choose
from .state import SanguoshaGame

SPEC = GameSpec(name="sanguosha", engine=SanguoshaGame.from_model, greedy=choose, oracle=SanguoshaOracle.from_model,
                data_checks=check, rules_schema="rules/sanguosha.schema.json")
