"""The package's imports point one way: down the layer table of DESIGN.md, with no cycle.

Every ``import`` and ``from … import`` of ``minesolver`` in every module is read from the
source: function-local ones too, and those under ``if TYPE_CHECKING:`` (a type annotation
is a dependency like any other: a cycle through it is a cycle). A module may import one
of a lower layer or of its own layer; an import of a higher layer fails, and so does any
cycle among modules (imports inside a layer included). Every module must have a layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

LAYERS: dict[str, int] = {
    "minesolver._native": 0,  # the Rust core (native/): a leaf, called from layers 4, 7, 8
    "minesolver.errors": 1,  # the base of the library's errors: position.py raises them
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
    "minesolver.book": 8,
    "minesolver.noguess": 8,
    "minesolver.replay": 8,
    "minesolver.vision": 8,
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


def modules(root: Path = SRC) -> dict[str, Path]:
    """Every module of the package under ``root`` by dotted name (``pkg.__init__`` as
    ``pkg``)."""
    out = {}
    for path in sorted((root / "minesolver").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``module`` imports, wherever the import stands (in a
    function, under ``if TYPE_CHECKING:``), resolved: ``from pkg import sub`` names the
    submodule when ``sub`` is one."""
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
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


def graph(root: Path = SRC) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer, said in words."""
    return [
        f"{src} (layer {layer(src)}) imports {dst} (layer {layer(dst)})"
        for src, targets in edges.items()
        for dst in sorted(targets)
        if layer(dst) > layer(src)
    ]


def test_only_layers_4_7_8_call_the_native_core() -> None:
    """``_native`` is called only through the typed wrappers of the engines, the players
    and the layer-8 tools."""
    callers = sorted(src for src, targets in graph().items() if "minesolver._native" in targets)
    assert callers, "nothing calls the native core"
    assert all(layer(src) in (4, 7, 8) for src in callers), callers


def cycles(edges: dict[str, set[str]]) -> list[str]:
    """A cycle through each edge that closes one in a depth-first walk (none when the
    graph has no cycle), as ``a -> b -> a``."""
    state: dict[str, int] = {}
    stack: list[str] = []
    found: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append(" -> ".join([*stack[stack.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_every_module_has_a_layer() -> None:
    for name in modules():
        assert layer(name), name


def test_no_import_points_up_the_layers() -> None:
    upward = upward_imports(graph())
    assert not upward, "\n".join(upward)


def test_the_imports_have_no_cycle() -> None:
    found = cycles(graph())
    assert not found, "\n".join(found)


def test_the_walker_sees_local_and_type_checking_imports(tmp_path: Path) -> None:
    """The checker itself: a function-local upward import is seen, and so is one under
    ``TYPE_CHECKING``; relative imports resolve."""
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
    assert got == {
        "minesolver.game",
        "minesolver.strategy.best",
        "minesolver.engines.base",
        "minesolver.result",
    }
    assert upward_imports({"minesolver.engines.x": got}) == [
        "minesolver.engines.x (layer 4) imports minesolver.game (layer 6)",
        "minesolver.engines.x (layer 4) imports minesolver.strategy.best (layer 7)",
    ]
    with pytest.raises(KeyError):
        layer("elsewhere.module")


def test_a_cycle_through_type_checking_imports_fails(tmp_path: Path) -> None:
    """A throwaway package whose only cycle runs through a ``TYPE_CHECKING`` import (a
    record naming, for its annotations only, the module that reads it): the checker
    finds the cycle; without that import the same package passes."""
    pkg = tmp_path / "minesolver" / "replay"
    pkg.mkdir(parents=True)
    (tmp_path / "minesolver" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from minesolver.replay.record import Replay\n")
    (pkg / "actions.py").write_text("from minesolver.replay.record import Replay\n")
    record = pkg / "record.py"
    record.write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from minesolver.replay.actions import Playback\n"
        "class Replay:\n"
        "    def playback(self) -> Playback: ...\n"
    )
    assert cycles(graph(tmp_path)) == [
        "minesolver.replay.record -> minesolver.replay.actions -> minesolver.replay.record"
    ]
    record.write_text("class Replay: ...\n")
    assert cycles(graph(tmp_path)) == []
    assert upward_imports(graph(tmp_path)) == []


FACE_LIBRARIES = ("rich", "typer", "starlette", "uvicorn", "matplotlib")
"""Libraries only the faces (``minesolver.ui``, ``minesolver.web``) may import."""


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def test_only_faces_import_the_face_libraries() -> None:
    faces = ("minesolver.ui", "minesolver.web")
    offenders = [
        f"{name} imports {lib}"
        for name, path in modules().items()
        if not name.startswith(faces)
        for lib in sorted(_imported_roots(path) & set(FACE_LIBRARIES))
    ]
    assert not offenders, "\n".join(offenders)


def test_no_library_module_imports_a_face() -> None:
    faces = ("minesolver.ui", "minesolver.web")
    offenders = [
        f"{src} imports {dst}"
        for src, targets in graph().items()
        if not src.startswith(faces) and src != "minesolver"
        for dst in sorted(targets)
        if dst.startswith(faces)
    ]
    assert not offenders, "\n".join(offenders)
