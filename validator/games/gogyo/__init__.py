"""五行中国史カードゲーム (gogyo): engine, scoring, greedy heuristic and rulebook oracle, exported as SPEC.

The hot modules may also exist compiled (`make fast`, validator/native.py): a fresh build is put
in front of this package's path before any of them is imported.
"""
from __future__ import annotations

from ...native import native_path

__path__[:0] = native_path(__name__)  # noqa: F821 - a package's __path__ is set before its __init__ runs

from ...engine.scoring import from_oracle  # noqa: E402 - after the path, so compiled modules are found
from ...engine.spec import GameSpec, TableCost  # noqa: E402
from .claims import GogyoOracle  # noqa: E402
from .determinize import determinize  # noqa: E402
from .game import GogyoGame  # noqa: E402
from .policies import choose  # noqa: E402

SPEC = GameSpec(name="gogyo", engine=GogyoGame.from_model, greedy=choose, oracle=GogyoOracle.from_model,
                rules_schema="rules/gogyo.schema.json",
                scorer=from_oracle(GogyoOracle.from_model, order_matters=True,
                                   labels={"dynasty": "王朝役 dynasty run", "element": "五行役 element run"}),
                endings={"declaration": "終了宣言", "empty-deck": "山札切れ"},
                events={"duels_won_by_attacker": "攻撃側が勝った決闘", "wrong_declarations": "役のない終了宣言"},
                determinize=determinize,
                # one-core ms a match: all random, all greedy, per mcts iteration (bench/bench_sim_cost.py, 2026-11-28)
                match_cost={2: TableCost(0.6, 5.3, 39), 3: TableCost(0.3, 3, 32), 4: TableCost(0.3, 3.2, 13)})
