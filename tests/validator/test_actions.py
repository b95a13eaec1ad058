"""The shared action encoding round-trips and refuses operands that do not fit."""
from __future__ import annotations

import pytest

from validator.engine.actions import ActionCodec


@pytest.mark.parametrize(("operands", "bits"), [(2, 7), (2, 6), (1, 8), (0, 4), (3, 5)])
def test_encode_decode_round_trip(operands: int, bits: int) -> None:
    codec = ActionCodec(operands, bits)
    for kind in (0, 1, 9, 31):
        for value in (0, 1, codec.mask):
            ops = tuple(value if i % 2 == 0 else codec.mask - value for i in range(operands))
            action = codec.encode(kind, *ops)
            assert codec.decode(action) == (kind, *ops)
            assert codec.kind(action) == kind


def test_layout_is_kind_then_operands_high_to_low() -> None:
    codec = ActionCodec(2, 7)
    assert codec.encode(3, 5, 9) == 3 << 14 | 5 << 7 | 9
    assert codec.encode(3, 5) == 3 << 14 | 5 << 7  # a missing trailing operand is 0
    assert (codec.kind_shift, codec.mask, codec.limit) == (14, 127, 128)


def test_operands_that_do_not_fit_are_refused() -> None:
    codec = ActionCodec(2, 6)
    with pytest.raises(ValueError, match="does not fit in 6 bits"):
        codec.encode(1, 64)
    with pytest.raises(ValueError, match="3 operands for an encoding of 2"):
        codec.encode(1, 1, 2, 3)
    with pytest.raises(ValueError, match="operands >= 0 and bits >= 1"):
        ActionCodec(1, 0)
