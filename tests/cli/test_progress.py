"""Long commands show their progress on a terminal, and nothing in a pipe."""

from __future__ import annotations

import io

from rich.console import Console

from minesolver.ui.bench_report import progress_bar, working


def _console(terminal: bool) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=terminal, width=80), out


def test_a_bar_counts_the_work_and_says_the_time_left_on_a_terminal() -> None:
    console, out = _console(True)
    with progress_bar(10, console, "layouts") as advance:
        advance(4)
        console.file.flush()
    shown = out.getvalue()
    assert "layouts" in shown and "/10" in shown


def test_a_spinner_says_what_is_being_done_on_a_terminal() -> None:
    console, out = _console(True)
    with working(console, "searching every line of play"):
        pass
    assert "searching every line of play" in out.getvalue()


def test_nothing_is_shown_off_a_terminal() -> None:
    console, out = _console(False)
    with progress_bar(10, console) as advance:
        advance(10)
    with working(console, "searching"):
        pass
    assert out.getvalue() == ""
