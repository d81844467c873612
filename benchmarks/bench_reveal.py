"""What-if analyses: a fresh `analyze`, `analyze_after`, and the native batch.

A player weighs a click by analysing the position once per digit the cell could show.
On mid-game expert positions (benchmarks.positions, seeded), for the ten lowest-
probability cells and every digit 0-8, this times

* fresh: ``analyze(position with the digit)``, the whole board from scratch;
* incremental: ``analyze_after(analysis, cell, digit, cache=..., child=...)`` (one native
  analysis of the revealed position; a digit no layout allows asks the reference why);
* python: the same on an ``exact-py`` analysis (only the components next to the cell
  rebuilt by the Python reference, with a count cache kept per position);
* batch: ``ExactEngine().what_ifs(analysis, cells)``, the ten cells and all their
  digits in one native call per position (impossible digits are never built);

checks that all give the same answer (or find the digit impossible), and prints the CPU
milliseconds per what-if (per (cell, digit) tried: 9 per cell) and per cell, the best of
``--repeats`` rounds.

    .venv/bin/python benchmarks/bench_reveal.py [--positions 40] [--seed 2026] [--repeats 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.positions import expert_positions
from minesolver import InconsistentPosition, Position, analyze
from minesolver.analysis import Analysis, analyze_after
from minesolver.counting import ComponentCount
from minesolver.engines.exact import ExactEngine

Cell = tuple[int, int]
Job = tuple[Position, Analysis, list[Cell]]


def _jobs(positions: int, seed: int, engine: str = "exact") -> list[Job]:
    jobs = []
    for bench in expert_positions(seed, positions):
        analysis = analyze(bench.position, engine=engine)
        cells = sorted(analysis.probabilities, key=lambda c: analysis.probabilities[c])[:10]
        jobs.append((bench.position, analysis, cells))
    return jobs


def _batch(jobs: list[Job]) -> list[Analysis | None]:
    out: list[Analysis | None] = []
    engine = ExactEngine()
    for _, analysis, cells in jobs:
        for children in engine.what_ifs(analysis, cells):
            got = dict(children)
            out.extend(got.get(digit) for digit in range(9))
    return out


def _fresh(jobs: list[Job]) -> list[Analysis | None]:
    out: list[Analysis | None] = []
    for position, _, cells in jobs:
        for cell in cells:
            for digit in range(9):
                try:
                    out.append(analyze(position.replace({cell: digit})))
                except InconsistentPosition:
                    out.append(None)
    return out


def _incremental(jobs: list[Job]) -> list[Analysis | None]:
    out: list[Analysis | None] = []
    for position, analysis, cells in jobs:
        cache: dict[object, ComponentCount] = {}
        for cell in cells:
            for digit in range(9):
                child = position.replace({cell: digit})
                try:
                    out.append(analyze_after(analysis, cell, digit, cache=cache, child=child))
                except InconsistentPosition:
                    out.append(None)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    jobs = _jobs(args.positions, args.seed)
    py_jobs = _jobs(args.positions, args.seed, "exact-py")
    whatifs = sum(len(cells) for _, _, cells in jobs) * 9
    runs = {
        "fresh": lambda: _fresh(jobs),
        "incremental": lambda: _incremental(jobs),
        "python": lambda: _incremental(py_jobs),
        "batch": lambda: _batch(jobs),
    }
    best = dict.fromkeys(runs, float("inf"))
    results: dict[str, list[Analysis | None]] = {}
    for _ in range(args.repeats):
        for name, run in runs.items():
            start = time.process_time()
            results[name] = run()
            best[name] = min(best[name], time.process_time() - start)
    for name in ("incremental", "python", "batch"):
        for a, b in zip(results["fresh"], results[name], strict=True):
            if (a is None) != (b is None) or (
                a is not None
                and b is not None
                and (a.layouts != b.layouts or a.probabilities != b.probabilities)
            ):
                print(f"disagreement between fresh and {name} analysis", file=sys.stderr)
                return 1
    per = {k: best[k] * 1e3 / whatifs for k in runs}
    print(f"{whatifs} what-ifs on {len(jobs)} expert positions, all equal")
    print(f"fresh analyze:           {per['fresh']:.4f} ms per what-if (CPU)")
    for name, label in (
        ("incremental", "analyze_after (native)"),
        ("python", "analyze_after (exact-py)"),
        ("batch", "what_ifs (one call)"),
    ):
        print(
            f"{label + ':':<25}{per[name]:.4f} ms per what-if (CPU), "
            f"{9 * per[name]:.3f} ms per cell, {per['fresh'] / per[name]:.1f}x fresh"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
