"""Action encoding shared by every engine: a kind and a fixed number of small operands packed in one int.

Engines keep actions as plain ints (cheap to hash, compare and count); ActionCodec is the one place
that knows the layout, so no engine writes its own shifts. Hot loops may read `shift`, `mask` and
`kind_shift` once and pack by hand with them; every other caller uses encode/decode.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .api import Action


@dataclass(frozen=True)
class ActionCodec:
    """`operands` fields of `bits` bits each below the kind: kind << (operands*bits) | x << bits | y ..."""

    operands: int
    bits: int
    mask: int = field(init=False)
    kind_shift: int = field(init=False)

    def __post_init__(self) -> None:
        if self.operands < 0 or self.bits < 1:
            raise ValueError(f"an action needs operands >= 0 and bits >= 1, not {self.operands} and {self.bits}")
        object.__setattr__(self, "mask", (1 << self.bits) - 1)
        object.__setattr__(self, "kind_shift", self.operands * self.bits)

    @property
    def shift(self) -> int:
        """Bits per operand (the distance between neighbouring operands)."""
        return self.bits

    @property
    def limit(self) -> int:
        """Operands must be below this (the all-ones value of a field is free for an engine's NONE)."""
        return self.mask + 1

    def encode(self, kind: int, *operands: int) -> Action:
        """Pack a kind and up to `operands` operands (missing trailing ones are 0); ValueError when one does not fit."""
        if len(operands) > self.operands:
            raise ValueError(f"{len(operands)} operands for an encoding of {self.operands}")
        action = kind
        for index in range(self.operands):
            value = operands[index] if index < len(operands) else 0
            if not 0 <= value <= self.mask:
                raise ValueError(f"operand {value} does not fit in {self.bits} bits")
            action = action << self.bits | value
        return action

    def kind(self, action: Action) -> int:
        return action >> self.kind_shift

    def decode(self, action: Action) -> tuple[int, ...]:
        """(kind, operand 1, operand 2, ...), the inverse of encode."""
        values = []
        for _ in range(self.operands):
            values.append(action & self.mask)
            action >>= self.bits
        return (action, *reversed(values))
