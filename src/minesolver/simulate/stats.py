"""Statistics of win rates: the Wilson interval and McNemar's exact paired test.

Both are computed without scipy: the Wilson bounds in floats (a closed form), McNemar's
p-value exactly in Python ints (binomial tail of the discordant pairs under 1/2).
"""

from __future__ import annotations

import math
from fractions import Fraction

__all__ = ["Z95", "mcnemar_exact", "wilson_interval"]

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default).

    ``(0, 1)`` for no games. Unlike the normal approximation it stays inside [0, 1] and
    behaves near 0 and 1 and for few games.
    """
    if games <= 0:
        return 0.0, 1.0
    if not 0 <= wins <= games:
        raise ValueError(f"wins {wins} must be between 0 and games {games}")
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return lo, hi


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value for paired wins.

    ``a_only`` games were won by A alone, ``b_only`` by B alone. Under the null the
    discordant games split as Binomial(n, 1/2), n = a_only + b_only; the p-value is twice
    the smaller tail, capped at 1 (1 when there is no discordant game). Exact: the tail
    is a sum of binomial coefficients over ``2**n``; O(min(a, b)) big-int terms.
    """
    if a_only < 0 or b_only < 0:
        raise ValueError("discordant counts must not be negative")
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))
