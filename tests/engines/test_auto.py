"""The ``auto`` engine: exact when it fits the time limit, block MCMC (marked approximate)
when it does not; the ``exact`` engine under a time limit; and the MCMC engine itself
against the exact one."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest

from minesolver.analysis import analyze, analyze_after
from minesolver.constraints import build
from minesolver.engines import EngineLimitExceeded
from minesolver.engines.auto import sampled_components
from minesolver.engines.mcmc import McmcEngine
from minesolver.engines.sampling import dry_run_ops
from minesolver.position import Position
from minesolver.result import Analysis, Limit
from minesolver.ui.cli import main


def lattice(n: int, seed: int, density: float = 0.3) -> Position:
    """An ``n`` x ``n`` board with a digit at every odd (x, y) that is not a mine and every
    other cell hidden: one wide 2-D component whose frontier DP grows fast with ``n``."""
    rng = random.Random(seed)
    mine = [[rng.random() < density for _ in range(n)] for _ in range(n)]
    rows = []
    for y in range(n):
        row = ""
        for x in range(n):
            if x % 2 and y % 2 and not mine[y][x]:
                row += str(
                    sum(
                        mine[yy][xx]
                        for yy in range(max(0, y - 1), min(n, y + 2))
                        for xx in range(max(0, x - 1), min(n, x + 2))
                    )
                )
            else:
                row += "H"
        rows.append(row)
    total = sum(map(sum, mine))
    return Position.from_text(f"{n}x{n}x{total}\n" + "\n".join(rows))


def test_dry_run_grows_with_the_frontier_width_and_stops_at_its_limit() -> None:
    small = max(build(lattice(9, 1)).components, key=lambda c: len(c.boxes))
    large = max(build(lattice(17, 1)).components, key=lambda c: len(c.boxes))
    assert 0 < dry_run_ops(small, float("inf")) < dry_run_ops(large, float("inf"))
    assert dry_run_ops(large, 1000.0) == float("inf")


def auto(pos: Position, seconds: float, sweeps: int = 400, seed: int = 0) -> Analysis:
    return analyze(pos, engine="auto", limit=Limit(seconds=seconds, samples=sweeps, seed=seed))


@pytest.fixture
def no_exact_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact phases of ``auto`` get no time: every component of more than one box is
    sampled, whatever the limit (a fallback without a limit too tight for the chain)."""
    import minesolver.engines.auto as auto_module

    monkeypatch.setattr(auto_module, "EXACT_SHARE", 0.0)
    monkeypatch.setattr(auto_module, "RECOUNT_SHARE", 0.0)


def test_budget_that_fits_gives_the_exact_analysis() -> None:
    pos = lattice(13, 2)
    got = auto(pos, 60.0)
    assert got.exact and got.engine == "exact"
    assert got.probabilities == analyze(pos).probabilities
    assert got.layouts == analyze(pos).layouts


def test_budget_overrun_falls_back_to_mcmc_and_says_so(no_exact_time: None) -> None:
    pos = lattice(13, 3)
    problem = build(pos)
    assert sampled_components(problem, 1e-4)  # the wide component does not fit
    exact = analyze(pos)
    got = auto(pos, 60.0, sweeps=200, seed=5)
    assert not got.exact and got.engine == "exact+mcmc" and got.layouts is None
    assert got.errors is not None
    assert got.safe == exact.safe and got.certain_mines == exact.certain_mines
    zs = [
        abs(float(got.probabilities[c] - p)) / got.errors[c]
        for c, p in exact.probabilities.items()
        if p not in (0, 1)
    ]
    assert zs and max(zs) < 5


def test_limits_are_checked() -> None:
    for bad in (0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="positive"):
            Limit(seconds=bad)
    for wrong in ("5", True, [1]):
        with pytest.raises(TypeError, match="seconds"):
            Limit(seconds=wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="samples"):
        Limit(samples=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 2"):
        Limit(samples=1)
    with pytest.raises(TypeError, match="Limit"):
        analyze(lattice(5, 1), limit=5)  # type: ignore[arg-type]


def test_the_deprecated_budget_argument_is_the_auto_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import minesolver.engines.auto as auto_module

    pos = lattice(13, 3)
    with pytest.warns(DeprecationWarning, match="Limit"):
        fits = analyze(pos, budget=60.0)
    assert fits.exact and fits.probabilities == analyze(pos).probabilities
    monkeypatch.setattr(auto_module, "EXACT_SHARE", 0.0)
    monkeypatch.setattr(auto_module, "RECOUNT_SHARE", 0.0)
    with pytest.warns(DeprecationWarning):
        over = analyze(pos, budget=60.0)
    assert not over.exact and over.engine == "exact+mcmc" and over.errors is not None
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="exact engine"):
        analyze(pos, engine="sat", budget=1.0)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="positive"):
        analyze(pos, budget=-1.0)


def test_exact_under_a_time_limit_stops_at_the_deadline() -> None:
    pos = lattice(13, 3)
    with pytest.raises(EngineLimitExceeded, match="engine 'auto'"):
        analyze(pos, limit=Limit(seconds=1e-9))
    assert analyze(pos, limit=Limit(seconds=60)) == analyze(pos)


def test_what_ifs_after_a_sampled_analysis_use_the_same_engine(no_exact_time: None) -> None:
    """A what-if on an analysis that fell back to sampling is analysed by the same
    (configured) engine again, never looked up by its ``exact+mcmc`` label; its certain
    cells are exact ones."""
    pos = lattice(13, 3)
    got = auto(pos, 60.0, sweeps=80, seed=5)
    assert got.engine == "exact+mcmc"
    exact = analyze(pos)
    cell, digit = next(
        (c, d) for c in sorted(exact.safe) for d in range(9) if _consistent(pos.replace({c: d}))
    )
    after = analyze_after(got, cell, digit)
    assert after.source is got.source
    exact_after = analyze(pos.replace({cell: digit}))
    assert after.safe <= exact_after.safe and after.certain_mines <= exact_after.certain_mines
    assert set(after.probabilities) == set(exact_after.probabilities)


def _consistent(pos: Position) -> bool:
    try:
        analyze(pos)
    except ValueError:
        return False
    return True


def test_mcmc_matches_exact_within_its_errors() -> None:
    """Each estimate within 5 batch-means standard errors of the exact value (batch
    means with 20 batches: a t-distribution with 19 degrees of freedom, P(|t| > 5) =
    8e-5; about 120 distinct estimates, so about 1 % false alarms for a random seed),
    and the errors not grossly inflated (median |z| above 0.3; 0.69 expected)."""
    rng = random.Random(8)
    zs: list[float] = []
    for _ in range(6):
        pos = lattice(9, rng.randrange(10**6))
        exact = analyze(pos)
        got = McmcEngine(sweeps=200, seed=rng.randrange(10**6)).analyze_problem(build(pos))
        assert got.safe == exact.safe and got.certain_mines == exact.certain_mines
        assert got.errors is not None
        seen = set()
        for cell, p in exact.probabilities.items():
            if p in (0, 1) or (p, got.probabilities[cell]) in seen:
                continue
            seen.add((p, got.probabilities[cell]))
            zs.append(abs(float(got.probabilities[cell] - p)) / got.errors[cell])
    assert len(zs) > 60
    assert max(zs) < 5
    assert statistics.median(zs) > 0.3


def test_mcmc_under_a_density_and_seeded() -> None:
    pos = lattice(7, 4)
    exact = analyze(pos, density="1/4")
    a = analyze(pos, engine="mcmc", density="1/4")
    b = analyze(pos, engine="mcmc", density="1/4")
    assert a.probabilities == b.probabilities
    assert a.errors is not None
    assert a.safe == exact.safe
    assert all(
        abs(float(a.probabilities[c] - p)) <= 5 * a.errors[c] + 1e-12
        for c, p in exact.probabilities.items()
    )


def test_cli_solve_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesolver.engines.auto as auto_module

    path = tmp_path / "lattice.txt"
    path.write_text(lattice(13, 3).to_text())
    with monkeypatch.context() as patch:
        patch.setattr(auto_module, "EXACT_SHARE", 0.0)
        patch.setattr(auto_module, "RECOUNT_SHARE", 0.0)
        assert main(["solve", str(path), "--budget", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] is False and out["engine"] == "exact+mcmc"
    assert all("error" in c for c in out["cells"])
    assert main(["solve", str(path), "--budget", "-1"]) == 2
    assert "error: --budget -1.0 must be a number of seconds" in capsys.readouterr().err
    # the default: exact when it fits the default limit; --budget 0: exact, no limit
    for args in ([], ["--budget", "0"], ["--engine", "exact", "--budget", "0"]):
        assert main(["solve", str(path), "--json", *args]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["exact"] is True and out["engine"] == "exact", args
    assert main(["solve", str(path), "--engine", "exact", "--budget", "0.0001"]) == 2
    assert "engine 'auto'" in capsys.readouterr().err


def test_sampling_refuses_a_component_it_could_not_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import minesolver.engines.sampling as sampling

    pos = lattice(13, 3)
    monkeypatch.setattr(sampling, "MAX_OPS", 100.0)
    with pytest.raises(EngineLimitExceeded, match="use mcmc"):
        sampling.SamplingEngine(samples=10).analyze_problem(build(pos))
    monkeypatch.setattr(sampling, "MAX_OPS", 5e7)
    assert sampling.SamplingEngine(samples=10).analyze_problem(build(pos)).safe


def test_sat_out_of_time_leaves_cells_uncertain_never_certain_without_proof() -> None:
    """Under a time limit too short for its questions, the SAT engine reports only
    proven certain cells: a subset of the exact ones, the rest uncertain (positions
    whose certain cells need more than propagation, found by a seeded search)."""
    from gen import cut_position

    from minesolver.engines.sat import SatEngine

    rng = random.Random(11)
    tried = 0
    while tried < 5:
        pos = cut_position(rng, 16, 16, 40, openings=3).position
        problem = build(pos)
        exact = analyze(pos)
        forced = {pos.coords(i) for i in problem.forced_safe | problem.forced_mines}
        if not (exact.safe | exact.certain_mines) - forced:
            continue
        tried += 1
        full = analyze(pos, engine="sat")
        assert full.safe == exact.safe and full.certain_mines == exact.certain_mines
        hurried = analyze(pos, engine=SatEngine(seconds=1e-9, first_seconds=30.0))
        assert hurried.safe <= exact.safe and hurried.certain_mines <= exact.certain_mines
        assert {c for c in hurried.safe | hurried.certain_mines} == forced  # nothing more proven
        assert all(0 < hurried.probabilities[c] < 1 for c in exact.safe - hurried.safe)
