"""The package's imports point one way: down the layer table of DESIGN.md, with no cycle.

Every ``import`` and ``from … import`` of ``minesolver`` in every module is read from the
source (function-local ones too; those under ``if TYPE_CHECKING:`` are type annotations
only and are skipped). A module may import one of a lower layer or of its own layer; an
import of a higher layer fails, and so does any cycle among modules (imports inside a
layer included). Every module must have a layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: dict[str, int] = {
    "minesolver._native": 0,  # the Rust core (native/): a leaf, called from layers 4, 7, 8
    "minesolver.position": 1,
    "minesolver.registry": 1,
    "minesolver.constraints": 2,
    "minesolver.counting": 2,
    "minesolver.result": 3,
    "minesolver.engines": 4,
    "minesolver.analysis": 5,
    "minesolver.game": 6,
    "minesolver.strategy": 7,
    "minesolver.simulate": 8,
    "minesolver.stats": 8,
    "minesolver.optimal": 8,
    "minesolver.noguess": 8,
    "minesolver.replay": 8,
    "minesolver.cli": 9,
    "minesolver.display": 9,
    "minesolver.play": 9,
    "minesolver.plots": 9,
    "minesolver.bench_report": 9,
    "minesolver.ui": 9,
    "minesolver.web": 9,
    "minesolver": 10,  # the package's top level gathers the public names
}
"""Module (or package) -> layer; the longest matching prefix applies."""


def layer(module: str) -> int:
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        found = LAYERS.get(".".join(parts[:n]))
        if found is not None:
            return found
    raise KeyError(module)


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``pkg.__init__`` as ``pkg``)."""
    out = {}
    for path in sorted((SRC / "minesolver").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                return True
    return False


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports (resolved: ``from pkg import sub``
    names the submodule when ``sub`` is one)."""
    tree = ast.parse(path.read_text(), str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if _type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                for alias in node.names
            ]
        out.update(t for t in targets if t == "minesolver" or t.startswith("minesolver."))
    out.discard(module)
    return out


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_module_has_a_layer() -> None:
    for name in modules():
        assert layer(name), name


def test_no_import_points_up_the_layers() -> None:
    upward = [
        f"{src} (layer {layer(src)}) imports {dst} (layer {layer(dst)})"
        for src, targets in graph().items()
        for dst in sorted(targets)
        if layer(dst) > layer(src)
    ]
    assert not upward, "\n".join(upward)


def test_only_layers_4_7_8_call_the_native_core() -> None:
    """``_native`` is called only through the typed wrappers of the engines, the players
    and the layer-8 tools."""
    callers = sorted(src for src, targets in graph().items() if "minesolver._native" in targets)
    assert callers, "nothing calls the native core"
    assert all(layer(src) in (4, 7, 8) for src in callers), callers


def test_the_imports_have_no_cycle() -> None:
    edges = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert not cycles, "\n".join(cycles)


def test_the_walker_sees_local_imports_and_skips_type_checking(tmp_path: Path) -> None:
    """The checker itself: a function-local upward import is seen, a TYPE_CHECKING one
    is not, relative imports resolve."""
    pkg = tmp_path / "minesolver" / "engines"
    pkg.mkdir(parents=True)
    (pkg / "x.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from minesolver.game import Game\n"
        "def f():\n    from minesolver.strategy import best\n"
        "from . import base\nfrom ..result import Analysis\n"
    )
    known = {"minesolver.engines.base": pkg / "base.py", "minesolver.strategy.best": pkg}
    got = imports("minesolver.engines.x", pkg / "x.py", known)
    assert got == {"minesolver.strategy.best", "minesolver.engines.base", "minesolver.result"}
    with pytest.raises(KeyError):
        layer("elsewhere.module")
