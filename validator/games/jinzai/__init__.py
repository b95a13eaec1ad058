"""人材登用 (jinzai, working title): engine, scoring, greedy heuristic, rulebook oracle and determinizer (for mcts),
exported as SPEC."""
from __future__ import annotations

from ...engine.scoring import from_oracle
from ...engine.spec import GameSpec, TableCost
from .claims import JinzaiOracle
from .determinize import determinize
from .policies import choose
from .state import JinzaiGame

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
