"""人材登用 (jinzai, working title): engine, scoring, greedy heuristic, rulebook oracle and determinizer (for mcts),
exported as SPEC.

The hot modules may also exist compiled (`make fast`, validator/native.py): a fresh build is put
in front of this package's path before any of them is imported.
"""
from __future__ import annotations

from ...native import native_path

__path__[:0] = native_path(__name__)  # noqa: F821 - a package's __path__ is set before its __init__ runs

from ...engine.scoring import from_oracle  # noqa: E402 - after the path, so compiled modules are found
from ...engine.spec import GameSpec, TableCost  # noqa: E402
from .claims import JinzaiOracle  # noqa: E402
from .determinize import determinize  # noqa: E402
from .game import JinzaiGame  # noqa: E402
from .policies import choose  # noqa: E402

SPEC = GameSpec(name="jinzai", engine=JinzaiGame.from_model, greedy=choose, oracle=JinzaiOracle.from_model,
                rules_schema="rules/jinzai.schema.json",
                scorer=from_oracle(JinzaiOracle.from_model, labels={
                    "total": "価値 value of the public tiles", "columns": "列の点 columns",
                    "bonus": "5種類ボーナス kinds bonus", "vp": "組み合わせの勝利点 set VP"}),
                endings={"vp": "勝利点に到達", "max-games": "ゲーム数の上限"},
                events={"forced_duplicates": "同じ牌を選ばされた", "pool_taken": "場の牌を取った",
                        "rotations": "列の回転", "gifts": "牌を渡した", "games": "ゲーム",
                        "second_place_by_2": "2位が2点差以内"},
                determinize=determinize,
                # one-core ms a match: all random, all greedy, per mcts iteration (bench/bench_sim_cost.py, 2026-11-28)
                match_cost={3: TableCost(0.5, 2.1, 33), 4: TableCost(0.5, 2.7, 38)})
