"""Shared helpers of the game's tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from minesolver.game import Layout


def layout_from_rows(rows: list[str]) -> Layout:
    """A layout from rows of '.' and '*' (a mine)."""
    cells = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "*"]
    return Layout.from_cells(len(rows[0]), len(rows), cells)


@pytest.fixture
def layout_of() -> Callable[[list[str]], Layout]:
    """:func:`layout_from_rows`, for a test to draw its board."""
    return layout_from_rows
