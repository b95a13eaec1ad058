"""The `fudaya` program's entry point: tune the garbage collector for a command's life, then run the CLI.

A command makes most of its objects once and keeps them (modules, fonts, a deck's cards, its pages): with the
collector's default first generation of 700 objects, collections ran dozens of times in
`fudaya build gogyo --only cards` to free almost nothing, 30 ms of its 0.6 s (issue 28). A larger first
generation still collects the cycles a long build leaves; tests and library callers keep Python's default.
"""
from __future__ import annotations

import gc

FIRST_GENERATION = 100_000


def main() -> None:
    gc.set_threshold(FIRST_GENERATION, 50, 50)
    from .cli import app

    app()


if __name__ == "__main__":
    main()
