"""Benchmark scripts and their seeded position generators (not tests: timing lives here).

Importable from the repository root (``from benchmarks.positions import expert_position``)
so other scripts reuse the same positions.
"""

import sys
from importlib import import_module
from types import ModuleType


def require(module: str, package: str, extra: str = "dev") -> ModuleType:
    """``module``, imported; if it is missing, one line saying which package and which
    extra of minesolver provide it, and exit status 2 (not a ``ModuleNotFoundError``
    traceback)."""
    try:
        return import_module(module)
    except ImportError:
        sys.stderr.write(f"error: this benchmark needs {package}: pip install -e '.[{extra}]'\n")
        raise SystemExit(2) from None
