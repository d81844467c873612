"""Win-rate statistics: the Wilson interval and McNemar's exact test."""

from __future__ import annotations

from minesolver.simulate.stats import mcnemar_exact, wilson_interval


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mcnemar_exact_known_values() -> None:
    assert mcnemar_exact(0, 5) == 2 / 32
    assert mcnemar_exact(1, 9) == 22 / 1024  # (C(10,0) + C(10,1)) / 2^10, both tails
    assert mcnemar_exact(9, 1) == mcnemar_exact(1, 9)
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0
