"""漢字と家紋の戦国武将カードゲーム (sengoku): engine, name table, data checks, greedy heuristic, oracle and the
search's determinizer, as SPEC.

The hot modules may also exist compiled (`make fast`, validator/native.py): a fresh build is put
in front of this package's path before any of them is imported.
"""
from __future__ import annotations

from ...native import native_path

__path__[:0] = native_path(__name__)  # noqa: F821 - a package's __path__ is set before its __init__ runs

from ...engine.scoring import from_oracle  # noqa: E402 - after the path, so compiled modules are found
from ...engine.spec import GameSpec, TableCost  # noqa: E402
from .claims import SengokuOracle  # noqa: E402
from .data import check  # noqa: E402
from .determinize import determinize  # noqa: E402
from .policies import choose  # noqa: E402
from .state import SengokuGame  # noqa: E402

SPEC = GameSpec(name="sengoku", engine=SengokuGame.from_model, greedy=choose, oracle=SengokuOracle.from_model,
                data_checks=check, rules_schema="rules/sengoku.schema.json",
                scorer=from_oracle(SengokuOracle.from_model, labels={
                    "total": "家紋の合計 crests on the kanji cards left", "cards": "カード cards",
                    "names": "名前 names set aside", "left": "残り cards left",
                    "kanji": "漢字カード kanji cards left"}),
                endings={"all-out": "手札を出し切った", "pile-empty": "山札切れ", "riichi-win": "リーチで上がり",
                         "draw": "流局（順位なし）", "draw-ranked": "流局（順位づけ）"},
                events={"names": "作った名前", "steals": "横取り", "emptied": "手札が0枚になったゲーム",
                        "riichi": "リーチ宣言", "riichi_wins": "リーチで上がったゲーム", "draws": "流局したゲーム",
                        "tie_rule1": "同点を補足(1)で決めた", "tie_rule2": "同点を補足(2)で決めた",
                        "tie_shared": "同点で勝利を分けた",
                        **{f"names_p{n}": f"作った名前（手番順{n}）" for n in range(1, 7)}},
                determinize=determinize,
                # one-core ms a match: all random, all greedy, per mcts iteration (bench/bench_sim_cost.py, 2026-11-28)
                match_cost={2: TableCost(0.3, 2.3, 22), 3: TableCost(0.3, 3.8, 30), 4: TableCost(0.3, 4.4, 30),
                            5: TableCost(0.3, 4.5, 35), 6: TableCost(0.3, 5, 27), 7: TableCost(0.3, 4.9, 24),
                            8: TableCost(0.2, 4.8, 12), 9: TableCost(0.2, 3, 5.6)})
