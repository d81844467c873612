"""CPU seconds per game of each player, on the same seeded expert games.

On a machine shared with other jobs the wall-clock rates of ``minesolver bench`` say
more about the load than about the players; this plays games ``0 .. --games - 1`` of the
seeded run (first click safe, in the corner) with each player in turn and divides by the
process's CPU time (``time.process_time``), so the code before and after a change can be
compared in turn on the same games.

    .venv/bin/python benchmarks/bench_player_cpu.py [--games 100] [--players greedy,pseq,best]
"""

from __future__ import annotations

import argparse
import random
import time

from minesolver.simulate import make_setup
from minesolver.simulate.running import derive_seed, game_layout, play_game
from minesolver.strategy import get_player


def main(argv: list[str] | None = None) -> int:
    """Print each player's wins and games per CPU second."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", default="greedy,pseq,best")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = args.players.split(",")
    setup, _ = make_setup(
        level=args.level, first_click="safe", start="corner", players=names, seed=args.seed
    )
    for name in names:
        player = get_player(name)
        cpu = 0.0
        wins = 0
        for i in range(args.games):
            layout, _ = game_layout(setup, i)
            rng = random.Random(derive_seed(setup.seed, i, "player"))
            began = time.process_time()
            won, _ = play_game(player, layout, setup.start, rng)
            cpu += time.process_time() - began
            wins += won
        rate = args.games / cpu
        print(f"{name}: {args.games} games, {wins} wins, {rate:.1f} games per CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
