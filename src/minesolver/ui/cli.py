"""The ``minesolver`` command line. Thin: parse arguments, call the library, print.

Every error a user can cause (unreadable file, malformed or inconsistent position, bad
option) ends as one line ``error: …`` on standard error and exit status 2.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from typer import _click as click  # typer's own copy of click, whose classes it extends
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import TyperException

from minesolver.analysis import analyze
from minesolver.engines import EngineLimitExceeded
from minesolver.errors import MinesolverError, plural
from minesolver.registry import install_command
from minesolver.result import Limit, MineCountUnknown
from minesolver.ui.book_cli import book_build
from minesolver.ui.inputs import (
    CliError,
    check_layout_file,
    fail,
    is_image,
    not_a_replay,
    read_image,
    read_position,
    read_progress,
)
from minesolver.ui.json_shapes import analysis_json, recommended_json
from minesolver.ui.listen import listen

if TYPE_CHECKING:
    from minesolver.game import Game

__all__ = ["DEFAULT_BUDGET", "app", "fail", "is_image", "main", "read_position", "run"]

DEFAULT_BUDGET = 10.0
"""Seconds ``solve`` allows by default: exact when the count fits, else approximate."""

EFFICIENCY_WORK = 500_000
"""``efficiency``'s default work per board (steps of search): the library's
:data:`minesolver.game.clicks.DEFAULT_WORK`, written here so that ``--help`` needs no import."""

EFFICIENCY_SECONDS = 600.0
"""``efficiency``'s default safety deadline per board (seconds):
:data:`minesolver.game.clicks.DEFAULT_SECONDS`."""

JsonFlag = Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")]
FirstClickOption = Annotated[
    str, typer.Option(metavar="RULE", help="First-click rule: safe, opening, none.")
]
StartOption = Annotated[
    str, typer.Option(metavar="CELL", help="First click: corner, centre or X,Y.")
]
# the options several commands share; a metavar (or none, for a flag) says what an option
# takes instead of a type tag in the help


class _Argument(TyperArgument):
    """An argument whose help row shows its metavar only, as an option's does."""

    def display_type_rich(self, ctx: click.Context) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        """``FILE`` for a required argument and ``[FILE]`` for an optional one, the usual
        notation (typer writes ``{FILE}`` for required ones)."""
        name = self.display_name_raw + ("..." if self.nargs != 1 else "")
        return name if self.required else f"[{name}]"


def _untagged_help(option: TyperOption | None) -> TyperOption | None:
    """``--help`` with no ``<bool>`` tag in the help."""
    if option is not None:
        option.metavar = ""
    return option


class _Command(TyperCommand):
    """A command whose help has no type tags (``<str>``, ``<bool>``): the metavar of each
    argument and option, and the help text, say what a value is."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        for param in params:
            if type(param) is TyperArgument:
                param.__class__ = _Argument
        return params

    def get_help_option(self, ctx: click.Context) -> TyperOption | None:
        return _untagged_help(super().get_help_option(ctx))


class _Group(TyperGroup):
    """The root command, with the same untagged ``--help``."""

    def get_help_option(self, ctx: click.Context) -> TyperOption | None:
        return _untagged_help(super().get_help_option(ctx))


_F = TypeVar("_F", bound=Callable[..., Any])


class _App(typer.Typer):
    """Every command of the app is a :class:`_Command`."""

    def command(self, name: str | None = None, **kwargs: Any) -> Callable[[_F], _F]:
        kwargs.setdefault("cls", _Command)
        return super().command(name, **kwargs)


app = _App(
    name="minesolver",
    cls=_Group,
    help="Exact Minesweeper probabilities, strong players and honest measurements.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version  # the source of minesolver.__version__

        sys.stdout.write(f"minesolver {version('minesolver')}\n")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            metavar="",
            callback=_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Exact Minesweeper probabilities, strong players and honest measurements."""


@app.command()
def solve(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Position file (JSMinesweeper text), a screenshot (PNG, JPEG, BMP...), "
            "or - for stdin.",
        ),
    ] = "-",
    mines: Annotated[
        int | None, typer.Option(metavar="N", help="Total mines (overrides the header).")
    ] = None,
    density: Annotated[
        str | None, typer.Option(metavar="P", help="Mine density 0<P<1 when the total is unknown.")
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            help="Engine: auto (exact within --budget, else sampled and marked approximate), "
            "exact, exact-py (the pure-Python reference), elimination, enumerate, brute, sat, "
            "ilp (needs the engines extra), sampling, mcmc, bp.",
        ),
    ] = "auto",
    budget: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="A safety deadline in seconds, checked as the work goes: auto answers "
            "exactly if the count finished, else approximately with each cell's error, and "
            "fails when not even the sampler began; the other engines stop with an error "
            "saying so. 0: no limit.",
        ),
    ] = DEFAULT_BUDGET,
    untrusted_flags: Annotated[
        bool, typer.Option("--untrusted-flags", metavar="", help="Treat flags as hidden cells.")
    ] = False,
    as_json: JsonFlag = False,
    png: Annotated[
        str | None,
        typer.Option("--png", metavar="FILE", help="Also write the heat map as a PNG image."),
    ] = None,
) -> None:
    """Exact mine probability of every hidden cell, the certain cells, the safest cell,
    and the recommended move (the best player's, with why)."""
    if mines is not None and density is not None:
        fail("give either --mines or --density, not both")
    position = read_image(file, mines) if is_image(file) else read_position(file)
    if mines is not None:
        if mines < 0:
            fail(f"--mines {mines} must not be negative")
        if mines > position.width * position.height:
            fail(
                f"--mines {mines}: a {position.width}x{position.height} board holds at most "
                f"{plural(position.width * position.height, 'mine')}"
            )
        position = position.with_mines(mines)
    if not budget >= 0 or budget == float("inf"):
        fail(f"--budget {budget} must be a number of seconds, 0 for no limit")
    started = time.perf_counter()
    try:
        analysis = analyze(
            position,
            engine="exact" if engine == "auto" and budget == 0 else engine,
            limit=Limit(seconds=budget) if budget > 0 else None,
            density=density,
            trust_flags=not untrusted_flags,
        )
    except EngineLimitExceeded:
        if engine != "auto" or time.perf_counter() - started < budget:
            raise  # another engine's own words, or a limit that is not the deadline
        fail(
            f"no answer within --budget {budget:g} s, not even an approximate one: the "
            "deadline passed before either the exact count or the sampler could answer; "
            "allow more seconds, or --budget 0 for no limit"
        )
    from minesolver.ui.play import describe_moves, recommend

    # the best player's move, within what is left of the budget (the same deadline)
    left = max(budget - (time.perf_counter() - started), 1e-3) if budget > 0 else None
    moves, why_not = recommend(analysis, not untrusted_flags, left)
    if png is not None:
        _write_image(png, "heat map", lambda path: _plots().plot_heat_map(analysis, path))
    if as_json:
        out = analysis_json(analysis)
        out["recommended"] = recommended_json(moves[0], analysis) if moves else None
        if not moves:
            out["no_move"] = why_not
        sys.stdout.write(json.dumps(out) + "\n")
        return
    from minesolver.ui.display import heat_map, summary

    console = Console(highlight=False, soft_wrap=True)
    console.print(heat_map(analysis))
    console.print(summary(analysis))
    advice = describe_moves(moves) if moves else f"none ({why_not})"
    console.print(Text("recommended (the best player's move): ", style="bold").append(advice))


@app.command()
def read(
    image: Annotated[str, typer.Argument(metavar="IMAGE", help="Screenshot of a board.")],
    mines: Annotated[
        int | None, typer.Option(metavar="N", help="Total mines, when the reader cannot know it.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Read a board from a screenshot and print its position text (header WxHxM when the
    total is known); every cell is read surely or the command fails saying which."""
    from minesolver.vision import read_screenshot

    with read_progress() as progress:
        reading = read_screenshot(image, mines=mines, progress=progress)
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "skin": reading.skin,
                    "width": reading.width,
                    "height": reading.height,
                    "mines": reading.mines,
                    "mines_from": reading.mines_from,
                    "counter": None if reading.counter is None else reading.counter.value,
                    "box": [round(v, 2) for v in reading.box],
                    "cells": [c.label for c in reading.cells],
                    "margins": [round(c.margin, 4) for c in reading.cells],
                    "unsure": [list(c) for c in reading.unsure],
                    "problem": reading.problem,
                }
            )
            + "\n"
        )
        return
    sys.stdout.write(reading.position().to_text())


def _plots() -> ModuleType:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail(f"images need the 'plot' extra: {install_command('plot')}")
    import minesolver.ui.plots

    return minesolver.ui.plots


def _write_image(path: str, what: str, draw: Callable[[str], None]) -> None:
    """Draw an image to ``path``, failing with ``error: …`` when it cannot be written."""
    try:
        draw(path)
    except OSError as exc:
        fail(f"cannot write the {what} to {path}: {exc.strerror or exc}")


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(metavar="N", help="Analysis worker processes.")] = 2,
    budget: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds allowed per analysis.")
    ] = 5.0,
    read_budget: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds allowed to read a screenshot (a safety deadline only).",
        ),
    ] = 600.0,
    replay_budget: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds allowed to grade a replay (its fewest clicks count work).",
        ),
    ] = 120.0,
    queue_wait: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Seconds a request waits for a free worker before it is refused (503).",
        ),
    ] = 10.0,
) -> None:
    """Start the web app: play with hints and analyse positions in the browser."""
    if not 0 <= port <= 65535:
        fail(f"--port {port} is not a TCP port (0-65535)")
    if workers < 1 or budget <= 0:
        fail("--workers must be at least 1 and --budget positive")
    for option, seconds in (
        ("--read-budget", read_budget),
        ("--replay-budget", replay_budget),
        ("--queue-wait", queue_wait),
    ):
        if not 0 < seconds < float("inf"):
            fail(f"{option} {seconds:g} must be a positive number of seconds")
    try:
        import uvicorn

        from minesolver.web import Settings, create_app
    except ImportError as exc:
        fail(f"the web app needs the 'web' extra ({exc}): {install_command('web')}")
    sockets = listen(host, port)  # a port in use or a bad host fails before the address shows
    port = sockets[0].getsockname()[1]  # the port the system chose for --port 0
    shown = f"[{host}]" if ":" in host else host
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(
                Settings(
                    workers=workers,
                    budget=budget,
                    read_budget=read_budget,
                    replay_budget=replay_budget,
                    queue_wait=queue_wait,
                )
            ),
            log_level="warning",
        )
    )
    sys.stderr.write(f"minesolver web app on http://{shown}:{port}/\n")
    server.run(sockets=sockets)


@app.command()
def bench(
    level: Annotated[
        str | None,
        typer.Option(
            metavar="LEVEL",
            # escaped: rich would read a bare "[default: …]" as markup and drop it
            help="beginner, intermediate, expert or WxHxM. \\[default: expert]",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            help="Games to play. \\[default: 1000, or every layout of --layouts]",
        ),
    ] = None,
    first_click: FirstClickOption = "safe",
    start: StartOption = "corner",
    player: Annotated[
        str,
        typer.Option(
            metavar="PLAYER",
            help="Player: greedy, pseq, best, search, efficient, efficient-lookahead; "
            "best-no-endgame (-second, "
            "-fifty, -dominance, -dead, -latent) plays best without that ingredient, "
            "best:margin=1/10;max_candidates=20 changes its settings, "
            "search:rollouts=32 search's budget.",
        ),
    ] = "greedy",
    players: Annotated[
        str | None,
        typer.Option(
            metavar="PLAYERS", help="Several players, comma-separated, on the same layouts."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed of the run (game i depends on seed, i).")
    ] = 0,
    workers: Annotated[int, typer.Option(metavar="N", help="Worker processes.")] = 1,
    layouts: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="Play the layouts of this file (MBF or text list)."),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(metavar="ADDRESS", help="Run on the Dask scheduler at this address."),
    ] = None,
    no_guess: Annotated[
        bool, typer.Option("--no-guess", metavar="", help="Only boards solvable without guessing.")
    ] = False,
    as_json: JsonFlag = False,
    plot: Annotated[
        str | None, typer.Option(metavar="FILE", help="Also write the win rates as a PNG chart.")
    ] = None,
    save_layouts: Annotated[
        str | None,
        typer.Option(
            metavar="FILE", help="Also write the layouts played (.mbf: MBF, else the text list)."
        ),
    ] = None,
) -> None:
    """Play many games and report win rates (95% Wilson interval), guesses and speed."""
    from minesolver.game import dump_layouts
    from minesolver.simulate import make_setup, played_layouts, simulate
    from minesolver.ui.bench_report import bench_report, progress_bar

    names = players.split(",") if players else [player]
    if layouts is not None:
        check_layout_file(layouts)
    setup, given = make_setup(
        level=level,
        first_click=first_click,
        start=start,
        players=names,
        seed=seed,
        no_guess=no_guess,
        layouts_file=layouts,
    )
    count = games if games is not None else (len(given) if given is not None else 1000)
    with progress_bar(count, Console(stderr=True)) as advance:
        result = simulate(
            setup, count, workers=workers, layouts=given, dask=dask, on_progress=advance
        )
    if save_layouts is not None:
        try:
            dump_layouts(played_layouts(setup, count, given), save_layouts)
        except OSError as exc:
            fail(f"cannot write {save_layouts}: {exc.strerror or exc}")
    if plot is not None:
        chart = result.to_json()
        _write_image(plot, "chart", lambda path: _plots().plot_win_rates(chart, path))
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        return
    Console(highlight=False, soft_wrap=True).print(bench_report(result))


@app.command()
def play(
    level: Annotated[
        str, typer.Option(metavar="LEVEL", help="beginner, intermediate, expert or WxHxM.")
    ] = "beginner",
    first_click: FirstClickOption = "safe",
    start: StartOption = "corner",
    player: Annotated[
        str,
        typer.Option(
            metavar="PLAYER",
            help="Player to watch: greedy, pseq, best, search, efficient, efficient-lookahead.",
        ),
    ] = "greedy",
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed (game --game of `bench --seed`).")
    ] = 0,
    game: Annotated[
        int, typer.Option(metavar="N", help="Which game of the seeded run to show.")
    ] = 0,
    human: Annotated[
        bool,
        typer.Option(
            "--human", metavar="", help="Play yourself (commands on stdin, h for a hint)."
        ),
    ] = False,
    probabilities: Annotated[
        bool, typer.Option(metavar="", help="Show the exact probabilities while watching.")
    ] = True,
    delay: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds to pause after each move.")
    ] = 0.0,
    save: Annotated[
        str | None,
        typer.Option(
            metavar="FILE", help="Also save the game as a replay (EVF, as Metasweeper reads it)."
        ),
    ] = None,
) -> None:
    """Watch a player play a game move by move, or play yourself with hints on demand."""
    import random

    from minesolver.game import Game
    from minesolver.simulate import derive_seed, game_layout, make_setup
    from minesolver.strategy import get_player
    from minesolver.ui.play import play_human, watch

    setup, _ = make_setup(
        level=level, first_click=first_click, start=start, players=[player], seed=seed
    )
    if game < 0:
        fail(f"--game {game} must not be negative")
    console = Console(highlight=False, soft_wrap=True)
    if human:
        rng = random.Random(derive_seed(seed, game, "layout"))
        prompt = "> " if sys.stdin.isatty() else ""
        played = Game.new(setup.level, rng, setup.rule)
        play_human(played, sys.stdin, console, prompt)
    else:
        layout, _ = game_layout(setup, game)
        watcher = get_player(player)
        rng = random.Random(derive_seed(seed, game, "player"))
        played = Game.from_layout(layout)
        watch(
            played, watcher, setup.start, rng, console,
            probabilities=probabilities, delay=delay,
        )  # fmt: skip
    if save is not None:
        _save_replay(played, save, "minesolver" if human else f"minesolver {player}")


def _save_replay(game: Game, path: str, player: str) -> None:
    """Write ``game``'s moves as an EVF replay (nothing to save before the first open)."""
    from minesolver.replay.evf_write import replay_from_game, write_evf

    try:
        data = write_evf(replay_from_game(game, player=player))
    except ValueError as exc:
        fail(f"{exc}: nothing to save to {path}")
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        fail(f"cannot write the replay to {path}: {exc.strerror or exc}")


@app.command()
def perfect(
    level: Annotated[str, typer.Option(metavar="LEVEL", help="A small board: WxHxM (e.g. 5x5x4).")],
    first_click: FirstClickOption = "safe",
    start: StartOption = "corner",
    players: Annotated[
        str | None,
        typer.Option(metavar="PLAYERS", help="Players to set against it, comma-separated."),
    ] = None,
    seed: Annotated[int, typer.Option(metavar="N", help="Seed of the players' tie-breaks.")] = 0,
    workers: Annotated[
        int, typer.Option(metavar="N", help="Worker processes for the players.")
    ] = 1,
    limit: Annotated[int, typer.Option(metavar="N", help="Most layouts to list.")] = 20_000,
    budget: Annotated[int, typer.Option(metavar="NODES", help="Most search nodes.")] = 1_000_000,
    as_json: JsonFlag = False,
) -> None:
    """Perfect play's exact win rate on a small board, and the players' beside it.

    Every layout is searched; with --players, they play the same layouts."""
    from minesolver.optimal import compare, perfect_play, play_every_layout
    from minesolver.simulate import make_setup

    # make_setup checks the players' names: a typo fails before the search
    setup, _ = make_setup(
        level=level,
        first_click=first_click,
        start=start,
        players=(players or "greedy").split(","),
        seed=seed,
    )
    if workers < 1:
        fail(f"--workers {workers} must be at least 1")
    from minesolver.ui.bench_report import progress_bar, working

    err = Console(stderr=True)
    with working(err, f"searching every line of play on {setup.level}"):
        best = perfect_play(setup.level, setup.start, setup.rule, limit=limit, budget=budget)
    played = None
    if players:
        with progress_bar(best.layouts, err, "layouts") as advance:
            played = play_every_layout(setup, limit=limit, workers=workers, on_progress=advance)
    data = compare(best, played)
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(
        f"{data['level']}, first click {setup.rule} at {setup.start}: {best.layouts} layouts"
    )
    console.print(f"perfect play wins {best.wins} ({100 * float(best.win_rate):.2f}%)")
    if played is not None:
        for name, r in played.results.items():
            console.print(
                f"{name}: wins {r.wins} ({100 * r.win_rate:.2f}%): "
                f"{best.wins - r.wins} fewer than perfect play"
            )


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning user errors into ``error: …`` and status 2."""
    try:
        result = app(args=argv, standalone_mode=False)
    except typer.Abort:
        sys.stderr.write("error: aborted\n")
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code)
    except TyperException as exc:
        if isinstance(exc, click.exceptions.NoArgsIsHelpError):
            app(args=["--help"], standalone_mode=False)
            return 0
        sys.stderr.write(f"error: {exc.format_message()}\n")
        return 2
    except MineCountUnknown:
        # the library's message names its own arguments; the command line names its options
        sys.stderr.write(
            "error: the total number of mines is unknown: give it in the header (WxHxM), "
            "with --mines N, or with --density P\n"
        )
        return 2
    except (CliError, MinesolverError, ValueError) as exc:
        # the library's errors, and a ValueError of a function given a bad value
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    raise SystemExit(main())


@app.command("replay")
def replay_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Replay file: AVF, RMV, EVF or MVF.")],
    as_json: JsonFlag = False,
    png: Annotated[
        str | None,
        typer.Option(
            "--png", metavar="FILE", help="Also write the board with the guesses and a risk chart."
        ),
    ] = None,
) -> None:
    """Grade a played game: the figures, every guess with its exact risk, and the clicks
    wasted against the board's fewest clicks."""
    from minesolver.replay import ReplayFormatError, grade_replay, load
    from minesolver.ui.json_shapes import replay_json
    from minesolver.ui.replay_report import (
        GUESS_COLUMNS,
        WASTE_COLUMNS,
        efficiency_lines,
        guess_rows,
        summary_lines,
        wasted_rows,
    )

    if is_image(file):
        fail(f"{file} is an image, not a replay: minesolver read {file} reads the board it shows")
    try:
        replay = load(file)
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    except ReplayFormatError as exc:
        if exc.format != "replay":
            raise  # a replay of a known format, damaged: the reader names the byte
        fail(not_a_replay(file))
    graded = grade_replay(replay)
    efficiency = graded.efficiency
    if png is not None:
        plots = _plots()
        _write_image(png, "replay image", lambda path: plots.plot_replay(graded, path))
    if as_json:
        sys.stdout.write(json.dumps(replay_json(graded)) + "\n")
        return
    lines = summary_lines(graded) + efficiency_lines(efficiency)
    for columns, body in (
        (GUESS_COLUMNS, guess_rows(graded)),
        (WASTE_COLUMNS, wasted_rows(efficiency)),
    ):
        rows: list[tuple[str, ...]] = [columns, *body]
        if len(rows) > 1:
            widths = [max(len(c) for c in col) for col in zip(*rows, strict=True)]
            lines.append("")
            for row in rows:
                text = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
                lines.append(text.rstrip())
    sys.stdout.write("\n".join(lines) + "\n")


@app.command("efficiency")
def efficiency_command(
    file: Annotated[str, typer.Argument(metavar="FILE", help="Layout file: the text list or MBF.")],
    budget: Annotated[
        int,
        typer.Option(
            metavar="STEPS",
            help="Work to prove the minimum, per board, in steps of search (a SAT conflict, "
            "a solver call, a round; the same answer on every machine; 10,000 to 25,000 "
            "a second).",
        ),
    ] = EFFICIENCY_WORK,
    seconds: Annotated[
        float,
        typer.Option(
            metavar="SECONDS",
            help="Safety deadline per board; an answer it cuts says so. 0: none.",
        ),
    ] = EFFICIENCY_SECONDS,
    as_json: JsonFlag = False,
) -> None:
    """The clicks each board needs: 3BV, ZiNi, HZiNi and the proved fewest clicks.

    The fewest clicks (left, right and chords, the first click included) come with their
    sequence; past the budget, the best sequence found and a proved lower bound."""
    from minesolver.game import board_measures, load_layouts, min_clicks
    from minesolver.ui.bench_report import efficiency_table, work_progress

    if budget < 0:
        fail(f"--budget {budget} must be a number of steps, 0 or more")
    if not seconds >= 0:
        fail(f"--seconds {seconds} must be positive, or 0 for no deadline")
    check_layout_file(file)
    layouts = load_layouts(file)
    console = None if as_json else Console(highlight=False, soft_wrap=True)
    for number, layout in enumerate(layouts, start=1):
        measures = board_measures(layout)
        try:
            with work_progress(Console(stderr=True), budget, f"board {number}: steps") as on:
                plan = min_clicks(layout, work=budget, seconds=seconds or None, on_work=on)
        except ImportError as exc:
            fail(str(exc))
        row = {
            "width": layout.width,
            "height": layout.height,
            "mines": len(layout.mine_indices),
            "bbbv": measures.bbbv,
            "openings": measures.openings,
            "islands": measures.islands,
            "zini": measures.zini,
            "hzini": measures.hzini,
            "min_clicks": plan.count,
            "optimal": plan.optimal,
            "lower_bound": plan.lower_bound,
            "efficiency": round(measures.bbbv / plan.count, 4) if plan.count else None,
            "work": plan.work,
            "rounds": plan.rounds,
            "cut": plan.cut,
            "seconds": round(plan.seconds, 3),
            "clicks": plan.notation(),
        }
        if console is None:
            sys.stdout.write(json.dumps(row) + "\n")
            continue
        console.print(efficiency_table(number, len(layouts), row))


book_app = _App(
    name="book",
    cls=_Group,
    help="The opening book of the search player: build it.",
    no_args_is_help=True,
)
book_app.command("build")(book_build)
app.add_typer(book_app, name="book")


if __name__ == "__main__":  # pragma: no cover
    run()
