"""The ``minesolver`` command line. Thin: parse arguments, call the library, print.

Every error a user can cause (unreadable file, malformed or inconsistent position, bad
option) ends as one line ``error: …`` on standard error and exit status 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from typer.exceptions import TyperException

from minesolver.analysis import analyze, to_json
from minesolver.position import Position

__all__ = ["app", "fail", "main", "read_position", "run"]

app = typer.Typer(
    name="minesolver",
    help="Exact Minesweeper probabilities, strong players and honest measurements.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Exact Minesweeper probabilities, strong players and honest measurements."""


class CliError(Exception):
    """A user error to report as ``error: …`` with exit status 2."""


def fail(message: str) -> NoReturn:
    """Stop the command with ``error: message`` and exit status 2."""
    raise CliError(message)


def read_position(source: str) -> Position:
    """Read a position from a file path or ``-`` (standard input)."""
    if source == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            fail(f"cannot read {source}: {reason}")
    return Position.from_text(text)


@app.command()
def solve(
    file: Annotated[
        str, typer.Argument(help="Position file (JSMinesweeper text), or - for stdin.")
    ] = "-",
    mines: Annotated[int | None, typer.Option(help="Total mines (overrides the header).")] = None,
    density: Annotated[
        str | None, typer.Option(help="Mine density 0<P<1 when the total is unknown.")
    ] = None,
    engine: Annotated[str, typer.Option(help="Engine name.")] = "exact",
    untrusted_flags: Annotated[
        bool, typer.Option("--untrusted-flags", help="Treat flags as hidden cells.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Exact mine probability of every hidden cell, the certain cells and the safest cell."""
    if mines is not None and density is not None:
        fail("give either --mines or --density, not both")
    position = read_position(file)
    if mines is not None:
        if mines < 0:
            fail(f"--mines {mines} must not be negative")
        if mines > position.width * position.height:
            fail(f"--mines {mines} do not fit a {position.width}x{position.height} board")
        position = position.with_mines(mines)
    analysis = analyze(position, engine=engine, density=density, trust_flags=not untrusted_flags)
    if as_json:
        sys.stdout.write(json.dumps(to_json(analysis)) + "\n")
        return
    from minesolver.display import heat_map, summary

    console = Console(highlight=False, soft_wrap=True)
    console.print(heat_map(analysis), end="")
    console.print(summary(analysis))


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
        if type(exc).__name__ == "NoArgsIsHelpError":
            app(args=["--help"], standalone_mode=False)
            return 0
        sys.stderr.write(f"error: {exc.format_message()}\n")
        return 2
    except (CliError, ValueError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    raise SystemExit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
