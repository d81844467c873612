"""A 200x200 board with 8,000 mines, analysed exactly.

The layout count has about 8,700 decimal digits (Python refuses ``str`` of ints over
4,300 digits by default) and the binomials behind it are far beyond any float. The
count is checked against an independent computation (own frontier, own components,
enumeration per component, binomials for the rest), and the JSON of
``minesolver solve --json`` must carry it as a decimal string that parses back.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from gen import cut_position

from minesolver import FLAG, HIDDEN, Analysis, Position, analyze
from minesolver.ui.cli import main

Cell = tuple[int, int]


@pytest.fixture(scope="module")
def big() -> Position:
    """Expert density (20 %) on 200x200, the first click and 60 openings next to it,
    half the visible mines flagged."""
    cut = cut_position(random.Random(2026), 200, 200, 8000, openings=60, flag_fraction=0.5)
    return cut.position


@pytest.fixture(scope="module")
def big_analysis(big: Position) -> Analysis:
    return analyze(big)


@pytest.fixture
def unlimited_int_digits() -> Iterator[None]:
    """Let ``int()`` and ``str()`` handle any number of digits inside one test."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


def independent_count(p: Position) -> tuple[int, Fraction]:
    """Layout count and the probability of a cell touching no digit, without the library.

    Frontier cells (hidden, next to a digit) are grouped by shared digits; each group's
    layouts by mine number are enumerated by backtracking against its digits; the
    groups' polynomials are multiplied and the other hidden cells take the rest of the
    mines: ``sum_t F[t] * C(I, left - t)``.
    """
    assert p.mines is not None
    w, h = p.width, p.height

    def around(x: int, y: int) -> list[Cell]:
        return [
            (x + dx, y + dy)
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h
        ]

    digits = [(x, y) for y in range(h) for x in range(w) if p[(x, y)] >= 0]
    frontier: dict[Cell, list[Cell]] = {}  # hidden cell -> digits next to it
    for d in digits:
        for c in around(*d):
            if p[c] == HIDDEN:
                frontier.setdefault(c, []).append(d)
    # groups: connected through shared digits (a plain graph search).
    groups: list[list[Cell]] = []
    seen: set[Cell] = set()
    for start in frontier:
        if start in seen:
            continue
        group, todo = [], [start]
        seen.add(start)
        while todo:
            c = todo.pop()
            group.append(c)
            for d in frontier[c]:
                for o in around(*d):
                    if o in frontier and o not in seen:
                        seen.add(o)
                        todo.append(o)
        groups.append(group)
    poly = [1]
    for group in groups:
        counts = _enumerate(p, group, frontier, around)
        new = [0] * (len(poly) + len(counts) - 1)
        for i, x in enumerate(poly):
            for j, y in enumerate(counts):
                new[i + j] += x * y
        poly = new
    interior = sum(1 for c in p if p[c] == HIDDEN) - len(frontier)
    left = p.mines - p.flags
    layouts = sum(f * c for f, c in zip(poly, falling_binomials(interior, left), strict=False))
    inner = sum(
        f * c for f, c in zip(poly, falling_binomials(interior - 1, left - 1), strict=False)
    )
    return layouts, Fraction(inner, layouts)


def falling_binomials(n: int, k: int) -> list[int]:
    """``[C(n, k), C(n, k-1), ..., C(n, 0)]``, each from the last by one exact division
    (``C(n, j-1) = C(n, j) * j / (n - j + 1)``) instead of a fresh big ``comb``."""
    if not 0 <= k <= n:
        return [comb(n, j) for j in range(k, -1, -1)]
    out = [comb(n, k)]
    for j in range(k, 0, -1):
        out.append(out[-1] * j // (n - j + 1))
    return out


def _enumerate(
    p: Position,
    group: list[Cell],
    frontier: dict[Cell, list[Cell]],
    around: Callable[[int, int], list[Cell]],
) -> list[int]:
    """Layouts of ``group`` by mine number, by backtracking over its cells in search
    order; a digit prunes when it has too many mines or can no longer get enough."""
    need = {
        d: p[d] - sum(1 for o in around(*d) if p[o] == FLAG) for c in group for d in frontier[c]
    }
    free = {d: sum(1 for o in around(*d) if o in frontier) for d in need}
    counts = [0] * (len(group) + 1)

    def place(k: int, mines: int) -> None:
        if k == len(group):
            counts[mines] += 1
            return
        ds = frontier[group[k]]
        for d in ds:
            free[d] -= 1
        for bit in (0, 1):
            for d in ds:
                need[d] -= bit
            if all(0 <= need[d] <= free[d] for d in ds):
                place(k + 1, mines + bit)
            for d in ds:
                need[d] += bit
        for d in ds:
            free[d] += 1

    place(0, 0)
    return counts


def test_big_board_is_exact(big: Position, big_analysis: Analysis) -> None:
    a = big_analysis
    assert (big.width, big.height, big.mines) == (200, 200, 8000)
    assert len(a.probabilities) == big.cells.count(HIDDEN) > 39_000
    assert all(type(v) is Fraction for v in a.probabilities.values())
    assert type(a.layouts) is int
    assert a.layouts > 10**4300  # more than 4,300 decimal digits
    # linearity of expectation, exactly: no float anywhere on the way.
    assert sum(a.probabilities.values(), Fraction(0)) == 8000 - big.flags
    layouts, interior_p = independent_count(big)
    assert a.layouts == layouts
    far = next(c for c in big if big[c] == HIDDEN and all(big[o] < 0 for o in big.neighbours(c)))
    assert a.probabilities[far] == interior_p
    assert Fraction(1, 10) < interior_p < Fraction(3, 10)


@pytest.mark.slow
def test_solve_json_prints_the_long_count(
    big: Position,
    big_analysis: Analysis,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    unlimited_int_digits: None,
) -> None:
    path = tmp_path / "big.txt"
    path.write_text(big.to_text(), encoding="utf-8")
    assert main(["solve", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out["layouts"], str)
    assert len(out["layouts"]) > 4300
    assert int(out["layouts"]) == big_analysis.layouts
    assert len(out["cells"]) == len(big_analysis.probabilities)
    for cell in out["cells"][::997]:
        assert Fraction(cell["p"]) == big_analysis.probabilities[(cell["x"], cell["y"])]
    assert sys.get_int_max_str_digits() == 0  # inside the fixture's scope


def test_int_digit_limit_is_restored() -> None:
    """Runs after the test above: the fixture gave back the interpreter's limit."""
    assert sys.get_int_max_str_digits() != 0
