"""Players' strength, paired: every player meets the same layouts.

Plays ``--games`` games per player through the simulator (:func:`minesolver.simulate.
simulate`, the seeding of ``minesolver bench``: the same ``--seed`` gives the same boards
there), and reports each player's win rate with its 95% Wilson interval, guesses per
game, games per second of one core, and McNemar's exact test for every pair.
``best-no-X`` is ``best`` without ingredient ``X`` (endgame, fifty, dead, dominance,
second), ``best:field=value`` a setting of it, to measure what each adds.

Results are merged into ``benchmarks/results/strength.json`` under a key naming the
configuration (``expert-safe-0,0``; a key ``BASE+more`` marks another run on the layouts
of ``BASE``, paired with it game by game through the stored ``outcomes`` strings),
rewritten every ``--save-every`` games so that a long run stopped early still leaves its
figures. ``--workers`` processes (default 1: the machine may be shared).

    .venv/bin/python benchmarks/bench_strength.py --level expert --games 5000 \
        --players greedy,pseq,best --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from minesolver.game import check_rule, parse_level, parse_start
from minesolver.simulate import make_setup, simulate
from minesolver.stats import mcnemar_exact, wilson_interval
from minesolver.strategy import get_strategy

RESULTS = Path(__file__).parent / "results" / "strength.json"
LEVELS = {"beginner": "9x9x10", "intermediate": "16x16x40", "expert": "30x16x99"}


def summary(wins: list[bool], guesses: int, seconds: float) -> dict[str, Any]:
    n, w = len(wins), sum(wins)
    lo, hi = wilson_interval(w, n)
    return {
        "games": n,
        "wins": w,
        "win_rate": w / n if n else 0.0,
        "ci95": [lo, hi],
        "guesses_per_game": guesses / n if n else 0.0,
        "games_per_second": n / seconds if seconds else 0.0,
        "cpu_seconds": seconds,
        "outcomes": "".join("1" if won else "0" for won in wins),
    }


def table(path: Path = RESULTS) -> str:
    """The results file as a markdown table (for the README), then the paired tests."""
    data = json.loads(path.read_text())
    rows = ["| configuration | player | games | wins | win rate | 95% CI | guesses/game "
            "| games/s (CPU) |", "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |"]
    pairs = ["| configuration | a | b | a only | b only | McNemar p |",
             "| --- | --- | --- | ---: | ---: | ---: |"]
    for key, rec in data.items():
        for name, r in rec["results"].items():
            lo, hi = r["ci95"]
            rows.append(
                f"| {key} | {name} | {r['games']} | {r['wins']} | {100 * r['win_rate']:.2f}% "
                f"| {100 * lo:.2f}-{100 * hi:.2f}% | {r['guesses_per_game']:.2f} "
                f"| {r['games_per_second']:.1f} |"
            )
        for p in rec["paired"]:
            pairs.append(f"| {key} | {p['a']} | {p['b']} | {p['a_only']} | {p['b_only']} "
                         f"| {p['p_value']:.3g} |")
        base = key.split("+")[0]
        if base != key and base in data:  # a run on the same layouts as ``base``
            for a, ra in data[base]["results"].items():
                for b, rb in rec["results"].items():
                    n = min(len(ra["outcomes"]), len(rb["outcomes"]))
                    a_only = sum(x > y for x, y in zip(ra["outcomes"][:n], rb["outcomes"][:n],
                                                       strict=True))
                    b_only = sum(x < y for x, y in zip(ra["outcomes"][:n], rb["outcomes"][:n],
                                                       strict=True))
                    pairs.append(f"| {base} (first {n} games) | {a} | {b} | {a_only} "
                                 f"| {b_only} | {mcnemar_exact(a_only, b_only):.3g} |")
    return "\n".join(rows) + "\n\n" + "\n".join(pairs) + "\n"


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["--table"]:
        print(table(), end="")
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--level", default="expert")
    ap.add_argument("--first-click", default="safe")
    ap.add_argument("--start", default="corner")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", default="greedy,pseq,best")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save-every", type=int, default=100)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--first-game", type=int, default=0,
                    help="play games FIRST.. of the seeded run (to extend an earlier run)")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--key", default=None, help="result key (default: level-rule-start)")
    args = ap.parse_args(argv)
    level = parse_level(LEVELS.get(args.level, args.level))
    rule = check_rule(args.first_click)
    start = parse_start(args.start, level.width, level.height)
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    for name in names:
        get_strategy(name)  # an unknown name fails now
    key = args.key or f"{args.level}-{rule}-{start[0]},{start[1]}"
    wins: dict[str, list[bool]] = {n: [] for n in names}
    guesses = dict.fromkeys(names, 0)
    seconds = dict.fromkeys(names, 0.0)

    def save() -> None:
        results = {n: summary(wins[n], guesses[n], seconds[n]) for n in names}
        paired = []
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                a_only = sum(x and not y for x, y in zip(wins[a], wins[b], strict=True))
                b_only = sum(y and not x for x, y in zip(wins[a], wins[b], strict=True))
                paired.append(
                    {
                        "a": a,
                        "b": b,
                        "a_only": a_only,
                        "b_only": b_only,
                        "p_value": mcnemar_exact(a_only, b_only),
                    }
                )
        record = {
            "level": str(level),
            "first_click": rule,
            "start": list(start),
            "seed": args.seed,
            "first_game": args.first_game,
            "results": results,
            "paired": paired,
            "command": "benchmarks/bench_strength.py " + " ".join(argv or sys.argv[1:]),
            "note": "games_per_second: games per second of one core, timed inside each game",
        }
        data: dict[str, Any] = {}
        if args.out.exists():
            data = json.loads(args.out.read_text())
        data[key] = record
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=2) + "\n")

    setup, _ = make_setup(
        level=LEVELS.get(args.level, args.level), first_click=args.first_click,
        start=args.start, strategies=names, seed=args.seed,
    )
    done = 0
    while done < args.games:
        chunk = min(args.save_every, args.games - done)
        result = simulate(setup, chunk, workers=args.workers, first_game=args.first_game + done)
        for record in sorted(result.records, key=lambda r: r.index):
            for name, won, g, sec in zip(
                names, record.wins, record.guesses, record.seconds, strict=True
            ):
                wins[name].append(won)
                guesses[name] += g
                seconds[name] += sec
        done += chunk
        save()
        line = ", ".join(
            f"{n} {sum(wins[n])}/{done} ({len(wins[n]) / max(seconds[n], 1e-9):.1f} g/s)"
            for n in names
        )
        print(f"[{key}] {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
