"""The fits' nearest-template distances: pruned by a coarse lower bound, yet equal to the
full comparison's (the brute force here), on real templates and cells near them."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")
pytest.importorskip("PIL")

import numpy as np

from minesolver.vision.cells import CAP, _distances, _nearest
from minesolver.vision.templates import coarse, load_skin, skin_names


def test_a_coarse_distance_is_a_lower_bound() -> None:
    """At most the full distance, and equal to it when two cells differ by the same
    amount all over each block (nothing is lost in the blocks' means)."""
    rng = np.random.default_rng(5)
    a = rng.random((50, 768), dtype=np.float32)
    b = rng.random((40, 768), dtype=np.float32)

    def rms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.sqrt(((x[:, None, :] - y[None, :, :]) ** 2).mean(axis=2))

    assert (rms(coarse(a), coarse(b)) <= rms(a, b) + 1e-6).all()
    step = np.repeat(np.repeat(rng.random((1, 4, 4, 3)), 4, axis=1), 4, axis=2)
    shifted = (a[:5] + 0.2 * step.reshape(1, 768)).astype(np.float32)
    same = np.diag(rms(coarse(a[:5]), coarse(shifted)))
    assert np.allclose(same, np.diag(rms(a[:5], shifted)), atol=1e-5)


@pytest.mark.parametrize("name", skin_names())
def test_the_nearest_template_is_the_brute_forces(name: str) -> None:
    """Cells made from the skin's own templates, blurred by noise of several strengths
    (near, between and beyond the cap), mixed with another template: the pruned nearest
    distance is the full product's, capped, for every cell."""
    skin = load_skin(name)
    rng = np.random.default_rng(len(name))
    n = 300
    pick = rng.integers(0, len(skin.vectors), n)
    other = rng.integers(0, len(skin.vectors), n)
    mix = rng.random(n)[:, None] * rng.choice([0.0, 0.3, 1.0], n)[:, None]
    noise = (
        rng.normal(0, 1, (n, skin.vectors.shape[1]))
        * rng.choice([0.0, 0.01, 0.05, 0.2], n)[:, None]
    )
    cells = (1 - mix) * skin.vectors[pick] + mix * skin.vectors[other] + noise
    cells = np.clip(cells, 0, 1).astype(np.float32)
    want = np.minimum(_distances(skin, cells).min(axis=1), CAP)
    got = _nearest(skin, cells)
    # the full product loses digits near zero (differences of squares); the pairs do not
    assert np.allclose(got, want, atol=2e-3)
    exact = np.sqrt(((cells[:, None, :] - skin.vectors[None, :, :]) ** 2).mean(axis=2))
    assert np.allclose(got, np.minimum(exact.min(axis=1), CAP), atol=1e-5)


@pytest.mark.parametrize("name", ["gnome-classic", "kmines", "xdemineur"])
def test_a_stopped_measure_agrees_until_its_stop_and_is_capped_after(name: str) -> None:
    """With a stop, each cell measured before the capped distances pass it is measured
    as without one, and every cell after is the cap: so a mean below the stop over the
    cells is never stopped, and a mean stopped is above it."""
    skin = load_skin(name)
    rng = np.random.default_rng(7)
    n = 80
    noise = rng.normal(0, 1, (n, 768)) * rng.choice([0.0, 0.05, 0.3], n)[:, None]
    cells = skin.vectors[rng.integers(0, len(skin.vectors), n)] + noise
    cells = np.clip(cells, 0, 1).astype(np.float32)
    full = _nearest(skin, cells)
    total = float(np.sum(full, dtype=np.float64))
    for stop in (0.0, 0.3 * total, 0.9 * total, total, 2 * total):
        got = _nearest(skin, cells, stop=stop)
        sums = np.concatenate([[0.0], np.cumsum(full, dtype=np.float64)])
        # the first cell not measured: the first whose earlier cells sum past the stop
        past = np.flatnonzero(sums[:n] > stop)
        cut = int(past[0]) if len(past) else n
        assert np.array_equal(got[:cut], full[:cut])
        assert (got[cut:] == CAP).all()
        if stop >= total:
            assert cut == n
        else:
            assert float(np.sum(got, dtype=np.float64)) > stop
