"""三国殺 (sanguosha): identity-mode rules engine, data checks and role-aware heuristic, as SPEC."""
from __future__ import annotations

from ...engine.spec import GameSpec
from .claims import SanguoshaOracle
from .policies import choose
from .state import SanguoshaGame

try:
    from .data import check
except ImportError:  # the data checks land with the deck data
    check = None  # type: ignore[assignment]

SPEC = GameSpec(name="sanguosha", engine=SanguoshaGame.from_model, greedy=choose, oracle=SanguoshaOracle.from_model,
                data_checks=check, rules_schema="rules/sanguosha.schema.json")
