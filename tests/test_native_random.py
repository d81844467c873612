"""The native Mersenne Twister draws exactly as Python's ``random.Random``, and the native
layouts are those ``random_layout`` draws from the same seed (bit for bit, any seed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import minesolver._native as _native
from minesolver.game import Level, random_layout
from minesolver.game.levels import FIRST_CLICK_RULES

seeds = st.one_of(
    st.integers(0, 2**64 - 1), st.integers(-(2**200), 2**200), st.sampled_from([0, 1, 2**32])
)


@given(seeds, st.lists(st.integers(0, 64), max_size=40))
def test_getrandbits_and_words(seed: int, bits: list[int]) -> None:
    py, mt = random.Random(seed), _native.MersenneTwister(abs(seed))
    for k in bits:
        assert mt.getrandbits(k) == py.getrandbits(k)
    assert mt.random() == py.random()
    assert mt.state() == list(py.getstate()[1])


@given(seeds, st.lists(st.integers(1, 2**64 - 1), max_size=30))
def test_randbelow_and_choice(seed: int, bounds: list[int]) -> None:
    py, mt = random.Random(seed), _native.MersenneTwister(abs(seed))
    for n in bounds:
        assert mt.randbelow(n) == py._randbelow(n)  # type: ignore[attr-defined]
        length = n % 1000 + 1
        assert mt.randbelow(length) == py.randrange(length)  # what choice draws
    assert mt.state() == list(py.getstate()[1])


@settings(max_examples=200)
@given(seeds, st.integers(0, 3000), st.data())
def test_sample_both_algorithms(seed: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, min(n, 700)))
    py, mt = random.Random(seed), _native.MersenneTwister(abs(seed))
    assert mt.sample(n, k) == py.sample(range(n), k)
    assert mt.state() == list(py.getstate()[1])


@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 32), max_size=10))
def test_a_state_taken_from_python_carries_on(seed: int, bits: list[int]) -> None:
    py = random.Random(seed)
    for k in bits:
        py.getrandbits(k)
    mt = _native.MersenneTwister.from_state(list(py.getstate()[1]))
    assert [mt.getrandbits(32) for _ in range(700)] == [py.getrandbits(32) for _ in range(700)]


@settings(max_examples=150)
@given(
    st.integers(0, 2**64 - 1),
    st.integers(1, 40),
    st.integers(1, 30),
    st.data(),
)
def test_layouts_equal_random_layout(
    seed: int, width: int, height: int, data: st.DataObject
) -> None:
    rule = data.draw(st.sampled_from(FIRST_CLICK_RULES))
    x, y = data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1))
    protected = {"none": 0, "safe": 1}.get(rule, 9)
    mines = data.draw(st.integers(0, max(0, width * height - protected)))
    level = Level(width, height, mines)
    try:
        expected = random_layout(level, random.Random(seed), (x, y), rule).mine_indices  # type: ignore[arg-type]
    except ValueError:
        return  # the mines do not fit (an opening at an edge protects fewer cells)
    got = _native.random_layout(width, height, mines, y * width + x, rule, seed)
    assert tuple(got) == expected


def test_expert_layouts_from_run_seeds() -> None:
    from minesolver.simulate import derive_seed

    level = Level(30, 16, 99)
    for i in range(50):
        seed = derive_seed(7, i, "layout")
        expected = random_layout(level, random.Random(seed), (0, 0), "safe").mine_indices
        assert tuple(_native.random_layout(30, 16, 99, 0, "safe", seed)) == expected
