"""三国志演義 war game (sangokushi): engine, data checks, greedy heuristic, rulebook oracle and determinizer
(for the mcts policy), as SPEC.

The hot modules may also exist compiled (`make fast`, validator/native.py): a fresh build is put
in front of this package's path before any of them is imported.
"""
from __future__ import annotations

from ...native import native_path

__path__[:0] = native_path(__name__)  # noqa: F821 - a package's __path__ is set before its __init__ runs

from ...engine.scoring import from_oracle  # noqa: E402 - after the path, so compiled modules are found
from ...engine.spec import GameSpec, TableCost  # noqa: E402
from .claims import SangokushiOracle  # noqa: E402
from .data import check  # noqa: E402
from .determinize import determinize  # noqa: E402
from .game import SangokushiGame  # noqa: E402
from .policies import choose  # noqa: E402

SPEC = GameSpec(name="sangokushi", engine=SangokushiGame.from_model, greedy=choose,
                oracle=SangokushiOracle.from_model, data_checks=check, rules_schema="rules/sangokushi.schema.json",
                scorer=from_oracle(SangokushiOracle.from_model, labels={
                    "total": "結果 result", "attack": "攻撃側合計 attacker total",
                    "defence": "防御側合計 defender total", "damage": "被害 damage", "politics": "内政 politics",
                    "bonus": "所属ボーナス bonus", "extra": "追加 extra cards", "limit": "保有枚数制限 limit",
                    "dead": "死亡した君主 dead lords"}),
                endings={"target": "目標の点に到達", "lord-death": "君主の死", "stalemate": "手詰まり",
                         "rounds": "ラウンドの上限"},
                events={"rounds": "戦闘の回（ダイス勝負）", "attacks": "攻撃", "neutral_captures": "空白エリアの獲得",
                        "battles": "合戦", "refusals": "合戦を受けなかった", "ties": "回の引き分け",
                        "attacker_wins": "攻撃側の勝ち", "defender_wins": "防御側の勝ち", "captures": "捕虜",
                        "kills": "討ち死に", "returns": "負けて手元に戻った武将", "released": "捕虜を解放",
                        "lord_deaths": "君主の死亡", "end_rolls": "終了判定のダイス", "recoveries": "回復",
                        "restored": "使用済みから戻した", "recruits": "登用", "extra_recruits": "追加の登用",
                        "drawn": "引いたカード", "dismissals": "解雇", "dismissed": "解雇したカード",
                        "shed": "上限で手放したカード", "passes": "パス", "end_target": "目標の点で終了",
                        "end_lord": "君主の死で終了", "end_stalemate": "手詰まりで終了",
                        "end_rounds": "ラウンド上限で終了"},
                determinize=determinize,
                # one-core ms a match: all random, all greedy, per mcts iteration (bench/bench_sim_cost.py, 2026-11-28)
                match_cost={2: TableCost(0.4, 2, 130), 3: TableCost(0.9, 1.5, 67), 4: TableCost(0.9, 2.8, 78),
                            5: TableCost(0.8, 1.7, 26), 6: TableCost(0.8, 2, 40)})
