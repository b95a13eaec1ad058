"""人材登用 (jinzai, working title): engine, scoring, greedy heuristic and rulebook oracle, exported as SPEC."""
from __future__ import annotations

from ...engine.spec import GameSpec
from .claims import JinzaiOracle
from .policies import choose
from .state import JinzaiGame

SPEC = GameSpec(name="jinzai", engine=JinzaiGame.from_model, greedy=choose, oracle=JinzaiOracle.from_model)
