"""Fairness under load: what easy clients get while greedy ones post hard positions.

    .venv/bin/python benchmarks/bench_fairness.py [--seconds S] [--before-src DIR]

Starts ``minesolver serve`` (2 workers, 5 s budget: the defaults) on 127.0.0.1 and, for
``--seconds``, has 4 clients post a hard position (one dense 60x60 component, far past
the budget) in a loop, ``--hard-streams`` connections each, while 3 clients post easy
positions (the design document's 5x5 and the shipped expert mid-game), one at a time,
0.1 s apart. Each client has its own loopback address (127.0.0.2 and up), as separate
users would. Reports the easy clients' latency (median, p95, max) and errors, and the
statuses the greedy clients got; with ``--before-src`` (another tree's ``src``, e.g. the
main branch's) the same load runs against that code first, for a before/after pair.
Results go to ``benchmarks/results/fairness.json``. Loopback only; bounded in time (the
run's seconds, plus at most a request's timeout).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "web"))

from loadtest import free_port, run_load, serve  # noqa: E402
from webtest_helpers import KNOWN, hard_position  # noqa: E402


def measure(src: Path | None, seconds: float, hard_streams: int) -> dict[str, Any]:
    """One run of the load against the code in ``src`` (this tree when ``None``)."""
    port = free_port()
    server = serve(port, workers=2, budget=5.0, src=src)
    try:
        easy = [KNOWN, (ROOT / "examples" / "expert-midgame.txt").read_text()]
        result = run_load(
            port,
            hard_position(60),
            easy,
            hard_clients=4,
            hard_streams=hard_streams,
            easy_clients=3,
            seconds=seconds,
            timeout=30.0,
        )
    finally:
        server.kill()
        server.wait(timeout=10)
    return result.summary()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--hard-streams", type=int, default=1)
    parser.add_argument("--before-src", type=Path, default=None)
    default_out = ROOT / "benchmarks" / "results" / "fairness.json"
    parser.add_argument("--out", type=Path, default=default_out)
    args = parser.parse_args()
    runs: dict[str, Any] = {
        "setup": {
            "hard_clients": 4,
            "hard_streams": args.hard_streams,
            "easy_clients": 3,
            "seconds": args.seconds,
            "workers": 2,
            "budget": 5.0,
        }
    }
    if args.before_src is not None:
        runs["before"] = measure(args.before_src.resolve(), args.seconds, args.hard_streams)
        print("before", json.dumps(runs["before"]))
    runs["after"] = measure(None, args.seconds, args.hard_streams)
    print("after", json.dumps(runs["after"]))
    args.out.write_text(json.dumps(runs, indent=2) + "\n")


if __name__ == "__main__":
    main()
