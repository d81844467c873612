"""Shared settings of the simulator's tests."""

from __future__ import annotations

import pytest

from minesolver.game import PRESETS
from minesolver.simulate import Setup


@pytest.fixture
def beginner() -> Setup:
    """Greedy on beginner, first click safe in the corner, seed 11."""
    return Setup(PRESETS["beginner"], "safe", (0, 0), ("greedy",), seed=11)
