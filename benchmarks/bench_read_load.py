"""A screenshot read by the web app on a busy machine, against its safety deadline.

    .venv/bin/python benchmarks/bench_read_load.py [--burners N] [--repeat K] [--nice N]
        [--image examples/arbiter-expert.png] [--out benchmarks/results/read_load.json]

Starts N processes that keep a core busy each (at the normal priority), then reads the
image K times through the web app as the page does (``POST /api/reads``, then
``GET /api/reads/{id}`` until it is done; the app in-process through Starlette's
TestClient, its reader a real worker process at ``--nice``, the readers' priority, 0 by
default) and, for comparison, K times in this process; stops the burners and writes, per
read, the wall time, the worker's stages, and the deadline (``read_budget``) to
``benchmarks/results/read_load.json``. What it shows is the margin between a read's time
on a loaded machine and the deadline that would refuse it; the figures depend on the
machine and on whatever else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

from minesolver.vision import read_screenshot
from minesolver.web import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
BURN = "while True: pass"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--burners", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nice", type=int, default=Settings().read_nice)
    parser.add_argument("--image", default=str(ROOT / "examples" / "arbiter-expert.png"))
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "read_load.json"))
    args = parser.parse_args()
    data = Path(args.image).read_bytes()
    settings = Settings(read_nice=args.nice)
    burners = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(args.burners)]
    web: list[dict[str, object]] = []
    direct: list[float] = []
    try:
        with TestClient(create_app(settings)) as client:
            client.post("/api/read", content=b"not an image")  # the reader's worker started
            for _ in range(args.repeat):
                began = time.monotonic()
                url = client.post("/api/reads", content=data).headers["location"]
                while (r := client.get(url)).status_code == 200 and r.json()["state"] != "done":
                    time.sleep(0.05)
                body = r.json()
                web.append(
                    {
                        "seconds": round(time.monotonic() - began, 2),
                        "status": r.status_code,
                        "stages": body.get("stages"),
                        "detail": body.get("detail"),
                    }
                )
                print(web[-1], flush=True)
        for _ in range(args.repeat):
            began = time.monotonic()
            read_screenshot(data)
            direct.append(round(time.monotonic() - began, 2))
            print({"in_process_seconds": direct[-1]}, flush=True)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    out = {
        "command": " ".join(["benchmarks/bench_read_load.py", *sys.argv[1:]]),
        "image": os.path.relpath(args.image, ROOT),
        "burners": args.burners,
        "read_nice": args.nice,
        "read_budget": settings.read_budget,
        "load_average_after": os.getloadavg()[0],
        "cores": os.cpu_count(),
        "web_reads": web,
        "in_process_seconds": direct,
    }
    path = Path(args.out)
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
