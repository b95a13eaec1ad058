"""The documented limits on what a deck may ask for, checked before the work (docs/security.md).

A deck is untrusted input: anything it asks us to read, decode, repeat or lay out is bounded here,
so a hostile or careless deck costs seconds and megabytes, never minutes and gigabytes. Each limit
is far above what the shipped games use (their largest values are noted beside each).
"""
from __future__ import annotations

# JSON files (largest shipped: 46 KB)
MAX_JSON_BYTES = 2 * 1024 * 1024   # refused before reading (issue 12: a 6.4 MB cards.json took 42 s and 924 MB)
MAX_NUMBER_DIGITS = 30             # no deck value needs more; Python refuses integers of 4,300 digits with a traceback
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

# Area maps (shipped: sangokushi's 29 areas, at most 6 routes an area); the map schema caps them, and the map
# checks compare only parts that share a grid cell, so 2,000 areas are checked in well under 2 s (issue 23)
MAX_MAP_AREAS = 10_000             # a 2 MiB map.json holds about 9,000 plain areas anyway
MAX_MAP_ROUTES_PER_AREA = 32       # routes listed on one area
