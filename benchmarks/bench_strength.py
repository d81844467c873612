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
figures. ``--workers`` processes (default 1: the machine may be shared). ``--table`` prints
the stored results as tables; ``--table --docs`` also writes them into the documentation's
strength page.

    .venv/bin/python benchmarks/bench_strength.py --level expert --games 5000 \
        --players greedy,pseq,best --seed 1 --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.docs_tables import STRENGTH, write_section
from minesolver.game import check_rule, parse_level, parse_start
from minesolver.simulate import BenchResult, GameRecord, make_setup, simulate, summarise
from minesolver.simulate.stats import mcnemar_exact, wilson_interval

RESULTS = Path(__file__).parent / "results" / "strength.json"
LEVELS = {"beginner": "9x9x10", "intermediate": "16x16x40", "expert": "30x16x99"}


def table(path: Path = RESULTS) -> str:
    """The results file as a markdown table (for the documentation), then the paired tests."""
    data = json.loads(path.read_text())
    rows = [
        "| configuration | player | games | wins | win rate | 95% CI | guesses/game "
        "| games/s (CPU) |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    pairs = [
        "| configuration | a | b | a only | b only | McNemar p |",
        "| --- | --- | --- | ---: | ---: | ---: |",
    ]
    for key, rec in data.items():
        for name, r in rec["results"].items():
            lo, hi = r["ci95"]
            rows.append(
                f"| {key} | {name} | {r['games']} | {r['wins']} | {100 * r['win_rate']:.2f}% "
                f"| {100 * lo:.2f}-{100 * hi:.2f}% | {r['guesses_per_game']:.2f} "
                f"| {r['games_per_second']:.1f} |"
            )
        for p in rec["paired"]:
            pairs.append(
                f"| {key} | {p['a']} | {p['b']} | {p['a_only']} | {p['b_only']} "
                f"| {p['p_value']:.3g} |"
            )
        base = key.split("+")[0]
        if base != key and base in data:  # a run on the same layouts as ``base``
            for a, ra in data[base]["results"].items():
                for b, rb in rec["results"].items():
                    n = min(len(ra["outcomes"]), len(rb["outcomes"]))
                    a_only = sum(
                        x > y for x, y in zip(ra["outcomes"][:n], rb["outcomes"][:n], strict=True)
                    )
                    b_only = sum(
                        x < y for x, y in zip(ra["outcomes"][:n], rb["outcomes"][:n], strict=True)
                    )
                    pairs.append(
                        f"| {base} (first {n} games) | {a} | {b} | {a_only} "
                        f"| {b_only} | {mcnemar_exact(a_only, b_only):.3g} |"
                    )
    return "\n".join(rows) + "\n\n" + "\n".join(pairs) + "\n\n" + pooled(data)


def pooled(data: dict[str, Any]) -> str:
    """Every player's games pooled over the runs of one board, first-click rule and start
    (different seeds, or different game ranges of one seed: never a game twice; a run that
    overlaps one already counted is left out and named), as a markdown table."""
    totals: dict[tuple[str, str, str, str], list[int]] = {}  # -> [games, wins]
    spans: dict[tuple[str, str, str, str], list[tuple[int, int, int]]] = {}
    overlapping: list[str] = []
    for key, rec in data.items():
        board = (rec["level"], rec["first_click"], ",".join(map(str, rec["start"])))
        for name, r in rec["results"].items():
            group = (*board, name)
            span = (rec["seed"], rec.get("first_game", 0), rec.get("first_game", 0) + r["games"])
            if any(
                seed == span[0] and lo < span[2] and span[1] < hi
                for seed, lo, hi in spans.get(group, [])
            ):
                overlapping.append(f"{key} ({name})")
                continue
            spans.setdefault(group, []).append(span)
            total = totals.setdefault(group, [0, 0])
            total[0] += r["games"]
            total[1] += r["wins"]
    rows = [
        "| board | first click | player | runs | games | wins | win rate | 95% CI |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for group, (games, wins) in totals.items():
        level, rule, start, name = group
        lo, hi = wilson_interval(wins, games)
        rows.append(
            f"| {level} | {rule} ({start}) | {name} | {len(spans[group])} "
            f"| {games} | {wins} | {100 * wins / games:.2f}% "
            f"| {100 * lo:.2f}-{100 * hi:.2f}% |"
        )
    if overlapping:
        rows.append("")
        rows.append(
            "Left out of the pooled figures (games already counted): " + ", ".join(overlapping)
        )
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    if argv is None and sys.argv[1:2] == ["--table"]:
        text = table()
        print(text, end="")
        if "--docs" in sys.argv[2:]:  # and into the documentation's strength page
            write_section(STRENGTH, "strength", text)
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
    ap.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="play games FIRST.. of the seeded run (to extend an earlier run)",
    )
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--key", default=None, help="result key (default: level-rule-start)")
    args = ap.parse_args(argv)
    level = parse_level(LEVELS.get(args.level, args.level))
    rule = check_rule(args.first_click)
    start = parse_start(args.start, level.width, level.height)
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    key = args.key or f"{args.level}-{rule}-{start[0]},{start[1]}"
    setup, _ = make_setup(
        level=LEVELS.get(args.level, args.level),
        first_click=args.first_click,
        start=args.start,
        players=names,
        seed=args.seed,
    )
    records: list[GameRecord] = []

    def save() -> BenchResult:
        # the simulator's own totals, intervals and McNemar tests, over every game so far
        run = summarise(setup, key, records, 0.0, args.workers)
        results = {
            n: {
                "games": r.games,
                "wins": r.wins,
                "win_rate": r.win_rate,
                "ci95": list(r.ci95),
                "guesses_per_game": r.guesses_per_game,
                "games_per_second": r.games_per_second_per_core,
                "cpu_seconds": r.seconds,
                "outcomes": "".join("1" if g.wins[i] else "0" for g in run.records),
            }
            for i, (n, r) in enumerate(run.results.items())
        }
        paired = [
            {"a": p.a, "b": p.b, "a_only": p.a_only, "b_only": p.b_only, "p_value": p.p_value}
            for p in run.paired
        ]
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
        return run

    done = 0
    while done < args.games:
        chunk = min(args.save_every, args.games - done)
        result = simulate(setup, chunk, workers=args.workers, first_game=args.first_game + done)
        records.extend(result.records)
        done += chunk
        run = save()
        line = ", ".join(
            f"{n} {r.wins}/{done} ({r.games_per_second_per_core:.1f} g/s)"
            for n, r in run.results.items()
        )
        print(f"[{key}] {line}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
