"""Which lattices are read, and in what order: a lattice far from square cells is never
read (the first found included), and the lattice of half a poorly fitting lattice's
cells is read first when it fits much better; each changes which lattices are read,
not the reading."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

from vision_samples import DATA, truth

from minesolver.vision import read_screenshot, reader
from minesolver.vision.grid import SQUARE
from minesolver.vision.lattice import lattice_fits


def _read(name: str, monkeypatch: pytest.MonkeyPatch, **patches: Any) -> tuple[Any, list[Any]]:
    """Sample ``name`` read with ``reader``'s names patched, and the periods of every
    lattice read in full, in turn."""
    periods: list[tuple[float, float]] = []
    original = reader._read_lattice

    def spy(table: Any, candidates: Any, cols: Any, rows: Any, *rest: Any, **kw: Any) -> Any:
        periods.append((cols.period, rows.period))
        return original(table, candidates, cols, rows, *rest, **kw)

    with monkeypatch.context() as m:
        m.setattr(reader, "_read_lattice", spy)
        for key, value in patches.items():
            m.setattr(reader, key, value)
        got = read_screenshot(DATA / f"{name}.png")
    reading = (got.skin, got.box, [(c.label, c.margin) for c in got.cells], got.problem)
    return reading, periods


def _skew(periods: tuple[float, float]) -> float:
    return abs(periods[0] - periods[1]) / periods[1]


@pytest.mark.parametrize("name", ["kmines-9x9-a", "kmines-9x9-lost"])
def test_a_first_lattice_far_from_square_is_not_read(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """KMines boards whose first lattice found has columns of half the rows' period:
    not read (it read nothing, for seconds), and the reading the same, cell for cell
    and margin for margin, as when it is read first."""
    skipped, periods = _read(name, monkeypatch)
    assert all(_skew(p) <= SQUARE for p in periods)
    every, periods_every = _read(name, monkeypatch, SQUARE=10.0)
    assert any(_skew(p) > SQUARE for p in periods_every)
    assert skipped == every
    assert "".join(label for label, _ in skipped[2]) == "".join(truth(name))


@pytest.mark.parametrize(
    ("name", "cell"),
    [("kmines-30x16-15-flags", 49.5), ("kmines-classic-16x16-15-flags", 37.5)],
)
def test_the_half_of_a_poorly_fitting_lattice_is_read_first_when_it_fits_better(
    name: str, cell: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """KMines at display scale 1.5: the lattice found first is two tiles a cell (the
    tiles, 49.5 or 37.5 pixels, are drawn a pixel wider and narrower in turn). Its half
    is read first and reads the board: the same reading as when the half is read only
    after the first lattice (and others) read nothing."""
    ahead, periods = _read(name, monkeypatch)
    assert periods[0][0] == pytest.approx(cell, abs=0.2)
    assert len(periods) == 1
    after, periods_after = _read(name, monkeypatch, HALF_GAIN=1.0)
    assert periods_after[0][0] == pytest.approx(2 * cell, abs=0.5)
    assert ahead == after
    assert "".join(label for label, _ in ahead[2]) == "".join(truth(name))


def _in_turn(table: Any, candidates: Any, pairs: Any) -> list[Any]:
    """:func:`reader._ranked` that keeps the order found (each lattice's fits made)."""
    return [(pair, lattice_fits(table, candidates, pair)) for pair in pairs]


@pytest.mark.parametrize("name", ["kmines-9x9-f-flags", "kmines-9x9-b"])
def test_the_other_lattices_are_read_best_fitting_first(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """KMines boards whose first lattice reads nothing surely: the board's own lattice
    fits a sample best of the others, and is read first; the same board read (every
    cell's label, the box within a pixel: a lattice of the same period found on other
    lines is placed a fraction of a pixel elsewhere) as when the others are read in
    the order found, fewer lattices read."""
    ranked, periods = _read(name, monkeypatch)
    in_turn, periods_in_turn = _read(name, monkeypatch, _ranked=_in_turn)
    assert ranked[0] == in_turn[0]
    assert ranked[1] == pytest.approx(in_turn[1], abs=1.0)
    assert [label for label, _ in ranked[2]] == [label for label, _ in in_turn[2]]
    assert ranked[3] == in_turn[3]
    assert len(periods) < len(periods_in_turn)
    assert "".join(label for label, _ in ranked[2]) == "".join(truth(name))


@pytest.mark.parametrize("name", ["xdemineur-30x16-a", "xdemineur-12x8-dense-a", "web-every-b"])
def test_the_half_of_a_crisp_skins_lattice_is_not_read_first(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crisp skin (xdemineur's, the web page's) fits its own board poorly at whole
    pixels, and KMines' skin fits quarters of its cells better: the half fits better
    at whole pixels, but not once each one's skin is placed, and the board's own
    lattice is read first."""
    reading, periods = _read(name, monkeypatch)
    assert len(periods) == 1
    assert reading[3] is None or "lost" in reading[3]
    assert "".join(label for label, _ in reading[2]) == "".join(truth(name))
