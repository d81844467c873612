"""Every engine of issue 4 cross-checked: against the brute-force oracle, against each
other, and (for the approximate ones) within their stated error.

Positions are cut from real games (:func:`played`): a seeded layout, a safe first click,
then random safe cells opened next to the opened area, some visible mines flagged. All
seeded, so every run checks the same positions.
"""

from __future__ import annotations

import random
import statistics
from fractions import Fraction
from math import comb

import pytest
from extras import engine_params, needs

from minesolver.analysis import Analysis, analyze, analyze_after
from minesolver.constraints import Component, build
from minesolver.counting import ComponentCount
from minesolver.engines import ENGINES, ComponentEngine, EngineLimitExceeded, get_engine, is_engine
from minesolver.engines.brute import MAX_PLACEMENTS
from minesolver.engines.elimination import EliminationEngine
from minesolver.engines.enumerate import EnumerationEngine
from minesolver.engines.exact import ExactEngine
from minesolver.engines.exact_py import ExactPyEngine
from minesolver.engines.generic import PositionEngineBase, as_engine
from minesolver.engines.sampling import SamplingEngine
from minesolver.game import Game, Level, Move
from minesolver.position import FLAG, HIDDEN, InconsistentPosition, Position
from minesolver.result import Limit

EXACT = ("exact", "exact-py", "elimination", "enumerate")
CERTAIN = ("sat", "ilp")


def played(
    rng: random.Random,
    width: int,
    height: int,
    mines: int,
    budget: int | None = None,
    opens: int = 6,
) -> Position:
    """A position from a real game: safe first click, 0 to ``opens`` random safe opens next
    to the opened area (more, until ``C(hidden, mines) <= budget`` when a budget is
    given), then a random share of the visible mines flagged."""
    game = Game.new(Level(width, height, mines), rng)
    game.push(Move("open", (rng.randrange(width), rng.randrange(height))))
    layout = game.layout
    assert layout is not None
    mine = set(layout.mine_indices)
    nbrs = game.view().neighbour_indices()
    opens = rng.randrange(opens + 1)
    while True:
        cells = game.view().cells
        hidden = [i for i, v in enumerate(cells) if v == HIDDEN]
        if opens <= 0 and (budget is None or comb(len(hidden), mines) <= budget):
            break
        edge = [i for i in hidden if i not in mine and any(cells[j] >= 0 for j in nbrs[i])]
        safe = edge or [i for i in hidden if i not in mine]
        if not safe:
            break
        i = rng.choice(safe)
        game.push(Move("open", (i % width, i // width)))
        opens -= 1
    view = game.view()
    seen = [i for i in mine if any(view.cells[j] >= 0 for j in nbrs[i])]
    flags = {view.coords(i): FLAG for i in rng.sample(seen, rng.randrange(len(seen) + 1))}
    return view.replace(flags)


def small_cases(count: int, seed: int) -> list[tuple[Position, Fraction | None, bool]]:
    """Small positions within the oracle's reach, in every mode (total or density,
    trusted or untrusted flags)."""
    rng = random.Random(seed)
    out: list[tuple[Position, Fraction | None, bool]] = []
    while len(out) < count:
        w, h = rng.randint(3, 7), rng.randint(3, 6)
        mines = rng.randint(max(1, w * h // 8), w * h * 3 // 10)
        density = rng.choice([None, None, Fraction(1, 5), Fraction(1, 2)])
        trust = rng.random() < 0.7
        pos = played(rng, w, h, mines, budget=300 if density is None else None)
        hidden = sum(1 for v in pos.cells if v == HIDDEN or (v == FLAG and not trust))
        if density is not None and 2**hidden > 512:
            continue
        out.append((pos, density, trust))
    return out


SMALL = small_cases(2500, seed=4)
EXPERT = [played(random.Random(s), 30, 16, 99, opens=80) for s in range(60)]


def _analyze(engine: str, pos: Position, density: Fraction | None, trust: bool) -> Analysis | None:
    try:
        return analyze(pos, engine=engine, density=density, trust_flags=trust)
    except InconsistentPosition:
        return None


@pytest.mark.parametrize("engine", EXACT)
def test_exact_engines_equal_brute_force(engine: str) -> None:
    checked = 0
    for pos, density, trust in SMALL:
        oracle = _analyze("brute", pos, density, trust)
        got = _analyze(engine, pos, density, trust)
        assert (oracle is None) == (got is None), pos
        if oracle is None or got is None:
            continue
        assert got.probabilities == oracle.probabilities, (engine, str(pos), density, trust)
        assert got.layouts == oracle.layouts
        assert got.exact
        checked += 1
    assert checked > 2000  # most cases are consistent; the test is not vacuous


def test_exact_engines_equal_each_other_on_expert_positions() -> None:
    """Component by component, exact ints: layouts and per-box counts by mine number."""
    engines: list[ComponentEngine] = [
        ExactPyEngine(),
        ExactEngine(),
        EliminationEngine(),
        EnumerationEngine(max_nodes=200_000),
    ]
    compared = refused = 0
    for pos in EXPERT:
        for comp in build(pos).components:
            want = engines[0].count(comp)
            assert engines[1].count(comp) == want
            assert engines[2].count(comp) == want
            try:
                assert engines[3].count(comp) == want
            except EngineLimitExceeded:
                refused += 1
            compared += 1
    assert compared > 120
    assert refused <= compared // 20


@pytest.mark.parametrize("engine", EXACT)
def test_exact_engines_whole_analysis_on_expert(engine: str) -> None:
    for pos in EXPERT[:12]:
        want = analyze(pos, engine="exact-py")
        got = analyze(pos, engine=engine)
        assert got.probabilities == want.probabilities
        assert got.layouts == want.layouts


@pytest.mark.parametrize("engine", engine_params(CERTAIN))
def test_certain_cells_equal_exact_zero_one_cells(engine: str) -> None:
    cases = [(p, None, True) for p in EXPERT] + SMALL[:200]
    for pos, density, trust in cases:
        want = _analyze("exact", pos, density, trust)
        got = _analyze(engine, pos, density, trust)
        assert (want is None) == (got is None), str(pos)
        if want is None or got is None:
            continue
        assert got.safe == want.safe, (engine, str(pos), density, trust)
        assert got.certain_mines == want.certain_mines, (engine, str(pos), density, trust)
        assert not got.exact
        for cell, p in got.probabilities.items():
            assert (p in (0, 1)) == (cell in got.safe | got.certain_mines)


@needs("engines")
def test_ilp_lp_interval_contains_the_exact_probability() -> None:
    """The LP midpoint is no probability model, but its stated error is a rigorous bound."""
    for pos in EXPERT[:20]:
        exact = analyze(pos)
        got = analyze(pos, engine="ilp")
        assert got.errors is not None
        for cell, p in exact.probabilities.items():
            assert abs(float(got.probabilities[cell] - p)) <= got.errors[cell] + 1e-9


def test_sampling_within_its_standard_error() -> None:
    """Each cell's estimate is within 4.5 standard errors of the exact value.

    False-alarm rate: for a normal estimate P(|z| > 4.5) = 6.8e-6; about 300 distinct box
    estimates are tested, so a correct sampler fails this with probability about 0.2 %
    for a random seed (union bound; the seed is fixed, so the test is deterministic).
    The errors must not be inflated either: the median |z| of the estimates whose error
    is above the 1/N floor must exceed 0.45 (0.67 for exact standard errors; 0.34 if
    they were twice too large).
    """
    engine = SamplingEngine(samples=400, seed=11)
    zs: list[float] = []
    genuine: list[float] = []
    for pos in EXPERT:
        exact = analyze(pos)
        got = engine.analyze_problem(build(pos))
        assert got.safe == exact.safe and got.certain_mines == exact.certain_mines
        assert got.errors is not None
        seen = set()
        for cell, p in exact.probabilities.items():
            err = got.errors[cell]
            if p in (0, 1):
                assert got.probabilities[cell] == p and err == 0
                continue
            key = (p, got.probabilities[cell])
            if key in seen:  # cells of one box share their estimate
                continue
            seen.add(key)
            zs.append(abs(float(got.probabilities[cell] - p)) / err)
            if err > 2 / engine.samples:  # above the 1/N floor: a genuine sample error
                genuine.append(zs[-1])
    assert len(zs) > 250
    assert max(zs) < 4.5
    print(len(genuine), statistics.median(genuine))
    assert statistics.median(genuine) > 0.45


def test_sampling_is_seeded() -> None:
    problem = build(EXPERT[3])
    a = SamplingEngine(samples=50, seed=1).analyze_problem(problem)
    b = SamplingEngine(samples=50, seed=1).analyze_problem(problem)
    c = SamplingEngine(samples=50, seed=2).analyze_problem(problem)
    assert a.probabilities == b.probabilities
    assert a.probabilities != c.probabilities


def test_bp_is_sound_on_certain_cells_and_in_range() -> None:
    for pos in EXPERT[:20]:
        exact = analyze(pos)
        got = analyze(pos, engine="bp")
        assert got.safe <= exact.safe and got.certain_mines <= exact.certain_mines
        assert not got.exact
        assert all(0 <= p <= 1 for p in got.probabilities.values())


def test_bp_exact_on_a_tree_under_a_density() -> None:
    """A single clue (a tree) under a density: BP is exact there."""
    pos = Position.from_text("HHH\nH2H\nHHH")
    got = analyze(pos, engine="bp", density="1/3")
    assert all(abs(float(p) - 2 / 8) < 1e-9 for p in got.probabilities.values())


KNOWN = "5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH"


@pytest.mark.parametrize(
    "engine", engine_params(["elimination", "enumerate", "sat", "ilp", "sampling", "bp"])
)
def test_every_engine_on_the_known_answer(engine: str) -> None:
    got = analyze(Position.from_text(KNOWN), engine=engine)
    safe = {(2, 1), (2, 3), (3, 3), (3, 4)}
    if engine == "bp":  # sound, not complete: (2, 1) needs two clues at once
        assert got.safe <= safe
        assert abs(float(got.probabilities[(1, 1)]) - 5 / 6) < 0.2
    else:
        assert got.safe == safe
    assert got.certain_mines == frozenset()
    if got.exact:
        assert got.layouts == 72
        assert got.probabilities[(3, 1)] == Fraction(7, 12)


def test_engines_reject_what_they_cannot_do() -> None:
    big = Position.from_text("20x20x60\n" + "H" * 20 + "\n" + ("H" * 20 + "\n") * 19)
    with pytest.raises(EngineLimitExceeded, match=str(MAX_PLACEMENTS)):
        analyze(big, engine="brute")
    huge = Position.from_text("200x200x8000\n" + ("H" * 200 + "\n") * 200)
    with pytest.raises(EngineLimitExceeded, match=r"about 10\^8690 placements"):
        analyze(huge, engine="brute")  # a count of 8,691 digits, written by its size
    strip = Position.from_text("40x3x40\n" + "H" * 40 + "\n" + "2" * 40 + "\n" + "H" * 40)
    comp = build(strip).components[0]
    with pytest.raises(EngineLimitExceeded, match="search nodes"):
        EnumerationEngine(max_nodes=40).count(comp)  # 40 boxes: > 40 nodes
    assert EnumerationEngine().count(comp) == ExactPyEngine().count(comp)


def test_elimination_refuses_a_too_wide_component(monkeypatch: pytest.MonkeyPatch) -> None:
    import minesolver.engines.elimination as elimination

    monkeypatch.setattr(elimination, "MAX_TABLE", 3)
    comp = build(Position.from_text(KNOWN)).components[0]
    with pytest.raises(EngineLimitExceeded, match="induced width"):
        elimination.EliminationEngine().count(comp)


@pytest.mark.parametrize(
    "engine", engine_params(["sat", "ilp", "sampling", "elimination", "enumerate"])
)
def test_inconsistent_positions_are_reported(engine: str) -> None:
    # the 1-2-2-2-1 row needs 3 mines in the top row; the total leaves only 2.
    pos = Position.from_text("5x3x2\nHHHHH\n12221\n00000")
    with pytest.raises(InconsistentPosition):
        analyze(pos, engine=engine)
    get_engine(engine)  # still usable afterwards


@pytest.mark.parametrize("engine", engine_params(["sat", "ilp", "sampling", "bp", "mcmc"]))
def test_interior_keeps_the_density_prior(engine: str) -> None:
    """Under a density, cells no digit touches are mines with exactly that probability."""
    pos = Position.from_text("HHHHHH\nH2HHHH\nHHHHHH\nHHHHHH\nHHHHHH\nHHHHHH")
    got = analyze(pos, engine=engine, density="1/5")
    assert got.errors is not None
    assert got.probabilities[(5, 5)] == Fraction(1, 5) and got.errors[(5, 5)] == 0


FORCED = "8x3x4\nH1HHHH1H\n11HHHH1H\n00HHHH1H"  # (0, 0) a forced mine, column 2 forced safe


@pytest.mark.parametrize("engine", engine_params(["sat", "ilp", "sampling", "bp", "mcmc"]))
def test_approximate_engines_share_one_kind_of_result(engine: str) -> None:
    """Not exact, nothing counted, an error for every unknown cell, forced cells certain
    with error 0, and the certain cells those at 0 or 1."""
    pos = Position.from_text(FORCED)
    got = analyze(pos, engine=engine)
    problem = build(pos)
    assert problem.forced_safe and problem.forced_mines and problem.components
    assert not got.exact and got.layouts is None and got.engine == engine
    assert got.errors is not None and set(got.errors) == set(got.probabilities)
    for i in problem.forced_safe | problem.forced_mines:
        cell = pos.coords(i)
        assert got.probabilities[cell] == (i in problem.forced_mines)
        assert got.errors[cell] == 0
    assert got.safe == {c for c, p in got.probabilities.items() if p == 0}
    assert got.certain_mines == {c for c, p in got.probabilities.items() if p == 1}
    assert (0, 0) in got.certain_mines and {(2, 0), (2, 1), (2, 2)} <= got.safe


def test_mcmc_on_a_board_with_no_digit_gives_the_density() -> None:
    """No frontier: the chain has no box to move, and every cell is mines / cells."""
    a = analyze(Position.from_text("HHH\nHHH").with_mines(2), engine="mcmc")
    assert all(abs(float(p) - 1 / 3) < 1e-9 for p in a.probabilities.values())


# -- the front door asks one interface ---------------------------------------------------


@pytest.mark.parametrize("name", engine_params(sorted(ENGINES)))
def test_every_engine_is_an_engine(name: str) -> None:
    engine = get_engine(name)
    assert is_engine(engine) and as_engine(engine) is engine


class _Recorder(PositionEngineBase):
    """An engine of whole positions that remembers what the front door asked of it."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def analyze(
        self,
        position: Position,
        *,
        limit: Limit | None = None,
        density: Fraction | None = None,
        trust_flags: bool = True,
        cache: object = None,
    ) -> Analysis:
        self.calls.append((position, limit, density, trust_flags))
        return analyze(position, engine="exact-py", density=density, trust_flags=trust_flags)


def test_the_front_door_hands_every_option_to_the_engine_it_is_given() -> None:
    """``analyze`` checks its arguments and hands them to the engine as they are: the
    position, the limit, the density (a Fraction) and the flags, whatever the engine."""
    engine = _Recorder()
    pos = Position.from_text("H1H")
    limit = Limit(seconds=5)
    got = analyze(pos, engine=engine, limit=limit, density="1/3", trust_flags=False)
    assert engine.calls == [(pos, limit, Fraction(1, 3), False)]
    assert got.probabilities[(0, 0)] == Fraction(1, 2)


class _OnlyCount:
    """A user's engine with only the component hook, as registered before engines had
    ``analyze``: adapted at the front door, it counts, what-ifs included."""

    name = "only-count"

    def count(self, component: Component) -> ComponentCount:
        return ExactPyEngine().count(component)


def test_an_engine_with_only_a_hook_is_adapted() -> None:
    engine = _OnlyCount()
    pos = Position.from_text("5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH")
    want = analyze(pos, engine="exact-py")
    got = analyze(pos, engine=engine)
    assert got.source is engine and got.engine == "only-count"
    assert got.probabilities == want.probabilities and got.layouts == want.layouts
    after = analyze_after(got, (3, 3), 1)
    assert after.source is engine and after.layouts == 30
    assert after.probabilities == analyze_after(want, (3, 3), 1).probabilities
    with pytest.raises(TypeError, match="an engine has"):
        analyze(pos, engine=object())  # type: ignore[arg-type]


def test_a_what_if_of_an_auto_analysis_is_the_auto_analysis_of_the_child() -> None:
    pos = Position.from_text("5x5x5\nH2HHH\nHHHHH\n112HH\n00HHH\n000HH")
    parent = analyze(pos, engine="auto", limit=Limit(seconds=30))
    child = analyze_after(parent, (2, 1), 3)
    want = analyze(pos.replace({(2, 1): 3}), engine="exact")
    assert child.exact and child.layouts == want.layouts
    assert child.probabilities == want.probabilities
