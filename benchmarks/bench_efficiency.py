"""The proved fewest clicks against ZiNi, HZiNi and rZiNi (ours and ms-toollib's), per level.

For ``--boards`` seeded random layouts of each level (beginner 9x9/10, intermediate
16x16/40, expert 30x16/99; mines uniform, no first-click rule), this runs
:func:`minesolver.game.min_clicks` with a work budget of ``--work`` steps each (no
deadline: the figures are the same on any machine; only the seconds vary) and reports

* how often the minimum is proved within the budget, the work and the time it takes;
* the mean of ZiNi (and HZiNi, rZiNi) minus the proved minimum, over the proved boards;
* over every board, the mean gap between the best sequence found and the proved lower
  bound, ZiNi minus the best found (a lower bound on ZiNi's excess), and the bound that
  needs no search;
* ms-toollib's ``cal_zini``, ``cal_hzini`` and ``cal_rzini`` (``--runs`` runs, its own
  random ties) beside ours when ms-toollib is installed (dev extra), and on how many
  boards any of them is below the fewest found (it should be none).

Every sequence is replayed through ``Game.push`` and must win with exactly its count.

    .venv/bin/python benchmarks/bench_efficiency.py [--boards 50] [--work 100000]
        [--seed 2026] [--levels beginner,intermediate,expert] [--save]

``--save`` writes ``benchmarks/results/efficiency.json`` (summary and one row per board),
or ``--out FILE``; ``--table`` only prints the stored results as the markdown tables of
the documentation.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minesolver.game import Game, Layout, Level, random_layout
from minesolver.game.clicks import DEFAULT_WORK, _Board, bound_without_search, min_clicks
from minesolver.game.efficiency import board_digits, board_measures, rzini

RESULTS = Path(__file__).parent / "results" / "efficiency.json"
LEVELS = {
    "beginner": Level(9, 9, 10),
    "intermediate": Level(16, 16, 40),
    "expert": Level(30, 16, 99),
}


def _toollib(layout: Layout, runs: int) -> dict[str, int | None]:
    """ms-toollib's ZiNi, HZiNi and rZiNi of ``layout`` (``None`` without ms-toollib)."""
    try:
        import ms_toollib
    except ImportError:
        return {"toollib_zini": None, "toollib_hzini": None, "toollib_rzini": None}
    digits = board_digits(layout)
    w = layout.width
    rows = [list(digits[r * w : (r + 1) * w]) for r in range(layout.height)]
    return {
        "toollib_zini": int(ms_toollib.cal_zini(rows)),
        "toollib_hzini": int(ms_toollib.cal_hzini(rows)),
        "toollib_rzini": int(ms_toollib.cal_rzini(rows, runs)),
    }


def board_row(layout: Layout, work: int, seed: int, runs: int) -> dict[str, Any]:
    """One board's figures (the sequence replayed and checked)."""
    measures = board_measures(layout)
    cpu = time.process_time()
    plan = min_clicks(layout, work=work, seconds=None)
    cpu = time.process_time() - cpu
    game = Game.from_layout(layout)
    for move in plan.clicks:
        game.push(move)
    if not game.outcome.won:
        raise AssertionError(f"the sequence does not win: {layout}")
    theirs = _toollib(layout, runs)
    beaten = [v for v in theirs.values() if v is not None and v < plan.count]
    return {
        "bbbv": measures.bbbv,
        "zini": measures.zini,
        "hzini": measures.hzini,
        "rzini": rzini(layout, random.Random(seed), runs),
        **theirs,
        "beaten_by_toollib": bool(beaten),
        "min_clicks": plan.count,
        "lower_bound": plan.lower_bound,
        "bound_without_search": bound_without_search(_Board.of(layout)),
        "optimal": plan.optimal,
        "work": plan.work,
        "cut": plan.cut,
        "seconds": round(plan.seconds, 3),
        "cpu_seconds": round(cpu, 3),
        "rounds": plan.rounds,
    }


def _mean(values: list[float]) -> float | None:
    return round(statistics.fmean(values), 3) if values else None


def summary(rows: list[dict[str, Any]], work: int) -> dict[str, Any]:
    """A level's summary: proved rate, work and times, ZiNi's excess over the minimum."""
    proved = [r for r in rows if r["optimal"]]
    out: dict[str, Any] = {
        "boards": len(rows),
        "work": work,
        "proved": len(proved),
        "proved_rate": round(len(proved) / len(rows), 3),
        "median_work_proved": (statistics.median(r["work"] for r in proved) if proved else None),
        "median_seconds_proved": (
            round(statistics.median(r["seconds"] for r in proved), 3) if proved else None
        ),
        "median_seconds": round(statistics.median(r["seconds"] for r in rows), 3),
        "max_cpu_seconds": max(r["cpu_seconds"] for r in rows),
        "max_cpu_us_per_work": max(
            round(1e6 * r["cpu_seconds"] / max(r["work"], 1)) for r in rows if r["work"] > 0
        )
        if any(r["work"] > 0 for r in rows)
        else None,
        "mean_bbbv": _mean([r["bbbv"] for r in rows]),
        "mean_min_clicks_proved": _mean([r["min_clicks"] for r in proved]),
        "mean_zini_minus_optimum": _mean([r["zini"] - r["min_clicks"] for r in proved]),
        "mean_hzini_minus_optimum": _mean([r["hzini"] - r["min_clicks"] for r in proved]),
        "mean_rzini_minus_optimum": _mean([r["rzini"] - r["min_clicks"] for r in proved]),
        "mean_zini_minus_best_found": _mean([r["zini"] - r["min_clicks"] for r in rows]),
        "mean_zini_minus_lower_bound": _mean([r["zini"] - r["lower_bound"] for r in rows]),
        "mean_best_minus_lower_bound": _mean([r["min_clicks"] - r["lower_bound"] for r in rows]),
        "mean_bound_without_search": _mean([r["bound_without_search"] for r in rows]),
        "mean_rzini": _mean([r["rzini"] for r in rows]),
        "above_our_zini_family": sum(
            r["min_clicks"] > min(r["zini"], r["hzini"], r["rzini"]) for r in rows
        ),
    }
    theirs = [r["toollib_rzini"] for r in rows if r["toollib_rzini"] is not None]
    if len(theirs) == len(rows):
        out["mean_toollib_rzini"] = _mean(theirs)
        out["beaten_by_toollib"] = sum(r["beaten_by_toollib"] for r in rows)
        out["mean_toollib_rzini_minus_best_found"] = _mean(
            [r["toollib_rzini"] - r["min_clicks"] for r in rows]
        )
    return out


def table(data: dict[str, Any]) -> str:
    """The stored results as markdown tables, one row per level."""
    lines = [
        "| level | boards | proved in the budget | median steps proved "
        "| median time (all) | mean 3BV | ZiNi - minimum (proved boards) "
        "| HZiNi - minimum | rZiNi - minimum | ZiNi - best found (all) "
        "| ZiNi - lower bound (all) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, entry in data["levels"].items():
        s = entry["summary"]
        median = s["median_work_proved"]
        lines.append(
            f"| {name} ({entry['level']}) | {s['boards']} | {s['proved']} "
            f"({100 * s['proved_rate']:.0f}%) | {'-' if median is None else median} "
            f"| {s['median_seconds']:.2f} s "
            f"| {s['mean_bbbv']:.1f} | {s['mean_zini_minus_optimum']} "
            f"| {s['mean_hzini_minus_optimum']} | {s['mean_rzini_minus_optimum']} "
            f"| {s['mean_zini_minus_best_found']} | {s['mean_zini_minus_lower_bound']} |"
        )
    lines += [
        "",
        "| level | fewest found above ZiNi, HZiNi or our rZiNi | above ms-toollib's "
        "`cal_zini`, `cal_hzini` or `cal_rzini` | mean `cal_rzini` - fewest found "
        "| mean bound without search | mean lower bound |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, entry in data["levels"].items():
        s = entry["summary"]
        rows = entry["boards"]
        lines.append(
            f"| {name} | {s['above_our_zini_family']} of {s['boards']} "
            f"| {s.get('beaten_by_toollib', '-')} of {s['boards']} "
            f"| {s.get('mean_toollib_rzini_minus_best_found', '-')} "
            f"| {s['mean_bound_without_search']} "
            f"| {_mean([r['lower_bound'] for r in rows])} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50)
    parser.add_argument("--work", type=int, default=DEFAULT_WORK, help="steps of work a board")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=100, help="rZiNi runs")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--save", action="store_true", help=f"write {RESULTS.name}")
    parser.add_argument("--table", action="store_true", help="print the stored results")
    parser.add_argument("--out", type=Path, default=RESULTS, help="where --save writes")
    args = parser.parse_args()
    if args.table:
        print(table(json.loads(args.out.read_text())))
        return
    data: dict[str, Any] = {"seed": args.seed, "work": args.work, "levels": {}}
    for name in args.levels.split(","):
        level = LEVELS[name]
        rng = random.Random(f"{args.seed}-{name}")
        rows = []
        start = time.monotonic()
        for k in range(args.boards):
            layout = random_layout(level, rng)
            rows.append(board_row(layout, args.work, args.seed + k, args.runs))
            r = rows[-1]
            print(
                f"{name} {k}: 3BV {r['bbbv']} ZiNi {r['zini']} rZiNi {r['rzini']}/"
                f"{r['toollib_rzini']} min {r['min_clicks']}"
                f"{'' if r['optimal'] else ' (bound ' + str(r['lower_bound']) + ')'}"
                f" work {r['work']} {r['seconds']}s (CPU {r['cpu_seconds']}s)",
                flush=True,
            )
        result = summary(rows, args.work)
        result["wall_seconds"] = round(time.monotonic() - start, 1)
        print(name, json.dumps(result), flush=True)
        data["levels"][name] = {"level": str(level), "summary": result, "boards": rows}
    if args.save:
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
