"""Grading replays: our whole ``analyse()`` against ms-toollib's ``analyse()`` plus pluck.

For every sample replay (``tests/data/replays``), one run each: our time to read the
file and grade every action (``grade_replay(load(path))``: the events played through the
rules, an exact analysis of the position before each opening action, ``best``'s move at
each guess, the win chances where few layouts remain), our time without them
(``analyse(best=False)``, the part comparable to
ms-toollib), and ms-toollib's ``parse()`` + ``analyse()`` + ``analyse_for_features
(["pluck"])`` on the same file, timed inside a subprocess (it aborts the process on some
files, which are then reported as such), the second of two runs (its first call in a
process pays a one-time start-up of about 0.3 s, reported as ``ms_toollib_cold_s``).
The ratio is ours (without ``best``) over ms-toollib's. The pluck values are printed
side by side.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_replay.py

Writes ``benchmarks/results/replay.json`` and ``replay.md``. Timings are wall-clock on a
shared machine, one run each: read the ratios, not the digits.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))

from minesolver.replay import grade_replay, load  # noqa: E402

SAMPLES = ROOT / "tests" / "data" / "replays"
RESULTS = ROOT / "benchmarks" / "results"

ORACLE = r"""
import json, sys, time, ms_toollib as ms
path = sys.argv[1]
cls = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "evf": ms.EvfVideo, "mvf": ms.MvfVideo}
def grade():
    v = cls[path.rsplit(".", 1)[1]](path)
    v.parse()
    v.analyse()
    v.analyse_for_features(["pluck"])
    v.current_time = 1e9
    return v.pluck
start = time.perf_counter()
grade()
cold = time.perf_counter() - start
start = time.perf_counter()
pluck = grade()
print(json.dumps({"seconds": time.perf_counter() - start, "cold": cold, "pluck": pluck}))
"""


def theirs(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tempfile.gettempdir(),  # it writes crash.log where it aborts
    )
    if done.returncode != 0:
        return {"error": f"ms-toollib exited with status {done.returncode}"}
    out: dict[str, object] = json.loads(done.stdout)
    return out


def ours(path: Path, best: bool) -> tuple[float, float, int]:
    start = time.perf_counter()
    a = grade_replay(load(path), best=best)
    graded = sum(m.graded for m in a.moves)
    return time.perf_counter() - start, a.pluck, graded


def main() -> None:
    rows = []
    for path in sorted(p for p in SAMPLES.iterdir() if p.suffix != ".md"):
        full, pluck, graded = ours(path, best=True)
        plain, _, _ = ours(path, best=False)
        other = theirs(path)
        seconds = other.get("seconds")
        ratio = plain / seconds if isinstance(seconds, float) and seconds > 0 else None
        rows.append(
            {
                "file": path.name,
                "actions_graded": graded,
                "ours_s": full,
                "ours_without_best_s": plain,
                "ms_toollib_s": seconds,
                "ms_toollib_cold_s": other.get("cold"),
                "ratio": ratio,
                "pluck": pluck,
                "ms_toollib_pluck": other.get("pluck"),
                "ms_toollib_error": other.get("error"),
            }
        )
    lines = [
        "| file | graded | ours (s) | ours without best (s) | ms-toollib (s) | ratio | pluck "
        "| ms-toollib pluck |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        ms_s = r["ms_toollib_s"]
        lines.append(
            f"| {r['file']} | {r['actions_graded']} | {r['ours_s']:.3f} | "
            f"{r['ours_without_best_s']:.3f} | "
            + (f"{ms_s:.3f}" if isinstance(ms_s, float) else str(r["ms_toollib_error"]))
            + " | "
            + (f"{r['ratio']:.1f}" if isinstance(r["ratio"], float) else "-")
            + f" | {r['pluck']:.6f} | "
            + (f"{r['ms_toollib_pluck']:.6f}" if isinstance(r["ms_toollib_pluck"], float) else "-")
            + " |"
        )
    table = "\n".join(lines)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    meta = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    (RESULTS / "replay.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    (RESULTS / "replay.md").write_text(
        f"# Replay grading, ours against ms-toollib ({meta['date']})\n\n{table}\n"
    )


if __name__ == "__main__":
    main()
