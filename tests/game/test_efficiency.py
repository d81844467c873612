"""The board measures: 3BV, openings and islands as the replay grader counts them, ZiNi
and HZiNi exactly as ms-toollib computes them, rZiNi, and ZiNi's clicks replaying."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver.game import Game, Layout, Level, efficiency, random_layout
from minesolver.game.efficiency import (
    MINE,
    BoardMeasures,
    bbbv,
    board_digits,
    board_measures,
    board_stats,
    hzini,
    rzini,
    zini,
    zini_moves,
)

LayoutOf = Callable[[list[str]], Layout]


def _boards(seed: int, count: int) -> list[Layout]:
    """Seeded layouts of every shape: thin, square, dense, empty, standard levels."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        width, height = rng.randint(1, 30), rng.randint(1, 24)
        out.append(random_layout(Level(width, height, rng.randint(0, width * height // 3)), rng))
    for level in (Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)):
        out += [random_layout(level, rng) for _ in range(count // 10)]
    return out


def _rows(layout: Layout) -> list[list[int]]:
    """ms-toollib's board: rows of digits, -1 for a mine."""
    digits = board_digits(layout)
    w = layout.width
    return [list(digits[r * w : (r + 1) * w]) for r in range(layout.height)]


def test_digits_mark_mines_and_count_neighbours(layout_of: LayoutOf) -> None:
    layout = layout_of(["*..", "...", "..*"])
    assert board_digits(layout) == (MINE, 1, 0, 1, 2, 1, 0, 1, MINE)


def test_measures_of_a_small_board(layout_of: LayoutOf) -> None:
    layout = layout_of(["....", "...*", "....", "*..."])
    m = board_measures(layout)
    assert isinstance(m, BoardMeasures)
    assert (m.width, m.height, m.mines) == (4, 4, 2)
    assert (m.bbbv, m.openings, m.islands) == (3, 2, 1)  # (3, 0) is next to no zero
    assert (m.zini, m.hzini) == (3, 3)
    crowded = board_measures(layout_of(["..*.", "....", "*...", "...*"]))
    assert (crowded.bbbv, crowded.openings, crowded.islands) == (10, 1, 1)
    assert (crowded.zini, crowded.hzini) == (6, 6)  # chords beat nine left clicks


def test_an_empty_board_takes_one_click_and_a_full_one_none() -> None:
    empty = Layout.from_cells(5, 4, [])
    assert (bbbv(empty), zini(empty), hzini(empty)) == (1, 1, 1)
    full = Layout.from_cells(2, 2, [(0, 0), (1, 0), (0, 1), (1, 1)])
    assert (bbbv(full), zini(full), hzini(full)) == (0, 0, 0)
    assert zini_moves(full) == ()


@pytest.mark.parametrize("seed", range(3))
def test_3bv_openings_islands_agree_with_the_replay_grader(seed: int) -> None:
    for layout in _boards(seed, 40):
        m, s = board_measures(layout), board_stats(layout)
        assert (m.bbbv, m.openings, m.islands) == (s.bbbv, s.openings, s.islands)


@pytest.mark.parametrize("seed", range(3))
def test_zini_and_hzini_equal_ms_toollib(seed: int) -> None:
    ms = pytest.importorskip("ms_toollib")
    for layout in _boards(100 + seed, 60):
        board = _rows(layout)
        assert zini(layout) == ms.cal_zini(board), layout
        assert hzini(layout) == ms.cal_hzini(board), layout
        assert bbbv(layout) == ms.cal_bbbv(board), layout


@pytest.mark.parametrize("human", [False, True])
def test_zini_clicks_replay_to_a_won_game(human: bool) -> None:
    for layout in _boards(7, 40):
        moves = zini_moves(layout, human=human)
        game = Game.from_layout(layout)
        steps = [game.push(move) for move in moves]
        assert all(step.changed for step in steps)  # no click is wasted
        assert game.outcome.won or len(layout.mine_indices) == layout.width * layout.height
        assert len(moves) <= (hzini(layout) if human else zini(layout))


def test_rzini_is_reproducible_and_never_above_zini() -> None:
    for layout in _boards(11, 20):
        got = rzini(layout, random.Random(5), iterations=8)
        assert got == rzini(layout, random.Random(5), iterations=8)
        assert got <= zini(layout)
        assert rzini(layout, random.Random(5), iterations=0) == zini(layout)
    with pytest.raises(ValueError, match="negative"):
        rzini(Layout.from_cells(2, 2, []), random.Random(0), iterations=-1)


def test_random_zini_clicks_replay_and_are_counted_by_rzini() -> None:
    rng = random.Random(3)
    layout = random_layout(Level(16, 16, 40), rng)
    counts = []
    for _ in range(5):
        moves = zini_moves(layout, rng=rng)
        game = Game.from_layout(layout)
        for move in moves:
            game.push(move)
        assert game.outcome.won
        counts.append(len(moves))
    assert rzini(layout, random.Random(1), iterations=50) <= zini(layout)


def test_rzini_is_as_good_as_ms_toollib_on_average() -> None:
    """The same number of random runs on the same expert boards (paired). ms-toollib draws
    from the operating system, so the sums differ by chance (a standard deviation of a
    few clicks over twelve boards): the margin is one click a board, while the restarts
    must gain over plain ZiNi by more than that."""
    ms = pytest.importorskip("ms_toollib")
    rng = random.Random(2024)
    ours = theirs = plain = 0
    boards = 12
    for _ in range(boards):
        layout = random_layout(Level(30, 16, 99), rng)
        ours += rzini(layout, random.Random(rng.random()), iterations=40)
        theirs += ms.cal_rzini(_rows(layout), 40)
        plain += zini(layout)
    assert ours <= theirs + boards
    assert ours < plain - boards


class _ScanZini(efficiency._Zini):
    """The original's selection, a scan of the whole board at each step: the reference the
    heap and the Fenwick tree of :class:`efficiency._Zini` must equal, random ties included."""

    def _best(self, rng: random.Random | None) -> int | None:
        best, ties = -1, []
        for i, p in enumerate(self.premium):
            if self.mine[i] or (self.human and not self.opened[i]):
                continue
            if p > best:
                best, ties = p, [i]
            elif p == best and best >= 0 and rng is not None:
                ties.append(i)
        if not ties:
            return None
        return ties[0] if rng is None else ties[efficiency._below(rng, len(ties))]

    def _fallback(self, rng: random.Random | None) -> int | None:
        left = [
            j
            for j in range(len(self.mine))
            if not self.opened[j]
            and not self.mine[j]
            and (self.number[j] == 0 or self.opening[j] == 0)
        ]
        if not left:
            return None
        return left[0] if rng is None else left[efficiency._below(rng, len(left))]


@settings(max_examples=150, deadline=None)
@given(
    w=st.integers(1, 16),
    h=st.integers(1, 16),
    density=st.floats(0, 0.4),
    seed=st.integers(0, 2**32),
    mode=st.sampled_from(["zini", "hzini", "random"]),
)
def test_fast_selection_makes_the_scans_clicks(
    w: int, h: int, density: float, seed: int, mode: str
) -> None:
    rng = random.Random(seed)
    layout = Layout(w, h, tuple(sorted(rng.sample(range(w * h), int(w * h * density)))))
    runs = []
    for cls in (efficiency._Zini, _ScanZini):
        z = cls(layout)
        count = z.run(human=mode == "hzini", rng=random.Random(seed) if mode == "random" else None)
        runs.append((count, z.moves))
    assert runs[0] == runs[1]


def _replayed_from_the_start(layout: Layout, rng: random.Random, runs: int, mutations: int) -> int:
    """The fewest useful moves of :func:`best_zini_plays`'s runs, each replayed from the
    board's start (the plain way, before runs resumed from kept states)."""
    start = efficiency._Zini(layout)
    figures = []
    for human in (False, True):
        z = start.clone()
        z.run(human=human, rng=None)
        figures.append(z.useful)
    best, best_ties = min(figures), None
    for k in range(runs + mutations):
        z = start.clone()
        if k < runs or best_ties is None:
            ties = efficiency._Ties(rng, [])
        else:
            ties = efficiency._Ties(rng, best_ties[: rng.randrange(len(best_ties) + 1)])
        z.run(human=False, rng=ties)
        best = min(best, z.useful)
        if z.useful <= best:
            best_ties = ties.drawn
    return best


@pytest.mark.parametrize("seed", range(3))
def test_runs_resumed_from_kept_states_are_the_runs_replayed(seed: int) -> None:
    """The runs around the best one resume from a copy of its state: the same runs, so
    the same figure, as replaying each from the start; and a search made in steps
    (:class:`~minesolver.game.efficiency.ZiniSearch`) is the search made at once."""
    rng = random.Random(seed)
    layouts = [random_layout(Level(16, 16, 40), rng), random_layout(Level(30, 16, 99), rng)]
    for layout in layouts:
        plays = efficiency.best_zini_plays(layout, random.Random(seed), 10, None, 60)
        assert len(plays.moves) == _replayed_from_the_start(layout, random.Random(seed), 10, 60)
        steps = efficiency.ZiniSearch(layout, random.Random(seed))
        steps.search(10, 25)
        assert steps.search(0, 35).moves == plays.moves
