"""Hypothesis budgets for the hostile-input fuzz suite (registering the active profile makes it current).

`make test` runs the small default budget; `make fuzz` selects the "fuzz" profile (many more
examples, no deadline per example beyond the suite's own time bound).
"""
from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

_COMMON = {"suppress_health_check": [HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
           "deadline": None, "database": None}
# No shrinking in `make test`: a failure prints its example (derandomized, so a re-run repeats it).
settings.register_profile("default", max_examples=6, phases=[Phase.explicit, Phase.generate], derandomize=True,
                          **_COMMON)
# New examples on every run, shrunk to a small failing one, printed with the blob that replays it.
settings.register_profile("fuzz", max_examples=300, print_blob=True, **_COMMON)
