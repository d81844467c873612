"""Every engine under a time limit: a deadline checked inside its loops.

Timing belongs in the benchmarks (``benchmarks/bench_bounded.py`` measures wall time
against the limit on loaded machines); here a deadline already past must stop each engine
at once with the clean error (or, for the approximate engines, the clean answer with what
they have), and a small limit must stop a large position well under a generous bound
(``3 * S + 1`` seconds). Hostile positions go through ``auto`` under a limit: an answer
or a library error, never a crash or a hang.
"""

from __future__ import annotations

import contextlib
import importlib.util
import time
from collections.abc import Callable
from typing import cast

import pytest
from gen import ci_settings
from hypothesis import given
from hypothesis import strategies as st
from test_auto import lattice
from test_native import _lattice, hostile

import minesolver._native as _native
from minesolver import InconsistentPosition, Limit, Position, analyze
from minesolver.constraints import Component, Problem, build
from minesolver.engines import (
    EngineLimitExceeded,
    PositionEngine,
    check_deadline,
    deadline_scope,
    engine_names,
    get_engine,
    is_component_engine,
    seconds_left,
)
from minesolver.engines.mcmc import McmcEngine
from minesolver.engines.sampling import SamplingEngine
from minesolver.result import Analysis

HAS_ILP = importlib.util.find_spec("scipy") is not None


def _widest(problem: Problem) -> Component:
    return max(problem.components, key=lambda c: len(c.boxes))


def test_a_deadline_scope_nests_and_ends() -> None:
    assert seconds_left() is None
    check_deadline()  # no deadline: never raises
    with deadline_scope(60) as outer:
        assert outer is not None
        left = seconds_left()
        assert left is not None and 59 < left <= 60
        with deadline_scope(3600) as inner:
            assert inner == outer  # an enclosing deadline that comes first wins
        with deadline_scope(None) as same:
            assert same == outer
        with deadline_scope(0):
            assert seconds_left() == 0.0
            with pytest.raises(EngineLimitExceeded, match="time limit"):
                check_deadline()
        check_deadline()
    assert seconds_left() is None


@pytest.mark.parametrize("name", [n for n in engine_names() if n != "ilp" or HAS_ILP])
def test_a_deadline_already_past_stops_every_engine_at_once(name: str) -> None:
    """Each engine, called directly inside a passed deadline, raises the clean error
    before doing its work (brute force on a position small enough for it, every other
    engine on a wide lattice component)."""
    pos = (
        Position.from_text("5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH")
        if name == "brute"
        else lattice(13, 3)
    )
    problem = build(pos)
    engine = get_engine(name)
    began = time.process_time()
    with deadline_scope(0.0), pytest.raises(EngineLimitExceeded, match="time limit"):
        if is_component_engine(engine):
            engine.count(_widest(problem))
        else:
            cast(PositionEngine, engine).analyze_problem(problem)
    assert time.process_time() - began < 5  # at once (this process's CPU: load cannot change it)


@pytest.mark.parametrize("name", [n for n in engine_names() if n != "ilp" or HAS_ILP])
def test_a_limit_too_small_for_the_reduction_is_the_clean_error(name: str) -> None:
    with pytest.raises(EngineLimitExceeded, match="limit"):
        analyze(lattice(13, 3), engine=name, limit=Limit(seconds=1e-9))


def _within(bound: float, call: Callable[[], object]) -> object:
    """``call()``'s answer or its clean error, asserting it took less than ``bound`` seconds
    of this process's CPU: the deadlines are wall-clock, so a loaded machine only stops the
    work sooner, while a wall-clock bound here would fail when other processes take the
    cores."""
    began = time.process_time()
    try:
        out = call()
    except EngineLimitExceeded as exc:
        out = exc
    elapsed = time.process_time() - began
    assert elapsed < bound, f"{elapsed:.2f} s of CPU, bound {bound} s"
    return out


def test_a_small_limit_stops_a_large_position_well_within_a_generous_bound() -> None:
    """``auto`` on a dense 60x60 lattice, ``exact`` on a 1000x250 one, at 0.5 s: an
    approximate answer with its errors or the clean error, within 3 * 0.5 + 1 s."""
    seconds = 0.5
    bound = 3 * seconds + 1
    got = _within(bound, lambda: analyze(lattice(60, 1, 0.25), engine="auto", limit=Limit(seconds)))
    assert isinstance(got, EngineLimitExceeded) or (
        isinstance(got, Analysis) and not got.exact and got.errors is not None
    )
    huge = _lattice(1000, 250)
    got = _within(bound, lambda: analyze(huge, limit=Limit(seconds=seconds)))
    assert isinstance(got, EngineLimitExceeded)


def test_the_chains_stop_at_the_deadline_with_what_they_have() -> None:
    """A million sweeps asked for, one second given: the chain returns in time, its
    errors larger than those of a full run (it says how little it ran)."""
    problem = build(lattice(13, 3))
    got = _within(
        4.0, lambda: McmcEngine(sweeps=10**6, seed=1, seconds=1.0).analyze_problem(problem)
    )
    assert isinstance(got, Analysis), got
    assert not got.exact and got.errors is not None
    # never more than the distance to the farther end (the bound any estimate meets)
    assert all(
        0 <= e <= float(max(p, 1 - p))
        for c, e in got.errors.items()
        for p in [got.probabilities[c]]
    )


def test_sampling_stops_at_the_deadline_with_the_draws_made() -> None:
    problem = build(lattice(9, 2))
    many = SamplingEngine(samples=10**7, seed=1)
    got = _within(3.0, lambda: many.analyze_problem(problem, Limit(seconds=0.5)))
    assert isinstance(got, Analysis), got
    assert not got.exact and got.errors is not None
    few = SamplingEngine(samples=50, seed=1).analyze_problem(problem)
    assert few.errors is not None
    # more draws than 50 were made in half a second: smaller errors where uncertain
    assert sum(got.errors.values()) < sum(few.errors.values())


@pytest.mark.parametrize("name", ["auto", "sampling", "bp", "sat"])
def test_hostile_positions_end_with_an_answer_or_an_error_in_time(name: str) -> None:
    """No crash and bounded time through the fallback path too (SAT, chains) and the
    Python engines: huge, dense, inconsistent grids up to 1000x250 under a 1 s limit."""

    @ci_settings(8)
    @given(hostile(), st.booleans())
    def run(pos: Position, trust: bool) -> None:
        began = time.process_time()  # this process's CPU: load cannot change it
        try:
            got = analyze(pos, engine=name, trust_flags=trust, limit=Limit(seconds=1))
        except (InconsistentPosition, EngineLimitExceeded, ValueError):
            got = None
        # generous: a 250,000-cell board's unchecked linear steps (the digits' checks,
        # building the answer) take a good part of a second on a loaded machine
        assert time.process_time() - began < 3 * 1 + 3
        if got is not None:
            assert got.exact or got.errors is not None

    run()


def test_large_boards_list_their_neighbours_without_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past :data:`~minesolver.constraints.TABLE_CELLS` the reduction lists the digits'
    neighbours itself (under the deadline): the same problem as with the table."""
    import random

    from gen import cut_position

    import minesolver.constraints as constraints

    rng = random.Random(4)
    for width, height in ((7, 5), (40, 30), (1, 9), (13, 1)):
        pos = cut_position(rng, width, height, width * height // 5, openings=3).position
        for trust in (True, False):
            with_table = build(pos, trust_flags=trust)
            monkeypatch.setattr(constraints, "TABLE_CELLS", 0)
            assert build(pos, trust_flags=trust) == with_table
            monkeypatch.undo()


def test_the_reference_count_has_a_memory_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a time limit the Python frontier programme still stops at its cap on
    polynomial terms (the native one at its own), with the clean error."""
    import minesolver.engines.exact_py as exact

    comp = _widest(build(lattice(13, 3)))
    monkeypatch.setattr(exact, "MAX_TERMS", 100)
    with pytest.raises(EngineLimitExceeded, match="polynomial terms"):
        exact.ExactPyEngine().count(comp)


NATIVE_ERRORS = (
    ValueError,  # malformed input, and Inconsistent (a ValueError)
    OverflowError,  # a negative or huge number where the core takes an unsigned one
    TypeError,
    _native.DeadlineExceeded,
    _native.TooLarge,
)


@ci_settings(150)
@given(
    st.binary(max_size=64),
    st.integers(-1, 2**64),
    st.integers(-1, 2**64),
    st.integers(-1, 2**64),
    st.booleans(),
    st.none() | st.floats(allow_nan=True, allow_infinity=True),
)
def test_the_native_analysis_refuses_any_input_without_a_panic(
    raw: bytes, width: int, height: int, mines: int, trust: bool, seconds: float | None
) -> None:
    """Any bytes, sizes, totals and limits at the core's own entry: an answer or a clean
    error, never a panic (``NativePanic``) or a crash."""
    with contextlib.suppress(*NATIVE_ERRORS):
        _native.analyze(raw, width, height, mines, trust, seconds)


@ci_settings(150)
@given(
    st.lists(st.integers(-1, 70), max_size=12),
    st.lists(
        st.tuples(st.lists(st.integers(-1, 14), max_size=6), st.integers(-1, 300)), max_size=10
    ),
    st.none() | st.floats(min_value=-1, max_value=0.5),
)
def test_the_native_count_refuses_any_shape_without_a_panic(
    sizes: list[int], constraints: list[tuple[list[int], int]], seconds: float | None
) -> None:
    try:
        counted = _native.count(sizes, constraints, seconds)
    except NATIVE_ERRORS:
        return
    assert len(counted.box_mines) == len(sizes)


def test_a_chain_stopped_mid_pass_leaves_batches_of_one_size() -> None:
    """The second chain stops in the pass whose sweep makes the first chain's slots merge
    (their size doubles): a pass cut short is recorded by no chain, so every batch holds
    the same number of sweeps (once, the first chain's slots had doubled and the second's
    not, and the run failed under a deadline)."""
    import random

    from minesolver.engines import mcmc

    class _StopsAt(mcmc._Run):
        calls = 0

        def sweep(self, ks: list[int], t: int, stop: float | None = None) -> tuple[int, int]:
            type(self).calls += 1
            # pass n's sweeps are calls 2n + 1 and 2n + 2: the second chain of pass 119,
            # where the first chain's 20th recorded sweep fills its slots and merges them
            return t, 0 if type(self).calls == 240 else self.moves

    class _Sizes:
        sizes = (1, 1)

    run = _StopsAt(
        chain=cast(mcmc._Chain, _Sizes()),
        weight_t=[1],
        dens=None,
        moves=3,
        rng=random.Random(0),
    )
    got = run.record([([0, 0], 0), ([0, 0], 0)], sweeps=1000, stop=time.perf_counter() + 60)
    assert got.per_batch == 1
    assert len(got.k) == 2 * 19  # each chain's 19 sweeps recorded before the cut pass
