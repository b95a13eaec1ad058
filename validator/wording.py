"""Counted nouns in messages: "1 match", "2 matches", never "1 matches"."""
from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """`count` and `noun`, the noun in the plural unless the count is exactly one."""
    if count == 1:
        return f"{count} {noun}"
    plural = noun + "es" if noun.endswith(("s", "x", "ch", "sh")) else noun + "s"
    return f"{count} {plural}"


__all__ = ["counted"]
