"""Pickling a frozen dataclass through its constructor.

Simulation workers started by spawn receive the engine pickled. A frozen dataclass that mypyc
compiled (`make fast`, validator/native.py) refuses the field-by-field restore pickle uses by
default, and one that derives fields in __post_init__ must derive them again from the unpickled
parts (gogyo's lookup tables share dicts with its scorer). Such classes reduce to their
constructor and its arguments.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any


def reduce_frozen(instance: Any) -> tuple[Any, tuple[Any, ...]]:
    """`__reduce__` for a frozen dataclass: its class and the values of its constructor's fields, in order."""
    return type(instance), tuple(getattr(instance, field.name) for field in fields(instance) if field.init)
