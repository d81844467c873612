"""Players on every layout of a small board, resumable: the figures of ``minesolver
perfect --players`` for one player at a time, without re-running perfect play's search.

Each layout ``k`` of :func:`minesolver.optimal.all_layouts` is game ``k`` of the run with
the seed given (the players' tie-breaks are those of ``minesolver perfect --seed``), so a
player's wins here are its figure in that table, and perfect play's wins are read from
``benchmarks/results/optimal.json`` (computed there once, 213 s on 6x5/4). The games are
played in chunks, each chunk's outcomes appended to a state file as it ends, so a stopped
run resumes where it stopped.

    .venv/bin/python benchmarks/bench_search_perfect.py --level 6x5x4 --player search \\
        --state /tmp/search_6x5x4.json --out benchmarks/results/search_perfect_6x5x4.json

Cost: the player's, on every layout. On 6x5/4 ``best`` and ``search`` cost alike
(``best``'s endgame search, which takes over after a guess or two, is nearly all of it;
the rollouts of ``search``'s few valued guesses a small part): 410 s of one core for
``search``'s 23,751 layouts, of which 138 s for the first 1,500 (the first layouts in
order, their mines in the top rows next to the first click, are the costly ones: a
partial run's pace says little about the whole).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minesolver.game import parse_level
from minesolver.optimal import all_layouts
from minesolver.simulate import Setup
from minesolver.simulate.running import Batch, run_batch

OPTIMAL = Path(__file__).parent / "results" / "optimal.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="6x5x4")
    parser.add_argument("--player", default="search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument(
        "--count", type=int, default=None, help="only the first N layouts (a partial run)"
    )
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    level = parse_level(args.level)
    setup = Setup(level, "safe", (0, 0), (args.player,), args.seed)
    layouts = all_layouts(level, (0, 0), "safe")
    total = len(layouts)
    if args.count is not None:
        layouts = layouts[: args.count]
    state: dict[str, Any] = {"outcomes": "", "cpu_seconds": 0.0}
    if args.state.exists():
        state = json.loads(args.state.read_text(encoding="utf-8"))
    while len(state["outcomes"]) < len(layouts):
        first = len(state["outcomes"])
        count = min(args.chunk, len(layouts) - first)
        began = time.process_time()
        records = run_batch(Batch(setup, first, count, tuple(layouts[first : first + count])))
        state["outcomes"] += "".join("W" if r.wins[0] else "L" for r in records)
        state["cpu_seconds"] += time.process_time() - began
        args.state.write_text(json.dumps(state), encoding="utf-8")
        print(f"{len(state['outcomes'])}/{len(layouts)}", file=sys.stderr, flush=True)
    outcomes = state["outcomes"][: len(layouts)]
    wins = outcomes.count("W")
    stored = json.loads(OPTIMAL.read_text(encoding="utf-8")).get(args.level, {})
    perfect = stored.get("perfect", {}).get("wins")
    result = {
        "level": args.level,
        "first_click": "safe",
        "start": [0, 0],
        "seed": args.seed,
        "layouts": total,
        "played": len(layouts),
        "perfect_wins": perfect,
        "player": args.player,
        "wins": wins,
        "layouts_lost_to_perfect": None
        if perfect is None or len(layouts) < total
        else perfect - wins,
        "best_wins_same_seed": stored.get("players", {}).get("best", {}).get("wins"),
        "cpu_seconds": round(state["cpu_seconds"], 1),
        "outcomes": outcomes,
        "command": f"python benchmarks/bench_search_perfect.py --level {args.level} "
        f"--player {args.player} --seed {args.seed} --state STATE --out OUT",
    }
    text = json.dumps(result, indent=1)
    print(text.replace(outcomes, "..."))
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
