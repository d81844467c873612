"""A read tells its progress: the reader names each stage it comes to, and the command
line shows it (a spinner on standard error) once a read has taken over a second."""

from __future__ import annotations

import io
import random
import threading

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from rich.console import Console

from minesolver.ui.inputs import read_progress
from minesolver.vision import read_screenshot, synth


def _board() -> object:
    rng = random.Random(5)
    cells = synth.random_board(rng, 9, 9, 10)
    return synth.classic_window(cells, 9, 9, synth.mines_left(cells, 10))[0]


def test_a_read_names_its_stages_and_reads_the_same() -> None:
    image = _board()
    stages: list[str] = []
    told = read_screenshot(image, progress=stages.append)
    assert told.text() == read_screenshot(image).text()
    assert stages[:3] == [
        "decoding the image",
        "finding the board",
        "fitting the skins to the board's lattice",
    ]
    assert stages[-2:] == ["checking the board's edges", "reading the mine counter"]


def test_no_terminal_no_spinner() -> None:
    out = io.StringIO()
    with read_progress(Console(file=out, force_terminal=False), after=0.0) as tell:
        tell("finding the board")
    assert out.getvalue() == ""


def test_a_long_read_shows_its_stage_and_clears_it() -> None:
    out = io.StringIO()
    shown = threading.Event()
    console = Console(file=out, force_terminal=True, width=80)
    with read_progress(console, after=0.0, shown=shown) as tell:
        assert shown.wait(timeout=600)  # the spinner's start, whatever the load
        tell("trying another lattice (2)")
    assert "reading the screenshot" in out.getvalue()


def test_a_quick_read_shows_nothing() -> None:
    out = io.StringIO()
    shown = threading.Event()
    with read_progress(Console(file=out, force_terminal=True), after=3600, shown=shown) as tell:
        tell("finding the board")
    assert not shown.is_set()
    assert out.getvalue() == ""
