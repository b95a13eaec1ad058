"""Installed versions, read from distribution metadata without importing the distribution."""
from __future__ import annotations

import functools


def distribution_version(name: str) -> str | None:
    """An installed distribution's version, read from its metadata (nothing is imported), or None."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


@functools.cache
def fudaya_version() -> str:
    """This installation's version, or a note that this checkout was never installed."""
    return distribution_version("fudaya") or "unknown (not installed)"
