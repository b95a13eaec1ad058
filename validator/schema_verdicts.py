"""Which values were found valid against which schema, kept per machine: a deck file that has not changed since it
last checked clean is not checked again (JSON Schema validation was a fifth of `fudaya build gogyo --only cards`,
and jsonschema's import another tenth).

Only clean verdicts are kept; a value with problems is validated every time, so its messages always come
from the validator as it is. An entry's key is the sha256 of the schema's name and the value as canonical
JSON (sorted keys; 1 and 1.0 stay apart); its stamp holds a digest of every schema file, of validator/schema.py's
source and the versions of jsonschema, referencing and google-re2, so a changed schema or validator checks
everything again.
"""
from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from .cache import code_stamp, lookup, store
from .paths import SCHEMA_DIR
from .version import distribution_version

KIND = "schema-verdicts"
_LIBRARIES = ("jsonschema", "referencing", "jsonschema-specifications", "google-re2")


@functools.cache
def _stamp() -> str:
    from . import schema

    schemas = hashlib.sha256()
    for path in sorted(SCHEMA_DIR.rglob("*.json")):
        schemas.update(path.relative_to(SCHEMA_DIR).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    versions = [f"{name}{distribution_version(name)}" for name in _LIBRARIES]
    return code_stamp(schema, extra=[*versions, f"schemas:{schemas.hexdigest()[:16]}"])


def _key(value: Any, schema_name: str) -> str:
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(f"{schema_name}\n{canonical}".encode()).hexdigest()


def _valid(payload: Any) -> bool:
    if payload is not True:
        raise ValueError("not a verdict")
    return True


def known_valid(value: Any, schema_name: str) -> bool:
    """Whether `value` checked clean against `schema_name` before, with these schemas and this validator."""
    try:
        key = _key(value, schema_name)
    except (TypeError, ValueError):  # not JSON data (no deck file gives such a value): never taken as known
        return False
    return lookup(KIND, key, _stamp(), _valid) is True


def remember_valid(value: Any, schema_name: str) -> None:
    """Keep that `value` checked clean against `schema_name` (call only when it did)."""
    try:
        key = _key(value, schema_name)
    except (TypeError, ValueError):
        return
    store(KIND, key, _stamp(), True)
