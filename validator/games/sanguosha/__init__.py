"""三国殺 (sanguosha): identity-mode rules engine, data checks and role-aware heuristic, as SPEC."""
from __future__ import annotations

from ...native import native_path

__path__[:0] = native_path(__name__)  # noqa: F821 - a package's __path__ is set before its __init__ runs

from ...engine.spec import GameSpec, TableCost  # noqa: E402 - after the path, so compiled modules are found
from .claims import SanguoshaOracle  # noqa: E402
from .data import check  # noqa: E402
from .determinize import determinize  # noqa: E402
from .game import SanguoshaGame  # noqa: E402
from .policies import choose  # noqa: E402

SPEC = GameSpec(name="sanguosha", engine=SanguoshaGame.from_model, greedy=choose, oracle=SanguoshaOracle.from_model,
                data_checks=check, rules_schema="rules/sanguosha.schema.json",
                endings={"lord-killed": "主公の死亡（反賊の勝ち）", "renegade-alone": "内奸が最後の1人",
                         "rebels-and-renegades-dead": "反賊と内奸の全滅（主公側の勝ち）"},
                events={"cards_drawn": "引いたカード", "damage": "ダメージ", "deaths": "死亡",
                        "healed": "回復した体力", "judgements": "判定", "lord_penalties": "主公が忠臣を倒した罰",
                        "rebel_rewards": "反賊を倒した報酬", "reshuffles": "山札の作り直し",
                        "sha_used": "【殺】の使用", "shan_played": "【閃】を出した", "shandian_hits": "【閃電】の命中",
                        "skills_used": "技能の発動", "tricks_used": "錦嚢の使用",
                        "turns_skipped_lebu": "【楽不思蜀】で飛ばした出牌", "wuxie_played": "【無懈可撃】を出した"},
                determinize=determinize,
                # one-core ms a match: all random, all greedy, per mcts iteration (bench/bench_sim_cost.py, the
                # higher of two runs of 10 and 30 matches a table, 2026-11-28, after the explicit-stack engine)
                match_cost={2: TableCost(1, 1.6, 170), 3: TableCost(1, 3.2, 70), 4: TableCost(1.4, 3.4, 160),
                            5: TableCost(1.4, 4.4, 120), 6: TableCost(1.8, 6.5, 90), 7: TableCost(2, 8.5, 60),
                            8: TableCost(2.3, 7.3, 160), 9: TableCost(3, 8.6, 120), 10: TableCost(2.6, 9.3, 130)})
