"""The benchmark scripts say which extra they need instead of a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_exact_without_ms_toollib_names_the_extra() -> None:
    code = (
        "import sys, runpy; sys.modules['ms_toollib'] = None; "
        "runpy.run_path('benchmarks/bench_exact.py', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr == "error: this benchmark needs ms-toollib: pip install -e '.[dev]'\n"
    assert done.stdout == ""
