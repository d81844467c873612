"""Wall time against the time limit: ``minesolver solve --budget S`` and ``analyze(...,
limit=Limit(seconds=S))`` on hard positions, on a loaded machine.

The limit is a deadline checked inside every engine's loops, so the answer (exact if it
finished, else approximate with its error, or the clean error) must come within
``1.2 * S + 0.3`` seconds of the call whatever the load. Each measurement is a fresh
process, run while other processes burn the cores (``--burners``, one by default, on top
of whatever else the machine runs):

* ``call``: the analysis alone, timed inside the process around ``analyze`` (the figure
  the target is about);
* ``cli``: the whole ``minesolver solve --json --budget S`` process, start-up, reading
  and output included; the start-up (``solve`` on a 3x3 position, median of 10 runs) is
  measured apart and reported beside it.

Both report the process's peak resident memory (``ru_maxrss`` of that child alone).

Boards: the dense 2-D lattices of the tests (a digit at every odd (x, y) that is not a
mine, 30 % mines: one component, the worst case of every exact engine) at 30x30 and
60x60; a 200x200 board with 8,000 mines in mid-game (benchmarks.positions); and a
1000x250 lattice of digits on the even cells (the hostile board of the native tests: one
component of 178,000 boxes). Budgets 0.5, 1, 2 and 10 s.

    .venv/bin/python benchmarks/bench_bounded.py            # ~5 min; results/bounded.json
    .venv/bin/python benchmarks/bench_bounded.py --quick    # budgets 0.5 and 1 only
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# the lattice positions of the time-limit tests (one generator for both)
sys.path.insert(0, str(ROOT / "tests" / "engines"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from test_auto import lattice  # type: ignore[import-not-found]  # noqa: E402
from test_native import _lattice  # type: ignore[import-not-found]  # noqa: E402

from benchmarks.positions import big_position, rng_for  # noqa: E402

BIN = Path(sys.executable).parent
CALL = """
import json, resource, sys, time
from minesolver import Limit, Position, analyze
pos = Position.from_text(open(sys.argv[1]).read())
began = time.perf_counter()
try:
    a = analyze(pos, engine="auto", limit=Limit(seconds=float(sys.argv[2])))
    out = {"engine": a.engine, "exact": a.exact}
except ValueError as exc:
    out = {"error": f"{type(exc).__name__}: {exc}"[:160]}
out["call"] = time.perf_counter() - began
print(json.dumps(out))
"""


def boards() -> dict[str, str]:
    """The benchmark boards as position text."""
    return {
        "dense 30x30": lattice(30, 1, 0.3).to_text(),
        "dense 60x60": lattice(60, 1, 0.3).to_text(),
        "200x200/8000": big_position(rng_for(0, "big-200x200-0")).to_text(),
        "1000x250 lattice": _lattice(1000, 250).to_text(),
    }


def child(args: list[str]) -> tuple[float, int, str, str, float]:
    """Run ``args``: wall seconds, exit status, stdout, stderr, peak RSS in MiB (this
    child's own, from ``wait4``)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - began
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return wall, proc.returncode, out.read(), err.read(), usage.ru_maxrss / 1024


def startup(path: str, runs: int = 10) -> float:
    """Median wall seconds of ``minesolver solve`` on a 3x3 position."""
    times = [child([str(BIN / "minesolver"), "solve", path])[0] for _ in range(runs)]
    return statistics.median(times)


def burn(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes each burning a core (the load)."""
    return [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], stdout=subprocess.DEVNULL)
        for _ in range(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burners", type=int, default=1, help="processes burning a core")
    parser.add_argument("--quick", action="store_true", help="budgets 0.5 and 1 only")
    parser.add_argument("--out", default=str(HERE / "results" / "bounded.json"))
    opts = parser.parse_args()
    budgets = (0.5, 1.0) if opts.quick else (0.5, 1.0, 2.0, 10.0)
    tmp = Path(tempfile.mkdtemp())
    tiny = tmp / "tiny.txt"
    tiny.write_text("3x3x1\n1HH\nHHH\nHHH\n")
    quiet = startup(str(tiny))
    burners = burn(opts.burners)
    rows: list[dict[str, object]] = []
    try:
        loaded = startup(str(tiny))
        print(f"start-up of solve on 3x3: {quiet:.3f} s quiet, {loaded:.3f} s loaded", flush=True)
        load = os.getloadavg()[0]
        for name, text in boards().items():
            path = tmp / "board.txt"
            path.write_text(text)
            for budget in budgets:
                bound = 1.2 * budget + 0.3
                _, status, out, err, rss = child(
                    [sys.executable, "-c", CALL, str(path), str(budget)]
                )
                call = json.loads(out) if status == 0 else {"error": err.strip()[-160:]}
                cli_wall, cli_status, cli_out, cli_err, cli_rss = child(
                    [str(BIN / "minesolver"), "solve", str(path), "--json", "--budget", str(budget)]
                )
                row: dict[str, object] = {
                    "board": name,
                    "budget": budget,
                    "bound": round(bound, 2),
                    "call_seconds": round(float(call.get("call", float("nan"))), 3),
                    "within": float(call.get("call", float("inf"))) <= bound,
                    "call_rss_mib": round(rss),
                    "answer": (
                        f"{call['engine']} ({'exact' if call['exact'] else 'approximate'})"
                        if "engine" in call
                        else str(call.get("error"))
                    ),
                    "cli_seconds": round(cli_wall, 3),
                    "cli_minus_startup": round(cli_wall - loaded, 3),
                    "cli_status": cli_status,
                    "cli_rss_mib": round(cli_rss),
                }
                if cli_status == 0:
                    data = json.loads(cli_out)
                    row["cli_answer"] = f"{data['engine']} (exact={data['exact']})"
                else:
                    row["cli_answer"] = cli_err.strip()[:160]
                print(row, flush=True)
                rows.append(row)
    finally:
        for p in burners:
            p.kill()
            p.wait()
    result = {
        "machine": {"cpus": os.cpu_count(), "burners": opts.burners, "load_at_start": load},
        "startup_3x3_seconds": {"quiet": round(quiet, 3), "loaded": round(loaded, 3)},
        "rows": rows,
    }
    Path(opts.out).parent.mkdir(exist_ok=True)
    Path(opts.out).write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
