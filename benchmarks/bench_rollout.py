"""Exact rollouts: a guess's win rate when a player plays on, over every consistent layout.

For a position and some candidate cells, each candidate is opened on every layout
consistent with the position (listed exactly; at most ``--limit``), then ``--player``
plays the game to its end, its tie-breaks seeded by the layout's number. The count of
wins is the candidate's exact value *under that player's continuation* (a one-step
policy improvement picks the best of them), to set beside the optimal values of
``bench_regret.py --every-layout``. Small boards only: one game per layout and candidate.

    .venv/bin/python benchmarks/bench_rollout.py "5x5x4/1HHHH/HHHHH/HHHHH/HHHHH/HHHHH" \
        4,0 4,4 0,4 3,4
"""

from __future__ import annotations

import argparse
import random

from minesolver.game import Game, Layout, Move
from minesolver.position import FLAG, Cell, Position
from minesolver.simulate import apply_moves
from minesolver.strategy import get_player
from minesolver.strategy.endgame import enumerate_layouts


def rollout_wins(position: Position, cell: Cell, player: str, limit: int) -> tuple[int, int]:
    """Wins of opening ``cell`` then letting ``player`` play, over every layout of
    ``position``; and the number of layouts."""
    opened = [position.coords(i) for i, v in enumerate(position.cells) if v >= 0]
    flags = [i for i, v in enumerate(position.cells) if v == FLAG]
    layouts = enumerate_layouts(position, limit)
    size = position.width * position.height
    wins = 0
    for k, mask in enumerate(layouts):
        mines = sorted({i for i in range(size) if mask >> i & 1} | set(flags))
        game = Game.from_layout(Layout(position.width, position.height, tuple(mines)))
        for c in [*opened, cell]:
            if not game.over:  # the last of them may win the game
                game.push(Move("open", c))
        strategy = get_player(player)
        strategy.reset(random.Random(k))
        while not game.over:
            apply_moves(game, strategy.next_moves(game.view()), player)
        wins += game.outcome.won
    return wins, len(layouts)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("position", help="position text, rows separated by '/'")
    parser.add_argument("cells", nargs="+", help="candidate cells X,Y")
    parser.add_argument("--player", default="best")
    parser.add_argument("--limit", type=int, default=50_000, help="most layouts listed")
    args = parser.parse_args(argv)
    position = Position.from_text(args.position.replace("/", "\n"))
    for text in args.cells:
        x, y = (int(v) for v in text.split(","))
        wins, total = rollout_wins(position, (x, y), args.player, args.limit)
        print(f"{(x, y)}: {wins} of {total} layouts ({100 * wins / total:.2f}%)", flush=True)


if __name__ == "__main__":
    main()
