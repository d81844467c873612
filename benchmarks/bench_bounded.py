"""How long ``minesolver solve --budget B`` takes on hard positions, board by board.

Hard positions are 2-D lattices (a digit at every odd (x, y) that is not a mine, every
other cell hidden, 25% mines): one component whose exact count grows exponentially with the
side, the worst case for every exact engine. Each run is a fresh process (imports
included, as a user sees it), timed by wall clock; the answer's engine and exactness are
read from ``--json``. A clear error (exit 2) counts as bounded too, and is shown.

    .venv/bin/python benchmarks/bench_bounded.py   # ~2 min; writes results/bounded.json
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the 2-D lattice positions of the time-limit tests (one generator for both)
sys.path.insert(0, str(HERE.parent / "tests" / "engines"))

from test_auto import lattice  # type: ignore[import-not-found]  # noqa: E402


def run(text: str, budget: float) -> dict[str, object]:
    """One ``solve --json --budget`` process: wall seconds, status, engine, exactness."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    began = time.perf_counter()
    proc = subprocess.run(
        [
            str(Path(sys.executable).parent / "minesolver"),
            "solve",
            f.name,
            "--json",
            "--budget",
            str(budget),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    wall = time.perf_counter() - began
    Path(f.name).unlink()
    out: dict[str, object] = {
        "budget": budget,
        "seconds": round(wall, 2),
        "status": proc.returncode,
    }
    if proc.returncode == 0:
        data = json.loads(proc.stdout)
        out.update(engine=data["engine"], exact=data["exact"])
    else:
        out["error"] = proc.stderr.strip()[:200]
    return out


def main() -> None:
    rows = []
    for n in (30, 60, 150, 250):
        text = lattice(n, 1, 0.25).to_text()
        for budget in (1.0, 5.0):
            row = {"board": f"{n}x{n}", **run(text, budget)}
            print(row, flush=True)
            rows.append(row)
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "bounded.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
