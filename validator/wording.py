"""Counted nouns in messages ("1 match", "2 matches", never "1 matches") and ranges in Japanese text."""
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


RANGE_MARK = "〜"  # a range of players, minutes or ages in Japanese text: 2〜6人, never 2-6人 nor 2–6人


def japanese_range(low: int, high: int) -> str:
    """'2〜6' (a range in Japanese text, as a box says 2〜6人), or '4' when both ends are the same."""
    return str(low) if low == high else f"{low}{RANGE_MARK}{high}"


__all__ = ["RANGE_MARK", "counted", "japanese_range"]
