"""Every error path of the core: each raises its ``ValueError`` subclass, and the message
says where (line and column, or the cell) and why."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from extras import engine_available, engine_params
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver import (
    FLAG,
    HIDDEN,
    InconsistentPosition,
    MineCountUnknown,
    Position,
    PositionFormatError,
    analyze,
)
from minesolver.engines import ENGINES, EngineError
from minesolver.position import MAX_CELLS, MAX_SIDE

# -- PositionFormatError: text -------------------------------------------------------------

FORMAT_ERRORS = [
    # (text, expected line, expected column or None, words the reason must contain)
    pytest.param("", 1, None, "empty", id="empty"),
    pytest.param("\n  \n\n", 1, None, "empty", id="blank-lines-only"),
    pytest.param("HHH\nHH\nHHH\n", 2, 3, "2 cells", id="ragged-short"),
    pytest.param("HH\nHH\nHHHH\n", 3, 3, "4 cells", id="ragged-long"),
    pytest.param("3x3x1\nHHH\nHXH\nHHH\n", 3, 2, "'X'", id="unknown-char"),
    pytest.param("HH*\n", 1, 3, "'*'", id="unknown-char-first-row"),
    pytest.param("H1H\nH9H\n", 2, 2, "digit 9", id="digit-9"),
    pytest.param("3x3x1\nHHH\nHHH\n", 1, None, "3x2", id="header-taller-than-rows"),
    pytest.param("4x2x1\nHHH\nHHH\n", 1, None, "3x2", id="header-wider-than-rows"),
    pytest.param("3x3\nHHH\n", 1, None, "malformed header", id="header-two-numbers"),
    pytest.param("3x3x-1\nHHH\n", 1, None, "malformed header", id="header-negative"),
    pytest.param("3x1xA\nHHH\n", 1, None, "malformed header", id="header-letter"),
    pytest.param("2x2x5\nHH\nHH\n", 1, None, "5 mines", id="header-too-many-mines"),
    pytest.param("0x0x0\n", 1, None, "at least 1x1", id="header-zero-size"),
    pytest.param("3x1x1\n", 2, None, "no rows", id="header-without-rows"),
    pytest.param("HHH\n\nHHH\n", 2, None, "empty row", id="blank-row-inside"),
    pytest.param(
        f"{MAX_SIDE + 1}x1x0\n" + "H" * (MAX_SIDE + 1),
        1,
        None,
        f"limit of {MAX_SIDE}",
        id="header-too-wide",
    ),
    pytest.param("H" * (MAX_SIDE + 1) + "\n", 1, None, f"limit of {MAX_SIDE}", id="row-too-wide"),
    pytest.param("H\n" * (MAX_SIDE + 1), 1, None, f"limit of {MAX_SIDE}", id="too-many-rows"),
    pytest.param("600x600x0\nH\n", 1, None, f"limit of {MAX_CELLS}", id="header-too-many-cells"),
    pytest.param(
        ("H" * 501 + "\n") * 500, 1, None, f"limit of {MAX_CELLS}", id="rows-too-many-cells"
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "reason"), FORMAT_ERRORS)
def test_format_error_names_line_and_column(
    text: str, line: int, column: int | None, reason: str
) -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_text(text)
    message = str(info.value)
    where = f"line {line}" if column is None else f"line {line}, column {column}"
    assert message.startswith(where + ":"), message
    assert reason in message
    assert isinstance(info.value, ValueError)
    assert (info.value.line, info.value.column) == (line, column)  # set where raised


def test_format_errors_count_lines_from_the_start_of_the_text() -> None:
    """Leading blank lines are skipped but still counted in the line numbers."""
    with pytest.raises(PositionFormatError, match=r"^line 4, column 2: "):
        Position.from_text("\n\n3x2x1\nHZH\nHHH\n")


def test_byte_order_mark_is_skipped() -> None:
    """Windows editors may start a UTF-8 file with U+FEFF; it is not a cell."""
    assert Position.from_text("\ufeff3x1x1\nH1H\n") == Position.from_text("3x1x1\nH1H\n")
    with pytest.raises(PositionFormatError, match=r"^line 2, column 1: unknown character"):
        Position.from_text("3x2x1\n\ufeffHH\nHHH\n")  # only at the very start


def test_largest_boards_are_accepted() -> None:
    side = Position.from_text("H" * MAX_SIDE)
    assert (side.width, side.height) == (MAX_SIDE, 1)
    square = Position.from_text("500x500x0\n" + ("H" * 500 + "\n") * 500)
    assert square.width * square.height == MAX_CELLS


@pytest.mark.parametrize(
    ("width", "height", "cells", "mines", "reason"),
    [
        pytest.param(2, 2, (HIDDEN,) * 3, None, "3 cells", id="wrong-cell-count"),
        pytest.param(2, 1, (HIDDEN, 9), None, "(1, 0)", id="value-9"),
        pytest.param(2, 1, (HIDDEN, -3), None, "(1, 0)", id="value-negative"),
        pytest.param(2, 1, (HIDDEN, FLAG), 3, "3 mines", id="too-many-mines"),
        pytest.param(2, 1, (HIDDEN, FLAG), -1, "-1 mines", id="negative-mines"),
        pytest.param(0, 1, (), None, "at least 1x1", id="zero-width"),
    ],
)
def test_constructor_checks(
    width: int, height: int, cells: tuple[int, ...], mines: int | None, reason: str
) -> None:
    with pytest.raises(PositionFormatError, match=re.escape(reason)):
        Position(width, height, cells, mines)


def test_off_board_cell_is_an_index_error() -> None:
    p = Position.empty(3, 2, 1)
    with pytest.raises(IndexError, match=r"\(3, 0\)"):
        p[(3, 0)]
    with pytest.raises(IndexError, match=r"\(0, -1\)"):
        p.index((0, -1))


# -- InconsistentPosition ------------------------------------------------------------------

INCONSISTENT = [
    # (position text, words the message must contain: the failing cell or the totals)
    pytest.param(
        "1x2x1\n2\nH\n",
        ["(0, 0)", "2 more mines", "1 unknown"],
        id="digit-needs-more-than-its-hidden-cells",
    ),
    pytest.param(
        "3x3x8\n8HH\nHHH\nHHH\n", ["(0, 0)", "8 more mines", "3 unknown"], id="eight-in-a-corner"
    ),
    pytest.param("3x1x1\nF0H\n", ["(1, 0)", "1 flag "], id="flag-next-to-a-zero"),
    pytest.param("3x2x3\nF1F\nHHH\n", ["(1, 0)", "2 flags"], id="two-flags-around-a-one"),
    pytest.param(
        "2x1x0\n1H\n",
        ["force at least 1 mine", "leaves 0 unflagged"],
        id="total-too-small-for-forced-mines",
    ),
    pytest.param(
        "6x1x1\nH1HH1H\n",
        ["total of 1 mine ", "exactly 2 mines"],
        id="total-too-small-for-two-components",
    ),
    pytest.param("3x1x2\nH1H\n", ["total of 2 mines", "exactly 1 mine "], id="total-too-large"),
    pytest.param(
        "4x3x3\nHHHH\n1F2H\nHHHH\n",
        ["total of 3 mines"],
        id="total-too-large-with-flag-and-forced-safe",
    ),
    pytest.param("1x2x1\nF\nF\n", ["2 flags", "the total is 1 mine"], id="more-flags-than-mines"),
    pytest.param("3x1x0\n1H1\n", ["force at least 1"], id="zero-total-with-a-digit"),
    # a+b = 1, a+c = 1, b+c = 1 (and a+b+c = 1): no layout, and no digit is full or
    # empty, so only counting finds it.
    pytest.param(
        "3x3x3\nH1H\n232\nFHF\n",
        ["no mine layout", "(1, 0)"],
        id="odd-cycle-found-only-by-counting",
    ),
    # the 3 fills its three cells, which is one mine too many for either 1.
    pytest.param(
        "3x2x3\nHHH\n131\n",
        ["cannot be satisfied", "too many"],
        id="full-digit-overfills-its-neighbour",
    ),
]


@pytest.mark.parametrize(("text", "words"), INCONSISTENT)
@pytest.mark.parametrize("engine", engine_params(sorted(ENGINES)))
def test_inconsistent_position(text: str, words: list[str], engine: str) -> None:
    position = Position.from_text(text)
    with pytest.raises(InconsistentPosition) as info:
        analyze(position, engine=engine)
    assert isinstance(info.value, ValueError)
    if engine == "exact":
        for word in words:
            assert word in str(info.value)


def test_odd_cycle_is_inconsistent_under_a_density_too() -> None:
    position = Position.from_text("H1H\n232\nFHF\n")
    with pytest.raises(InconsistentPosition, match=r"\(1, 0\)"):
        analyze(position, density="1/2")


def test_untrusted_flags_can_make_a_position_consistent() -> None:
    """The flag next to the 0 is wrong; as a hidden cell it is simply safe, and the one
    mine is in the last cell."""
    position = Position.from_text("4x1x1\nF0HH\n")
    with pytest.raises(InconsistentPosition, match=r"\(1, 0\)"):
        analyze(position)
    for engine in ("exact", "brute"):
        got = analyze(position, engine=engine, trust_flags=False)
        assert got.layouts == 1
        assert got.safe == {(0, 0), (2, 0)}
        assert got.certain_mines == {(3, 0)}


# -- unknown total, density, engine -------------------------------------------------------


def test_unknown_total_needs_a_total_or_a_density() -> None:
    position = Position.from_text("H1HH\nHHHH\n")
    with pytest.raises(MineCountUnknown, match="unknown") as info:
        analyze(position)
    assert isinstance(info.value, ValueError)
    assert analyze(position.with_mines(1)).layouts == 5  # the mine next to the 1
    assert analyze(position, density="1/5").probabilities[(3, 1)] == Fraction(1, 5)


@pytest.mark.parametrize(
    ("density", "reason"),
    [
        (0, "strictly between 0 and 1"),
        (1, "strictly between 0 and 1"),
        (-0.1, "strictly between 0 and 1"),
        (1.5, "strictly between 0 and 1"),
        ("0", "strictly between 0 and 1"),
        ("abc", "not a number"),
        ("1/0", "not a number"),
        ("", "not a number"),
    ],
)
def test_bad_density(density: object, reason: str) -> None:
    position = Position.from_text("H1H\nHHH\n")
    with pytest.raises(ValueError, match=reason) as info:
        analyze(position, density=density)  # type: ignore[arg-type]
    assert str(density) in str(info.value)


def test_unknown_engine() -> None:
    position = Position.from_text("3x1x1\nH1H\n")
    with pytest.raises(EngineError, match="unknown engine 'nope'") as info:
        analyze(position, engine="nope")
    assert isinstance(info.value, ValueError)
    assert "exact" in str(info.value)  # the message lists the engines available


SMALL_TEXT = st.integers(2, 4).flatmap(
    lambda w: st.tuples(
        st.just(w),
        st.lists(st.sampled_from("HHH0123F"), min_size=w, max_size=3 * w).map(
            lambda cells: cells[: len(cells) // w * w]
        ),
        st.integers(0, 12),
    )
)


@settings(max_examples=150, deadline=None)
@given(SMALL_TEXT)
def test_every_engine_refuses_what_the_exact_engine_refuses(
    board: tuple[int, list[str], int],
) -> None:
    """Consistency is one question with one answer: each engine raises
    :class:`InconsistentPosition` exactly when no layout explains the position."""
    width, cells, mines = board
    height = len(cells) // width
    rows = ["".join(cells[y * width : (y + 1) * width]) for y in range(height)]
    position = Position.from_text("\n".join(rows)).with_mines(min(mines, width * height))
    try:
        analyze(position)
        consistent = True
    except InconsistentPosition:
        consistent = False
    for engine in filter(engine_available, sorted(ENGINES)):  # ilp needs its extra
        if consistent:
            analyze(position, engine=engine)
        else:
            with pytest.raises(InconsistentPosition):
                analyze(position, engine=engine)


def test_belief_propagation_refuses_a_total_the_digits_cannot_take() -> None:
    """Three flags and a 1 already satisfied: two mines have nowhere to go."""
    with pytest.raises(InconsistentPosition, match="total of 5 mines"):
        analyze(Position.from_text("2x3x5\nH1\nHF\nFF\n"), engine="bp")
