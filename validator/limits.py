"""The documented limits on what a deck may ask for, checked before the work (docs/security.md).

A deck is untrusted input: anything it asks us to read, decode, repeat or lay out is bounded here,
so a hostile or careless deck costs seconds and megabytes, never minutes and gigabytes. Each limit
is far above what the shipped games use (their largest values are noted beside each).
"""
from __future__ import annotations

# JSON files (largest shipped: 46 KB)
MAX_JSON_BYTES = 2 * 1024 * 1024   # refused before reading (issue 12: a 6.4 MB cards.json took 42 s and 924 MB)
MAX_NUMBER_DIGITS = 30             # no deck value needs more; Python refuses integers of 4,300 digits with a traceback
MAX_DECK_JSON_BYTES = 32 * 1024 * 1024  # a deck's JSON files together, hashed for the report key (shipped: <= 166 KB)
MAX_MANIFEST_BYTES = 64 * 1024 * 1024  # build.json read back (export, proof, a partial build): ~250 bytes a placement
MAX_DEPTH = 64                     # objects and arrays nested deeper are refused before the parser recurses

# Text (longest shipped card text: ~200 characters; rulebook paragraph: ~600)
MAX_TEXT_CHARS = 20_000            # one string drawn on a card, sheet or rulebook page

# Counts read from card fields (repeat elements); counts written in a layout are capped by its schema
MAX_REPEAT = 200                   # as the layout schema caps a written count; shipped: at most 12 (gogyo's numbers)

# Raster images (largest shipped: 7 KB, 400×400)
MAX_IMAGE_BYTES = 64 * 1024 * 1024
MAX_IMAGE_PIXELS = 50_000_000      # an A2 board at 300 dpi is 35 megapixels; read from the header, before decoding

# SVG art (largest shipped: 3 KB)
MAX_SVG_BYTES = 2 * 1024 * 1024
MAX_SVG_ELEMENTS = 50_000

# Simulation (issue 23): what game.json's "simulation" may cost in all — the report's plan with its
# table sizes and variant options, and the studies `build --studies` plays — estimated before any
# match is played (validator/sim_cost.py), in seconds on a machine of SIM_BUDGET_CORES cores (the
# reference the figures were measured on; the check gives the same answer on any machine).
# `--sim-budget` raises it for one run.
SIM_BUDGET_SECONDS = 2 * 3600
# What every check and build plays (the report's plan, its table sizes, the variant options; not the
# studies, which only `build --studies` plays) may cost at most this much (the shipped games' dearest is
# 15 s), unless --sim-budget raises the budget above its default: then the raised budget is the cap of both.
EVERY_BUILD_SECONDS = 10 * 60
SIM_BUDGET_CORES = 2
