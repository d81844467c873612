"""Replays graded for efficiency: each sample's clicks beside its board's ZiNi, HZiNi and
fewest clicks, and the time the efficiency part of a report takes.

For every sample replay (``tests/data/replays``; the copy with another player name left
out), one run of :func:`minesolver.replay.efficiency.replay_efficiency` with the fewest
clicks searched with ``--budget`` steps of search (a report's budget unless given; no
deadline, so every figure but the seconds is the same on any machine):
the 3BV, the clicks used, ZiNi, HZiNi, the fewest clicks (proved, or "lower to found"),
the player's efficiency and the best one, the wasted clicks by kind, RQP, IOS and STNB,
and the seconds it took (the wasted clicks, ZiNi, HZiNi and the fewest clicks).

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_replay_efficiency.py [--budget STEPS]

Writes ``benchmarks/results/replay_efficiency.json`` and ``replay_efficiency.md``.
Timings are wall-clock on a shared machine, one run each.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

from minesolver.replay import load, play_events  # noqa: E402
from minesolver.replay.efficiency import REPORT_WORK, replay_efficiency  # noqa: E402

SAMPLES = ROOT / "tests" / "data" / "replays"
RESULTS = ROOT / "benchmarks" / "results"
SKIP = ("invalid", "nonascii")  # unreadable by ms-toollib, or the same game again


def row(path: Path, budget: int) -> dict[str, object]:
    replay = load(path)
    playback = play_events(replay)
    start = time.perf_counter()
    e = replay_efficiency(replay, playback, work=budget, seconds=None)
    seconds = time.perf_counter() - start
    m = e.min_clicks
    return {
        "file": path.name,
        "board": f"{replay.width}x{replay.height}/{replay.mines}",
        "won": e.won,
        "bbbv": e.bbbv,
        "clicks": e.clicks,
        "zini": e.zini,
        "hzini": e.hzini,
        "min_clicks": m.count,
        "lower_bound": m.lower_bound,
        "optimal": m.optimal,
        "efficiency": e.efficiency,
        "best_efficiency": e.best_efficiency,
        "best_efficiency_bound": e.best_efficiency_bound,
        "wasted": e.wasted_by_kind(),
        "rqp": e.rqp,
        "ios": e.ios,
        "stnb": e.stnb,
        "seconds": seconds,
    }


def _num(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, int | float) else "-"


def markdown(rows: list[dict[str, object]], budget: int) -> str:
    lines = [
        f"Fewest clicks searched with {budget} steps of search per board.",
        "",
        "| replay | board | 3BV | clicks | ZiNi | HZiNi | fewest | efficiency | best "
        "| wasted (nothing/unused flag/unflag/one-cell chord) | RQP | IOS | STNB | s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        fewest = (
            str(r["min_clicks"]) if r["optimal"] else f"{r['lower_bound']} to {r['min_clicks']}"
        )
        best = _num(r["best_efficiency"])
        if not r["optimal"]:
            best += f" to {_num(r['best_efficiency_bound'])}"
        w = r["wasted"]
        assert isinstance(w, dict)
        kinds = "/".join(str(n) for n in w.values())
        lines.append(
            f"| {r['file']} | {r['board']} | {r['bbbv']} | {r['clicks']} | {r['zini']} "
            f"| {r['hzini']} | {fewest} | {_num(r['efficiency'])} | {best} "
            f"| {sum(w.values())} ({kinds}) | {_num(r['rqp'])} | {_num(r['ios'])} "
            f"| {_num(r['stnb'])} | {r['seconds']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=REPORT_WORK)
    args = parser.parse_args()
    paths = sorted(
        p
        for p in SAMPLES.iterdir()
        if p.suffix in (".avf", ".rmv", ".evf", ".mvf") and not any(s in p.name for s in SKIP)
    )
    rows = [row(p, args.budget) for p in paths]
    text = markdown(rows, args.budget)
    sys.stdout.write(text)
    RESULTS.mkdir(exist_ok=True)
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "budget": args.budget,
    }
    (RESULTS / "replay_efficiency.json").write_text(
        json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n"
    )
    (RESULTS / "replay_efficiency.md").write_text(text)


if __name__ == "__main__":
    main()
