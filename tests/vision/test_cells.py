"""Scaling cells to the templates' size: the running-sums path equals Pillow's box filter
to within one level of 8 bits (Pillow rounds between its two passes), whatever the
lattice, its fractions of a pixel, and the part of it outside the image."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
Image = pytest.importorskip("PIL.Image")

from minesolver.vision.templates import (  # noqa: E402
    SIZE,
    box_vectors,
    cell_vectors,
    integral,
    lattice_vectors,
)


def pillow_cells(image: object, boxes: list[tuple[float, float, float, float]]) -> object:
    out = np.zeros((len(boxes), SIZE * SIZE * 3), dtype=np.float32)
    w, h = image.size  # type: ignore[attr-defined]
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        box = (max(0.0, x0), max(0.0, y0), min(float(w), x1), min(float(h), y1))
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            continue
        cell = image.resize((SIZE, SIZE), Image.Resampling.BOX, box=box)  # type: ignore[attr-defined]
        out[i] = np.asarray(cell, dtype=np.float32).reshape(-1) / 255.0
    return out


@pytest.mark.parametrize("seed", range(40))
def test_a_lattice_is_scaled_as_pillow_scales_each_cell(seed: int) -> None:
    rng = random.Random(seed)
    w, h = rng.randrange(30, 300), rng.randrange(30, 300)
    gen = np.random.default_rng(seed)
    rgb = gen.integers(0, 256, (h, w, 3), dtype=np.uint8)
    period = rng.uniform(5, 70)
    x0, y0 = rng.uniform(-period, w / 2), rng.uniform(-period, h / 2)
    nx, ny = rng.randrange(1, 8), rng.randrange(1, 8)
    xs = [x0 + k * period for k in range(nx + 1)]
    ys = [y0 + k * period * rng.uniform(0.97, 1.03) for k in range(ny + 1)]
    cols = sorted(rng.sample(range(nx), rng.randrange(1, nx + 1)))
    rows = sorted(rng.sample(range(ny), rng.randrange(1, ny + 1)))
    boxes = [(xs[i], ys[j], xs[i + 1], ys[j + 1]) for j in rows for i in cols]
    ours = lattice_vectors(integral(rgb), xs, ys, cols, rows)
    theirs = pillow_cells(Image.fromarray(rgb), boxes)
    assert ours.shape == theirs.shape
    assert float(np.abs(ours - theirs).max()) <= 1.5 / 255
    # the same cells one box at a time
    assert np.array_equal(cell_vectors(Image.fromarray(rgb), boxes), ours)


@pytest.mark.parametrize("seed", range(20))
def test_boxes_each_moved_its_own_way_are_scaled_as_one_cell_lattices(seed: int) -> None:
    """Boxes that form no lattice (a reader's cells each shifted by its own fraction of a
    pixel, some partly or wholly off the image, some under a pixel) scaled at once equal
    each box scaled alone as a one-cell lattice, and Pillow's box filter within a level."""
    rng = random.Random(seed)
    w, h = rng.randrange(20, 200), rng.randrange(20, 200)
    rgb = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    boxes = []
    for _ in range(rng.randrange(1, 30)):
        x0, y0 = rng.uniform(-30, w), rng.uniform(-30, h)
        side = rng.choice([rng.uniform(0.2, 1.5), rng.uniform(5, 60)])
        boxes.append((x0, y0, x0 + side, y0 + side * rng.uniform(0.9, 1.1)))
    table = integral(rgb)
    corners = np.asarray(boxes, dtype=np.float64)
    ours = box_vectors(table, *corners.T)
    alone = np.concatenate([lattice_vectors(table, [a, c], [b, d]) for a, b, c, d in boxes])
    assert np.array_equal(ours, alone)
    theirs = pillow_cells(Image.fromarray(rgb), boxes)
    assert float(np.abs(ours - theirs).max()) <= 1.5 / 255
    assert box_vectors(table, [], [], [], []).shape == (0, SIZE * SIZE * 3)


def test_the_running_sums_wrap_yet_a_cell_stays_exact() -> None:
    """On an image whose sums pass 2**32 the table wraps; a cell read from it does not."""
    rgb = np.full((300, 60_000, 3), 255, dtype=np.uint8)
    rgb[-20:, -20:] = 7
    table = integral(rgb)
    assert int(table[-1, -1, 0]) != 255 * 300 * 60_000  # wrapped
    cell = lattice_vectors(table, [59_980.0, 60_000.0], [280.0, 300.0])
    assert np.allclose(cell, 7 / 255)
    whole = lattice_vectors(table, [0.0, 16.0], [0.0, 16.0])
    assert np.allclose(whole, 1.0)


def _long_by_sums(mask: object, axis: int, length: int) -> object:
    """The straight runs of a mask found with running sums (the plain way)."""
    m = np.moveaxis(mask, axis, 0).astype(np.int64)
    n = m.shape[0]
    if n < length:
        return np.zeros_like(mask)
    c = np.concatenate([np.zeros((1, *m.shape[1:]), np.int64), np.cumsum(m, axis=0)])
    starts = (c[length:] - c[:-length]) == length  # a whole window starts here
    covered = np.zeros(m.shape, dtype=bool)
    for s in np.flatnonzero(starts.reshape(starts.shape[0], -1).any(axis=1)):
        covered[s : s + length] |= starts[s]
    return np.moveaxis(covered, 0, axis)


@pytest.mark.parametrize("seed", range(60))
def test_straight_runs_by_shifts_equal_the_runs_by_sums(seed: int) -> None:
    from minesolver.vision.grid import _long

    gen = np.random.default_rng(seed)
    h, w = (int(v) for v in gen.integers(1, 40, 2))
    length = int(gen.integers(1, 12))
    mask = gen.random((h, w)) < gen.uniform(0.3, 0.97)
    for axis in (0, 1):
        assert np.array_equal(_long(mask, axis, length), _long_by_sums(mask, axis, length))
