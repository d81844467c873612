"""Latency of the web API's analysis against the library's, side by side in one run.

    .venv/bin/python benchmarks/bench_web.py [--repeat N]

Starts the app in-process (Starlette's TestClient: no network, the worker processes are
real), analyses the shipped expert mid-game position N times through ``POST /api/analyze``
and N times with :func:`minesolver.analyze` directly, asks ``POST /api/tile`` (and its job
directly) for the tile information of the position's frontier cells in turn, and writes the
medians to
``benchmarks/results/web.json``. The difference is the cost of the web path: JSON in and
out, the pipe to the worker, the hint player's move (computed by the API, not by
``analyze``), the thread hop. Figures depend on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings
from pathlib import Path

from minesolver import Position, analyze
from minesolver.web import Settings, create_app, jobs

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    text = (ROOT / "examples" / "expert-midgame.txt").read_text()
    position = Position.from_text(text)
    direct: list[float] = []
    api_move: list[float] = []
    job_plain: list[float] = []
    job_move: list[float] = []
    api_tile: list[float] = []
    job_tile: list[float] = []
    base = analyze(position)
    frontier = sorted(c for c, p in base.probabilities.items() if 0 < p < 1)
    with TestClient(create_app(Settings(workers=1, budget=30))) as client:
        for _ in range(args.repeat):
            t = time.perf_counter()
            analyze(position)
            direct.append(time.perf_counter() - t)
            t = time.perf_counter()
            r = client.post("/api/analyze", json={"position": text})
            api_move.append(time.perf_counter() - t)
            assert r.status_code == 200, r.text
            t = time.perf_counter()
            jobs.analyse(text, with_move=False)
            job_plain.append(time.perf_counter() - t)
            t = time.perf_counter()
            jobs.analyse(text, with_move=True)
            job_move.append(time.perf_counter() - t)
        for x, y in frontier[: args.repeat]:
            t = time.perf_counter()
            r = client.post("/api/tile", json={"position": text, "x": x, "y": y})
            api_tile.append(time.perf_counter() - t)
            assert r.status_code == 200, r.text
            t = time.perf_counter()
            jobs.tile(text, x, y)
            job_tile.append(time.perf_counter() - t)
    result = {
        "position": "examples/expert-midgame.txt",
        "repeat": args.repeat,
        "median_ms": {
            "analyze_direct": round(statistics.median(direct) * 1000, 2),
            "job_analyse_to_json_no_move": round(statistics.median(job_plain) * 1000, 2),
            "job_analyse_with_best_move": round(statistics.median(job_move) * 1000, 2),
            "api_analyze_with_best_move": round(statistics.median(api_move) * 1000, 2),
            "job_tile": round(statistics.median(job_tile) * 1000, 2),
            "api_tile": round(statistics.median(api_tile) * 1000, 2),
        },
        "tile_cells": len(job_tile),
        "note": "one run, side by side, on a shared 2-core machine under other load",
    }
    out = ROOT / "benchmarks" / "results" / "web.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
