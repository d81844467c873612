"""The fewest clicks found against ms-toollib's random ZiNi (``cal_rzini``), drawn many times.

``cal_rzini`` is the best of ``--runs`` ZiNi runs whose ties are broken at random, from
the system's entropy: each call draws anew, so one call below the fewest clicks found is
enough to show the search lost to it. For the expert boards of
``benchmarks/bench_efficiency.py`` (the same seed and order) and the expert sample
replays (``tests/data/replays``), this runs :func:`minesolver.game.min_clicks` once with
``--work`` steps (the boards; the default budget) or a replay report's (the replays; no deadline, so
the figures are the same on any machine), then ``cal_rzini`` ``--draws`` times, and
reports per board the fewest found, the draws' smallest figure and how many draws fell
below the fewest found; ``--floor N`` adds one call of ``N`` runs, an estimate of the
best figure random ties reach.

    .venv/bin/python benchmarks/bench_rzini.py [--boards 12] [--draws 20] [--runs 100]
        [--floor 20000] [--seed 2026] [--out FILE]

Needs ms-toollib (the dev extra). Up to about a minute of CPU per expert board for the
search at the default work (``--work``; the stored results were made at 100,000).
Results: ``benchmarks/results/rzini.json`` (``--out``), and ``rzini_before.json`` from
the version before the first sequence's runs resumed from kept states (400 runs around
the best at the default budget, 44 in a report).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import require  # noqa: E402
from minesolver.game import Layout, Level, random_layout  # noqa: E402
from minesolver.game.clicks import DEFAULT_WORK, min_clicks  # noqa: E402
from minesolver.game.efficiency import board_digits  # noqa: E402
from minesolver.replay import load  # noqa: E402
from minesolver.replay.efficiency import REPORT_WORK, REPORT_ZINI_RUNS  # noqa: E402

ms_toollib = require("ms_toollib", "ms-toollib")
EXPERT = Level(30, 16, 99)
REPLAYS = ROOT / "tests" / "data" / "replays"
SAMPLES = ("arbiter-expert-127bv.avf", "clone097-expert-122bv.mvf", "vienna-rmv1_utf8_basic.rmv")


def _rows(layout: Layout) -> list[list[int]]:
    digits = board_digits(layout)
    w = layout.width
    return [list(digits[r * w : (r + 1) * w]) for r in range(layout.height)]


def board_row(
    name: str, layout: Layout, work: int, zini_runs: int | None, args: argparse.Namespace
) -> dict[str, Any]:
    """One board: our fewest found, then ms-toollib's draws beside it."""
    cpu = time.process_time()
    if zini_runs is None:
        plan = min_clicks(layout, work=work, seconds=None)
    else:
        plan = min_clicks(layout, work=work, seconds=None, zini_runs=zini_runs)
    cpu = time.process_time() - cpu
    rows = _rows(layout)
    draws = [int(ms_toollib.cal_rzini(rows, args.runs)) for _ in range(args.draws)]
    floor = int(ms_toollib.cal_rzini(rows, args.floor)) if args.floor else None
    return {
        "board": name,
        "work": work,
        "fewest_found": plan.count,
        "lower_bound": plan.lower_bound,
        "cpu_seconds": round(cpu, 2),
        "toollib_zini": int(ms_toollib.cal_zini(rows)),
        "toollib_hzini": int(ms_toollib.cal_hzini(rows)),
        "draws": draws,
        "draws_below": sum(d < plan.count for d in draws),
        "min_draw": min(draws),
        "floor": floor,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--draws", type=int, default=20, help="cal_rzini calls per board")
    parser.add_argument("--runs", type=int, default=100, help="runs of each cal_rzini call")
    parser.add_argument("--floor", type=int, default=20_000, help="runs of one long call")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--work", type=int, default=DEFAULT_WORK, help="steps a board")
    parser.add_argument("--out", type=Path, default=None, help="write the rows as JSON")
    args = parser.parse_args()
    out: list[dict[str, Any]] = []
    rng = random.Random(f"{args.seed}-expert")  # bench_efficiency.py's expert boards
    boards = [(f"expert {k}", random_layout(EXPERT, rng)) for k in range(args.boards)]
    jobs: list[tuple[str, Layout, int, int | None]] = [
        (name, layout, args.work, None) for name, layout in boards
    ]
    jobs += [(s, load(REPLAYS / s).layout, REPORT_WORK, REPORT_ZINI_RUNS) for s in SAMPLES]
    for name, layout, work, runs in jobs:
        row = board_row(name, layout, work, runs, args)
        out.append(row)
        print(
            f"{name}: fewest found {row['fewest_found']} (bound {row['lower_bound']}, "
            f"{row['cpu_seconds']} s CPU), cal_rzini x{args.draws} min {row['min_draw']}, "
            f"{row['draws_below']} below; floor {row['floor']}",
            flush=True,
        )
    lost = [r["board"] for r in out if r["draws_below"]]
    print(f"boards where a cal_rzini draw is below the fewest found: {len(lost)} of {len(out)}")
    print(f"draws below: {sum(r['draws_below'] for r in out)} of {args.draws * len(out)}")
    if args.out is not None:
        args.out.write_text(
            json.dumps({"args": vars(args) | {"out": str(args.out)}, "rows": out}, indent=1) + "\n"
        )


if __name__ == "__main__":
    main()
