"""Small pure geometry shared by checks and drawing: fitting a picture into a box."""
from __future__ import annotations


def contain(box_w: float, box_h: float, item_w: float, item_h: float) -> tuple[float, float]:
    """Largest size with the item's aspect ratio that fits the box."""
    scale = min(box_w / item_w, box_h / item_h)
    return item_w * scale, item_h * scale


MM_PER_INCH = 25.4
POINTS_PER_MM = 72 / MM_PER_INCH


def mm_to_pt(value: float) -> float:
    return value * POINTS_PER_MM


def pt_to_mm(value: float) -> float:
    return value / POINTS_PER_MM
