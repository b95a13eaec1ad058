"""A game package's modules import one another in layers: no import circle, at module level or inside a
function (a circle held together by imports inside functions is still a circle). Imports under
`if TYPE_CHECKING:` are for annotations only and never run, so they are left out.

Every game package of validator/games is checked, so a new game gets the coverage."""
from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[3] / "validator" / "games"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())


def _runtime_imports(tree: ast.AST) -> list[ast.ImportFrom]:
    """`from .x import …` statements that run (not under `if TYPE_CHECKING:`)."""
    found: list[ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.ImportFrom) and child.level == 1:
                found.append(child)
            visit(child)

    visit(tree)
    return found


def graph(package: str) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports at run time."""
    folder = GAMES / package
    modules = {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    edges: dict[str, set[str]] = {}
    for name in modules:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        targets: set[str] = set()
        for node in _runtime_imports(tree):
            if node.module:
                targets.add(node.module.split(".")[0])
            else:
                targets.update(alias.name for alias in node.names)
        edges[name] = targets & modules
    return edges


def test_every_game_package_is_checked() -> None:
    assert {"gogyo", "jinzai", "sangokushi", "sanguosha", "sengoku"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_game_package_imports_without_a_circle(package: str) -> None:
    try:
        tuple(TopologicalSorter(graph(package)).static_order())
    except CycleError as err:
        pytest.fail(f"validator/games/{package}: import circle {' -> '.join(err.args[1])}")


def test_the_check_finds_a_circle() -> None:
    with pytest.raises(CycleError):
        tuple(TopologicalSorter({"a": {"b"}, "b": {"c"}, "c": {"a"}}).static_order())
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import x\n"
                     "def f():\n    from .c import y\n")
    assert [node.module for node in _runtime_imports(tree)] == ["c"]
