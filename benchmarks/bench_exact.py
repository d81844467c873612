"""Time the exact core against ms-toollib on the same positions, in one run.

For every position, ``minesolver.analyze(Position.from_text(text))`` (parsing and
constraint building included) with the native ``exact`` engine (the default) and with the
pure-Python reference ``exact-py``, and ms-toollib's ``cal_probability_onboard(board,
mines)`` (its board ready-made: rows of ints, 0-8 digit, 10 hidden, 11 flag) are timed in
turn, ``--repeats`` times each, interleaved so all share the machine's noise; the minimum
of the repeats is kept. Both answers are compared on every hidden unflagged cell (ours as a float);
flags are placed only on certain mines by the generators, so ms-toollib's flag
"correction" cannot change anything. The 200x200 boards are run for ms-toollib in a
subprocess with a timeout, in case it hangs.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_exact.py [--positions N] [--seed S] [--save]

Prints the tables; ``--save`` writes ``benchmarks/results/exact.json`` (and the table as
``exact.md``; ``--json OUT`` elsewhere), ``--docs`` also puts the table into the
documentation's Speed page.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console
from rich.table import Table

from benchmarks import require
from benchmarks.docs_tables import SPEED, write_section
from benchmarks.positions import (
    BenchPosition,
    big_positions,
    expert_positions,
    large_component_positions,
)
from minesolver import Analysis, Position, analyze
from minesolver.constraints import build
from minesolver.position import FLAG, HIDDEN

ms_toollib = require("ms_toollib", "ms-toollib")

RESULTS = Path(__file__).resolve().parent / "results"
TOLERANCE = 1e-9
SLOW_MS = 50.0

Board = list[list[int]]
T = TypeVar("T")


def ms_board(position: Position) -> Board:
    """ms-toollib's encoding: ``board[y][x]``, 0-8 digit, 10 hidden, 11 flag."""
    code = {HIDDEN: 10, FLAG: 11}
    w = position.width
    return [
        [code.get(v, v) for v in position.cells[y * w : (y + 1) * w]]
        for y in range(position.height)
    ]


@dataclass
class Record:
    """One position's measurements (milliseconds; ``None`` when a side failed)."""

    name: str
    kind: str
    width: int
    height: int
    mines: int
    unknown: int
    frontier: int  # unknown cells in components (after forced-cell propagation)
    largest: int  # cells of the largest component
    ours_ms: float  # the native exact engine
    py_ms: float | None  # the pure-Python reference, exact-py
    theirs_ms: float | None
    max_diff: float | None
    theirs_error: str | None = None
    text: str | None = field(default=None)  # kept only for disagreements
    # big boards: the native analysis with its exact layout count read (made on first read)
    with_count_ms: float | None = None


def time_call(fn: Callable[[], T]) -> tuple[float, T]:
    """Wall time of one call in milliseconds, and its result."""
    start = time.perf_counter()
    result = fn()
    return (time.perf_counter() - start) * 1e3, result


def max_difference(
    position: Position, ours: dict[tuple[int, int], float], theirs: list[list[float]]
) -> float:
    """Largest |ours - theirs| over the hidden unflagged cells (which ours must all cover)."""
    worst = 0.0
    w = position.width
    for i, v in enumerate(position.cells):
        if v != HIDDEN:
            continue
        x, y = i % w, i // w
        p = ours.get((x, y))
        if p is None:
            return math.inf
        worst = max(worst, abs(p - theirs[y][x]))
    return worst


def bench_in_process(bp: BenchPosition, repeats: int) -> Record:
    """Interleaved timings of both solvers on one position."""
    text = bp.text
    pos = bp.position
    board = ms_board(pos)
    mines = float(pos.mines or 0)
    ours_times: list[float] = []
    py_times: list[float] = []
    theirs_times: list[float] = []
    analysis: Analysis | None = None
    theirs_grid: list[list[float]] | None = None
    error: str | None = None
    for _ in range(repeats):
        t, analysis = time_call(lambda: analyze(Position.from_text(text)))
        ours_times.append(t)
        t, reference = time_call(lambda: analyze(Position.from_text(text), engine="exact-py"))
        py_times.append(t)
        if reference.layouts != analysis.layouts:
            raise AssertionError(f"{bp.name}: exact and exact-py count differently")
        if error is None:
            try:
                t, (theirs_grid, _) = time_call(
                    lambda: ms_toollib.cal_probability_onboard(board, mines)
                )
                theirs_times.append(t)
            except Exception as exc:  # ms-toollib raises a bare RuntimeError
                error = f"{type(exc).__name__}: {exc}"
    assert analysis is not None
    floats = analysis.floats()
    diff = None if theirs_grid is None else max_difference(pos, floats, theirs_grid)
    return _record(bp, len(floats), ours_times, py_times, theirs_times, diff, error)


def _record(
    bp: BenchPosition,
    unknown: int,
    ours_times: list[float],
    py_times: list[float],
    theirs_times: list[float],
    diff: float | None,
    error: str | None,
) -> Record:
    pos = bp.position
    sizes = [c.size for c in build(pos).components]
    return Record(
        name=bp.name,
        kind=bp.kind,
        width=pos.width,
        height=pos.height,
        mines=pos.mines or 0,
        unknown=unknown,
        frontier=sum(sizes),
        largest=max(sizes, default=0),
        ours_ms=min(ours_times),
        py_ms=min(py_times) if py_times else None,
        theirs_ms=min(theirs_times) if theirs_times else None,
        max_diff=diff,
        theirs_error=error,
    )


_WORKER = r"""
import json, sys, time
import ms_toollib
job = json.load(sys.stdin)
ms_toollib.cal_probability_onboard([[10, 1], [10, 10]], 1.0)  # warm-up
times, result = [], None
for _ in range(job["repeats"]):
    start = time.perf_counter()
    result = ms_toollib.cal_probability_onboard(job["board"], job["mines"])
    times.append((time.perf_counter() - start) * 1e3)
json.dump({"times": times, "probs": result[0]}, sys.stdout)
"""


def bench_guarded(bp: BenchPosition, repeats: int, timeout: float) -> Record:
    """Ours in process; ms-toollib in a subprocess killed after ``timeout`` seconds."""
    pos = bp.position
    text = bp.text
    ours_times = []
    py_times = []
    count_times = []
    analysis: Analysis | None = None
    for _ in range(repeats):
        t, analysis = time_call(lambda: analyze(Position.from_text(text)))
        ours_times.append(t)
        t, _ = time_call(lambda: analyze(Position.from_text(text)).layouts)
        count_times.append(t)
        t, reference = time_call(lambda: analyze(Position.from_text(text), engine="exact-py"))
        py_times.append(t)
        if reference.layouts != analysis.layouts:
            raise AssertionError(f"{bp.name}: exact and exact-py count differently")
    assert analysis is not None
    floats = analysis.floats()
    job = json.dumps({"board": ms_board(pos), "mines": float(pos.mines or 0), "repeats": repeats})
    theirs_times: list[float] = []
    diff = None
    error = None
    try:
        done = subprocess.run(
            [sys.executable, "-c", _WORKER],
            input=job,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode == 0:
            out = json.loads(done.stdout)
            theirs_times = out["times"]
            diff = max_difference(pos, floats, out["probs"])
        else:
            error = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
    except subprocess.TimeoutExpired:
        error = f"timeout after {timeout:.0f} s"
    record = _record(bp, len(floats), ours_times, py_times, theirs_times, diff, error)
    record.with_count_ms = min(count_times)
    return record


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0-100) of a non-empty sample."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(records: Sequence[Record]) -> dict[str, object]:
    """Median / p99 of both, the ratio of medians, worst difference, slow positions."""
    ours = [r.ours_ms for r in records]
    py = [r.py_ms for r in records if r.py_ms is not None]
    theirs = [r.theirs_ms for r in records if r.theirs_ms is not None]
    diffs = [r.max_diff for r in records if r.max_diff is not None]
    out: dict[str, object] = {
        "positions": len(records),
        "median_frontier_cells": statistics.median(r.frontier for r in records),
        "median_largest_component": statistics.median(r.largest for r in records),
        "ours_median_ms": statistics.median(ours),
        "ours_p99_ms": percentile(ours, 99),
        "ours_max_ms": max(ours),
        "over_50ms": sum(1 for t in ours if t > SLOW_MS),
        "py_median_ms": statistics.median(py) if py else None,
        "py_max_ms": max(py) if py else None,
        "theirs_positions": len(theirs),
        "theirs_median_ms": statistics.median(theirs) if theirs else None,
        "theirs_p99_ms": percentile(theirs, 99) if theirs else None,
        "theirs_max_ms": max(theirs) if theirs else None,
        "max_abs_diff": max(diffs) if diffs else None,
        "disagreements": sum(1 for d in diffs if d > TOLERANCE),
        "theirs_errors": sum(1 for r in records if r.theirs_error),
    }
    if theirs and len(theirs) == len(ours):
        out["ratio_of_medians"] = statistics.median(ours) / statistics.median(theirs)
        out["py_ratio_of_medians"] = (
            statistics.median(py) / statistics.median(theirs) if py else None
        )
    else:
        out["ratio_of_medians"] = None
        out["py_ratio_of_medians"] = None
    return out


def warm_up(positions: Sequence[BenchPosition]) -> None:
    """First calls pay imports, caches and ms-toollib's initialisation: not measured."""
    for bp in positions:
        analyze(Position.from_text(bp.text))
        ms_toollib.cal_probability_onboard(ms_board(bp.position), float(bp.position.mines or 0))


def _fmt(value: object, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _fmt_diff(value: object) -> str:
    return f"{value:.1e}" if isinstance(value, float) else "-"


SUMMARY_COLUMNS = [  # (terminal header, Markdown header, summary key)
    ("n", "positions", "positions"),
    ("frontier", "median frontier cells", "median_frontier_cells"),
    ("largest", "median largest component", "median_largest_component"),
    ("exact med", "exact median ms", "ours_median_ms"),
    ("exact p99", "exact p99 ms", "ours_p99_ms"),
    ("exact max", "exact max ms", "ours_max_ms"),
    ("py med", "exact-py median ms", "py_median_ms"),
    ("theirs med", "ms-toollib median ms", "theirs_median_ms"),
    ("theirs p99", "ms-toollib p99 ms", "theirs_p99_ms"),
    ("ratio", "exact / ms-toollib (medians)", "ratio_of_medians"),
    ("py ratio", "exact-py / ms-toollib", "py_ratio_of_medians"),
    ("max |diff|", "max abs diff", "max_abs_diff"),
    (">50 ms", "exact > 50 ms", "over_50ms"),
]


def summary_cells(row: dict[str, object]) -> list[str]:
    """One set's summary formatted in :data:`SUMMARY_COLUMNS` order."""
    cells = []
    for _, _, key in SUMMARY_COLUMNS:
        value = row[key]
        if key == "max_abs_diff":
            cells.append(_fmt_diff(value))
        elif key.startswith("median_") and isinstance(value, int | float):
            cells.append(f"{value:g}")
        else:
            cells.append(_fmt(value))
    return cells


def print_report(
    console: Console, summary: dict[str, dict[str, object]], records: list[Record]
) -> None:
    table = Table(
        title="minesolver.analyze vs ms-toollib cal_probability_onboard (ms, min of repeats)"
    )
    table.add_column("set")
    for short, _, _ in SUMMARY_COLUMNS:
        table.add_column(short, justify="right")
    for name, row in summary.items():
        table.add_row(name, *summary_cells(row))
    console.print(table)
    detail = Table(title="large components and big boards, per position (ms)")
    for col in [
        "position",
        "size",
        "unknown",
        "frontier",
        "largest",
        "exact",
        "exact-py",
        "ms-toollib",
        "max |diff|",
        "note",
    ]:
        detail.add_column(col)
    for r in records:
        if r.kind.startswith("expert"):
            continue
        detail.add_row(
            r.name,
            f"{r.width}x{r.height}/{r.mines}",
            str(r.unknown),
            str(r.frontier),
            str(r.largest),
            _fmt(r.ours_ms),
            _fmt(r.py_ms),
            _fmt(r.theirs_ms),
            _fmt_diff(r.max_diff),
            r.theirs_error or "",
        )
    console.print(detail)


def render_markdown(
    out: dict[str, object],
    summary: dict[str, dict[str, object]],
    strip: Record | None,
    big: Sequence[Record] = (),
) -> str:
    """The summary as a Markdown table (for the Speed page), with the run's provenance."""
    lines = [
        "| set | " + " | ".join(long for _, long, _ in SUMMARY_COLUMNS) + " |",
        "| --- |" + " ---: |" * len(SUMMARY_COLUMNS),
    ]
    for name, row in summary.items():
        lines.append("| " + " | ".join([name.strip(), *summary_cells(row)]) + " |")
    if strip is not None:
        lines += [
            "",
            f"152x3 strip (304 frontier cells, one component): exact {strip.ours_ms:.2f} ms, "
            f"exact-py {_fmt(strip.py_ms)} ms, ms-toollib {_fmt(strip.theirs_ms)} ms.",
        ]
    counted = [r.with_count_ms for r in big if r.with_count_ms is not None]
    if counted:
        lines += [
            "",
            "The layout count is made when first read: with it read, the 200x200 boards take "
            + ", ".join(f"{t:.2f}" for t in counted)
            + " ms (`analyze(Position.from_text(t)).layouts`).",
        ]
    machine = out["machine"]
    assert isinstance(machine, dict)
    lines += [
        "",
        f"Measured {out['date']} on code {out['code']}, {machine['cpus']} cores, load average "
        f"{machine['load_before'][0]:.1f} before and {machine['load_after'][0]:.1f} after; "
        f"{out['timing']} ({out['repeats']} repeats). Command: `{str(out['command']).strip()}`.",
        "Times in ms, from the text to the analysis: `exact` is the native engine (the "
        "default), `exact-py` the pure-Python reference.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=500, help="expert positions (500)")
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (2026)")
    parser.add_argument("--repeats", type=int, default=5, help="timings per position (5)")
    parser.add_argument(
        "--stuck", type=int, default=200, help="expert positions where a simple player is stuck"
    )
    parser.add_argument(
        "--dense",
        type=int,
        default=20,
        help="dense 30x16 boards, opened at random and stuck (20+20)",
    )
    parser.add_argument("--big", type=int, default=2, help="200x200/8000 boards (2)")
    parser.add_argument("--big-timeout", type=float, default=120.0, help="seconds (120)")
    parser.add_argument(
        "--save",
        action="store_true",
        help="write the results (benchmarks/results/exact.json and exact.md, or --json)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "exact.json", help="output")
    parser.add_argument(
        "--docs",
        "--readme",
        dest="docs",
        action="store_true",
        help="save, and put the table into the documentation's Speed page (docs/speed.md)",
    )
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 150))

    load_before = os.getloadavg()
    started = time.perf_counter()
    expert = list(expert_positions(args.seed, args.positions))
    expert += expert_positions(args.seed, args.stuck, stuck=True)
    large = list(large_component_positions(args.seed, dense=args.dense))
    big = list(big_positions(args.seed, args.big))
    warm_up(expert[:20] + large[:2])

    records: list[Record] = []
    for bp in expert + large:
        records.append(bench_in_process(bp, args.repeats))
    for bp in big:
        records.append(bench_guarded(bp, max(1, min(args.repeats, 2)), args.big_timeout))

    disagreeing = [r for r in records if r.max_diff is not None and r.max_diff > TOLERANCE]
    by_name = {bp.name: bp for bp in expert + large + big}
    for r in disagreeing:
        r.text = by_name[r.name].text
        console.print(f"[bold red]DISAGREEMENT[/] {r.name}: max |diff| = {r.max_diff:.3e}")
        console.print(r.text)

    sets = {
        "expert 30x16/99": [r for r in records if r.kind == "expert"],
        "expert, stuck player": [r for r in records if r.kind == "expert-stuck"],
        "large components": [r for r in records if r.kind in ("strip", "corridor", "dense")],
        "  strips + corridors": [r for r in records if r.kind in ("strip", "corridor")],
        "  dense 30x16/150-170": [r for r in records if r.kind == "dense"],
        "big 200x200/8000": [r for r in records if r.kind == "big"],
    }
    summary = {name: summarise(rs) for name, rs in sets.items() if rs}
    strip = next((r for r in records if r.name == "strip-152x3"), None)
    print_report(console, summary, records)
    elapsed = time.perf_counter() - started
    if strip is not None:
        console.print(
            f"152x3 strip: exact {strip.ours_ms:.2f} ms, exact-py {_fmt(strip.py_ms)} ms, "
            f"ms-toollib {_fmt(strip.theirs_ms)} ms"
        )
    for r in records:
        if r.with_count_ms is not None:
            console.print(f"{r.name}: with the layout count read, exact {r.with_count_ms:.2f} ms")
    console.print(
        f"{len(records)} positions in {elapsed:.0f} s; load average before "
        f"{load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"
    )

    out = {
        "command": "python benchmarks/bench_exact.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": args.seed,
        "repeats": args.repeats,
        "timing": "min of repeats, ours and ms-toollib interleaved per repeat",
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": os.getloadavg(),
            "ms_toollib": _version("ms_toollib"),
        },
        "code": _git_describe(),
        "summary": summary,
        "strip_152x3": asdict(strip) if strip else None,
        "records": [asdict(r) for r in records],
    }
    table_md = render_markdown(out, summary, strip, [r for r in records if r.kind == "big"])
    if args.save or args.docs:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1) + "\n")
        markdown = args.json.with_suffix(".md")
        markdown.write_text(table_md)
        console.print(f"wrote {args.json} and {markdown}")
    if args.docs:
        write_section(SPEED, "bench-exact", table_md)
        console.print(f"updated {SPEED}")
    return 1 if disagreeing else 0


def _git_describe() -> str | None:
    """The measured code's commit (``-dirty`` when the working tree has changes)."""
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def _version(dist: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist.replace("_", "-"))
    except PackageNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(main())
