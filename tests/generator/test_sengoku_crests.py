"""The redrawn crests (decks/sengoku/sources/draw_crests.py): 五七桐 has seven and five and five distinct
blossoms, 竹に雀's sparrows and 大一大万大吉's letters stand clear of the ring, and the script
reproduces the committed files."""
from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

from svglib.svglib import svg2rlg

from validator.paths import DEFAULT_DECKS_DIR

CRESTS = DEFAULT_DECKS_DIR / "sengoku" / "assets" / "crests"
SCRIPT = DEFAULT_DECKS_DIR / "sengoku" / "sources" / "draw_crests.py"


def _points(d: str) -> list[tuple[float, float]]:
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[0::2], numbers[1::2]))


def _paths(name: str) -> list[str]:
    return re.findall(r' d="([^"]+)"', (CRESTS / name).read_text(encoding="utf-8"))


def test_paulownia_has_five_seven_five_blossoms_that_do_not_touch() -> None:
    bells = [b for b in re.split(r"(?=M)", _paths("toyotomi.svg")[1]) if b]
    assert len(bells) == 17  # 5 + 7 + 5
    boxes = []
    for bell in bells:
        xs, ys = zip(*_points(bell))
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    for n, a in enumerate(boxes):
        for b in boxes[n + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_sparrows_fly_inside_the_bamboo_ring() -> None:
    birds = _paths("uesugi.svg")[2]
    assert all(math.dist(p, (50, 50)) < 42 for p in _points(birds))  # the ring's inside edge is at 43


def test_the_lettering_stands_clear_of_the_ring() -> None:
    text = (CRESTS / "ishida.svg").read_text(encoding="utf-8")
    found = re.search(r'transform="translate\(50 50\) scale\(([\d.]+)\) translate\((-?[\d.]+) (-?[\d.]+)\)"', text)
    assert found is not None
    k, dx, dy = (float(v) for v in found.groups())
    letters = _paths("ishida.svg")[1]
    placed = [(50 + k * (x + dx), 50 + k * (y + dy)) for x, y in _points(letters)]
    assert max(math.dist(p, (50, 50)) for p in placed) < 43.5 - 2.5  # the inner ring edge, with room
    assert svg2rlg(str(CRESTS / "ishida.svg")) is not None


def test_the_script_reproduces_the_committed_crests(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("draw_crests", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.paulownia() == (CRESTS / "toyotomi.svg").read_text(encoding="utf-8")
    assert module.bamboo_and_sparrows() == (CRESTS / "uesugi.svg").read_text(encoding="utf-8")
    assert module.great_one() == (CRESTS / "ishida.svg").read_text(encoding="utf-8")
