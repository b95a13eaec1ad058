"""Named card and paper sizes in millimetres (data the schemas' enums refer to)."""
from __future__ import annotations

CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (58.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

# What Japanese print shops commonly ask of print files (shared/reference/anchors-print-tools.md):
# `fudaya preflight` checks these, and reduced card figures are drawn to keep them.
PRINT_MIN_LINE_MM = 0.1
PRINT_MIN_TEXT_PT = 5.0
SHOP_BLEED_MM = 3.0  # 塗り足し: art carried this far past the trim on every print-shop page
SHOP_SAFE_MM = 5.0   # running heads and page numbers of a bound book stay this far inside the trim

PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
}

# Rulebook pages (rulebook.schema.json "page.size"); kept apart from the imposition papers above.
RULEBOOK_PAGE_SIZES: dict[str, tuple[float, float]] = {
    "a5": (148.0, 210.0),
    "b5": (182.0, 257.0),
    "a4": (210.0, 297.0),
}

# The paper `fudaya build` imposes on unless --paper says otherwise, and so the one `fudaya check` measures against.
DEFAULT_PAPER = "a4"
