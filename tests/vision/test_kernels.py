"""The screenshot reader's native kernels against their numpy reference: the cells scaled
from the running sums equal, to the bit, what numpy computes in Pillow's fixed point
(the reader's code before the kernels moved to the native core); malformed buffers are
a clear ``ValueError``, never a crash."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("PIL")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver import _native
from minesolver.vision.templates import SIZE, _ranges, integral, lattice_vectors

BITS = 22


def reference_box_means(table: np.ndarray, ys: tuple, xs: tuple, ok: np.ndarray) -> np.ndarray:
    """The numpy reference: boxes ``[ya, yb) x [xa, xb)`` (index arrays that broadcast
    together) averaged from the running sums, rounded as Pillow rounds, over 255."""
    w = table.shape[1] - 1
    (ay, by), (ax, bx) = ys, xs
    flat = table.reshape(-1, 3)
    ya, yb = ay * (w + 1), by * (w + 1)
    sums = (
        np.take(flat, yb + bx, axis=0)
        - np.take(flat, ya + bx, axis=0)
        - np.take(flat, yb + ax, axis=0)
        + np.take(flat, ya + ax, axis=0)
    )
    count = (by - ay) * (bx - ax)
    ok = ok & (count > 0)
    weight = np.where(ok, 0.5 + (1 << BITS) / np.maximum(count, 1), 0).astype(np.int64)
    kind = np.int32 if int(count.max()) < 1 << 20 else np.int64
    cells = (sums.astype(kind) * weight.astype(kind)[..., None] + (1 << (BITS - 1))) >> BITS
    return np.minimum(cells, 255).astype(np.float32) / 255.0


def reference_lattice(table: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Every cell of the lattice ``xs`` x ``ys`` scaled by the reference, rows outer."""
    h, w = table.shape[0] - 1, table.shape[1] - 1
    x0, x1 = np.maximum(0.0, xs[:-1]), np.minimum(float(w), xs[1:])
    y0, y1 = np.maximum(0.0, ys[:-1]), np.minimum(float(h), ys[1:])
    col_ok, row_ok = x1 - x0 >= 1, y1 - y0 >= 1
    ax, bx, _ = _ranges(np.where(col_ok, x0, 0.0), np.where(col_ok, x1, 1.0), w)
    ay, by, _ = _ranges(np.where(row_ok, y0, 0.0), np.where(row_ok, y1, 1.0), h)
    cells = reference_box_means(
        table,
        (ay[:, :, None, None], by[:, :, None, None]),
        (ax[None, None, :, :], bx[None, None, :, :]),
        row_ok[:, None, None, None] & col_ok[None, None, :, None],
    )
    return cells.transpose(0, 2, 1, 3, 4).reshape(-1, SIZE * SIZE * 3)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    width=st.integers(1, 90),
    height=st.integers(1, 70),
    period=st.floats(0.5, 40.0),
    start=st.tuples(st.floats(-20.0, 60.0), st.floats(-20.0, 60.0)),
    counts=st.tuples(st.integers(1, 8), st.integers(1, 8)),
)
def test_a_lattice_is_scaled_as_the_numpy_reference_to_the_bit(
    seed: int,
    width: int,
    height: int,
    period: float,
    start: tuple[float, float],
    counts: tuple[int, int],
) -> None:
    """Random images and lattices (cells smaller than a pixel, cut by the image's edges,
    wholly outside it): every value equal."""
    rgb = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    table = integral(rgb)
    xs = start[0] + period * np.arange(counts[0] + 1)
    ys = start[1] + period * np.arange(counts[1] + 1)
    got = lattice_vectors(table, xs, ys)
    assert got.dtype == np.float32
    assert np.array_equal(got, reference_lattice(table, xs, ys))


def reference_integral(rgb: np.ndarray) -> np.ndarray:
    """numpy's running sums (the reader's code before they moved to the native core):
    two cumulative sums in unsigned 32 bits, wrapping."""
    h, w = rgb.shape[:2]
    table = np.zeros((h + 1, w + 1, 3), dtype=np.uint32)
    np.cumsum(rgb, axis=1, dtype=np.uint32, out=table[1:, 1:])
    np.cumsum(table[1:, 1:], axis=0, dtype=np.uint32, out=table[1:, 1:])
    return table


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_the_running_sums_are_numpys(height: int, width: int, seed: int) -> None:
    """Random images, empty ones included: every entry equal."""
    rgb = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    got = integral(rgb)
    assert got.dtype == np.uint32
    assert np.array_equal(got, reference_integral(rgb))


def test_running_sums_past_two_to_the_32_wrap_as_numpys() -> None:
    """A white image of 5,000 x 4,000 pixels: its sums pass 2**32 and wrap, as numpy's;
    a box's sum, four entries taken modulo 2**32, is still exact."""
    rgb = np.full((4000, 5000, 3), 255, dtype=np.uint8)
    got = integral(rgb)
    assert np.array_equal(got[-1, -1], reference_integral(rgb)[-1, -1])
    assert int(got[-1, -1, 0]) == (255 * 4000 * 5000) % (1 << 32)
    box = got[3000, 4000] - got[1000, 4000] - got[3000, 1000] + got[1000, 1000]
    assert (box == 255 * 2000 * 3000).all()


def test_running_sums_of_a_malformed_buffer_are_a_clear_error() -> None:
    """A table of the wrong shape, or a read-only one, is a ValueError, not a crash."""
    rgb = np.zeros((4, 5, 3), dtype=np.uint8)
    with pytest.raises(ValueError, match="rows"):
        _native.integral(rgb, 5, np.zeros((4, 6, 3), dtype=np.uint32))
    with pytest.raises(ValueError, match="rows"):
        _native.integral(rgb, 7, np.zeros((5, 6, 3), dtype=np.uint32))
    table = np.zeros((5, 6, 3), dtype=np.uint32)
    table.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        _native.integral(rgb, 5, table)


def test_boxes_of_over_a_million_pixels_a_value_are_as_the_reference() -> None:
    """A scaled pixel of 2^20 image pixels or more (the reference then multiplies in 64
    bits), on a bright image a pixel wide and a million high: equal."""
    tall = (1 << 20) + 5
    rgb = np.random.default_rng(3).integers(200, 256, (tall, 2, 3), dtype=np.uint8)
    table = integral(rgb)
    ay = np.zeros((1, SIZE), dtype=np.int64)
    by = np.full((1, SIZE), tall, dtype=np.int64)
    ax = np.zeros((1, SIZE), dtype=np.int64)
    bx = np.tile(np.array([1, 2] * (SIZE // 2), dtype=np.int64), (1, 1))
    out = np.empty((1, SIZE * SIZE * 3), dtype=np.float32)
    _native.box_means(table, table.shape[1], ay, by, ax, bx, np.ones(1, dtype=np.uint8), out)
    want = reference_box_means(
        table,
        (ay[:, :, None], by[:, :, None]),
        (ax[:, None, :], bx[:, None, :]),
        np.ones((1, 1, 1), bool),
    )
    assert np.array_equal(out, want.reshape(1, -1))


def _box_arguments(boxes: int = 2) -> list[np.ndarray | int]:
    table = integral(np.zeros((10, 10, 3), dtype=np.uint8))
    zero = np.zeros((boxes, SIZE), dtype=np.int64)
    one = np.ones((boxes, SIZE), dtype=np.int64)
    ok = np.ones(boxes, dtype=np.uint8)
    out = np.empty((boxes, SIZE * SIZE * 3), dtype=np.float32)
    return [table, table.shape[1], zero, one, zero, one, ok, out]


@pytest.mark.parametrize(
    ("place", "value", "words"),
    [
        (2, np.full((2, SIZE), 11, dtype=np.int64), "outside the image"),
        (2, np.zeros((2, SIZE - 1), dtype=np.int64), "must be 2 x 16"),
        (6, np.ones(3, dtype=np.uint8), "must be 3 x 16"),
        (2, np.zeros((2, 2 * SIZE), dtype=np.int64)[:, ::2], "C-contiguous"),
        (1, 0, "rows of `width`"),
        (2, np.zeros((2, SIZE), dtype=np.float64), "not compatible"),
    ],
)
def test_malformed_buffers_are_a_value_error(place: int, value: object, words: str) -> None:
    """A box outside the image, ranges of the wrong shape, a wrong count of boxes or of
    sums a row: a ValueError that says what (a wrong element type: the buffer's own
    error), never a read outside the image."""
    arguments = _box_arguments()
    arguments[place] = value
    with pytest.raises((ValueError, BufferError), match=words):
        _native.box_means(*arguments)


def test_a_read_only_or_overlapping_output_is_refused() -> None:
    """The kernels write only into an array made for them."""
    arguments = _box_arguments()
    out = arguments[7]
    assert isinstance(out, np.ndarray)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        _native.box_means(*arguments)
    cells = np.zeros((2, 768), dtype=np.float32)
    mid, small = np.zeros((2, 192), dtype=np.float32), np.zeros((2, 48), dtype=np.float32)
    with pytest.raises(ValueError, match="overlaps"):
        _native.nearest(cells, cells, mid, small, 0.1, 1e-5, np.inf, cells[0, :2])
    with pytest.raises(ValueError, match="disagree"):
        _native.nearest(cells, cells, mid[:1], small, 0.1, 1e-5, np.inf, np.empty(2, np.float32))
    with pytest.raises(ValueError, match="rows of 768"):
        _native.nearest(
            np.zeros((2, 700), np.float32),
            cells,
            mid,
            small,
            0.1,
            1e-5,
            np.inf,
            np.empty(2, np.float32),
        )


@settings(max_examples=40, deadline=None)
@given(
    cells=st.integers(0, 5),
    seed=st.integers(0, 2**32 - 1),
    flat=st.booleans(),
)
def test_the_structure_is_each_cells_spread_about_its_colours_means(
    cells: int, seed: int, flat: bool
) -> None:
    """The native structure equals the definition computed in double precision by numpy
    (within the last bit of single precision), and a flat patch of one colour has none."""
    rng = np.random.default_rng(seed)
    if flat:
        vectors = np.tile(rng.random(3, dtype=np.float32), (cells, 256))
    else:
        vectors = rng.random((cells, 768), dtype=np.float32)
    out = np.empty(cells, dtype=np.float32)
    _native.structure(vectors, out)
    v = vectors.astype(np.float64).reshape(cells, 256, 3)
    reference = np.sqrt(((v - v.mean(axis=1, keepdims=True)) ** 2).mean(axis=(1, 2)))
    assert np.allclose(out, reference, rtol=1e-6, atol=1e-7)
    if flat:
        assert (out < 1e-6).all()


def test_the_structure_refuses_a_wrong_shape_or_an_overlap() -> None:
    cells = np.zeros((2, 768), dtype=np.float32)
    with pytest.raises(ValueError, match="rows of 768"):
        _native.structure(cells, np.empty(3, np.float32))
    with pytest.raises(ValueError, match="overlaps"):
        _native.structure(cells, cells[0, :2])


def reference_edge_maps(rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The numpy reference (the reader's edge maps before they moved to the native core):
    each step the largest channel's, kept on straight runs (by boolean shifts)."""
    from minesolver.vision.grid import _CAP, _EDGE, _RUN, _long

    def step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        d = np.maximum(a, b) - np.minimum(a, b)
        return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])

    dx = step(rgb[:, 1:], rgb[:, :-1])
    dy = step(rgb[1:], rgb[:-1])
    vx = np.where(_long(dx > _EDGE, 0, _RUN), np.minimum(dx, _CAP), 0).astype(np.float32)
    vy = np.where(_long(dy > _EDGE, 1, _RUN), np.minimum(dy, _CAP), 0).astype(np.float32)
    return vx, vy


@settings(max_examples=120, deadline=None)
@given(
    h=st.integers(1, 30),
    w=st.integers(1, 30),
    levels=st.sampled_from([(0, 20), (0, 14, 15, 29), (0, 100, 200, 255), tuple(range(256))]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_edge_maps_are_numpys(h: int, w: int, levels: tuple[int, ...], seed: int) -> None:
    """Random images of a few levels (steps at, just over and far over the threshold,
    runs of every length, one row or column): the same maps, value for value."""
    from minesolver.vision.grid import edge_maps

    rng = np.random.default_rng(seed)
    rgb = np.asarray(levels, dtype=np.uint8)[rng.integers(0, len(levels), (h, w, 3))]
    # some runs of one step down the columns and along the rows
    if h > 8 and w > 2:
        rgb[2 : 2 + rng.integers(5, 9), w // 2] = 255
    for got, want in zip(edge_maps(rgb), reference_edge_maps(rgb), strict=True):
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want)


@pytest.mark.parametrize(
    "name", ["desktop/gnome-8x8-1600x900", "kmines-9x9-a", "jsms-every-16-2", "arbiter-expert"]
)
def test_the_edge_maps_of_real_screenshots_are_numpys(name: str) -> None:
    from PIL import Image
    from vision_samples import DATA

    from minesolver.vision.grid import edge_maps

    rgb = np.asarray(Image.open(DATA / f"{name}.png").convert("RGB"))
    for got, want in zip(edge_maps(rgb), reference_edge_maps(rgb), strict=True):
        assert np.array_equal(got, want)


def test_edge_maps_of_a_wrong_shape_are_a_clear_error() -> None:
    pixels = np.zeros((2, 2, 3), np.uint8)
    vx, vy = np.zeros((2, 1), np.float32), np.zeros((1, 2), np.float32)
    _native.edges(pixels, 2, 14, 7, 128, vx, vy)
    with pytest.raises(ValueError, match="edge maps"):
        _native.edges(pixels, 2, 14, 7, 128, vx[:1], vy)
    with pytest.raises(ValueError, match="overlaps"):
        _native.edges(pixels, 2, 14, 7, 128, vx, vx)
    # a width the pixels do not hold: refused before anything is sized by it
    empty, none = np.zeros(0, np.uint8), np.zeros(0, np.float32)
    for width in (2**62, 2**64 - 1, 5):
        with pytest.raises(ValueError, match="rows of"):
            _native.edges(empty if width > 5 else pixels, width, 14, 7, 128, none, none.copy())
