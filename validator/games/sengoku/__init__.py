"""漢字と家紋の戦国武将カードゲーム (sengoku): engine, name table, data checks, greedy heuristic and oracle, as SPEC."""
from __future__ import annotations

from ...engine.scoring import from_oracle
from ...engine.spec import GameSpec
from .claims import SengokuOracle
from .data import check
from .policies import choose
from .state import SengokuGame

SPEC = GameSpec(name="sengoku", engine=SengokuGame.from_model, greedy=choose, oracle=SengokuOracle.from_model,
                data_checks=check, rules_schema="rules/sengoku.schema.json",
                scorer=from_oracle(SengokuOracle.from_model, labels={
                    "total": "家紋の合計 crests on the kanji cards left", "cards": "カード cards",
                    "names": "名前 names set aside", "left": "残り cards left",
                    "kanji": "漢字カード kanji cards left"}))
