"""Every engine on the same positions in one run: time, and error against the exact one.

Sets (generators of :mod:`benchmarks.positions`, seeded): mid-game expert positions
(30x16/99), the large-component set (152x3 and 300x3 strips, corridors, a serpentine,
dense 30x16 boards) and one 200x200/8000 mid-game board. Every engine analyses every
position (``analyze(position, engine=NAME)``, the parsed position given, so parsing is
not timed), one run each, engines interleaved position by position so they share the
machine's noise. Refusals (:class:`~minesolver.engines.EngineLimitExceeded`) are counted,
not timed. Errors are measured against the default exact engine: the largest
``|p - p_exact|`` over every unknown cell, whether the certain cells (``.safe``/``.mines``)
agree exactly, and, for engines giving a standard error (sampling, mcmc), the share of
cells off by more than 3 of their stated errors.

A second table shows the time budget (:mod:`minesolver.budget`) on 2-D "lattice"
positions whose exact count grows fast: exact time, budgeted time, which engine answered,
largest error. A third runs the certain-cell engines on a 41x41 lattice, where no exact
count is possible; a fourth separates BP's two biases (loops; the density stand-in for
the total) on the expert set.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_engines.py [--expert N] [--dense N] [--seed S]

Writes ``benchmarks/results/engines.json`` and ``engines.md`` and prints the table.
Timings are wall-clock on a shared machine: compare engines within one run.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
# the 2-D lattice positions of the time-limit tests (one generator for both)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engines"))

from test_auto import lattice  # type: ignore[import-not-found]

from benchmarks.positions import (
    BenchPosition,
    big_positions,
    expert_positions,
    large_component_positions,
)
from minesolver import Analysis, analyze
from minesolver.engines import EngineLimitExceeded
from minesolver.engines.auto import AutoEngine
from minesolver.position import HIDDEN

ENGINES = ("exact", "elimination", "enumerate", "brute", "sat", "ilp", "sampling", "mcmc", "bp")
SETS = ("expert", "large", "big")
RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Cell:
    """One engine on one set of positions."""

    times: list[float] = field(default_factory=list)
    refused: int = 0
    max_error: float = 0.0
    sum_error: float = 0.0
    certain_wrong: int = 0
    certain_missed: int = 0
    beyond_3_errors: int = 0
    cells: int = 0
    exact_equal: int = 0

    def summary(self) -> dict[str, object]:
        times = sorted(self.times)
        return {
            "runs": len(times),
            "refused": self.refused,
            "median_s": statistics.median(times) if times else None,
            "p99_s": times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)]
            if times
            else None,
            "max_error": self.max_error,
            "mean_error": self.sum_error / self.cells if self.cells else None,
            "certain_wrong": self.certain_wrong,
            "certain_missed": self.certain_missed,
            "beyond_3_errors": self.beyond_3_errors,
            "cells": self.cells,
            "exact_equal": self.exact_equal,
        }


def compare(cell: Cell, got: Analysis, exact: Analysis) -> None:
    """Error of ``got`` against ``exact``, added to ``cell``."""
    cell.certain_wrong += len(got.safe - exact.safe) + len(got.certain_mines - exact.certain_mines)
    cell.certain_missed += len(exact.safe - got.safe) + len(exact.certain_mines - got.certain_mines)
    if got.probabilities == exact.probabilities:
        cell.exact_equal += 1
    for c, p in exact.probabilities.items():
        diff = abs(float(got.probabilities[c]) - float(p))
        cell.max_error = max(cell.max_error, diff)
        cell.sum_error += diff
        cell.cells += 1
        if got.errors is not None and got.engine in ("sampling", "mcmc"):
            err = got.errors.get(c, 0.0)
            if diff > 3 * err + 1e-12:
                cell.beyond_3_errors += 1


def run_engines(sets: dict[str, list[BenchPosition]]) -> dict[str, dict[str, Cell]]:
    table = {e: {s: Cell() for s in sets} for e in ENGINES}
    for set_name, positions in sets.items():
        for k, bench in enumerate(positions):
            pos = bench.position
            t0 = time.perf_counter()
            exact = analyze(pos)
            exact_time = time.perf_counter() - t0
            print(f"{set_name} {k + 1}/{len(positions)} {bench.name}", file=sys.stderr, flush=True)
            for engine in ENGINES:
                cell = table[engine][set_name]
                if engine == "exact":
                    cell.times.append(exact_time)
                    compare(cell, exact, exact)
                    continue
                try:
                    t0 = time.perf_counter()
                    got = analyze(pos, engine=engine)
                    cell.times.append(time.perf_counter() - t0)
                except EngineLimitExceeded:
                    cell.refused += 1
                    continue
                compare(cell, got, exact)
    return table


def run_budget(seed: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for n in (13, 17, 19):
        pos = lattice(n, seed + n)
        t0 = time.perf_counter()
        exact = analyze(pos)
        exact_time = time.perf_counter() - t0
        for budget in (0.01, 1.0):
            t0 = time.perf_counter()
            got = analyze(pos, engine=AutoEngine(seconds=budget))
            took = time.perf_counter() - t0
            diffs = {
                c: abs(float(got.probabilities[c] - p)) for c, p in exact.probabilities.items()
            }
            stated = got.errors or {}
            rows.append(
                {
                    "position": f"lattice-{n}",
                    "exact_s": exact_time,
                    "budget_s": budget,
                    "took_s": took,
                    "engine": got.engine,
                    "exact": got.exact,
                    "max_error": max(diffs.values()),
                    "mean_error": statistics.mean(diffs.values()),
                    "mean_stated_error": statistics.mean(stated.values()) if stated else 0.0,
                    "beyond_3_errors": sum(
                        1 for c, d in diffs.items() if d > 3 * stated.get(c, 0.0) + 1e-12
                    ),
                    "cells": len(diffs),
                }
            )
            print(f"budget lattice-{n} {budget}: {got.engine}", file=sys.stderr, flush=True)
    return rows


def run_bp_bias(positions: list[BenchPosition]) -> dict[str, float]:
    """BP's two biases apart: its error against the exact answer under the total (loops
    and the density stand-in together) and under the matching density ``M'/U'`` (loops
    only: BP's prior is then the model's)."""
    total: list[float] = []
    density: list[float] = []
    for bench in positions:
        pos = bench.position
        exact, bp = analyze(pos), analyze(pos, engine="bp")
        total += [abs(float(bp.probabilities[c] - p)) for c, p in exact.probabilities.items()]
        hidden = sum(1 for v in pos.cells if v == HIDDEN)
        dens = Fraction((pos.mines or 0) - pos.flags, hidden)
        exact_d, bp_d = analyze(pos, density=dens), analyze(pos, engine="bp", density=dens)
        density += [abs(float(bp_d.probabilities[c] - p)) for c, p in exact_d.probabilities.items()]
    return {
        "total_mean": statistics.mean(total),
        "total_max": max(total),
        "density_mean": statistics.mean(density),
        "density_max": max(density),
    }


def run_wide(seed: int) -> list[dict[str, object]]:
    """Certain-cell engines where no exact count is possible: a 41x41 lattice (one
    component of ~700 boxes). ``sat`` is the reference; the others are compared to it."""
    pos = lattice(41, seed)
    rows: list[dict[str, object]] = []
    ref: Analysis | None = None
    for engine in ("sat", "ilp", "bp"):
        t0 = time.perf_counter()
        got = analyze(pos, engine=engine)
        took = time.perf_counter() - t0
        ref = ref or got
        rows.append(
            {
                "engine": engine,
                "took_s": took,
                "safe": len(got.safe),
                "mines": len(got.certain_mines),
                "same_as_sat": got.safe == ref.safe and got.certain_mines == ref.certain_mines,
            }
        )
        print(f"wide lattice-41 {engine}", file=sys.stderr, flush=True)
    return rows


def _fmt_time(v: object) -> str:
    if not isinstance(v, float):
        return "—"
    return f"{v * 1000:.1f} ms" if v < 1 else f"{v:.2f} s"


def markdown(
    summary: dict[str, dict[str, dict[str, object]]],
    sizes: dict[str, int],
    budget: list[dict[str, object]],
    wide: list[dict[str, object]],
    bias: dict[str, float],
    meta: dict[str, object],
) -> str:
    lines = [
        "# Engines: time and error against exact, same positions, one run",
        "",
        f"{meta['when']} · {meta['machine']} · commit {meta['commit']} · "
        f"seed {meta['seed']} · positions: " + ", ".join(f"{s} {n}" for s, n in sizes.items()),
        "",
        "Times are per position (parsed position given), median / p99, on a shared 2-core "
        "machine under other agents' load: compare engines within this run. "
        "*refused*: the engine's documented limit was exceeded (a clear error, no hang). "
        "*max err*: largest |p - p_exact| over all unknown cells of the set; *mean err*: "
        "its mean over every unknown cell of all sets. "
        "*certain wrong/missed*: cells an engine calls certain that are not / certain cells "
        "it does not call certain (`.safe`, `.mines`). "
        "*>3 err*: cells off by more than 3 stated standard errors.",
        "",
        "| engine | expert median | expert p99 | large median | large p99 | 200x200 | "
        "refused (e/l/b) | max err expert | max err large | max err big | mean err | "
        "certain wrong/missed | >3 err |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for engine, by_set in summary.items():
        e, la, b = by_set["expert"], by_set["large"], by_set["big"]

        def err(s: dict[str, object]) -> str:
            if not s["runs"]:
                return "—"
            v = s["max_error"]
            assert isinstance(v, float)
            return "0 (exact)" if v == 0 and s["exact_equal"] == s["runs"] else f"{v:.2g}"

        wrong = sum(int(s["certain_wrong"]) for s in by_set.values())  # type: ignore[call-overload]
        missed = sum(int(s["certain_missed"]) for s in by_set.values())  # type: ignore[call-overload]
        beyond = sum(int(s["beyond_3_errors"]) for s in by_set.values())  # type: ignore[call-overload]
        cells = sum(int(s["cells"]) for s in by_set.values())  # type: ignore[call-overload]
        sigma = f"{beyond}/{cells}" if engine in ("sampling", "mcmc") else "—"
        total_err = sum(
            float(s["mean_error"]) * int(s["cells"])  # type: ignore[arg-type, call-overload]
            for s in by_set.values()
            if s["cells"]
        )
        mean = f"{total_err / cells:.2g}" if cells else "—"
        lines.append(
            f"| {engine} | {_fmt_time(e['median_s'])} | {_fmt_time(e['p99_s'])} | "
            f"{_fmt_time(la['median_s'])} | {_fmt_time(la['p99_s'])} | "
            f"{_fmt_time(b['median_s'])} | {e['refused']}/{la['refused']}/{b['refused']} | "
            f"{err(e)} | {err(la)} | {err(b)} | {mean} | {wrong}/{missed} | {sigma} |"
        )
    lines += [
        "",
        "## Time limit on 2-D lattice positions (engine `auto`, `Limit(seconds=...)`)",
        "",
        "| position | exact | budget | took | answered by | exact? | max err | mean err | "
        "mean stated err | >3 err |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in budget:
        lines.append(
            f"| {row['position']} | {_fmt_time(row['exact_s'])} | {row['budget_s']} s | "
            f"{_fmt_time(row['took_s'])} | {row['engine']} | {row['exact']} | "
            f"{float(row['max_error']):.2g} | "  # type: ignore[arg-type]
            f"{float(row['mean_error']):.2g} | "  # type: ignore[arg-type]
            f"{float(row['mean_stated_error']):.2g} | "  # type: ignore[arg-type]
            f"{row['beyond_3_errors']}/{row['cells']} |"
        )
    lines += [
        "",
        "## Certain cells where counting explodes: a 41x41 lattice (one ~700-box component)",
        "",
        "| engine | time | certain safe | certain mines | same cells as sat |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in wide:
        lines.append(
            f"| {row['engine']} | {_fmt_time(row['took_s'])} | {row['safe']} | "
            f"{row['mines']} | {row['same_as_sat']} |"
        )
    lines += [
        "",
        "## BP's bias on the expert set: loops vs the density stand-in for the total",
        "",
        "| BP against | mean err | max err |",
        "| --- | --- | --- |",
        f"| exact under the total (BP prior M'/U') | {bias['total_mean']:.4f} | "
        f"{bias['total_max']:.3f} |",
        f"| exact under the density M'/U' (BP's own model) | {bias['density_mean']:.4f} | "
        f"{bias['density_max']:.3f} |",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--expert", type=int, default=40, help="expert positions")
    parser.add_argument("--dense", type=int, default=4, help="dense boards per kind")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=RESULTS / "engines.json")
    args = parser.parse_args()
    sets = {
        "expert": list(expert_positions(args.seed, args.expert)),
        "large": list(large_component_positions(args.seed, dense=args.dense)),
        "big": list(big_positions(args.seed, 1)),
    }
    table = run_engines(sets)
    budget = run_budget(args.seed)
    wide = run_wide(args.seed)
    bias = run_bp_bias(sets["expert"])
    summary = {e: {s: c.summary() for s, c in by_set.items()} for e, by_set in table.items()}
    commit = subprocess.run(
        ["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    meta: dict[str, object] = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()} {platform.python_implementation()} "
        f"{platform.python_version()}",
        "commit": commit,
        "seed": args.seed,
        "command": "benchmarks/bench_engines.py " + " ".join(sys.argv[1:]),
    }
    sizes = {s: len(p) for s, p in sets.items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "meta": meta,
                "sizes": sizes,
                "engines": summary,
                "budget": budget,
                "wide": wide,
                "bp_bias": bias,
            },
            indent=1,
        )
        + "\n"
    )
    md = markdown(summary, sizes, budget, wide, bias, meta)
    args.out.with_suffix(".md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
