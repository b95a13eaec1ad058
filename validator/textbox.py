"""Lay out one text element's bound text in its box: the call both the text check and drawing make."""
from __future__ import annotations

from .geometry import mm_to_pt
from .model import Element
from .ruby_layout import RUBY_SCALE
from .typeset import FontMetrics, TextLayout, fit_text


def layout_text_element(element: Element, text: str, metrics: FontMetrics) -> TextLayout | None:
    """The lines and size the element prints `text` at, or None if it cannot fit even at min_size."""
    props = element.props
    return fit_text(
        text,
        metrics,
        width=mm_to_pt(props["w"]),
        height=mm_to_pt(props["h"]),
        size=props["size"],
        min_size=props.get("min_size"),
        line_height=props.get("line_height", 1.2),
        vertical=props.get("vertical", False),
        wrap=props.get("wrap", True),
        justified=props.get("align") == "justify",
        ruby_scale=props.get("ruby_scale", RUBY_SCALE),
    )
