"""No-guess boards per CPU-second: ours beside ms-toollib's ``laymine_solvable``, one run.

Ours (:func:`minesolver.noguess.no_guess_layout`) draws layouts uniformly under the
first-click rule and keeps the first one the exact core solves from the first click with
no guess, so the boards are uniform among the no-guess layouts of that rule. ms-toollib's
``laymine_solvable`` lays mines with an opening at the first click and keeps the first
layout its own solver finishes (not uniform, and its solver is weaker than the exact
core, so it keeps fewer of the layouts). Both are timed in CPU seconds of this process,
interleaved board by board, on expert (30x16/99):

- ours, first click safe in the corner (the simulator's default);
- ours, first click an opening at (3,3);
- ms-toollib, first click an opening at (3,3).

    .venv/bin/python benchmarks/bench_noguess.py [--boards 200] [--seed 1] [--save] [--docs]

``--save`` writes ``benchmarks/results/noguess.{json,md}``; ``--docs`` also refreshes the
table in docs/speed.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minesolver.game import FirstClick, Level
from minesolver.noguess import no_guess_layout

RESULTS = Path(__file__).parent / "results"
DOCS = Path(__file__).parent.parent / "docs" / "speed.md"
START, END = "<!-- noguess-speed:start -->", "<!-- noguess-speed:end -->"
EXPERT = Level(30, 16, 99)
RUNS: tuple[tuple[str, FirstClick, tuple[int, int]], ...] = (
    ("ours, safe corner (0,0)", "safe", (0, 0)),
    ("ours, opening at (3,3)", "opening", (3, 3)),
)


def _ms_toollib() -> object:
    try:
        import ms_toollib  # type: ignore[import-not-found]
    except ImportError:
        sys.stderr.write("error: this benchmark needs ms-toollib: pip install -e '.[dev]'\n")
        raise SystemExit(2) from None
    return ms_toollib


def measure(boards: int, seed: int) -> list[dict[str, object]]:
    """Time ``boards`` expert boards of each generator, interleaved board by board."""
    ms = _ms_toollib()
    rngs = [random.Random(seed + k) for k in range(len(RUNS))]
    cpu = [0.0] * (len(RUNS) + 1)
    draws = [0] * len(RUNS)
    failed = 0
    for _ in range(boards):
        for k, (_, rule, start) in enumerate(RUNS):
            t = time.process_time()
            _, n = no_guess_layout(EXPERT, rngs[k], start, rule)
            cpu[k] += time.process_time() - t
            draws[k] += n
        t = time.process_time()
        _, ok = ms.laymine_solvable(EXPERT.height, EXPERT.width, EXPERT.mines, 3, 3, 100_000)  # type: ignore[attr-defined]
        cpu[-1] += time.process_time() - t
        failed += not ok
    rows: list[dict[str, object]] = []
    for k, (name, _, _) in enumerate(RUNS):
        rows.append(_row(name, boards, cpu[k], draws[k] / boards))
    rows.append(_row("ms-toollib laymine_solvable, opening at (3,3)", boards, cpu[-1], None))
    rows[-1]["failed"] = failed
    return rows


def _row(name: str, boards: int, cpu: float, draws: float | None) -> dict[str, object]:
    return {
        "generator": name,
        "boards": boards,
        "cpu_ms_per_board": 1000 * cpu / boards,
        "boards_per_cpu_second": boards / cpu if cpu else float("inf"),
        "draws_per_board": draws,
    }


def table(rows: list[dict[str, object]], command: str) -> str:
    """The markdown table of ``rows`` with the run's date, load and command."""
    lines = [
        "| generator | boards | CPU ms per board | boards per CPU-second "
        "| layouts drawn per board |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        drawn = r["draws_per_board"]
        lines.append(
            f"| {r['generator']} | {r['boards']} | {r['cpu_ms_per_board']:.1f} "
            f"| {r['boards_per_cpu_second']:.1f} "
            f"| {'' if drawn is None else format(drawn, '.1f')} |"
        )
    load = os.getloadavg()[0]
    lines.append("")
    lines.append(
        f"Measured {datetime.now(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')} ({platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load:.1f} at the end). Command: `{command}`."
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", action="store_true")
    parser.add_argument("--docs", action="store_true")
    args = parser.parse_args(argv)
    if args.boards < 1:
        parser.error("--boards must be at least 1")
    rows = measure(args.boards, args.seed)
    command = f"python benchmarks/bench_noguess.py --boards {args.boards} --seed {args.seed}"
    text = table(rows, command)
    print(text)
    if args.save or args.docs:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "noguess.json").write_text(json.dumps(rows, indent=2) + "\n")
        (RESULTS / "noguess.md").write_text(text + "\n")
    if args.docs:
        doc = DOCS.read_text()
        head, rest = doc.split(START)
        _, tail = rest.split(END)
        DOCS.write_text(f"{head}{START}\n{text}\n{END}{tail}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
