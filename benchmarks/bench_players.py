"""Players' win rates and speed, measured with the simulator (``minesolver.simulate``).

For each level and first-click setting, plays ``--games`` seeded games with every player
of ``--strategies`` on the same layouts (game ``i`` depends only on ``--seed`` and
``i``, whatever ``--workers``), in parts of ``--part`` games; after each part the totals
so far are merged into ``benchmarks/results/players.json`` under the key
``LEVEL/RULE/X,Y/PLAYER`` (and ``.../paired/A-vs-B``), so a long run stopped early still
leaves honest figures for the games it played.

    .venv/bin/python benchmarks/bench_players.py --levels expert,beginner \
        --strategies greedy --games 20000 --seed 1 --workers 2

Speed is the player's own time per game (games per second per core) and the wall-clock
rate; on a shared machine both are disturbed by other load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from minesolver.simulate import BenchResult, GameRecord, make_setup, simulate, summarise

RESULTS = Path(__file__).parent / "results" / "players.json"


def _merge(path: Path, entries: dict[str, dict[str, object]]) -> None:
    data: dict[str, object] = {}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    data.update(entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def _entries(result: BenchResult, command: str, wall: float) -> dict[str, dict[str, object]]:
    setup = result.setup
    base = f"{result.level_name}/{setup.rule}/{setup.start[0]},{setup.start[1]}"
    note = {
        "command": command,
        "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; shared with other jobs (timings disturbed)",
        "wall_seconds": round(wall, 1),
    }
    out: dict[str, dict[str, object]] = {}
    for name in result.results:
        out[f"{base}/{name}"] = {**result.strategy_json(name), **note}
    for p in result.paired:
        out[f"{base}/paired/{p.a}-vs-{p.b}"] = {
            "a": p.a,
            "b": p.b,
            "games": result.games,
            "a_only": p.a_only,
            "b_only": p.b_only,
            "p_value": p.p_value,
            **note,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the measurements named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="expert,beginner")
    parser.add_argument("--strategies", default="greedy")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--part", type=int, default=1000, help="games between saves")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--start", default="corner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    command = "python benchmarks/bench_players.py " + " ".join(argv or sys.argv[1:])
    for level in args.levels.split(","):
        setup, _ = make_setup(
            level=level,
            first_click=args.first_click,
            start=args.start,
            strategies=args.strategies.split(","),
            seed=args.seed,
        )
        records: list[GameRecord] = []
        wall = 0.0
        while len(records) < args.games:
            count = min(args.part, args.games - len(records))
            part = simulate(setup, count, workers=args.workers, first_game=len(records))
            records += part.records
            wall += part.wall_seconds
            total = summarise(setup, part.level_name, records, wall, args.workers)
            _merge(args.out, _entries(total, command, wall))
            for name, r in total.results.items():
                lo, hi = r.ci95
                print(
                    f"{total.level_name} {setup.rule} {name}: {r.wins}/{r.games} = "
                    f"{100 * r.win_rate:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}], "
                    f"{r.guesses_per_game:.2f} guesses/game, "
                    f"{r.games_per_second:.1f} games/s, "
                    f"{r.games_per_second_per_core:.1f} games/s/core",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
