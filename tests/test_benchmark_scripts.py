"""The benchmark scripts say which extra they need instead of a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", ["bench_exact.py", "bench_noguess.py"])
def test_bench_without_ms_toollib_names_the_extra(script: str) -> None:
    code = (
        "import sys, runpy; sys.modules['ms_toollib'] = None; "
        f"runpy.run_path('benchmarks/{script}', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr == "error: this benchmark needs ms-toollib: pip install -e '.[dev]'\n"
    assert done.stdout == ""
