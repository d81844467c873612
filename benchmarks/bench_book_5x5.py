"""The opening book's effect on 5x5/4's exact table: ``best`` against ``best`` with the
book (``search:rollouts=0``, which plays ``best``'s moves but the book's) on every 5x5/4
layout whose corner shows a 1, the only book position of that board where the book's move
is not ``best``'s. The layouts and the players' seeds are those of
``minesolver perfect --level 5x5x4 --seed 1`` (layout k of every layout is game k), so
``best``'s table figure plus the difference here is the table figure of the player with
the book; elsewhere the two make the very same moves.

    python benchmarks/bench_book_5x5.py --workers 2 --out benchmarks/results/book_5x5.json

Cost: about 4,000 games of each player on 5x5/4 (tens of milliseconds each: ``best``'s
endgame search).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from minesolver.game import Game, Layout, Level, Move
from minesolver.optimal import all_layouts
from minesolver.simulate import Setup
from minesolver.simulate.running import Batch, run_batch

LEVEL = Level(5, 5, 4)
NAMES = ("best", "search:rollouts=0")
SETUP = Setup(LEVEL, "safe", (0, 0), NAMES, 1)


def _corner(layout: Layout) -> int:
    game = Game.from_layout(layout)
    game.push(Move("open", (0, 0)))
    return game.view()[(0, 0)]


def _run(chunk: list[int]) -> list[tuple[int, tuple[bool, ...]]]:
    layouts = all_layouts(LEVEL, (0, 0), "safe")
    out = []
    for k in chunk:
        out += run_batch(Batch(SETUP, k, 1, (layouts[k],)))
    return [(r.index, r.wins) for r in out]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    began = time.time()
    layouts = all_layouts(LEVEL, (0, 0), "safe")
    picked = [k for k, lay in enumerate(layouts) if _corner(lay) == 1]
    chunks = [picked[i : i + 100] for i in range(0, len(picked), 100)]
    rows: list[tuple[int, tuple[bool, ...]]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(_run, chunks):
            rows += part
    wins = [sum(w[j] for _, w in rows) for j in range(len(NAMES))]
    only = [sum(1 for _, w in rows if w[j] and not w[1 - j]) for j in range(2)]
    result = {
        "level": str(LEVEL),
        "rule": "safe",
        "seed": SETUP.seed,
        "layouts": len(picked),
        "wins": dict(zip(NAMES, wins, strict=True)),
        "won_by_one_only": dict(zip(NAMES, only, strict=True)),
        "wall_seconds": round(time.time() - began),
        "command": "python benchmarks/bench_book_5x5.py --workers 2 "
        "--out benchmarks/results/book_5x5.json",
    }
    text = json.dumps(result, indent=1)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
