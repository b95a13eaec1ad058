"""漢字と家紋の戦国武将カードゲーム (sengoku): engine, name table, data checks, greedy heuristic and oracle, as SPEC."""
from __future__ import annotations

from ...engine.spec import GameSpec
from .claims import SengokuOracle
from .data import check
from .policies import choose
from .state import SengokuGame

SPEC = GameSpec(name="sengoku", engine=SengokuGame.from_model, greedy=choose, oracle=SengokuOracle.from_model,
                data_checks=check)
