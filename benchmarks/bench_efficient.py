"""The ``efficient`` player against ``best`` and against each board's fewest clicks.

For ``--games`` seeded games of a level (first click safe, in the corner: the run's
layouts and player seeds are those of ``minesolver bench`` with the same seed), both
players play every game:

* ``best``, whose open moves that opened something count as its left clicks: the clicks
  of a plain player that left-clicks every certainly-safe cell and never flags (the
  baseline);
* ``efficient``, whose every click is counted (left, right, chord; the first click
  counts, as everywhere in minesolver).

It checks that the two win and lose the same games and make the same guesses, game by
game, and reports on the games won: the mean efficiency (3BV per click) of
``efficient``, of the plain player, of ZiNi, and of the board's fewest clicks from
:func:`minesolver.game.min_clicks` with a budget of ``--work`` SAT conflicts (the proved optimum,
or the best found with its proved lower bound when not proved within the budget).

    .venv/bin/python benchmarks/bench_efficient.py [--level expert] [--games 300]
        [--work 100000] [--seed 2026] [--save] [--no-min-clicks]

``--no-min-clicks`` skips the fewest clicks (the slow part) and the columns that need it:
for quick comparisons of the player, never for the stored results.

``--told-digits`` is a diagnostic, not a player: ``efficient``'s chance that a certain
cell shows the digit it hopes for (step 3 of its rules) is replaced by the truth read from
the layout (1 or 0), everything else unchanged, to measure what knowing the digits of the
certain cells still closed would be worth (with ``--no-min-clicks``; never saved).

``--lookahead K=V,...`` plays ``efficient-lookahead``
(:class:`minesolver.strategy.lookahead.LookaheadPlayer`) in place of ``efficient``, with
those settings (``--lookahead ""`` for its defaults; with ``--no-min-clicks``; never
saved); ``--rows-out FILE`` writes the run, its rows included, as JSON (for paired
comparisons of two runs: ``--paired FIRST SECOND`` prints each one's mean efficiency on
the games both won and the paired difference, with 95% intervals), and the efficient
player's CPU time is printed.

``--tiny N`` instead plays boards of 4x4 to 5x5 until ``N`` of them were cleared with no
guess, and compares the clicks with the exhaustive minimum from the same first click
(the breadth-first search of the tests) and over every first click.

``--save`` adds the level's summary and rows to ``benchmarks/results/efficient.json``;
``--table`` prints the stored results as the documentation's markdown table. The guesses
are asked of ``get_player("best")``, played through its native twin when it has one
(the same moves, faster).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minesolver.strategy.efficient as efficient_module
from minesolver.analysis import Analysis
from minesolver.game import Game, Layout, Level, Move, random_layout
from minesolver.game.clicks import DEFAULT_WORK, min_clicks
from minesolver.game.efficiency import bbbv, board_digits, zini
from minesolver.game.levels import PRESETS
from minesolver.position import Cell, InconsistentPosition
from minesolver.simulate.config import Setup
from minesolver.simulate.native import native_twin
from minesolver.simulate.seeds import derive_seed, game_layout
from minesolver.strategy import Player, get_player
from minesolver.strategy.efficient import EfficientPlayer
from minesolver.strategy.lookahead import LookaheadPlayer

RESULTS = Path(__file__).parent / "results" / "efficient.json"


@dataclass
class Played:
    """One game played by one player: the outcome, the guesses and the clicks."""

    won: bool
    guesses: list[tuple[int, int]] = field(default_factory=list)
    left: int = 1  # the first click
    right: int = 0
    chords: int = 0
    opens_changed: int = 1

    @property
    def clicks(self) -> int:
        return self.left + self.right + self.chords


def fast_best() -> Player:
    """``get_player("best")``, or its native twin (the same moves) when it has one."""
    player = get_player("best")
    twin = native_twin(player)
    return twin if twin is not None else player


def play(player: Player, layout: Layout, start: tuple[int, int], seed: int) -> Played:
    """One game with the first click at ``start`` and the player seeded as a run does;
    every move is checked to change the board."""
    player.reset(random.Random(seed))
    game = Game.from_layout(layout)
    game.push(Move("open", start))
    played = Played(won=False)
    while not game.over:
        moves = player.next_moves(game.view())
        changed = False
        for move in moves:
            if game.over:
                break
            step = game.push(move)
            changed |= step.changed
            if move.guess:
                played.guesses.append(move.cell)
            if move.kind == "open":
                played.left += 1
                played.opens_changed += step.changed
            elif move.kind == "flag":
                played.right += 1
            elif move.kind == "chord":
                played.chords += 1
            if step.outcome.lost and not move.guess:
                raise AssertionError(f"{player.name} lost on a certain move {move}")
        if not changed:
            raise AssertionError(f"{player.name} made no progress with {moves}")
    played.won = game.outcome.won
    return played


class ToldDigits:
    """Stands in for ``analyze_after`` in the ``efficient`` player's module (``--told-digits``):
    the what-if "``cell`` shows ``digit``" is the position itself (a chance of 1) when the
    layout's digit there is ``digit``, else impossible (a chance of 0)."""

    def __init__(self) -> None:
        self.digits: tuple[int, ...] = ()

    def __call__(self, analysis: Analysis, cell: Cell, digit: int) -> Analysis:
        if self.digits[analysis.position.index(cell)] != digit:
            raise InconsistentPosition(f"told: {cell} does not show {digit}")
        return analysis


def run_level(
    level_name: str,
    games: int,
    work: int,
    seed: int,
    fewest: bool = True,
    told: ToldDigits | None = None,
    lookahead: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Every game of the level: rows and a summary (without the fewest clicks when not
    ``fewest``; with ``told`` in place of the player's what-ifs, ``--told-digits``)."""
    level = PRESETS[level_name]
    setup = Setup(level, "safe", (0, 0), ("best", "efficient"), seed)
    rows: list[dict[str, Any]] = []
    began = time.perf_counter()
    best, efficient = fast_best(), EfficientPlayer(fast_best())
    if lookahead is not None:
        efficient = LookaheadPlayer(fast_best(), **lookahead)  # type: ignore[arg-type]
    play_seconds = [0.0, 0.0]
    cpu = 0.0
    for index in range(games):
        layout, _ = game_layout(setup, index)
        player_seed = derive_seed(seed, index, "player")
        t0 = time.perf_counter()
        b = play(best, layout, setup.start, player_seed)
        t1 = time.perf_counter()
        if told is not None:
            told.digits = board_digits(layout)
        c0 = time.process_time()
        e = play(efficient, layout, setup.start, player_seed)
        cpu += time.process_time() - c0
        t2 = time.perf_counter()
        play_seconds[0] += t1 - t0
        play_seconds[1] += t2 - t1
        row: dict[str, Any] = {
            "index": index,
            "best_won": b.won,
            "efficient_won": e.won,
            "same_guesses": b.guesses == e.guesses,
            "guesses": len(e.guesses),
        }
        if e.won:
            row.update(
                bbbv=bbbv(layout),
                zini=zini(layout),
                clicks=e.clicks,
                left=e.left,
                right=e.right,
                chords=e.chords,
                plain_clicks=b.opens_changed,
            )
            if fewest:
                plan = min_clicks(layout, work=work, seconds=None)
                row.update(
                    min_clicks=plan.count, lower_bound=plan.lower_bound, optimal=plan.optimal
                )
        rows.append(row)
        print(
            f"{level_name} game {index}: best {'won' if b.won else 'lost'}, efficient "
            f"{'won' if e.won else 'lost'}"
            + (f", 3BV {row['bbbv']} clicks {e.clicks}" if e.won else "")
            + (f" min {row['min_clicks']}" if "min_clicks" in row else ""),
            file=sys.stderr,
        )
    print(f"efficient CPU {cpu:.2f} s, {cpu / games:.4f} s a game", file=sys.stderr)
    return {
        "cpu_seconds_efficient": round(cpu, 2),
        "level": str(level),
        "seed": seed,
        "games": games,
        "budget_conflicts": work,
        "summary": summarise(rows, play_seconds, time.perf_counter() - began),
        "rows": rows,
    }


def summarise(rows: list[dict[str, Any]], play_seconds: list[float], wall: float) -> dict[str, Any]:
    """Wins, agreement with ``best`` and the mean efficiencies on the games won (with the
    half-width of the mean's 95% normal interval); the columns of the fewest clicks only
    when the rows have them."""
    won = [r for r in rows if r["efficient_won"]]

    def mean(values: list[float]) -> float:
        return round(statistics.fmean(values), 4) if values else 0.0

    def halfwidth(values: list[float]) -> float:
        if len(values) < 2:
            return 0.0
        return round(1.96 * statistics.stdev(values) / math.sqrt(len(values)), 4)

    efficiencies = [r["bbbv"] / r["clicks"] for r in won]
    summary: dict[str, Any] = {
        "games": len(rows),
        "best_wins": sum(r["best_won"] for r in rows),
        "efficient_wins": len(won),
        "same_outcome": sum(r["best_won"] == r["efficient_won"] for r in rows),
        "same_guesses": sum(r["same_guesses"] for r in rows),
        "mean_bbbv": mean([r["bbbv"] for r in won]),
        "mean_clicks": mean([r["clicks"] for r in won]),
        "mean_left": mean([r["left"] for r in won]),
        "mean_right": mean([r["right"] for r in won]),
        "mean_chords": mean([r["chords"] for r in won]),
        "mean_efficiency": mean(efficiencies),
        "efficiency_95_halfwidth": halfwidth(efficiencies),
        "mean_plain_efficiency": mean([r["bbbv"] / r["plain_clicks"] for r in won]),
        "mean_zini_efficiency": mean([r["bbbv"] / r["zini"] for r in won]),
    }
    if all("min_clicks" in r for r in won):
        proved = [r for r in won if r["optimal"]]
        summary.update(
            {
                "mean_best_found_efficiency": mean([r["bbbv"] / r["min_clicks"] for r in won]),
                "mean_bound_efficiency": mean([r["bbbv"] / r["lower_bound"] for r in won]),
                "proved": len(proved),
                "mean_efficiency_proved": mean([r["bbbv"] / r["clicks"] for r in proved]),
                "mean_optimum_efficiency_proved": mean(
                    [r["bbbv"] / r["min_clicks"] for r in proved]
                ),
                "mean_clicks_above_best_found": mean([r["clicks"] - r["min_clicks"] for r in won]),
                "mean_clicks_above_lower_bound": mean(
                    [r["clicks"] - r["lower_bound"] for r in won]
                ),
            }
        )
    summary.update(
        {
            "never_above_plain": all(r["clicks"] <= r["plain_clicks"] for r in won),
            "play_seconds_best": round(play_seconds[0], 2),
            "play_seconds_efficient": round(play_seconds[1], 2),
            "wall_seconds": round(wall, 1),
        }
    )
    return summary


def tiny(boards: int, seed: int) -> dict[str, Any]:
    """Tiny boards cleared without a guess: the clicks against the exhaustive minimum."""
    tests = Path(__file__).resolve().parent.parent / "tests"
    sys.path[:0] = [str(tests)]
    from game.test_clicks import fewest_clicks_by_dijkstra

    rng = random.Random(seed)
    gaps: list[int] = []
    gaps_any: list[int] = []
    tried = 0
    while len(gaps) < boards:
        tried += 1
        w, h = rng.choice([(4, 4), (5, 4), (4, 5), (5, 5)])
        layout = random_layout(Level(w, h, rng.randint(2, 5)), rng, (0, 0), "safe")
        played = play(EfficientPlayer(fast_best()), layout, (0, 0), 0)
        if played.guesses or not played.won:
            continue
        gaps.append(played.clicks - fewest_clicks_by_dijkstra(layout, (0, 0)))
        gaps_any.append(played.clicks - fewest_clicks_by_dijkstra(layout))
    return {
        "boards": boards,
        "tried": tried,
        "seed": seed,
        "mean_above_minimum_same_first_click": round(statistics.fmean(gaps), 4),
        "at_minimum_same_first_click": gaps.count(0),
        "max_above_minimum_same_first_click": max(gaps),
        "mean_above_minimum_any_first_click": round(statistics.fmean(gaps_any), 4),
        "at_minimum_any_first_click": gaps_any.count(0),
    }


def paired(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two runs of ``--rows-out`` on the same games: the mean efficiency of each on the
    games both won, and the paired difference (second - first), each with the
    half-width of its 95% normal interval, in points."""
    rows = {r["index"]: r for r in first["rows"]}
    pairs = [
        (rows[r["index"]], r)
        for r in second["rows"]
        if r["efficient_won"] and r["index"] in rows and rows[r["index"]]["efficient_won"]
    ]

    def stats(values: list[float]) -> tuple[float, float]:
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
        return round(100 * statistics.fmean(values), 2), round(100 * half, 2)

    a = [x["bbbv"] / x["clicks"] for x, _ in pairs]
    b = [y["bbbv"] / y["clicks"] for _, y in pairs]
    diff = [y - x for x, y in zip(a, b, strict=True)]
    return {
        "games_both_won": len(pairs),
        "first": stats(a),
        "second": stats(b),
        "difference": stats(diff),
        "second_better": sum(d > 0 for d in diff),
        "second_worse": sum(d < 0 for d in diff),
        "cpu_seconds": [first.get("cpu_seconds_efficient"), second.get("cpu_seconds_efficient")],
    }


def table(stored: dict[str, Any]) -> str:
    """The documentation's table from the stored results."""
    lines = [
        "| level | games | wins (best, efficient) | same guesses | mean 3BV "
        "| efficient | plain left clicks | ZiNi | fewest clicks (best found) | lower bound "
        "| proved | on the proved: efficient / optimum |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in ("beginner", "intermediate", "expert"):
        if name not in stored:
            continue
        s = stored[name]["summary"]

        def pct(x: float) -> str:
            return f"{100 * x:.1f}%"

        size = PRESETS[name]
        lines.append(
            f"| {name} ({size.width}x{size.height}/{size.mines}) | {s['games']} | "
            f"{s['best_wins']}, "
            f"{s['efficient_wins']} | {s['same_guesses']} | "
            f"{s['mean_bbbv']:.1f} | {pct(s['mean_efficiency'])} | "
            f"{pct(s['mean_plain_efficiency'])} | {pct(s['mean_zini_efficiency'])} | "
            f"{pct(s['mean_best_found_efficiency'])} | {pct(s['mean_bound_efficiency'])} | "
            f"{s['proved']} | {pct(s['mean_efficiency_proved'])} / "
            f"{pct(s['mean_optimum_efficiency_proved'])} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", choices=["beginner", "intermediate", "expert"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--work", type=int, default=DEFAULT_WORK, help="SAT conflicts a board")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--save", action="store_true")
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--tiny", type=int, default=0, metavar="N")
    parser.add_argument(
        "--told-digits", action="store_true", help="diagnostic: efficient told the digits"
    )
    parser.add_argument(
        "--no-min-clicks", action="store_true", help="skip the fewest clicks (not with --save)"
    )
    parser.add_argument(
        "--lookahead",
        metavar="K=V,...",
        help="play efficient-lookahead with these settings (samples=8,horizon=8,...)",
    )
    parser.add_argument("--rows-out", metavar="FILE", help="write the run (rows) as JSON")
    parser.add_argument(
        "--paired", nargs=2, metavar="FILE", help="compare two --rows-out runs game by game"
    )
    args = parser.parse_args()
    if args.paired:
        runs = [json.loads(Path(f).read_text()) for f in args.paired]
        print(json.dumps(paired(*runs), indent=1))
        return
    stored: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    if args.table:
        print(table({k: v for k, v in stored.items() if k != "tiny"}))
        print(json.dumps(stored.get("tiny"), indent=1))
        return
    if args.tiny:
        found = tiny(args.tiny, args.seed)
        print(json.dumps(found, indent=1))
        if args.save:
            stored = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
            stored["tiny"] = found
            RESULTS.write_text(json.dumps(stored, indent=1) + "\n")
        return
    if args.save and (args.no_min_clicks or args.told_digits or args.lookahead):
        parser.error(
            "--save stores the player's own figures: drop --no-min-clicks, --told-digits, "
            "--lookahead"
        )
    told = None
    if args.told_digits:
        told = ToldDigits()
        efficient_module.analyze_after = told  # type: ignore[attr-defined,assignment]
    lookahead = None
    if args.lookahead is not None:
        lookahead = {
            k: float(v) if k in ("rest", "margin", "z", "flag_credit") else int(v)
            for k, _, v in (item.partition("=") for item in args.lookahead.split(",") if item)
        }
    result = run_level(
        args.level, args.games, args.work, args.seed, not args.no_min_clicks, told, lookahead
    )
    print(json.dumps(result["summary"], indent=1))
    if args.rows_out:
        Path(args.rows_out).write_text(json.dumps(result, indent=1) + "\n")
    if args.save:
        stored = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        stored[args.level] = result
        RESULTS.write_text(json.dumps(stored, indent=1) + "\n")


if __name__ == "__main__":
    main()
