"""The errors read as English: plurals agree with their numbers, ranges are not empty
words ("between 2 and 2"), and the command line names its own options.

Random small boards (any digits, flags and totals, most of them contradictory) are
analysed by every engine the default install has; each error message they raise is
checked against the patterns of wording that went wrong before.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesolver import MinesolverError, Position, analyze
from minesolver.errors import plural
from minesolver.ui.cli import main

NOUNS = r"(mine|flag|cell|neighbour|layout|digit|board|click)"
BAD = [
    (re.compile(rf"\b1 (?:\w+ )?{NOUNS}s\b"), "a plural after 1"),
    (re.compile(rf"\b(?:[02-9]|\d\d+) (?:more |other |unknown )?{NOUNS}\b(?!s)"), "a singular"),
    (re.compile(r"between (\d+) and \1\b"), "an empty range"),
    (re.compile(r"\bas mines\b"), "an option named in words"),
]


def wording_faults(message: str) -> list[str]:
    return [why for pattern, why in BAD if pattern.search(message)]


def test_the_checks_catch_the_old_wording() -> None:
    for old in (
        "2 flags exceed the total of 1 mines",
        "need between 2 and 2 of them and only 0 other cells are free",
        "give it in the header (WxHxM), as mines, or give a density",
        "the digits force at least 3 mine",
    ):
        assert wording_faults(old), old
    assert plural(1, "mine") == "1 mine" and plural(2, "more mine") == "2 more mines"


@st.composite
def boards(draw: st.DrawFn) -> str:
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    cells = draw(
        st.lists(st.sampled_from("HHHF012345678"), min_size=width * height, max_size=width * height)
    )
    mines = draw(st.integers(0, width * height))
    rows = ["".join(cells[y * width : (y + 1) * width]) for y in range(height)]
    return f"{width}x{height}x{mines}\n" + "\n".join(rows)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(["exact", "auto", "elimination", "enumerate", "brute"]))
def test_every_error_of_a_random_board_reads_right(text: str, engine: str) -> None:
    try:
        analyze(Position.from_text(text), engine=engine)
    except MinesolverError as exc:
        assert not wording_faults(str(exc)), (str(exc), wording_faults(str(exc)))


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["solve", "-"], "--mines N"),
        (["solve", "-", "--mines", "10"], "at most 9 mines"),
    ],
)
def test_the_command_line_names_its_options(
    argv: list[str],
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1HH\nHHH\nHHH\n"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and expected in err and err.count("\n") == 1
    assert not wording_faults(err)
