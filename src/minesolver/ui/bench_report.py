"""Rich renderings of simulator results and of ``efficiency``'s boards, and the progress
shown while long commands run (``minesolver bench``, ``perfect``): a bar with an ETA when
the amount of work is known, a spinner with the time spent when it is not."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from minesolver.errors import plural
from minesolver.simulate import BenchResult

__all__ = ["bench_report", "efficiency_table", "progress_bar", "working"]


def bench_report(result: BenchResult) -> RenderableType:
    """Per player: wins, win rate (%) with its 95% Wilson interval, guesses per game, games
    per second (wall clock, and per core, over the games in which the player moved); then
    the paired differences with McNemar's exact p-value. On given layouts, the title says
    how many hid a mine under the first click (no first-click rule applies to them)."""
    setup = result.setup
    at = f"({setup.start[0]},{setup.start[1]})"
    if result.given_layouts:  # the layouts are fixed: no first-click rule moved a mine
        lost = result.lost_on_start
        start = f"the given layouts, first click at {at}" + (
            f" ({lost:,} of {result.games:,} with a mine there, lost on it)" if lost else ""
        )
    else:
        start = f"first click {setup.rule} at {at}"
    games = f"{result.games:,} game" + "s" * (result.games != 1)
    title = f"{result.level_name}, {start}, seed {setup.seed}, {games}, " + plural(
        result.workers, "worker"
    )
    table = Table(title=title, title_justify="left")
    for column in ("player", "wins", "win %", "95% CI", "guesses", "games/s", "per core"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for r in result.results.values():
        lo, hi = r.ci95
        table.add_row(
            r.name,
            f"{r.wins:,}",
            f"{100 * r.win_rate:.2f}",
            f"{100 * lo:.2f}-{100 * hi:.2f}",
            f"{r.guesses_per_game:.2f}",
            # no speed to show when the player made no move (every game lost on the first click)
            f"{r.games_per_second:.1f}" if r.played else "-",
            f"{r.games_per_second_per_core:.1f}" if r.played else "-",
        )
    parts: list[RenderableType] = [table]
    if result.paired:
        paired = Table(title="paired (same layouts): games won by one only", title_justify="left")
        for column in ("a", "b", "a only", "b only", "McNemar p"):
            paired.add_column(column, justify="left" if column in "ab" else "right")
        for p in result.paired:
            paired.add_row(p.a, p.b, f"{p.a_only:,}", f"{p.b_only:,}", f"{p.p_value:.3g}")
        parts.append(paired)
    if setup.no_guess:
        parts.append(
            Text(
                f"no-guess boards: {result.draws:,} layouts drawn for {result.games:,}, "
                f"rejection rate {100 * result.rejection_rate:.1f}%"
            )
        )
    return Group(*parts)


@contextmanager
def progress_bar(
    total: int, console: Console, what: str = "games"
) -> Iterator[Callable[[int], None]]:
    """A transient progress bar of ``total`` games (or other ``what``), with the time left;
    yields ``advance(n)``.

    Shown only when ``console`` is a terminal, so pipes and tests get clean output.
    """
    if not console.is_terminal:
        yield lambda n: None
        return
    columns = (
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(what, total=total)
        yield lambda n: progress.advance(task, n)


@contextmanager
def work_progress(console: Console, budget: int, what: str) -> Iterator[Callable[[int], None]]:
    """A transient progress bar of a search's work budget (``budget`` steps), yielding
    ``on_work(used)`` for the search to call with the steps spent so far; the bar ends
    early when the search does (a proof). Shown only when ``console`` is a terminal."""
    with progress_bar(budget, console, what) as advance:
        done = 0

        def on_work(used: int) -> None:
            nonlocal done
            step = min(used, budget) - done
            if step > 0:
                done += step
                advance(step)

        yield on_work


@contextmanager
def working(console: Console, what: str) -> Iterator[None]:
    """A transient spinner saying ``what`` is being done and for how long, for work whose
    amount is not known in advance (an exact search). Shown only on a terminal."""
    if not console.is_terminal:
        yield
        return
    columns = (SpinnerColumn(), TextColumn(what), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        progress.add_task(what, total=None)
        yield


def efficiency_table(number: int, total: int, row: dict[str, Any]) -> RenderableType:
    """One board's figures of ``minesolver efficiency`` (``row``, its JSON object) as a
    table, then its clicks; ``number`` of ``total`` boards."""
    mines = row["mines"]
    size = f"{row['width']}x{row['height']}, {mines} mine{'' if mines == 1 else 's'}"
    title = f"board {number} of {total}: {size}" if total > 1 else f"board: {size}"
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_column("what")
    table.add_column("value", justify="right")
    if row["optimal"]:
        fewest = f"{row['min_clicks']} (proved)"
    else:
        fewest = f"{row['min_clicks']} found, at least {row['lower_bound']}"
    search = f"{row['work']} steps, {plural(row['rounds'], 'round')}"
    if row["cut"] == "work":
        search += ": the budget ran out"
    elif row["cut"] == "deadline":
        search += ": cut by the safety deadline (another run may differ)"
    efficiency = "" if row["efficiency"] is None else f"{100 * row['efficiency']:.1f}%"
    for what, value in (
        ("3BV", str(row["bbbv"])),
        ("openings", str(row["openings"])),
        ("islands", str(row["islands"])),
        ("ZiNi", str(row["zini"])),
        ("HZiNi", str(row["hzini"])),
        ("fewest clicks", fewest),
        ("search", search),
        ("best efficiency (3BV / clicks)", efficiency),
    ):
        table.add_row(what, value)
    return Group(table, Text("clicks: " + (" ".join(row["clicks"]) or "none")))
