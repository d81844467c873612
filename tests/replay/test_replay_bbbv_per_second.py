"""3BV/s of a replay: a won game's 3BV over its time; a lost one's counts only the 3BV
its clicks solved (not the board's)."""

from __future__ import annotations

import pytest

from minesolver.game import Layout
from minesolver.replay import grade_replay
from minesolver.replay.evf_write import replay_from_moves

# 0 1 * 1 0 1 * 1 0: three openings, 3BV 3
ROW = Layout.from_cells(9, 1, [(2, 0), (6, 0)])


def test_a_loss_counts_the_3bv_solved() -> None:
    replay = replay_from_moves(ROW, [("open", (0, 0), 0), ("open", (2, 0), 11)])
    graded = grade_replay(replay, best=False)
    assert not graded.won and graded.bbbv == 3
    assert graded.playback.clicks.bbbv_solved == 1
    assert graded.bbbv_per_second == pytest.approx(1 / 0.011)


def test_a_win_counts_the_board() -> None:
    moves = [("open", (0, 0), 0), ("open", (4, 0), 500), ("open", (8, 0), 1000)]
    graded = grade_replay(replay_from_moves(ROW, moves), best=False)
    assert graded.won and graded.bbbv_per_second == pytest.approx(3 / 1.0)
