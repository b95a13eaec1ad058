"""Counted nouns in messages: "1 match", "2 matches", never "1 matches"."""
from __future__ import annotations


def counted(count: int, noun: str) -> str:
    """`count` and `noun`, the noun in the plural unless the count is exactly one."""
    if count == 1:
        return f"{count} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        plural = noun[:-1] + "ies"  # policy, copy
    elif noun.endswith(("s", "x", "ch", "sh")):
        plural = noun + "es"
    else:
        plural = noun + "s"
    return f"{count} {plural}"


__all__ = ["counted"]
