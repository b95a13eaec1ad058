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
# All the JSON that loading one game parses, a file named by two components counted twice (shipped: under
# 300 KB): 100 components naming one 1.8 MB cards file kept `check` over 2 minutes and 2.8 GB before.
MAX_GAME_JSON_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64                     # objects and arrays nested deeper are refused before the parser recurses

# Text (longest shipped card text: ~200 characters; rulebook paragraph: ~600)
MAX_TEXT_CHARS = 20_000            # one string drawn on a card, sheet or rulebook page

# Printed pieces: every card and sheet of a game, each copy (qty) counted (shipped: at most 270, sangokushi).
# Checks and drawing walk every copy: 2,000 sheets of qty 500 kept `check` busy for minutes.
MAX_PRINTED_PIECES = 5_000

# Shapes drawn (validator/checks/shapes.py): a repeat counts its inner element count times, nested repeats
# multiply, a table counts its cells, a polygon its corners, text one per 100 characters (shipped: at most
# 166 on one side, 25,534 over a game, sangokushi).
# Four nested repeats of 200 (1.6 billion circles) passed `check` and ran `build` past 4 GB.
MAX_SHAPES_PER_SIDE = 5_000
MAX_SHAPES = 500_000

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

# Preflight of a PDF named on the command line (`fudaya preflight`, generator/preflight_budget.py). The file
# is untrusted: whatever it asks preflight to decode, parse or walk is counted against these, and a file
# that would go over one is refused with one line before the work. Shipped maximum: the largest value in
# the files `fudaya build` writes for the five games, by default and with --booklet --proof --paper a3.
MAX_PDF_PAGES = 10_000                  # shipped: 252 (sangokushi's area markers for the print shop)
MAX_STREAM_FILTERS = 4                  # decoding filters on one stream; shipped: 2 (ASCII85, Flate)
MAX_STREAM_BYTES = 16 * 1024 * 1024     # one content stream, decoded; shipped: 168 KB
MAX_CONTENT_BYTES = 32 * 1024 * 1024    # all content decoded for one file, a shared stream each time; shipped: 772 KB
MAX_ARRAY_ITEMS = 10_000                # one array or dictionary in content (qpdf's parser); shipped: under 100
MAX_STREAM_OPERATORS = 500_000          # operators one content stream hands the walker; shipped: 10,511
MAX_OPERATORS = 2_000_000               # operators walked in one file, a form's each time it is drawn; shipped: 69,126
MAX_FORM_DRAWS = 100_000                # forms drawn in one file, a form drawn by a form each time; shipped: 120
MAX_FORM_DEPTH = 12                     # forms drawing forms; shipped: 1
MAX_COLOUR_SPACE_DEPTH = 8              # colour spaces built on colour spaces (Indexed on a named space...); shipped: 0
MAX_OBJECTS = 200_000                   # fonts, XObjects and content streams listed in resources; shipped: 1,565
# The backstop for what qpdf decodes before preflight sees it (cross-reference and object streams, whose
# LZW it inflates without a limit): `fudaya preflight` checks each file in a child process held to these.
MAX_PREFLIGHT_MEMORY = 1024 * 1024 * 1024  # address space a file's check may add to the command's own
MAX_PREFLIGHT_SECONDS = 60              # CPU seconds for one file's check; shipped: 0.3

# TrueType fonts (shipped: BIZ UD Gothic/Mincho, 4.6–6.2 MB, 13,932 glyphs, 23,169 code points over all cmap
# subtables' ranges). Checked from the file's headers before anything is expanded (validator/fontfile.py).
MAX_FONT_BYTES = 32 * 1024 * 1024  # read no further; the largest CJK TrueType fonts are about 20 MB
MAX_FONT_CODE_POINTS = 200_000     # summed over every cmap range; a 728-byte font mapping 2³² code points took 6 GB
MAX_FONT_GLYPHS = 65_535           # a glyph id is 16 bits: the format's own ceiling; cost is linear in it

# Area maps (shipped: sangokushi's 29 areas, at most 6 routes an area); the map schema caps them, and the map
# checks compare only parts that share a grid cell, so 2,000 areas are checked in well under 2 s (issue 23)
MAX_FINDINGS_PER_KIND = 100  # drawing findings of one kind listed per map; then one line says more were left
MAX_MAP_AREAS = 10_000             # a 2 MiB map.json holds about 9,000 plain areas anyway
MAX_MAP_ROUTES_PER_AREA = 32       # routes listed on one area
