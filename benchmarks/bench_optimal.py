"""The players against perfect play, exactly, on boards small enough to list every layout.

For each board (first click safe, in the corner) the win rate of perfect play is computed
exactly by game-tree search over every layout (:func:`minesolver.optimal.perfect_play`),
and each player plays every layout once (:func:`minesolver.optimal.play_every_layout`;
``minesolver perfect --players`` gives the same figures for seed 1). Both figures are
exact over the layouts, with no sampling noise: the gap is what the player gives away
to perfect play on that board. The only randomness left is the players' tie-breaks (one
draw per layout, seeded).

    .venv/bin/python benchmarks/bench_optimal.py --boards 4x4x3,6x4x4,5x5x4 \
        --players greedy,pseq,best --workers 2

Results go to ``benchmarks/results/optimal.json``, one entry per board; ``--table`` prints
them as a table (the stored results only), ``--docs`` also writes that table into the
documentation's strength page. On small boards
``best``'s endgame search (at most 1,000 layouts) takes over after one or two guesses, so
the gap measures its heuristic guesses at the start of the game only.
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

from benchmarks.docs_tables import STRENGTH, write_section
from minesolver.game import parse_level, parse_start
from minesolver.optimal import compare, perfect_play, play_every_layout
from minesolver.simulate import make_setup

RESULTS = Path(__file__).parent / "results" / "optimal.json"


def measure(board: str, players: list[str], workers: int, seed: int) -> dict[str, Any]:
    """Perfect play and each player over every layout of ``board`` (``WxHxM``)."""
    level = parse_level(board)
    start = parse_start("corner", level.width, level.height)
    began = time.perf_counter()
    perfect = perfect_play(level, start, "safe")
    search_seconds = time.perf_counter() - began
    setup, _ = make_setup(
        level=board, first_click="safe", start="corner", players=players, seed=seed
    )
    result: dict[str, Any] = {
        "board": board,
        "seed": seed,
        **compare(perfect, play_every_layout(setup, workers=workers)),
    }
    result["perfect"]["seconds"] = round(search_seconds, 1)
    return result


def table(data: dict[str, Any]) -> str:
    """The results as a markdown table: perfect play, then each player with the layouts
    it wins fewer (for the documentation)."""
    players = list(dict.fromkeys(n for r in data.values() for n in r["players"]))
    rows = [
        "| board | layouts | perfect play | " + " | ".join(players) + " |",
        "| --- | ---: | ---: | " + " | ".join("---:" for _ in players) + " |",
    ]
    for board, r in data.items():
        cells = [
            f"{100 * p['win_rate']:.2f}% (-{p['layouts_lost_to_perfect']})"
            if (p := r["players"].get(name))
            else ""
            for name in players
        ]
        rows.append(
            f"| {board} | {r['layouts']} | {100 * r['perfect']['win_rate']:.2f}% | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="4x4x3,6x4x4,5x5x4")
    parser.add_argument("--players", default="greedy,pseq,best")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--table", action="store_true", help="only print the stored results")
    parser.add_argument("--docs", action="store_true", help="also write the table into docs/")
    args = parser.parse_args(argv)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    data = json.loads(args.out.read_text()) if args.out.exists() else {}
    if not args.table:
        for board in (b.strip() for b in args.boards.split(",") if b.strip()):
            data[board] = measure(board, players, args.workers, args.seed)
            args.out.write_text(json.dumps(data, indent=1) + "\n")
            print(f"{board}: done", flush=True)
    print(table(data), end="")
    if args.docs:
        write_section(STRENGTH, "optimal", table(data))


if __name__ == "__main__":
    main()
