"""The native ``exact`` engine against the pure-Python reference ``exact-py``, and its
bounds: no crash, a deadline, clear errors.

Positions are cut from random games (``gen.cut_position``) of every size up to 200x200,
some with a digit changed (often inconsistent), flags trusted or not: the two engines
must give the same layout count (exact ints), the same probabilities (Fractions) and the
same certain cells, or both raise the same :class:`InconsistentPosition`. Hostile
positions (random grids up to 1000x250, dense, inconsistent) go through the public API
under a time limit and must end with an answer or a library error, never a crash.
"""

from __future__ import annotations

import pickle
import random
from fractions import Fraction

import pytest
from gen import ci_settings, cut_position
from hypothesis import given, settings
from hypothesis import strategies as st

import minesolver._native as _native
from minesolver import FLAG, HIDDEN, InconsistentPosition, Limit, Position, analyze
from minesolver.analysis import Analysis, analyze_after
from minesolver.constraints import build
from minesolver.engines import EngineError, EngineLimitExceeded, get_engine
from minesolver.engines.exact import ExactEngine, NativeAnalysis, native_errors
from minesolver.engines.exact_py import ExactPyEngine


def _both(position: Position, trust_flags: bool = True) -> tuple[Analysis | str, Analysis | str]:
    """Native and reference analyses, or the message of the InconsistentPosition each raised."""
    out: list[Analysis | str] = []
    for engine in ("exact", "exact-py"):
        try:
            out.append(analyze(position, engine=engine, trust_flags=trust_flags))
        except InconsistentPosition as exc:
            out.append(f"inconsistent: {exc}")
    return out[0], out[1]


def assert_same(position: Position, trust_flags: bool = True) -> Analysis | None:
    native, reference = _both(position, trust_flags)
    if isinstance(native, str) or isinstance(reference, str):
        assert native == reference
        return None
    assert native.engine == "exact" and reference.engine == "exact-py"
    assert native.layouts == reference.layouts
    assert dict(native.probabilities) == dict(reference.probabilities)
    assert native.safe == reference.safe
    assert native.certain_mines == reference.certain_mines
    assert native.exact
    return native


@st.composite
def games(draw: st.DrawFn, max_side: int = 200) -> tuple[Position, bool]:
    """A position from a random game, sides 1 to ``max_side`` (small ones likelier), at
    any density, with openings, flags, and sometimes one digit changed."""
    side = st.one_of(st.integers(1, 12), st.integers(1, 40), st.integers(1, max_side))
    width, height = draw(side, label="width"), draw(side, label="height")
    n = width * height
    if n < 2:
        width, height, n = 2, 1, 2
    mines = draw(st.integers(0, n - 1), label="mines")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="seed"))
    cut = cut_position(
        rng,
        width,
        height,
        mines,
        openings=draw(st.integers(0, 30), label="openings"),
        flag_fraction=draw(st.sampled_from([0.0, 0.3, 1.0]), label="flags"),
    )
    pos = cut.position
    digits = [i for i, v in enumerate(pos.cells) if v >= 0]
    if digits and draw(st.booleans(), label="change a digit"):
        i = digits[rng.randrange(len(digits))]
        pos = pos.replace({pos.coords(i): draw(st.integers(0, 8), label="digit")})
    return pos, draw(st.booleans(), label="trust_flags")


@ci_settings(300)
@given(games(max_side=30))
def test_native_equals_reference_on_small_and_mid_boards(case: tuple[Position, bool]) -> None:
    assert_same(*case)


@pytest.mark.slow
@ci_settings(40)
@given(games(max_side=200))
def test_native_equals_reference_up_to_200x200(case: tuple[Position, bool]) -> None:
    assert_same(*case)


def test_native_equals_reference_on_a_200x200_board_with_8000_mines() -> None:
    """Counts of thousands of digits, through the big-integer path."""
    cut = cut_position(random.Random(7), 200, 200, 8000, openings=80, flag_fraction=0.5)
    got = assert_same(cut.position)
    assert got is not None and got.layouts is not None and got.layouts.bit_length() > 20_000


def test_component_counts_equal_the_reference() -> None:
    """Component by component, exact ints, on expert positions."""
    native, reference = ExactEngine(), ExactPyEngine()
    compared = 0
    for seed in range(30):
        cut = cut_position(random.Random(seed), 30, 16, 99, openings=25, flag_fraction=0.3)
        for comp in build(cut.position).components:
            assert native.count(comp) == reference.count(comp)
            compared += 1
    assert compared > 50


def test_the_analysis_is_lazy_and_complete() -> None:
    """Probabilities, the distinct levels and the reduced problem come on demand, and are
    what the reference gives; the object pickles and compares like an Analysis."""
    cut = cut_position(random.Random(3), 30, 16, 99, openings=20, flag_fraction=0.5)
    pos = cut.position
    got = analyze(pos)
    want = analyze(pos, engine="exact-py")
    assert isinstance(got, NativeAnalysis)
    probs = got.probabilities
    assert set(probs.distinct()) == set(want.probabilities.values())  # type: ignore[attr-defined]
    assert {id(v) for v in probs.values()} <= {id(v) for v in probs.distinct()}  # type: ignore[attr-defined]
    assert got.problem == build(pos)
    assert got == got and pickle.loads(pickle.dumps(got)) == got
    with pytest.raises(KeyError, match="not an unknown cell"):
        probs[next(c for c in pos if pos[c] >= 0)]
    # a what-if from the native analysis equals the reference's
    cell = next(iter(want.safe - got.safe), None) or next(c for c in probs if 0 < probs[c] < 1)
    for digit in range(9):
        try:
            after = analyze_after(got, cell, digit)
        except InconsistentPosition:
            with pytest.raises(InconsistentPosition):
                analyze_after(want, cell, digit)
            continue
        assert after.probabilities == analyze_after(want, cell, digit).probabilities


def test_density_and_untrusted_flags_fall_back_to_native_counts() -> None:
    pos = Position.from_text("HHHH\nH21H\nHHHH\n")
    got = analyze(pos, density=Fraction(1, 5))
    assert got.engine == "exact"
    assert (
        got.probabilities == analyze(pos, engine="exact-py", density=Fraction(1, 5)).probabilities
    )
    flagged = Position.from_text("3x2x2\nF2H\nHHH\n")
    assert_same(flagged, trust_flags=False)
    assert_same(flagged, trust_flags=True)


@pytest.mark.parametrize(
    "text",
    [
        "3x1x1\n1H1\n",  # consistent: a control
        "2x2x1\n1F\nFH\n",  # two flags around a 1
        "2x1x1\n2H\n",  # a 2 with one hidden neighbour
        "3x3x5\nHHH\nH1H\nHHH\n",  # the total does not fit the digits
        "3x2x1\n1H1\n101\n",  # the 0 empties the 1s' only cells
        "4x1x2\nH2HF\n",
        "3x1x3\nFFF\n",  # a full board of flags, no hidden cell
        "3x1x2\nFFF\n",  # more flags than mines
    ],
)
def test_inconsistent_positions_raise_the_reference_error(text: str) -> None:
    assert_same(Position.from_text(text))


def test_a_panic_is_an_engine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(_native.NativePanic, match="a test panic"):
        _native._panic_for_test()

    def panicking(*args: object) -> object:
        _native._panic_for_test()
        raise AssertionError("unreachable")

    monkeypatch.setattr(_native, "analyze", panicking)
    monkeypatch.setattr(_native, "count", panicking)
    pos = Position.from_text("3x1x1\n1HH\n")
    with pytest.raises(EngineError, match="native exact analysis failed"):
        analyze(pos)
    with pytest.raises(EngineError, match="native exact count failed"):
        analyze(Position.from_text("HHHH\nH21H\nHHHH\n"), density=Fraction(1, 3))


def _lattice(width: int, height: int) -> Position:
    """Digits on the cells with both coordinates even, hidden cells (40 % mines) between
    them: each digit sees 8 hidden cells, the digits are coupled in a grid, so the board
    is one component whose frontier programme keeps about ``min(width, height)``
    equations open (hard on purpose)."""
    rng = random.Random(width * 1000 + height)
    mine = [[(x % 2 or y % 2) and rng.random() < 0.4 for x in range(width)] for y in range(height)]
    cells: list[int] = []
    for y in range(height):
        for x in range(width):
            if x % 2 or y % 2:
                cells.append(HIDDEN)
                continue
            near = [
                mine[yy][xx]
                for yy in range(max(0, y - 1), min(height, y + 2))
                for xx in range(max(0, x - 1), min(width, x + 2))
            ]
            cells.append(sum(near))
    return Position(width, height, tuple(cells), sum(map(sum, mine)))


def test_a_deadline_stops_the_native_count() -> None:
    with pytest.raises(_native.DeadlineExceeded):
        _native.analyze(b"\xff" * 9, 3, 3, 2, True, 0.0)
    big = _lattice(1000, 9)
    with pytest.raises(EngineLimitExceeded, match=r"limit of 0\.001 s"):
        analyze(big, limit=Limit(seconds=0.001))


def test_malformed_input_to_the_core_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        _native.analyze(b"\x09", 1, 1, 0)
    with pytest.raises(ValueError):
        _native.analyze(b"\xff\xff", 3, 1, 1)
    with pytest.raises(ValueError):
        _native.count([0], [([0], 0)])
    counted = _native.count([2, 1], [([0, 1], 1)])
    assert (counted.layouts, counted.box_mines) == ([0, 3], [[0, 1], [0, 1]])


@st.composite
def hostile(draw: st.DrawFn) -> Position:
    """Any grid of cell values up to 1000x250 (mostly inconsistent), or a dense or
    huge position from a game, total known or not."""
    kind = draw(st.sampled_from(["grid", "dense", "lattice"]), label="kind")
    rng = random.Random(draw(st.integers(0, 2**32 - 1), label="seed"))
    if kind == "lattice":
        return _lattice(draw(st.integers(1, 1000), label="width"), draw(st.integers(2, 250)))
    width = draw(st.sampled_from([1, 2, 7, 30, 200, 1000]), label="width")
    height = draw(st.sampled_from([1, 3, 16, 100, 250]), label="height")
    n = width * height
    if kind == "dense" and n >= 2:
        mines = rng.randrange(n * 6 // 10, n)
        return cut_position(rng, width, height, mines, openings=rng.randrange(50)).position
    values = [HIDDEN, FLAG, *range(9)]
    weights = [rng.random() for _ in values]
    cells = tuple(rng.choices(values, weights, k=n))
    mines = draw(st.none() | st.integers(0, n), label="mines")
    return Position(width, height, cells, mines)


@ci_settings(25)
@given(hostile(), st.booleans())
def test_hostile_positions_end_with_an_answer_or_an_error(pos: Position, trust: bool) -> None:
    """No crash and bounded time: the limit is a deadline inside the native loops."""
    engine = get_engine("exact")
    try:
        got = analyze(pos, engine=engine, trust_flags=trust, limit=Limit(seconds=2))
    except (InconsistentPosition, EngineLimitExceeded, ValueError):
        return
    assert got.exact and got.layouts is not None and got.layouts > 0


# -- the seam: one conversion of the core's errors -------------------------------------


@pytest.mark.parametrize(
    ("raised", "expected", "words"),
    [
        (
            _native.DeadlineExceeded("late"),
            EngineLimitExceeded,
            "the exact count took more than the time limit of 2 s; use engine 'auto'",
        ),
        (_native.TooLarge("many terms"), EngineLimitExceeded, "many terms; use engine 'auto'"),
        (_native.NativePanic("boom"), EngineError, "the native exact count failed: boom"),
    ],
)
def test_the_core_errors_become_the_library_errors_in_one_place(
    raised: Exception, expected: type[Exception], words: str
) -> None:
    with pytest.raises(expected) as info, native_errors("exact count", 2):
        raise raised
    assert words in str(info.value)
    assert info.value.__cause__ is raised


@pytest.mark.parametrize(
    "raised", [_native.Inconsistent("no layout"), _native.Stuck("game 0"), ValueError("bad")]
)
def test_what_the_caller_words_passes_through_the_conversion(raised: Exception) -> None:
    with pytest.raises(type(raised)) as info, native_errors("exact count"):
        raise raised
    assert info.value is raised


def test_a_refused_native_count_is_an_error_not_a_silent_recount(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a box the core does not take (over ``MAX_BOX`` cells) goes to the reference,
    decided before the call; any other refusal of the core is the caller's error."""
    pos = Position.from_text("HHHH\nH21H\nHHHH\n")

    def refusing(*args: object) -> object:
        raise ValueError("the core refuses")

    want = analyze(pos, density=Fraction(1, 3), engine="exact-py")
    monkeypatch.setattr(_native, "count", refusing)
    with pytest.raises(ValueError, match="the core refuses"):
        analyze(pos, density=Fraction(1, 3))
    monkeypatch.setattr(_native, "MAX_BOX", 0)  # every box too large: the reference counts
    got = analyze(pos, density=Fraction(1, 3))
    assert got.probabilities == want.probabilities and got.layouts == want.layouts


def test_a_count_past_u128_takes_the_big_integer_path() -> None:
    """A 160x3 board whose layouts (about 2^150: the 80 mines of the bottom row's interior
    alone are C(160, 80) ~ 2^156) do not fit a ``u128``: the analysis and the what-ifs
    redo the combination in wider integers, equal to the reference, and never fail."""
    width = 160
    rows = ["1" * width, "H" * width, "H" * width]
    pos = Position.from_text(f"{width}x3x133\n" + "\n".join(rows))
    native = analyze(pos)
    reference = analyze(pos, engine="exact-py")
    assert native.layouts == reference.layouts
    assert native.layouts is not None and native.layouts > 2**128
    assert dict(native.probabilities) == dict(reference.probabilities)
    cell = (0, 2)
    for digit, child in ExactEngine().what_ifs(native, [cell])[0]:
        want = analyze_after(reference, cell, digit)
        assert child.layouts == want.layouts
        assert dict(child.probabilities) == dict(want.probabilities)


@st.composite
def any_grid(draw: st.DrawFn) -> Position:
    """Any small grid of hidden cells, flags and digits (mostly inconsistent), with any
    total: every check of the reference fails on some of them."""
    width = draw(st.integers(1, 6), label="width")
    height = draw(st.integers(1, 5), label="height")
    values = st.sampled_from([HIDDEN, HIDDEN, HIDDEN, FLAG, 0, 1, 1, 2, 2, 3, 4, 5, 8])
    cells = tuple(draw(st.lists(values, min_size=width * height, max_size=width * height)))
    return Position(width, height, cells, draw(st.integers(0, width * height)))


@settings(max_examples=400, deadline=None)
@given(any_grid(), st.booleans())
def test_the_core_words_each_inconsistency_as_the_reference(pos: Position, trust: bool) -> None:
    """The core's reason for an inconsistent position is the reference's first failing
    check, word for word, with no Python rerun; a consistent one analyses alike."""
    assert_same(pos, trust_flags=trust)
