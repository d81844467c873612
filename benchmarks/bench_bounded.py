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
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def lattice(n: int, seed: int, density: float = 0.25) -> str:
    """The lattice position's text (the same construction as the tests')."""
    rng = random.Random(seed)
    mine = [[rng.random() < density for _ in range(n)] for _ in range(n)]
    rows = []
    for y in range(n):
        row = ""
        for x in range(n):
            if x % 2 and y % 2 and not mine[y][x]:
                row += str(
                    sum(
                        mine[yy][xx]
                        for yy in range(max(0, y - 1), min(n, y + 2))
                        for xx in range(max(0, x - 1), min(n, x + 2))
                    )
                )
            else:
                row += "H"
        rows.append(row)
    return f"{n}x{n}x{sum(map(sum, mine))}\n" + "\n".join(rows) + "\n"


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
        text = lattice(n, 1)
        for budget in (1.0, 5.0):
            row = {"board": f"{n}x{n}", **run(text, budget)}
            print(row, flush=True)
            rows.append(row)
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "bounded.json").write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
