"""A reading read surely but inconsistent (a real board whose flags a person placed
wrong, or a lattice of parts of cells) is kept while the other lattices are read, and
only a coarser lattice's reading can take its place: the lattices that cannot be
coarser are not read, and the reading is the same as when every lattice is."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("PIL")
pytest.importorskip("numpy")

import numpy as np
from vision_samples import DATA

from minesolver.vision import read_screenshot, reader
from minesolver.vision.grid import Axis
from minesolver.vision.reading import BoardReading


def _axes(period_x: float, period_y: float) -> tuple[Axis, Axis]:
    return Axis(0.0, period_x, 4, np.zeros(1)), Axis(0.0, period_y, 4, np.zeros(1))


def _fine(cell: float) -> BoardReading:
    return BoardReading("web", 2, 2, (0.0, 0.0, 2 * cell, 2 * cell), (cell, cell), (), None, None)


def test_a_lattice_may_be_coarser_only_at_whole_multiples_of_two_or_more() -> None:
    fine = _fine(30.0)
    assert reader._may_be_coarser(fine, _axes(60.0, 60.0))
    assert reader._may_be_coarser(fine, _axes(90.5, 61.0))
    assert reader._may_be_coarser(fine, _axes(52.0, 68.0))  # a period moved by placing
    assert not reader._may_be_coarser(fine, _axes(30.0, 60.0))  # the same cells across
    assert not reader._may_be_coarser(fine, _axes(60.0, 15.0))
    assert not reader._may_be_coarser(fine, _axes(40.0, 60.0))  # a cell and a third


@pytest.mark.parametrize(
    "name", ["gnome-default-8x8-h-flags", "gnome-8x8-flags", "kmines-9x9-i-flags"]
)
def test_skipping_the_lattices_that_cannot_be_coarser_changes_no_reading(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Boards whose flags a person placed wrong: refused as inconsistent, cell for cell
    and margin for margin as when every other lattice is read, fewer lattices read."""
    tried: list[str] = []

    def read(skip: bool) -> tuple[Any, ...]:
        tried.clear()
        with monkeypatch.context() as m:
            if not skip:
                m.setattr(reader, "_may_be_coarser", lambda fine, axes: True)
            got = read_screenshot(DATA / f"{name}.png", progress=tried.append)
        return (got.skin, got.box, [(c.label, c.margin) for c in got.cells], got.problem)

    every = read(skip=False)
    read_every = [t for t in tried if t.startswith("trying another")]
    few = read(skip=True)
    read_few = [t for t in tried if t.startswith("trying another")]
    assert few == every
    assert "inconsistent" in str(few[3])
    assert len(read_few) < len(read_every)
