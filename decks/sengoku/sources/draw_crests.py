"""Redraw three of the crests (五七桐, 竹に雀, 大一大万大吉) to the standard of 武田菱 and 六文銭.

Run from the project root: python decks/sengoku/sources/draw_crests.py. Writes the SVGs in
decks/sengoku/assets/crests/; our own drawings of the traditional designs, in the ink #231815
(Japan Color K100, printed K only). 竹に雀 keeps its bamboo ring and leaves and gets new sparrows;
大一大万大吉 keeps its lettering, centred and set smaller so it stands clear of the ring.
"""
from __future__ import annotations

import re
from pathlib import Path

CRESTS = Path(__file__).resolve().parent.parent / "assets" / "crests"
INK = "#231815"
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">'


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _path(points: list[tuple[str, list[float]]]) -> str:
    return "".join(op + " ".join(_n(v) for v in values) for op, values in points)


# --- 五七桐 -------------------------------------------------------------------------------------------
OFFSET = 4.6  # a blossom's centre beside its stalk
def _blossom(cx: float, cy: float) -> str:
    """One flower: a bell with a three-pointed mouth (its stem is drawn by _stems)."""
    w, top, bottom = 3.7, 4.0, 4.2
    return _path([("M", [cx - w, cy - top + 1.4]), ("L", [cx - w * 0.55, cy - top + 2.6]), ("L", [cx, cy - top]),
                  ("L", [cx + w * 0.55, cy - top + 2.6]), ("L", [cx + w, cy - top + 1.4]),
                  ("C", [cx + w + 0.4, cy + bottom * 0.6, cx + 1.6, cy + bottom, cx, cy + bottom]),
                  ("C", [cx - 1.6, cy + bottom, cx - w - 0.4, cy + bottom * 0.6, cx - w, cy - top + 1.4]), ("Z", [])])


def _stalk(x: float, top: float, bottom: float, count: int) -> tuple[str, list[tuple[float, float, float, float]]]:
    """A stalk with `count` blossoms alternating left and right, the top one upright on the tip: the
    blossoms' outlines, and the stalk and stems as lines (x1, y1, x2, y2)."""
    bells = [_blossom(x, top - 0.4)]  # clear of the first blossom beside it
    lines = [(x, top + 3.0, x, bottom)]
    pitch = (bottom - top - 9) / (count - 1)
    for n in range(1, count):
        side = 1 if n % 2 else -1
        cx, cy = x + side * OFFSET, top + 0.6 + n * pitch
        bells.append(_blossom(cx, cy))
        lines.append((x, cy + 3.4, cx, cy + 1.6))
    return "".join(bells), lines


def paulownia() -> str:
    leaves = (f'<path fill="{INK}" d="M50,60C63,69 61.7,85.2 50,96C38.3,85.2 37,69 50,60Z'
              'M48,62C41.77,77.04 22.75,82.68 6.65,77.05C15.36,62.39 33.56,54.49 48,62Z'
              'M52,62C66.44,54.49 84.64,62.39 93.35,77.05C77.25,82.68 58.23,77.04 52,62Z"/>'
              '<g stroke="#ffffff" stroke-width="1.4" stroke-linecap="round"><line x1="50" y1="63" x2="50" y2="92"/>'
              '<line x1="45" y1="64" x2="12" y2="77"/><line x1="55" y1="64" x2="88" y2="77"/></g>')
    bells, lines = "", []
    for x, top, bottom, count in ((50, 4.5, 61, 7), (22, 15, 60, 5), (78, 15, 60, 5)):
        shape, stalk = _stalk(x, top, bottom, count)
        bells, lines = bells + shape, lines + stalk
    strokes = "".join(f'<line x1="{_n(a)}" y1="{_n(b)}" x2="{_n(c)}" y2="{_n(d)}"/>' for a, b, c, d in lines)
    return (f'{HEAD}\n<title>五七桐</title>\n{leaves}<path fill="{INK}" d="{bells}"/>'
            f'<g stroke="{INK}" stroke-width="1.8" stroke-linecap="round">{strokes}</g>\n</svg>\n')


# --- 竹に雀 -------------------------------------------------------------------------------------------
SPARROW_SCALE = 1.04  # about the middle of the ring
def _sparrow(mirror: bool, lift: float) -> str:
    """A sparrow in flight facing the middle: body, raised wing and forked tail; its eye left white."""
    def p(x: float, y: float) -> list[float]:
        x, y = 50 + (x - 50) * SPARROW_SCALE, 50 + (y - 50) * SPARROW_SCALE - lift
        return [100 - x if mirror else x, y]

    body = [("M", p(47.5, 52)), ("L", p(44, 50.2)),                                   # beak
            ("C", p(42.5, 46.2) + p(36.5, 45) + p(32.5, 48.2)),                        # crown and nape
            ("C", p(28.5, 51) + p(24, 55) + p(17.5, 56.5)),                            # back to the tail
            ("L", p(21, 59)), ("L", p(15.5, 61.5)), ("L", p(23.5, 61.2)),              # forked tail
            ("C", p(29, 64.5) + p(39, 63.5) + p(44, 53.6)), ("Z", [])]                 # belly to the throat
    wing = [("M", p(37.5, 50.5)), ("C", p(37, 43) + p(33, 36) + p(25, 31)),           # leading edge, raised
            ("L", p(27.5, 36)), ("L", p(22, 35.5)), ("L", p(26, 40)),                  # primaries
            ("L", p(21, 40.8)), ("C", p(25.5, 46.5) + p(29.5, 50) + p(33.5, 52.5)), ("Z", [])]
    eye = p(42.3, 49.3)
    white = f'M{_n(eye[0] - 1.2)},{_n(eye[1])}a1.2,1.2 0 1,0 2.4,0a1.2,1.2 0 1,0 -2.4,0Z'
    return _path(body) + _path(wing), white


def bamboo_and_sparrows() -> str:
    source = (CRESTS / "uesugi.svg").read_text(encoding="utf-8")
    ring_and_leaves = re.findall(r"<path [^>]*/>", source)[:2]  # the bamboo ring and its leaves, as drawn
    left, left_eye = _sparrow(False, 0.0)
    right, right_eye = _sparrow(True, 3.0)
    birds = f'<path fill="{INK}" d="{left}{right}"/><path fill="#ffffff" d="{left_eye}{right_eye}"/>'
    return f'{HEAD}\n<title>竹に雀</title>\n{"".join(ring_and_leaves)}{birds}\n</svg>\n'


# --- 大一大万大吉 ---------------------------------------------------------------------------------------
def great_one() -> str:
    """The lettering centred in the ring and set at 82 %, so no stroke comes near the ring."""
    source = (CRESTS / "ishida.svg").read_text(encoding="utf-8")
    ring, letters = re.findall(r'<path [^>]*/>', source)[:2]
    d = re.search(r' d="([^"]+)"', letters)
    assert d is not None
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d.group(1))]
    xs, ys = numbers[0::2], numbers[1::2]  # absolute M/L/Q/H/V pairs: close enough for the box's centre
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    scale = 0.82
    group = f'<g transform="translate(50 50) scale({scale}) translate({_n(-cx)} {_n(-cy)})">{letters}</g>'
    return f'{HEAD}\n<title>大一大万大吉</title>\n{ring}{group}\n</svg>\n'


if __name__ == "__main__":
    (CRESTS / "toyotomi.svg").write_text(paulownia(), encoding="utf-8")
    (CRESTS / "uesugi.svg").write_text(bamboo_and_sparrows(), encoding="utf-8")
    (CRESTS / "ishida.svg").write_text(great_one(), encoding="utf-8")
