"""Where ``analyze`` spends its time: cProfile on the expert set, the 152x3 strip and a
200x200/8000 board.

Usage (from the repository root)::

    .venv/bin/python benchmarks/profile_exact.py [--positions N] [--seed S] [--top K] [--md OUT]

Prints, for each workload, the functions with the most own time (``tottime``) and their
share of the workload's total, and writes them to ``benchmarks/results/profile_exact.md``.
cProfile slows pure-Python code by a roughly constant factor, so shares matter, not times.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.positions import big_positions, expert_positions, rng_for, strip_position
from minesolver import Position, analyze

RESULTS = Path(__file__).resolve().parent / "results"


def profile(texts: Sequence[str], rounds: int) -> pstats.Stats:
    """Profile ``analyze(Position.from_text(t))`` over ``texts``, ``rounds`` times."""
    for t in texts[:5] if rounds > 1 or len(texts) > 1 else []:  # warm caches, unprofiled
        analyze(Position.from_text(t))
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(rounds):
        for t in texts:
            analyze(Position.from_text(t))
    prof.disable()
    return pstats.Stats(prof)


def top_rows(stats: pstats.Stats, top: int) -> tuple[float, list[tuple[str, float, float, int]]]:
    """Total time and the ``top`` functions by own time: (name, own s, cumulative s, calls)."""
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())
    rows = []
    for (filename, line, func), (_cc, ncalls, tottime, cumtime, _callers) in raw.items():
        short = filename.split("/src/")[-1] if "/src/" in filename else Path(filename).name
        rows.append((f"{short}:{line} {func}", tottime, cumtime, ncalls))
    rows.sort(key=lambda r: -r[1])
    return total, rows[:top]


STAGES = [
    ("parse", "position.py", "from_text"),
    ("constraints", "constraints.py", "build"),
    ("count components", "analysis.py", "count_components"),
    ("combine under the total", "counting.py", "combine_total"),
    ("build Analysis", "analysis.py", "from_indices"),
]


def stage_rows(stats: pstats.Stats) -> list[tuple[str, float]]:
    """Cumulative time of each stage of ``analyze`` (see :data:`STAGES`)."""
    raw = stats.stats  # type: ignore[attr-defined]
    out = []
    for label, file, func in STAGES:
        cum = sum(
            v[3] for (f, _line, fn), v in raw.items() if fn == func and f.endswith("/" + file)
        )
        out.append((label, cum))
    return out


def render(
    title: str,
    total: float,
    rows: list[tuple[str, float, float, int]],
    stages: list[tuple[str, float]],
) -> str:
    lines = [
        f"### {title}",
        "",
        f"total profiled time {total:.3f} s; by stage (cumulative): "
        + ", ".join(f"{label} {cum / total:.0%}" for label, cum in stages),
        "",
        "| function | own time share | own s | cumulative s | calls |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for name, own, cum, calls in rows:
        lines.append(f"| `{name}` | {own / total:.1%} | {own:.3f} | {cum:.3f} | {calls} |")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200, help="expert positions (200)")
    parser.add_argument("--seed", type=int, default=2026, help="generator seed (2026)")
    parser.add_argument("--top", type=int, default=15, help="rows per workload (15)")
    parser.add_argument("--md", type=Path, default=RESULTS / "profile_exact.md", help="output")
    args = parser.parse_args(argv)

    expert = [bp.text for bp in expert_positions(args.seed, args.positions)]
    strip = [strip_position(rng_for(args.seed, "strip-152x3")).to_text()]
    big = [bp.text for bp in big_positions(args.seed, 1)]
    parts = ["# cProfile of analyze (own time per function)\n"]
    for title, texts, rounds in [
        (f"{len(expert)} expert mid-game positions (30x16/99)", expert, 1),
        ("152x3 strip, 10 runs", strip, 10),
        ("200x200/8000 mid-game, 1 run", big, 1),
    ]:
        stats = profile(texts, rounds)
        total, rows = top_rows(stats, args.top)
        parts.append(render(title, total, rows, stage_rows(stats)))
    report = "\n".join(parts)
    print(report)
    args.md.parent.mkdir(parents=True, exist_ok=True)
    args.md.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
