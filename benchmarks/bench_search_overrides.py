"""Why ``search`` does not beat ``best`` on expert: where it leaves ``best``'s guess, what
that does to the games, and how noisy its rollouts are.

Two parts, each resumable from its state file:

``games``: games ``first ..`` of the paired expert run (seed 1, first click safe in the
corner: the layouts and player seeds of ``benchmarks/results/search_expert_20k.json``)
played move by move by ``search:book=off`` (the player of that run: the book came later),
each guess's reason read: ``best``'s heuristic kept (a guess ``search`` may have valued)
or a rollout's move (``search`` left ``best``'s guess). ``best``'s outcome of each game is
read from the stored run; where ``search`` never left ``best``'s guess it played
``best``'s very game, so the two outcomes must be equal there (checked), and ``search``'s
outcomes must be those of the stored run (checked). Some heuristic-guess positions are
kept for the second part.

``noise``: on positions kept by ``games`` (one per game at most, drawn with a fixed seed),
the candidates ``search`` values (``best``'s guess, then the cells within 0.05 of the
lowest mine probability, deep cells once per class, four in all) are played out on the
same layouts drawn exactly uniformly (``minesolver._native.book_rollouts``, common random
numbers) by ``greedy`` (``search``'s rollout player) and by ``best`` (the player that
actually plays on): per position, each candidate's mean, the paired difference of the
top two and its standard deviation per layout, the correlation of two candidates'
outcomes on a layout, and whether ``greedy`` and ``best`` rank the same cell first.

    .venv/bin/python benchmarks/bench_search_overrides.py games --games 2000 \\
        --state /tmp/overrides.json --out benchmarks/results/search_overrides.json
    .venv/bin/python benchmarks/bench_search_overrides.py noise --positions 40 \\
        --greedy 512 --best 512 --state /tmp/overrides.json \\
        --out benchmarks/results/search_noise.json

Cost: ``games`` is ``search``'s own (about 0.1 s of one core an expert game);
``noise`` is positions x candidates x (``greedy`` rollouts x ~1.4 ms + ``best`` rollouts
x ~6 ms).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minesolver._native as _native
from minesolver.analysis import analyze
from minesolver.game import Level
from minesolver.position import Position
from minesolver.simulate import Setup
from minesolver.simulate.playing import apply_moves, start_game
from minesolver.strategy import get_player
from minesolver.strategy.reasons import Rollout, Safety

STORED = Path(__file__).parent / "results" / "search_expert_20k.json"
EXPERT = Level(30, 16, 99)
PLAYER = "search:book=off"
FLAG = 254  # a flag in Position.raw()


def _stored() -> dict[str, str]:
    run = json.loads(STORED.read_text(encoding="utf-8"))["expert-safe-0,0+search"]
    return {name: r["outcomes"] for name, r in run["results"].items()}


def games(args: argparse.Namespace) -> None:
    """Part one: ``search``'s guesses game by game (see the module)."""
    setup = Setup(EXPERT, "safe", (0, 0), (PLAYER,), 1)
    stored = _stored()
    state: dict[str, Any] = {"games": [], "cpu_seconds": 0.0}
    if args.state.exists():
        state = json.loads(args.state.read_text(encoding="utf-8"))
    player = get_player(PLAYER)
    began = time.process_time()
    while len(state["games"]) < args.games:
        index = args.first + len(state["games"])
        game = start_game(setup, index, player)
        kept = overrides = 0
        first_override = None
        positions = []
        guesses = 0
        while not game.over:
            view = game.view()
            moves = player.next_moves(view)
            last = moves[-1] if moves else None
            if last is not None and last.guess:
                guesses += 1
                if isinstance(last.reason, Rollout):
                    overrides += 1
                    if first_override is None:
                        first_override = guesses
                elif isinstance(last.reason, Safety):  # SecondMove included
                    kept += 1
                if isinstance(last.reason, Rollout | Safety) and first_override in (
                    None,
                    guesses,
                ):
                    # a position of best's own game where best guesses by its heuristic
                    positions.append(view.to_text())
            apply_moves(game, moves, PLAYER)
        won = game.outcome.won
        state["games"].append(
            {
                "index": index,
                "won": won,
                "best_won": stored["best"][index] == "1",
                "stored_search_won": stored["search"][index] == "1",
                "heuristic_kept": kept,
                "overrides": overrides,
                "first_override": first_override,
                "positions": positions,
            }
        )
        if len(state["games"]) % 50 == 0 or len(state["games"]) == args.games:
            state["cpu_seconds"] += time.process_time() - began
            began = time.process_time()
            args.state.write_text(json.dumps(state), encoding="utf-8")
            print(f"{len(state['games'])}/{args.games}", file=sys.stderr, flush=True)
    print(json.dumps(summary(state), indent=1))
    if args.out is not None:
        result = {
            f"expert-safe-0,0+{PLAYER}": {
                "seed": 1,
                "first_game": args.first,
                "player": PLAYER,
                "summary": summary(state),
                "overridden_games": [
                    {k: g[k] for k in ("index", "won", "best_won", "overrides", "first_override")}
                    for g in state["games"]
                    if g["overrides"]
                ],
                "command": f"python benchmarks/bench_search_overrides.py games --games "
                f"{args.games} --state STATE --out OUT",
            }
        }
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def summary(state: dict[str, Any]) -> dict[str, Any]:
    """The figures of part one."""
    rows = state["games"]
    mismatched = [g["index"] for g in rows if g["won"] != g["stored_search_won"]]
    untouched = [g for g in rows if g["overrides"] == 0]
    touched = [g for g in rows if g["overrides"] > 0]
    differ = [g["index"] for g in untouched if g["won"] != g["best_won"]]
    first = [g for g in touched if g["first_override"] == 1]
    return {
        "games": len(rows),
        "cpu_seconds": round(state["cpu_seconds"], 1),
        "search_outcomes_equal_to_stored_run": not mismatched,
        "mismatched": mismatched[:20],
        "untouched_games_equal_to_best": not differ,
        "heuristic_guesses": sum(g["heuristic_kept"] + g["overrides"] for g in rows),
        "overrides": sum(g["overrides"] for g in rows),
        "games_with_override": len(touched),
        "games_with_override_at_first_guess": len(first),
        "in_games_with_override": {
            "best_wins": sum(g["best_won"] for g in touched),
            "search_wins": sum(g["won"] for g in touched),
            "best_only": sum(g["best_won"] and not g["won"] for g in touched),
            "search_only": sum(g["won"] and not g["best_won"] for g in touched),
        },
        "in_games_without": {
            "games": len(untouched),
            "wins": sum(g["won"] for g in untouched),
        },
    }


def _candidates(position: Position, guess: int, margin: float, most: int) -> list[int]:
    """``search``'s candidates (``Search::candidates``): ``best``'s guess, then the cells
    within ``margin`` of the lowest probability, lowest first, deep cells once per class
    (a cell none of whose neighbours is a digit or touches one, classed by its closed and
    flagged neighbours)."""
    probabilities = analyze(position).probabilities
    cells = sorted((float(p), position.index(c)) for c, p in probabilities.items() if 0 < p < 1)
    if not cells:
        return [guess]
    low = cells[0][0]
    raw = position.raw()
    neighbours = position.neighbour_indices()
    near = [False] * len(raw)
    for i, v in enumerate(raw):
        if v <= 8:
            near[i] = True
            for j in neighbours[i]:
                near[j] = True
    seen: set[tuple[int, int]] = set()
    out = [guess]
    for p, c in cells:
        if p > low + margin or len(out) >= most:
            break
        signature = None
        if not near[c] and not any(near[j] and raw[j] != FLAG for j in neighbours[c]):
            flags = sum(1 for j in neighbours[c] if raw[j] == FLAG)
            signature = (len(neighbours[c]) - flags, flags)
        if signature is not None:
            if signature in seen:
                continue
            seen.add(signature)
        if c != guess:
            out.append(c)
    return out


def _position_figures(
    position: Position, cells: list[int], player: str, count: int, seed: int
) -> dict[str, Any]:
    """Each candidate played out by ``player`` on the same ``count`` drawn layouts."""
    mines = position.mines
    assert mines is not None
    began = time.process_time()
    won = _native.book_rollouts(
        list(position.raw()),
        position.width,
        position.height,
        mines,
        cells,
        player,
        seed,
        0,
        count,
    )
    means = [sum(w) / count for w in won]
    order = sorted(range(len(cells)), key=lambda k: -means[k])
    top, second = order[0], order[1]
    diffs = [int(a) - int(b) for a, b in zip(won[top], won[second], strict=True)]
    mean_d = sum(diffs) / count
    sd = math.sqrt(sum((d - mean_d) ** 2 for d in diffs) / (count - 1))
    vs_best = [int(a) - int(b) for a, b in zip(won[top], won[0], strict=True)]
    mean_b = sum(vs_best) / count
    sd_b = math.sqrt(sum((d - mean_b) ** 2 for d in vs_best) / (count - 1))

    def corr(a: list[bool], b: list[bool]) -> float | None:
        ma, mb = sum(a) / count, sum(b) / count
        va, vb = ma * (1 - ma), mb * (1 - mb)
        if va == 0 or vb == 0:
            return None
        cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)) / count
        return cov / math.sqrt(va * vb)

    return {
        "means": means,
        "leader": cells[top],
        "top_two_difference": mean_d,
        "top_two_sd_per_layout": sd,
        "leader_minus_best_guess": mean_b,
        "leader_minus_best_guess_sd": sd_b,
        "discordant_leader_vs_best_guess": sum(1 for d in vs_best if d != 0),
        "correlation_best_guess_second": corr(won[0], won[1]),
        "cpu_seconds": round(time.process_time() - began, 2),
        "outcomes": ["".join("1" if x else "0" for x in w) for w in won],
    }


def noise(args: argparse.Namespace) -> None:
    """Part two: the rollouts' noise against the differences they must see."""
    state = json.loads(args.state.read_text(encoding="utf-8"))
    # one position per game, drawn among its heuristic guesses (the game's first guess
    # left out with --skip-first: on expert it is most often one of three positions)
    pick = random.Random(args.seed)
    pool, seen = [], set()
    for g in state["games"]:
        texts = g["positions"][1:] if args.skip_first else g["positions"]
        if texts:
            text = pick.choice(texts)
            if text not in seen:
                seen.add(text)
                pool.append((g["index"], text))
    pick.shuffle(pool)
    out: dict[str, Any] = {"positions": []}
    if args.out is not None and args.out.exists():
        out = json.loads(args.out.read_text(encoding="utf-8"))
    done = {r["game"] for r in out["positions"]}
    best = get_player("best")
    for index, text in pool[: args.positions]:
        if index in done:
            continue
        position = Position.from_text(text)
        best.reset(random.Random(index))
        guess = best.next_moves(position)[-1]
        if not guess.guess:
            continue
        cells = _candidates(position, position.index(guess.cell), 0.05, 4)
        if len(cells) < 2:
            out["positions"].append({"game": index, "candidates": 1})
            continue
        row: dict[str, Any] = {
            "game": index,
            "candidates": len(cells),
            "cells": cells,
            "best_reason": type(guess.reason).__name__,
            "greedy": _position_figures(position, cells, "greedy", args.greedy, index),
        }
        if args.best:
            row["best"] = _position_figures(position, cells, "best", args.best, index)
        out["positions"].append(row)
        if args.out is not None:
            args.out.write_text(json.dumps(out, indent=1), encoding="utf-8")
        print(f"{len(out['positions'])} positions", file=sys.stderr, flush=True)
    races = [race_on_paper(out, n, c) for c in ("greedy", "best") for n in (64, 128, 256)]
    print(json.dumps({**noise_summary(out), "held_out": held_out(out), "races": races}, indent=1))


def noise_summary(out: dict[str, Any]) -> dict[str, Any]:
    """The figures of part two, over its positions."""
    rows = [r for r in out["positions"] if r["candidates"] > 1]

    def median(xs: list[float]) -> float | None:
        xs = sorted(xs)
        return xs[len(xs) // 2] if xs else None

    result: dict[str, Any] = {
        "positions": len(out["positions"]),
        "with_candidates": len(rows),
    }
    for player in ("greedy", "best"):
        have = [r[player] for r in rows if player in r]
        if not have:
            continue
        result[player] = {
            "positions": len(have),
            "median_abs_top_two_difference": median([abs(h["top_two_difference"]) for h in have]),
            "median_sd_per_layout": median([h["top_two_sd_per_layout"] for h in have]),
            "median_abs_leader_minus_best_guess": median(
                [abs(h["leader_minus_best_guess"]) for h in have]
            ),
            "median_sd_leader_vs_best_guess": median(
                [h["leader_minus_best_guess_sd"] for h in have]
            ),
            "median_correlation": median(
                [
                    h["correlation_best_guess_second"]
                    for h in have
                    if h["correlation_best_guess_second"] is not None
                ]
            ),
            "leader_is_best_guess": sum(
                1 for r in rows if player in r and r[player]["leader"] == r["cells"][0]
            ),
        }
    both = [r for r in rows if "best" in r]
    result["greedy_and_best_same_leader"] = sum(
        1 for r in both if r["greedy"]["leader"] == r["best"]["leader"]
    )
    result["both"] = len(both)
    return result


def held_out(out: dict[str, Any]) -> dict[str, Any]:
    """The race ``search`` makes, with enough rollouts to see what it is worth: on each
    position, the leader among the other candidates is chosen by ``greedy`` on the first
    half of the layouts, then set against ``best``'s guess on the second half (fresh
    layouts), played on by ``greedy`` and by ``best`` (the same layouts). Its mean gain
    over the positions, with the standard error across them, is what leaving ``best``'s
    guess for the greedy leader is worth; the spread of the true differences is the
    spread of the observed ones less the rollouts' own noise (method of moments)."""
    rows = [r for r in out["positions"] if r["candidates"] > 1 and "best" in r]
    # (chooser, judge): the leader chosen by one player's rollouts on the first half,
    # judged by the other's (or its own) on the second half
    pairs = [("greedy", "greedy"), ("greedy", "best"), ("best", "best")]
    gains: dict[str, list[float]] = {f"{c}->{j}": [] for c, j in pairs}
    noise_var: dict[str, list[float]] = {f"{c}->{j}": [] for c, j in pairs}
    for r in rows:
        wins = {p: [[c == "1" for c in w] for w in r[p]["outcomes"]] for p in ("greedy", "best")}
        for chooser, judge in pairs:
            g, w = wins[chooser], wins[judge]
            half = min(len(g[0]), len(w[0])) // 2
            leader = max(range(1, len(g)), key=lambda k: (sum(g[k][:half]), -k))
            d = [int(a) - int(b) for a, b in zip(w[leader][half:], w[0][half:], strict=True)]
            mean = sum(d) / len(d)
            var = sum((x - mean) ** 2 for x in d) / max(1, len(d) - 1)
            gains[f"{chooser}->{judge}"].append(mean)
            noise_var[f"{chooser}->{judge}"].append(var / len(d))
    result: dict[str, Any] = {"positions": len(rows)}
    for player, xs in gains.items():
        if not xs:
            continue
        k = len(xs)
        mean = sum(xs) / k
        spread = sum((x - mean) ** 2 for x in xs) / max(1, k - 1)
        noise = sum(noise_var[player]) / k
        result[player] = {
            "mean_gain_of_leader": mean,
            "se": math.sqrt(spread / k),
            "observed_sd_across_positions": math.sqrt(spread),
            "rollout_noise_sd": math.sqrt(noise),
            "true_sd_estimate": math.sqrt(max(0.0, spread - noise)),
        }
    return result


def race_on_paper(
    out: dict[str, Any], rollouts: int, chooser: str = "greedy", repeats: int = 200
) -> dict[str, Any]:
    """``search``'s race (``Search::choose``) replayed on the stored outcomes, at a budget
    of ``rollouts``: the leader among the other candidates by ``chooser``'s wins on
    ``rollouts / 2 / others`` layouts, then the leader against ``best``'s guess on
    ``rollouts / 4`` fresh ones, ``best``'s guess left past the one-sided sign test at
    0.05; the layouts drawn (``repeats`` times a position, a fixed seed) from the first
    half of the stored ones, and what a change is worth judged by ``best``'s outcomes on
    the second half (independent of the decision). Returns how often the race leaves
    ``best``'s guess and the mean gain a valued guess, in win probability."""
    from math import comb

    def sign_p(ahead: int, behind: int) -> float:
        n = ahead + behind
        return sum(comb(n, k) for k in range(ahead, n + 1)) / 2**n if n else 1.0

    rng = random.Random(1)
    rows = [r for r in out["positions"] if r["candidates"] > 1 and "best" in r]
    moved = 0
    gain = 0.0
    tried = 0
    for r in rows:
        g = [[c == "1" for c in w] for w in r[chooser]["outcomes"]]
        judge = [[c == "1" for c in w] for w in r["best"]["outcomes"]]
        half = min(len(g[0]), len(judge[0])) // 2
        others = list(range(1, len(g)))
        n = max(1, rollouts // 2 // len(others))
        m = max(1, rollouts // 4)
        truth = [sum(w[half:]) / (len(w) - half) for w in judge]
        for _ in range(repeats):
            tried += 1
            picked = rng.sample(range(half), min(half, n + m))
            sel, fresh = picked[:n], picked[n:]
            leader = max(others, key=lambda k: (sum(g[k][j] for j in sel), -k))
            ahead = sum(1 for j in fresh if g[leader][j] and not g[0][j])
            behind = sum(1 for j in fresh if g[0][j] and not g[leader][j])
            if sign_p(ahead, behind) <= 0.05:
                moved += 1
                gain += truth[leader] - truth[0]
    return {
        "rollouts": rollouts,
        "chooser": chooser,
        "valued_guesses": tried,
        "left_best_guess": moved / max(1, tried),
        "mean_gain_per_valued_guess": gain / max(1, tried),
        "mean_gain_per_change": gain / max(1, moved),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="part", required=True)
    g = sub.add_parser("games")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--first", type=int, default=0)
    g.add_argument("--state", type=Path, required=True)
    g.add_argument("--out", type=Path, default=None)
    n = sub.add_parser("noise")
    n.add_argument("--positions", type=int, default=40)
    n.add_argument("--greedy", type=int, default=512)
    n.add_argument("--best", type=int, default=256)
    n.add_argument("--seed", type=int, default=1)
    n.add_argument("--skip-first", action="store_true")
    n.add_argument("--state", type=Path, required=True)
    n.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.part == "games":
        games(args)
    else:
        noise(args)


if __name__ == "__main__":
    main()
