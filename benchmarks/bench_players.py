"""Players' win rates and speed, measured with the simulator (``minesolver.simulate``).

For each level and first-click setting, plays ``--games`` seeded games with every player
of ``--players`` on the same layouts (game ``i`` depends only on ``--seed`` and
``i``, whatever ``--workers``), in parts of ``--part`` games; after each part the totals
so far are merged into ``benchmarks/results/players.json`` under the key
``LEVEL/RULE/X,Y/PLAYER`` (and ``.../paired/A-vs-B``), so a long run stopped early still
leaves honest figures for the games it played.

    .venv/bin/python benchmarks/bench_players.py --levels expert,beginner \
        --players greedy --games 20000 --seed 1 --workers 2

Speed is the player's own time per game (games per second per core) and the wall-clock
rate; on a shared machine both are disturbed by other load.

``--speed`` measures instead, side by side in one run, each player's CPU time per expert
game (first click safe, in the corner) in units of ms-toollib's median CPU time to analyse
one mid-game expert position (``cal_probability_onboard``, measured in the same run,
before and after the players, on the positions of ``bench_exact.py``), and beside them
Tu et al.'s C++ PSEQ, built from its repository (``--tu-source``: a checkout or a git
directory; nothing of it is kept in ours) in a scratch folder, against Debian's Boost and
JSON headers, and run single-process on the same first-click rule::

    .venv/bin/python benchmarks/bench_players.py --speed --games 2000 \
        --players greedy,pseq,best --tu-source PATH [--docs]

``--docs`` writes the table into the Speed page of the documentation.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make ``benchmarks`` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from minesolver.simulate import BenchResult, GameRecord, make_setup, simulate, summarise

RESULTS = Path(__file__).parent / "results" / "players.json"


def _merge(path: Path, entries: dict[str, dict[str, object]]) -> None:
    data: dict[str, object] = {}
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
    data.update(entries)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def _entries(result: BenchResult, command: str, wall: float) -> dict[str, dict[str, object]]:
    setup = result.setup
    base = f"{result.level_name}/{setup.rule}/{setup.start[0]},{setup.start[1]}"
    note = {
        "command": command,
        "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; shared with other jobs (timings disturbed)",
        "wall_seconds": round(wall, 1),
    }
    out: dict[str, dict[str, object]] = {}
    for name in result.results:
        out[f"{base}/{name}"] = {**result.player_json(name), **note}
    for p in result.paired:
        out[f"{base}/paired/{p.a}-vs-{p.b}"] = {
            "a": p.a,
            "b": p.b,
            "games": result.games,
            "a_only": p.a_only,
            "b_only": p.b_only,
            "p_value": p.p_value,
            **note,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the measurements named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="expert,beginner")
    parser.add_argument("--players", default="greedy")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--part", type=int, default=1000, help="games between saves")
    parser.add_argument("--first-click", default="safe")
    parser.add_argument("--start", default="corner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--speed", action="store_true", help="CPU per game in ms-toollib units")
    parser.add_argument("--tu-source", type=Path, help="Tu et al.'s repository (for --speed)")
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/minesolver-tu-pseq"))
    parser.add_argument("--positions", type=int, default=100, help="ms-toollib's positions")
    parser.add_argument("--docs", action="store_true", help="write the table into the docs")
    args = parser.parse_args(argv)
    command = "python benchmarks/bench_players.py " + " ".join(argv or sys.argv[1:])
    if args.speed:
        return _speed(args, command)
    for level in args.levels.split(","):
        setup, _ = make_setup(
            level=level,
            first_click=args.first_click,
            start=args.start,
            players=args.players.split(","),
            seed=args.seed,
        )
        records: list[GameRecord] = []
        wall = 0.0
        while len(records) < args.games:
            count = min(args.part, args.games - len(records))
            part = simulate(setup, count, workers=args.workers, first_game=len(records))
            records += part.records
            wall += part.wall_seconds
            total = summarise(setup, part.level_name, records, wall, args.workers)
            _merge(args.out, _entries(total, command, wall))
            for name, r in total.results.items():
                lo, hi = r.ci95
                print(
                    f"{total.level_name} {setup.rule} {name}: {r.wins}/{r.games} = "
                    f"{100 * r.win_rate:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}], "
                    f"{r.guesses_per_game:.2f} guesses/game, "
                    f"{r.games_per_second:.1f} games/s, "
                    f"{r.games_per_second_per_core:.1f} games/s/core",
                    flush=True,
                )
    return 0


# -- --speed: CPU per game in ms-toollib units, beside Tu et al.'s C++ PSEQ ---------------

SPEED_RESULTS = Path(__file__).parent / "results" / "players_speed.json"
TU_CONFIG = "FL@[1,1]-PSEQ-30-16-T99-SFAR"
"""Tu et al.'s expert PSEQ with the first click safe in the corner (their 1-based [1,1])."""

_JSON_CMAKE = """cmake_minimum_required(VERSION 3.14)
project(nlohmann_json_local LANGUAGES CXX)
add_library(nlohmann_json INTERFACE)
add_library(nlohmann_json::nlohmann_json ALIAS nlohmann_json)
target_include_directories(nlohmann_json INTERFACE /usr/include)
"""
"""A stand-in for the JSON project their build fetches: Debian's headers
(``nlohmann-json3-dev``), so the build needs no network."""


def toollib_median_ms(seed: int, count: int, repeats: int = 3) -> float:
    """ms-toollib's median CPU milliseconds per mid-game expert position (min of repeats)."""
    import ms_toollib

    from benchmarks.bench_exact import ms_board
    from benchmarks.positions import expert_positions

    boards = [
        (ms_board(bp.position), float(bp.position.mines or 0))
        for bp in expert_positions(seed, count)
    ]
    ms_toollib.cal_probability_onboard(*boards[0])  # warm-up
    times = []
    for board, mines in boards:
        best = math.inf
        for _ in range(repeats):
            began = time.process_time_ns()
            ms_toollib.cal_probability_onboard(board, mines)
            best = min(best, (time.process_time_ns() - began) / 1e6)
        times.append(best)
    return statistics.median(times)


def build_tu(source: Path, scratch: Path) -> Path:
    """Build Tu et al.'s ``MineSweeperSolver`` from ``source`` (a checkout, or a git
    directory whose HEAD is taken) in ``scratch``; returns the binary (kept between
    runs)."""
    binary = scratch / "build" / "MineSweeperSolver"
    if binary.exists():
        return binary
    src, json_dir = scratch / "src", scratch / "json"
    src.mkdir(parents=True, exist_ok=True)
    json_dir.mkdir(exist_ok=True)
    (json_dir / "CMakeLists.txt").write_text(_JSON_CMAKE)
    if (source / "MineSweeperSolver" / "CMakeLists.txt").exists():
        shutil.copytree(source / "MineSweeperSolver", src / "MineSweeperSolver", dirs_exist_ok=True)
    else:  # a git directory (a mirror without a work tree)
        archive = subprocess.run(
            ["git", "--git-dir", str(source), "archive", "HEAD", "MineSweeperSolver"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    subprocess.run(
        [
            "cmake",
            "-S",
            str(src / "MineSweeperSolver"),
            "-B",
            str(scratch / "build"),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DFETCHCONTENT_FULLY_DISCONNECTED=ON",
            f"-DFETCHCONTENT_SOURCE_DIR_JSON={json_dir}",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["cmake", "--build", str(scratch / "build"), "--target", "MineSweeperSolver", "-j", "1"],
        check=True,
        capture_output=True,
    )
    return binary


def run_tu(binary: Path, games: int) -> dict[str, float]:
    """Tu et al.'s PSEQ on ``games`` expert games in one worker process: wins and CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [str(binary), TU_CONFIG, str(games), "1"], check=True, capture_output=True, text=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    result = json.loads(done.stdout[done.stdout.index("{") :])["result"]
    return {"games": games, "wins": result["pass"], "cpu_seconds": cpu}


@dataclass
class SpeedRow:
    """One player's games and CPU in the ``--speed`` run."""

    player: str
    games: int
    wins: int
    cpu_seconds: float

    @property
    def ms(self) -> float:
        """CPU milliseconds per game."""
        return 1e3 * self.cpu_seconds / self.games


def _speed(args: argparse.Namespace, command: str) -> int:
    """The ``--speed`` measurement: see the module docstring."""
    unit_before = toollib_median_ms(args.seed, args.positions)
    rows: list[SpeedRow] = []
    for name in args.players.split(","):
        setup, _ = make_setup(
            level="expert", first_click="safe", start="corner", players=[name], seed=args.seed
        )
        began = time.process_time()
        result = simulate(setup, args.games, workers=1)
        cpu = time.process_time() - began
        rows.append(SpeedRow(name, args.games, result.results[name].wins, cpu))
    if args.tu_source is not None:
        tu = run_tu(build_tu(args.tu_source, args.scratch), args.games)
        rows.append(
            SpeedRow("Tu et al. PSEQ (C++)", args.games, int(tu["wins"]), tu["cpu_seconds"])
        )
    unit_after = toollib_median_ms(args.seed, args.positions)
    unit = (unit_before + unit_after) / 2
    measured = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f} at the end; shared with other jobs"
    )
    report = {
        "command": command,
        "measured": measured,
        "machine": machine,
        "toollib_median_ms": {"before": round(unit_before, 4), "after": round(unit_after, 4)},
        "rows": [
            {
                **asdict(row),
                "cpu_ms_per_game": round(row.ms, 4),
                "units": round(row.ms / unit, 3),
                "games_per_cpu_second": round(1e3 / row.ms, 1),
            }
            for row in rows
        ],
    }
    SPEED_RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    lines = [
        "| player | games | wins | CPU ms per game | ms-toollib units | games per CPU-second |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row.player} | {row.games} | {row.wins} | {row.ms:.3f} | {row.ms / unit:.2f} "
            f"| {1e3 / row.ms:.0f} |"
        )
    lines += [
        "",
        f"One unit is ms-toollib's median CPU time to analyse a mid-game expert position, in "
        f"the same run: {unit:.3f} ms ({unit_before:.3f} before the players, "
        f"{unit_after:.3f} after). Measured {measured} ({machine}). Command: `{command}`.",
    ]
    table = "\n".join(lines)
    print(table)
    if args.docs:
        from benchmarks.docs_tables import SPEED, write_section

        write_section(SPEED, "players-speed", table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
