"""The benchmark scripts say which extra they need instead of a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", ["bench_exact.py", "bench_noguess.py", "bench_rzini.py"])
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


def test_the_docs_give_the_exact_benchmark_s_position_count() -> None:
    """Speed, Getting started and the README say how many positions bench_exact.py times by default:
    its expert, stuck, large-component and big sets, counted from its own defaults."""
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks.positions import large_component_positions
    finally:
        sys.path.remove(str(ROOT))
    source = (ROOT / "benchmarks" / "bench_exact.py").read_text()

    def default(option: str) -> int:
        found = re.search(rf'"--{option}",\s*type=int,\s*default=(\d+)', source)
        assert found is not None, option
        return int(found.group(1))

    large = sum(1 for _ in large_component_positions(2026, dense=default("dense")))
    total = default("positions") + default("stuck") + large + default("big")
    speed = " ".join((ROOT / "docs" / "speed.md").read_text().split())
    assert (
        f"{total} positions in all: {default('positions')} mid-game expert boards, "
        f"{default('stuck')} where a player is stuck, the {large} of large components"
    ) in speed
    assert f"on {total} positions" in (ROOT / "docs" / "getting-started.md").read_text()
    assert f"over all {total} benchmark positions" in (ROOT / "README.md").read_text()
