"""Where a player's games are lost: its guesses by kind, their summed risk and the deaths.

Plays ``--games`` seeded games (the boards of ``minesolver bench --seed``) and sorts every
guess by the reason the player gave (``best``: endgame search, unavoidable 50/50, or the
heuristic, the last split into cells next to a digit and cells away from every digit)
and by whether it was the game's first guess and a coin flip (risk exactly 1/2). The sum
of the risks of a kind is the number of games it is expected to lose; the deaths are
what happened. It shows where an improvement could come from: a kind whose losses are
already optimal (the endgame search) or forced cannot give much. Results are merged into
``benchmarks/results/losses.json``.

    .venv/bin/python benchmarks/bench_losses.py --level expert --games 2000 --seed 3
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from minesolver.simulate import make_setup, start_game
from minesolver.strategy import get_player
from minesolver.strategy.base import Move
from minesolver.strategy.reasons import Endgame, FiftyFifty

RESULTS = Path(__file__).parent / "results" / "losses.json"


def kind_of(move: Move, view_touches_digit: bool, first: bool) -> str:
    """The bucket of a guess: by its reason, its place, and whether it is a coin flip."""
    reason = move.reason
    if isinstance(reason, Endgame):
        kind = "endgame search"
    elif isinstance(reason, FiftyFifty):
        kind = "unavoidable 50/50"
    else:
        kind = "heuristic, " + ("next to a digit" if view_touches_digit else "away from digits")
    if first:
        kind += ", first guess"
    if move.risk == 0.5:
        kind += ", coin flip"
    return kind


def measure(level: str, games: int, seed: int, player: str) -> dict[str, object]:
    setup, _ = make_setup(
        level=level, first_click="safe", start="corner", players=[player], seed=seed
    )
    risk: Counter[str] = Counter()
    count: Counter[str] = Counter()
    deaths: Counter[str] = Counter()
    wins = 0
    for index in range(games):
        strategy = get_player(player)
        game = start_game(setup, index, strategy)
        guesses = 0
        while not game.over:
            view = game.view()
            for move in strategy.next_moves(view):
                if game.over:
                    break
                kind = ""
                if move.guess:
                    near = any(view[nb] >= 0 for nb in view.neighbours(move.cell))
                    kind = kind_of(move, near, guesses == 0)
                    guesses += 1
                    risk[kind] += move.risk
                    count[kind] += 1
                if game.push(move).outcome.lost:
                    deaths[kind or "certain move (a bug)"] += 1
        wins += game.outcome.won
    return {
        "level": level,
        "games": games,
        "seed": seed,
        "player": player,
        "wins": wins,
        "kinds": {
            k: {"guesses": count[k], "expected_losses": round(risk[k], 1), "deaths": deaths[k]}
            for k in sorted(count, key=lambda k: -deaths[k])
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--player", default="best")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    result = measure(args.level, args.games, args.seed, args.player)
    data = json.loads(args.out.read_text()) if args.out.exists() else {}
    data[f"{args.level}-{args.player}-seed{args.seed}-games{args.games}"] = result
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
