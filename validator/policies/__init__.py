"""POLICIES: policy name -> factory; find_policy raises ValueError naming unknown ones."""
from __future__ import annotations

from collections.abc import Callable

from .base import Policy
from .greedy import GreedyPolicy
from .random_policy import RandomPolicy

POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
}


def find_policy(name: str) -> Policy:
    """A fresh policy registered as `name`."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"no policy {name!r} (known: {', '.join(sorted(POLICIES))})") from None
