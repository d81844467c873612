"""How far a player's guesses are from perfect play, in the positions where it can be computed.

A win-rate comparison of two players needs tens of thousands of games to resolve half a
percent. This benchmark measures without that noise, for the positions the exact search
can solve: it plays ``--games`` seeded games (the boards of ``minesolver bench --seed``)
and, at every guess made with at most ``--limit`` consistent layouts, lists the layouts
and computes exactly the win probability of the optimal move and of the player's move
(:meth:`~minesolver.strategy.endgame.EndgameSolver.move_wins`). The difference is the
*regret* of that guess: the win probability it gives away, given the position. Summed
along the games and divided by their number, it is the win rate the player loses to
those decisions: the gap between the player and the same player switched to perfect
play in every position with at most ``--limit`` layouts (a closed set: layouts only
shrink). It tells, for instance, what raising ``best``'s endgame limit could gain. Guesses
whose search ran out of ``--budget`` nodes are left out (``unsolved``): when there are
any, the figure is a lower bound. Positions with more layouts are not covered at all.

Guesses that ``best``'s own endgame search made are exact by construction; they are
counted apart, as a check (their regret must be 0). The other guesses are split into
those with at most 1,000 layouts (where ``best``'s search gave up on its node budget)
and those above (beyond its layout limit).

    .venv/bin/python benchmarks/bench_regret.py --level expert --games 1000 --seed 3 \
        --limit 10000

On a small board, ``--every-layout`` plays every layout once instead (with ``--limit``
above the board's layout count every guess is valued: the regret is then the player's
whole gap to perfect play, :func:`minesolver.optimal.perfect_play`); the positions of
the suboptimal guesses are listed, most costly first.

    .venv/bin/python benchmarks/bench_regret.py --level 5x5x4 --every-layout --limit 20000

Results go to ``benchmarks/results/regret.json`` (one entry per player and settings).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from minesolver.optimal import all_layouts
from minesolver.position import Cell, Position
from minesolver.simulate import apply_moves, make_setup, start_game
from minesolver.strategy import get_player
from minesolver.strategy.endgame import (
    EndgameSolver,
    SearchBudgetExceeded,
    TooManyLayouts,
    enumerate_layouts,
)
from minesolver.strategy.reasons import Endgame

RESULTS = Path(__file__).parent / "results" / "regret.json"


def exact_values(view: Position, cell: Cell, limit: int, budget: int) -> tuple[Cell, int, int, int]:
    """The optimal cell of ``view``, its number of layouts, the layouts that optimal
    play wins and those that opening ``cell`` first then playing optimally wins.
    Raises ``TooManyLayouts`` and ``SearchBudgetExceeded``."""
    layouts = enumerate_layouts(view, limit)
    solver = EndgameSolver(budget)
    optimal_cell, optimum, total = solver.best_move(view, layouts)
    return optimal_cell, total, optimum, solver.move_wins(view, layouts, cell)


def measure(
    level: str,
    games: int,
    seed: int,
    player: str,
    limit: int,
    budget: int,
    every_layout: bool = False,
) -> dict[str, Any]:
    """Play the games; the regret of every guess with at most ``limit`` layouts.
    ``every_layout`` plays every layout of the board once instead (``games`` ignored)."""
    setup, _ = make_setup(
        level=level, first_click="safe", start="corner", players=[player], seed=seed
    )
    given = all_layouts(setup.level, setup.start, setup.rule) if every_layout else None
    if given is not None:
        games = len(given)
    decisions: list[dict[str, Any]] = []
    # (position, guess) -> exact values; on small boards many games meet the same ones
    values: dict[tuple[Position, Cell], tuple[Cell, int, int, int]] = {}
    unsolved = wins = 0
    began = time.perf_counter()
    for index in range(games):
        strategy = get_player(player)
        game = start_game(setup, index, strategy, None if given is None else given[index])
        while not game.over:
            view = game.view()
            moves = strategy.next_moves(view)
            guess = next((m for m in moves if m.guess), None)
            if guess is not None:
                try:
                    value = values.get((view, guess.cell))
                    if value is None:
                        value = values[view, guess.cell] = exact_values(
                            view, guess.cell, limit, budget
                        )
                except TooManyLayouts:
                    pass
                except SearchBudgetExceeded:
                    unsolved += 1
                else:
                    optimal_cell, total, optimum, chosen = value
                    row = {
                        "game": index,
                        "layouts": total,
                        "optimum": optimum,
                        "chosen": chosen,
                        "endgame": isinstance(guess.reason, Endgame),
                    }
                    if chosen < optimum:  # where it went wrong, to look at
                        row.update(
                            position=view.to_text(),
                            cell=list(guess.cell),
                            optimal_cell=list(optimal_cell),
                        )
                    decisions.append(row)
            apply_moves(game, moves, player)
        wins += game.outcome.won
    seconds = time.perf_counter() - began

    def regret(rows: list[dict[str, Any]]) -> Fraction:
        return sum((Fraction(r["optimum"] - r["chosen"], r["layouts"]) for r in rows), Fraction(0))

    searched = [r for r in decisions if r["endgame"]]
    heuristic = [r for r in decisions if not r["endgame"]]
    worse = [r for r in heuristic if r["chosen"] < r["optimum"]]
    per_game = [0.0] * games  # each game's regret, for the standard error
    for r in heuristic:
        per_game[r["game"]] += (r["optimum"] - r["chosen"]) / r["layouts"]
    mean = statistics.fmean(per_game)
    spread = statistics.stdev(per_game) if games > 1 else 0.0
    # the suboptimal guesses by position: how often met, and the win probability lost
    where: dict[tuple[str, int, int], dict[str, Any]] = {}
    for r in worse:
        seen = where.setdefault(
            (r["position"], *r["cell"]),
            {
                "position": r["position"],
                "cell": r["cell"],
                "optimal_cell": r["optimal_cell"],
                "layouts": r["layouts"],
                "optimum": r["optimum"],
                "chosen": r["chosen"],
                "games": 0,
            },
        )
        seen["games"] += 1
    return {
        "level": level,
        "games": games,
        "seed": seed,
        "player": player,
        "limit": limit,
        "budget": budget,
        "wins": wins,
        "seconds": round(seconds, 1),
        "decisions": len(decisions),
        "unsolved": unsolved,
        "endgame_decisions": len(searched),
        "endgame_regret": float(regret(searched)),
        "heuristic_decisions": len(heuristic),
        "heuristic_decisions_at_most_1000_layouts": sum(r["layouts"] <= 1000 for r in heuristic),
        "heuristic_suboptimal": len(worse),
        "heuristic_regret_per_game": mean,
        "heuristic_regret_per_game_stderr": spread / games**0.5,
        "heuristic_regret_per_game_at_most_1000_layouts": float(
            regret([r for r in heuristic if r["layouts"] <= 1000]) / games
        ),
        "suboptimal_positions": sorted(
            where.values(), key=lambda w: -w["games"] * (w["optimum"] - w["chosen"]) / w["layouts"]
        ),
        "rows": decisions,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--player", default="best")
    parser.add_argument("--limit", type=int, default=10_000, help="most layouts searched")
    parser.add_argument("--budget", type=int, default=2_000_000, help="search nodes")
    parser.add_argument(
        "--every-layout",
        action="store_true",
        help="play every layout of a small board once (instead of --games)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    result = measure(
        args.level, args.games, args.seed, args.player, args.limit, args.budget, args.every_layout
    )
    data = json.loads(args.out.read_text()) if args.out.exists() else {}
    games = "every-layout" if args.every_layout else f"games{args.games}"
    key = (
        f"{args.level}-{args.player}-seed{args.seed}-{games}-limit{args.limit}-budget{args.budget}"
    )
    # every layout of a board makes thousands of rows alike: keep their summary only
    data[key] = {k: v for k, v in result.items() if not (args.every_layout and k == "rows")}
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    summary = {k: v for k, v in result.items() if k not in ("rows", "suboptimal_positions")}
    print(json.dumps(summary, indent=1))
    for w in result["suboptimal_positions"][:10]:
        print(
            f"\n{w['games']} games: chose {tuple(w['cell'])}, winning {w['chosen']} of "
            f"{w['layouts']} layouts; {tuple(w['optimal_cell'])} wins {w['optimum']}\n"
            f"{w['position']}"
        )
    if result["endgame_regret"]:
        print("error: the endgame search's own guesses lost to the optimum", file=sys.stderr)
        raise SystemExit(1)
    if result["unsolved"]:
        print(
            f"note: {result['unsolved']} guesses exceeded the search budget and are left "
            "out: the regret is a lower bound",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
