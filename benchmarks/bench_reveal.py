"""What-if analyses: `analyze_after` (incremental reveal) against a fresh `analyze`.

A player weighs a click by analysing the position once per digit the cell could show.
On mid-game expert positions (benchmarks.positions, seeded), for the ten lowest-
probability cells and every digit 0-8, this times

* fresh: ``analyze(position with the digit)``, the whole board from scratch;
* incremental: ``analyze_after(analysis, cell, digit, cache=..., child=...)``, only the
  components next to the cell rebuilt, with a count cache kept per position;

checks that both give the same answer (or both find the digit impossible), and prints the
CPU milliseconds per what-if, the best of ``--repeats`` rounds.

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

Cell = tuple[int, int]


def _jobs(positions: int, seed: int) -> list[tuple[Position, Analysis, list[Cell]]]:
    jobs = []
    for bench in expert_positions(seed, positions):
        analysis = analyze(bench.position)
        cells = sorted(analysis.probabilities, key=lambda c: analysis.probabilities[c])[:10]
        jobs.append((bench.position, analysis, cells))
    return jobs


def _fresh(jobs: list[tuple[Position, Analysis, list[Cell]]]) -> list[Analysis | None]:
    out: list[Analysis | None] = []
    for position, _, cells in jobs:
        for cell in cells:
            for digit in range(9):
                try:
                    out.append(analyze(position.replace({cell: digit})))
                except InconsistentPosition:
                    out.append(None)
    return out


def _incremental(jobs: list[tuple[Position, Analysis, list[Cell]]]) -> list[Analysis | None]:
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
    whatifs = sum(len(cells) for _, _, cells in jobs) * 9
    best = {"fresh": float("inf"), "incremental": float("inf")}
    results: dict[str, list[Analysis | None]] = {}
    for _ in range(args.repeats):
        for name, run in (("fresh", _fresh), ("incremental", _incremental)):
            start = time.process_time()
            results[name] = run(jobs)
            best[name] = min(best[name], time.process_time() - start)
    for a, b in zip(results["fresh"], results["incremental"], strict=True):
        if (a is None) != (b is None) or (
            a is not None
            and b is not None
            and (a.layouts != b.layouts or a.probabilities != b.probabilities)
        ):
            print("disagreement between fresh and incremental analysis", file=sys.stderr)
            return 1
    fresh, inc = (best[k] * 1e3 / whatifs for k in ("fresh", "incremental"))
    print(f"{whatifs} what-ifs on {len(jobs)} expert positions, all equal")
    print(f"fresh analyze:  {fresh:.3f} ms per what-if (CPU)")
    print(f"analyze_after:  {inc:.3f} ms per what-if (CPU), {fresh / inc:.1f}x faster")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
