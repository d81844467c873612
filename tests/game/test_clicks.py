"""The proved fewest clicks: equal to an exhaustive search on tiny boards, never above
ZiNi, and the clicks themselves replay through ``Game.push`` to a won game."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable

import pytest
from gen import ci_settings
from hypothesis import given
from hypothesis import strategies as st
from replay_samples import SAMPLES

from minesolver.game import Game, Layout, Level, Move, clicks, random_layout
from minesolver.game._click_work import round_work
from minesolver.game.click_cuts import chord_sets
from minesolver.game.clicks import (
    ZINI_RUNS,
    MinClicks,
    _Board,
    _Formula,
    bound_without_search,
    min_clicks,
    move_notation,
    parse_notation,
)
from minesolver.game.efficiency import bbbv, board_digits, hzini, rzini, zini, zini_moves
from minesolver.position import neighbour_table

pytest.importorskip("pysat")

LayoutOf = Callable[[list[str]], Layout]


def _rules(layout: Layout) -> tuple[list[tuple[int, ...]], list[int], int, int]:
    """The board as bitmasks: neighbours, digits, the mines, the safe cells."""
    n = layout.width * layout.height
    table = [tuple(t) for t in neighbour_table(layout.width, layout.height)]
    mines = sum(1 << i for i in layout.mine_indices)
    digit = [sum(mines >> j & 1 for j in table[i]) for i in range(n)]
    return table, digit, mines, ((1 << n) - 1) & ~mines


def _flood(table: list[tuple[int, ...]], digit: list[int], opened: int, flags: int, i: int) -> int:
    """Open cell ``i`` (safe, closed, unflagged) and flood from the zeros."""
    stack = [i]
    opened |= 1 << i
    while stack:
        k = stack.pop()
        if digit[k] == 0:
            for j in table[k]:
                if not (opened | flags) >> j & 1:
                    opened |= 1 << j
                    stack.append(j)
    return opened


def fewest_clicks_by_search(layout: Layout) -> int:
    """Breadth-first search over (open cells, flags) with every click the rules allow:
    a left click on a closed unflagged cell (a mine loses, so it is never on a winning
    path), a right click flagging or unflagging any closed cell, a chord on an open digit
    whose flagged neighbours number it. Independent of the solver: bitmasks and the
    rules. Exponential: for boards of a dozen cells."""
    table, digit, mines, safe = _rules(layout)
    if not safe:
        return 0
    depth = {(0, 0): 0}
    queue = deque([(0, 0)])
    while queue:
        opened, flags = state = queue.popleft()
        nxt = []
        for i in range(len(digit)):
            bit = 1 << i
            if opened & bit:
                if sum(flags >> j & 1 for j in table[i]) == digit[i]:
                    closed = [j for j in table[i] if not (opened | flags) >> j & 1]
                    if closed and not any(mines >> j & 1 for j in closed):
                        new = opened
                        for j in closed:
                            new = _flood(table, digit, new, flags, j)
                        nxt.append((new, flags))
            elif flags & bit:
                nxt.append((opened, flags & ~bit))
            else:
                if not mines & bit:
                    nxt.append((_flood(table, digit, opened, flags, i), flags))
                nxt.append((opened, flags | bit))
        for new in nxt:
            if new not in depth:
                depth[new] = depth[state] + 1
                if new[0] & safe == safe:
                    return depth[new]
                queue.append(new)
    raise AssertionError("no sequence clears the board")


def fewest_clicks_by_dijkstra(layout: Layout, start: tuple[int, int] | None = None) -> int:
    """The same minimum by a shortest-path search whose moves are a left click (cost 1)
    and a chord with the flags it still needs placed just before it (cost 1 + those
    flags): any winning sequence becomes one of these at no greater cost (a flag moved
    to just before the first chord that needs it changes nothing else; a wrong flag or
    an unneeded one only costs). States are the open cells and the flags. With ``start``,
    the minimum when the first click is on that (safe) cell: the search starts from the
    state after it, at cost 1."""
    table, digit, mines, safe = _rules(layout)
    if not safe:
        return 0
    first = 0 if start is None else _flood(table, digit, 0, 0, start[1] * layout.width + start[0])
    cost = 0 if start is None else 1
    best = {(first, 0): cost}
    buckets: list[list[tuple[int, int]]] = [[] for _ in range(cost)] + [[(first, 0)]]
    while cost < len(buckets):
        for state in buckets[cost]:
            if best[state] != cost:
                continue
            opened, flags = state
            if opened & safe == safe:
                return cost
            for i in range(len(digit)):
                bit = 1 << i
                if opened & bit:
                    need = [j for j in table[i] if mines >> j & 1 and not flags >> j & 1]
                    more = flags | sum(1 << j for j in need)
                    closed = [j for j in table[i] if not (opened | more) >> j & 1]
                    if not closed:
                        continue
                    new = opened
                    for j in closed:
                        new = _flood(table, digit, new, more, j)
                    moves = [((new, more), cost + 1 + len(need))]
                elif not mines & bit and not flags & bit:
                    moves = [((_flood(table, digit, opened, flags, i), flags), cost + 1)]
                else:
                    continue
                for new_state, new_cost in moves:
                    if new_cost < best.get(new_state, new_cost + 1):
                        best[new_state] = new_cost
                        while len(buckets) <= new_cost:
                            buckets.append([])
                        buckets[new_cost].append(new_state)
        cost += 1
    raise AssertionError("no sequence clears the board")


def replay(layout: Layout, plan: MinClicks) -> Game:
    game = Game.from_layout(layout)
    for move in plan.clicks:
        assert not game.over, "a click after the end"
        assert game.push(move).changed, f"{move_notation(move)} changes nothing"
    return game


def _tiny(seed: int, width: int, height: int) -> Layout:
    rng = random.Random(seed)
    return random_layout(Level(width, height, rng.randint(1, width * height // 3)), rng)


@pytest.mark.parametrize("seed", range(12))
def test_equals_the_full_search_on_the_smallest_boards(seed: int) -> None:
    layout = _tiny(seed, 3 + seed % 2, 3)
    plan = min_clicks(layout)
    assert plan.optimal and plan.lower_bound == plan.count
    assert plan.count == fewest_clicks_by_search(layout) == fewest_clicks_by_dijkstra(layout)
    assert replay(layout, plan).outcome.won


@pytest.mark.parametrize("seed", range(30))
def test_equals_the_search_on_tiny_boards(seed: int) -> None:
    width, height = ((4, 4), (5, 4), (4, 5))[seed % 3]
    layout = _tiny(1000 + seed, width, height)
    plan = min_clicks(layout)
    assert plan.optimal
    assert plan.count == fewest_clicks_by_dijkstra(layout)
    assert replay(layout, plan).outcome.won


def test_chords_beat_left_clicks_where_they_should(layout_of: LayoutOf) -> None:
    # eight digits around one mine, none next to a zero: 8 left clicks, or a left click,
    # a flag and three chords
    ring = layout_of(["...", ".*.", "..."])
    plan = min_clicks(ring)
    assert bbbv(ring) == 8 and plan.count == 5 and plan.optimal
    assert [move.kind for move in plan.clicks].count("chord") == 3
    assert replay(ring, plan).outcome.won
    # an opening floods everything: one click
    assert min_clicks(layout_of(["....", "....", "....", "...*"])).count == 1


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(8, 8, 12)])
def test_beginner_boards_are_proved_and_never_above_zini(level: Level) -> None:
    rng = random.Random(42)
    for _ in range(8):
        layout = random_layout(level, rng)
        plan = min_clicks(layout, seconds=None)
        assert plan.optimal, layout
        assert plan.count <= zini(layout)
        assert plan.lower_bound == plan.count
        assert replay(layout, plan).outcome.won


def test_past_the_budget_the_best_found_with_a_proved_bound() -> None:
    layout = random_layout(Level(30, 16, 99), random.Random(3))
    board = _Board.of(layout)
    plan = min_clicks(layout, work=2000, seconds=None)
    assert (plan.cut, plan.optimal) == ("work", False) and 2000 <= plan.work < 3000
    assert 0 < bound_without_search(board) <= plan.lower_bound <= plan.count
    assert plan.count <= min(zini(layout), hzini(layout))
    assert replay(layout, plan).outcome.won


def test_the_safety_deadline_says_it_cut() -> None:
    # a deadline passed before the first random ZiNi run: cut by it, whatever the load
    layout = random_layout(Level(30, 16, 99), random.Random(3))
    plan = min_clicks(layout, seconds=1e-9)
    assert (plan.cut, plan.optimal, plan.work, plan.rounds) == ("deadline", False, 0, 0)
    assert plan.lower_bound == bound_without_search(_Board.of(layout)) > 0
    assert plan.count <= min(zini(layout), hzini(layout))
    assert replay(layout, plan).outcome.won


def test_every_round_is_counted_as_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # a board whose search made hundreds of rounds of a few conflicts each when the order
    # of the chords was left to the cuts (as on this budget, below the order's; with the
    # order's clauses one round proves it): its rounds are paid from the budget
    # (uncounted, they took minutes past the budget), so the rounds a budget allows are
    # bounded, and the search stops at the budget
    monkeypatch.setattr(clicks, "order_clauses", lambda *args: ([], {}))
    rng = random.Random("2026-intermediate")
    layout = [random_layout(Level(16, 16, 40), rng) for _ in range(17)][-1]
    plan = min_clicks(layout, work=20_000, seconds=None)
    assert (plan.cut, plan.optimal) == ("work", False)
    assert plan.rounds * round_work(16 * 16) <= plan.work <= 20_000 + 10
    assert plan.rounds < 20_000 // round_work(16 * 16)


def test_every_propagation_call_is_counted_as_work() -> None:
    # RC2's detection of at-most-one relations makes one propagation call per click
    # variable (about 600 on expert) before any conflict: a budget below their cost
    # stops the search inside the first round, with the bound that needs no search
    layout = random_layout(Level(30, 16, 99), random.Random(3))
    plan = min_clicks(layout, work=500, seconds=None)
    assert (plan.cut, plan.rounds, plan.work) == ("work", 0, 500)
    assert plan.lower_bound == bound_without_search(_Board.of(layout))


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)])
def test_the_same_board_and_work_give_the_same_figures(level: Level) -> None:
    layout = random_layout(level, random.Random(11))
    runs = [min_clicks(layout, work=1500, seconds=None) for _ in range(2)]
    first, second = ({**vars_of(p), "seconds": 0} for p in runs)
    assert first == second


def vars_of(plan: MinClicks) -> dict[str, object]:
    return {name: getattr(plan, name) for name in MinClicks.__slots__}


def test_the_figures_do_not_depend_on_the_process() -> None:
    # another process with another hash seed (sets of strings iterate in another order)
    # finds the same clicks, bound, rounds and work
    code = (
        "import random, json;"
        "from minesolver.game import Level, random_layout;"
        "from minesolver.game.clicks import min_clicks;"
        "p = min_clicks(random_layout(Level(16, 16, 40), random.Random(4)), work=3000,"
        " seconds=None);"
        "print(json.dumps([p.notation(), p.lower_bound, p.rounds, p.work, p.cut]))"
    )
    outs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
        )
        assert done.returncode == 0, done.stderr[-500:]
        outs.add(done.stdout)
    assert len(outs) == 1


@pytest.mark.parametrize("seed", range(40))
def test_every_lower_bound_is_below_the_search(seed: int) -> None:
    # the bound that needs no search, and the bound at each small budget (the search cut
    # at every point it can be), never above the breadth-first minimum
    width, height = ((4, 4), (5, 4), (4, 5), (3, 6))[seed % 4]
    layout = _tiny(5000 + seed, width, height)
    fewest = fewest_clicks_by_dijkstra(layout)
    board = _Board.of(layout)
    assert bound_without_search(board) <= fewest
    assert (bound_without_search(board) > 0) is (fewest > 0)
    for work in (0, 1, 2, 3, 5, 8, 13, 100):
        plan = min_clicks(layout, work=work, zini_runs=0, seconds=None)
        assert plan.lower_bound <= fewest <= plan.count
        assert replay(layout, plan).outcome.won


@pytest.mark.parametrize("seed", range(6))
def test_a_search_cut_anywhere_keeps_its_bound_below_the_minimum(seed: int) -> None:
    # boards whose proof takes hundreds of conflicts: cut at many points, every bound is
    # at most the proved minimum (itself equal to the exhaustive search on small boards)
    rng = random.Random(seed)
    layout = random_layout(Level(10, 10, 22), rng)
    full = min_clicks(layout, work=10**7, zini_runs=0, seconds=None)
    assert full.optimal
    for work in sorted({1, 7, 30, 100, 300, full.work // 2, max(full.work - 1, 0)}):
        plan = min_clicks(layout, work=work, zini_runs=0, seconds=None)
        assert plan.lower_bound <= full.count <= plan.count
        assert plan.work <= max(full.work, work + 100)


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)])
def test_never_above_zini_hzini_or_the_random_runs(level: Level) -> None:
    # no search at all: the first sequence is already the best of the ZiNi family
    rng = random.Random(21)
    for _ in range(3):
        layout = random_layout(level, rng)
        plan = min_clicks(layout, work=0, seconds=None)
        assert plan.count <= min(zini(layout), hzini(layout))
        assert plan.count <= rzini(layout, random.Random(0), ZINI_RUNS)
        assert replay(layout, plan).outcome.won


def test_boards_without_a_safe_cell_or_a_mine() -> None:
    full = Layout.from_cells(2, 1, [(0, 0), (1, 0)])
    plan = min_clicks(full)
    assert (plan.clicks, plan.count, plan.lower_bound, plan.optimal) == ((), 0, 0, True)
    empty = Layout.from_cells(4, 3, [])
    plan = min_clicks(empty)
    assert plan.count == plan.lower_bound == 1 and plan.clicks[0].kind == "open"


def test_notation_round_trips_and_rejects_nonsense() -> None:
    for move in (Move("open", (3, 4)), Move("flag", (0, 0)), Move("chord", (12, 7))):
        assert parse_notation(move_notation(move)) == move
    assert move_notation(Move("flag", (5, 5))) == "R 5,5"
    for bad in ("X 1,2", "L 1", "L a,b", ""):
        with pytest.raises(ValueError, match="click"):
            parse_notation(bad)
    with pytest.raises(ValueError, match="not a click"):
        move_notation(Move("unflag", (1, 1)))
    with pytest.raises(ValueError, match="positive"):
        min_clicks(Layout.from_cells(2, 2, []), seconds=0)


def test_no_limit_is_allowed() -> None:
    plan = min_clicks(Layout.from_cells(5, 1, [(2, 0)]), seconds=float("inf"))
    assert plan.optimal and plan.notation() == ["L 0,0", "L 4,0"]
    with pytest.raises(ValueError, match="positive"):
        min_clicks(Layout.from_cells(2, 2, []), seconds=float("nan"))


@pytest.mark.parametrize("seed", range(20))
def test_each_digit_knows_the_openings_it_borders(seed: int) -> None:
    rng = random.Random(seed)
    width, height = rng.randint(1, 14), rng.randint(1, 14)
    cells = [(x, y) for x in range(width) for y in range(height)]
    layout = Layout.from_cells(width, height, rng.sample(cells, rng.randint(0, len(cells) // 3)))
    board = _Board.of(layout)
    for d in range(width * height):
        expected = tuple(k for k in range(board.openings) if d in board.border[k])
        assert board.bordering[d] == expected


def test_a_board_of_thousands_of_openings_is_set_up_in_linear_time() -> None:
    # 4096 openings of one zero each: the programme's set-up once scanned every opening
    # for each border digit (quadratic: about 6 s here). Measured against a board 16
    # times smaller, each the best of three runs, so that the machine's load (which slows
    # both alike) does not decide: linear is a ratio of about 16, quadratic about 256
    def setup_seconds(size: int) -> float:
        cells = [(x, y) for x in range(size) for y in range(size) if x % 4 == 0 or y % 4 == 0]
        layout = Layout.from_cells(size, size, cells)
        best = float("inf")
        for _ in range(3):
            start = time.process_time()  # this process's CPU: other processes do not count
            board = _Board.of(layout)
            _Formula(board)
            best = min(best, time.process_time() - start)
        assert board.openings == (size // 4) ** 2
        return best

    assert setup_seconds(256) < 64 * setup_seconds(64)


def test_a_large_board_keeps_to_the_budget() -> None:
    # the first sequences' ZiNi runs with random ties once took minutes here (every tied
    # heap entry popped and pushed back, stale ones included) and ran past the deadline
    rng = random.Random(1)
    cells = [(x, y) for x in range(128) for y in range(128)]
    layout = Layout.from_cells(128, 128, rng.sample(cells, len(cells) // 5))
    # the deadline is checked between the runs: hundreds of runs on 128x128 take far
    # longer than 1 s on any machine, so it cuts them, and says so
    began = time.process_time()
    plan = min_clicks(layout, seconds=1.0)
    # it stops soon after the deadline: a bound on this process's CPU (which the load of
    # other processes cannot raise), not on the wall clock
    assert time.process_time() - began < 8.0
    assert (plan.cut, plan.rounds, plan.work) == ("deadline", 0, 0)
    assert 0 < plan.lower_bound <= plan.count <= zini(layout)
    # a few runs with random ties, no deadline: they end (each O(cells log cells))
    plan = min_clicks(layout, work=0, zini_runs=1, seconds=None)
    assert plan.cut == "work" and 0 < plan.lower_bound <= plan.count <= zini(layout)


def _plan_of(board: _Board, formula: _Formula, moves: tuple[Move, ...], width: int) -> set[int]:
    """A winning sequence as the programme's true variables: a left click on a unit's
    cell clicks that unit; one on a border digit, an opening it borders (which opens at
    least as much: the model's dominance); a flag, its mine; a chord, its digit."""
    true: set[int] = set()
    for move in moves:
        i = move.cell[0] + move.cell[1] * width
        if move.kind == "open":
            unit = board.unit_of[i]
            true.add((unit if unit >= 0 else board.bordering[i][0]) + 1)
        elif move.kind == "flag":
            true.add(formula.fvar[i])
        else:
            true.add(formula.cvar[i])
    return true


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)])
def test_every_clause_holds_for_winning_sequences(level: Level) -> None:
    # the programme's clauses (the reach cuts, the chords' own cuts, a flag only beside a
    # chord) are satisfied by real winning sequences without wasted moves: ZiNi's,
    # HZiNi's and runs with random ties, on many boards; a clause that cut off a winning
    # sequence could raise the lower bound past the minimum
    rng = random.Random(77)
    for _ in range(6):
        layout = random_layout(level, rng)
        board = _Board.of(layout)
        formula = _Formula(board)
        runs = [zini_moves(layout), zini_moves(layout, human=True)]
        runs += [zini_moves(layout, rng=random.Random(k)) for k in range(4)]
        for moves in runs:
            replayed = Game.from_layout(layout)
            for move in moves:
                replayed.push(move)
            assert replayed.outcome.won
            true = _plan_of(board, formula, moves, layout.width)
            for clause in formula.hard:
                assert any((lit > 0) == (abs(lit) in true) for lit in clause), clause


@st.composite
def _small_layouts(draw: st.DrawFn) -> Layout:
    width = draw(st.integers(2, 5), label="width")
    height = draw(st.integers(2, max(2, min(5, 18 // width))), label="height")
    cells = [(x, y) for x in range(width) for y in range(height)]
    mines = draw(st.lists(st.sampled_from(cells), unique=True, max_size=len(cells) // 2))
    return Layout.from_cells(width, height, mines)


@given(layout=_small_layouts(), work=st.sampled_from([0, 1, 3, 10, 40, 10**6]))
@ci_settings(150)
def test_every_bound_is_at_most_the_true_minimum(layout: Layout, work: int) -> None:
    # many random small boards: the bound without search and the search's bound at any
    # budget never pass the shortest-path minimum (an oracle independent of the
    # programme), the sequence found never falls below it, and with work to spare the
    # two meet it
    fewest = fewest_clicks_by_dijkstra(layout)
    assert bound_without_search(_Board.of(layout)) <= fewest
    plan = min_clicks(layout, work=work, zini_runs=0, seconds=None)
    assert plan.lower_bound <= fewest <= plan.count
    if work == 10**6:
        assert plan.optimal and plan.count == fewest
    assert replay(layout, plan).outcome.won


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)])
def test_never_above_ms_toollibs_zini_or_hzini(level: Level) -> None:
    # ms-toollib (a test oracle only) on 25 boards of each level: the fewest found, with no
    # search and no random runs, is at most its cal_zini and cal_hzini on every board
    ms = pytest.importorskip("ms_toollib")
    rng = random.Random(303)
    for _ in range(25):
        layout = random_layout(level, rng)
        digits = board_digits(layout)
        w = layout.width
        rows = [list(digits[r * w : (r + 1) * w]) for r in range(layout.height)]
        plan = min_clicks(layout, work=0, zini_runs=0, seconds=None)
        assert plan.count <= min(ms.cal_zini(rows), ms.cal_hzini(rows)), layout
        assert replay(layout, plan).outcome.won


def _first_relaxation(layout: Layout) -> int | None:
    """The optimum of the programme before any round (``None`` for a board with no
    unit): a lower bound on the fewest clicks."""
    board = _Board.of(layout)
    if not board.units:
        return None
    solver = _Formula(board).solver()
    try:
        assert solver.compute() is not None
        return int(solver.cost)
    finally:
        solver.delete()


@given(layout=_small_layouts())
@ci_settings(150)
def test_the_first_relaxation_with_every_chord_set_is_below_the_minimum(layout: Layout) -> None:
    # the programme before any round (each unit's cut, the islands', the openings', and
    # every connected set of up to three chord candidates'): its optimum is a bound, so
    # it never passes the shortest-path minimum; a chord set's cut that cut off the
    # best plan would show here
    cost = _first_relaxation(layout)
    assert cost is None or cost <= fewest_clicks_by_dijkstra(layout)


@pytest.mark.parametrize("seed", range(8))
def test_the_first_relaxation_is_below_the_breadth_first_minimum(seed: int) -> None:
    # the same against the exhaustive breadth-first search, on boards dense enough for
    # chords: every 4x4 board here has connected sets of three chord candidates
    layout = _tiny(9000 + seed, 4, 4)
    cost = _first_relaxation(layout)
    assert cost is None or cost <= fewest_clicks_by_search(layout)


@pytest.mark.parametrize("seed", range(8))
def test_the_chord_sets_are_every_connected_set_of_up_to_three(seed: int) -> None:
    # against every subset of one to three chord candidates tested for 8-connection
    layout = _tiny(7000 + seed, 5, 5)
    board = _Board.of(layout)
    cuts = chord_sets(board.chords, board.table, board.bordering, board.unit_of)
    found: dict[frozenset[int], set[int]] = {}
    for nodes, target in cuts:
        found.setdefault(frozenset(v for kind, v in nodes if kind == "d"), set()).add(target)
    expected = set()
    for size in (1, 2, 3):
        for group in itertools.combinations(board.chords, size):
            linked = {group[0]}
            for _ in range(size):
                linked |= {d for d in group if any(e in linked for e in board.table[d])}
            if len(linked) == size:
                expected.add(frozenset(group))
    assert set(found) == expected
    assert all(targets == set(group) for group, targets in found.items())
    assert len(cuts) == sum(map(len, expected))


def _order_holds(layout: Layout, moves: tuple[Move, ...]) -> None:
    """The order's clauses hold for a winning sequence: each arc true when its tail is
    made (a chord) or opened (an opening) before its head, as the proof of
    :mod:`minesolver.game.click_order` sets it; times from the sequence replayed."""
    board = _Board.of(layout)
    formula = _Formula(board)
    true = _plan_of(board, formula, moves, layout.width)
    inf = float("inf")
    time_of: dict[tuple[str, int], float] = {}
    game = Game.from_layout(layout)
    for t, move in enumerate(moves):
        i = move.cell[0] + move.cell[1] * layout.width
        opened = {x + y * layout.width for x, y in game.push(move).opened}
        if move.kind == "chord":
            time_of[("d", i)] = t
        if move.kind == "open" and board.unit_of[i] < 0:  # a border digit: an opening
            time_of.setdefault(("o", board.bordering[i][0]), t)
        for j in opened:
            k = board.unit_of[j]
            if board.digits[j] == 0:
                time_of.setdefault(("o", k), t + (0.5 if move.kind == "chord" else 0))
    for (tail, head), var in formula.arcs.items():
        when = time_of.get(tail, inf)
        if when < inf and when < time_of.get(head, inf):
            true.add(var)
    for clause in formula.order:
        assert any((lit > 0) == (abs(lit) in true) for lit in clause), clause


@pytest.mark.parametrize("level", [Level(9, 9, 10), Level(16, 16, 40), Level(30, 16, 99)])
def test_the_order_of_the_chords_holds_for_winning_sequences(level: Level) -> None:
    # the order's clauses (each chord's digit opened first, no cycle of arcs) hold for
    # real winning sequences, with the arcs' variables set from the sequence's times:
    # clauses that cut off a winning sequence could raise the bound past the minimum
    rng = random.Random(78)
    for _ in range(5):
        layout = random_layout(level, rng)
        runs = [zini_moves(layout), zini_moves(layout, human=True)]
        runs += [zini_moves(layout, rng=random.Random(k)) for k in range(3)]
        for moves in runs:
            _order_holds(layout, tuple(moves))


@pytest.mark.parametrize("seed", range(20))
def test_the_order_holds_for_the_fewest_clicks(seed: int) -> None:
    # and for the optimal sequences found on small dense boards (chords of chords)
    layout = _tiny(11000 + seed, 5, 5)
    _order_holds(layout, min_clicks(layout, seconds=None).clicks)


@given(layout=_small_layouts())
@ci_settings(150)
def test_with_the_order_one_round_proves_the_minimum(layout: Layout) -> None:
    # the order's clauses state reachability whole: the first relaxation's plan reaches
    # everything, so one round proves the minimum (the breadth-first search's)
    plan = min_clicks(layout, work=10**6, zini_runs=0, seconds=None)
    assert plan.optimal and plan.count == fewest_clicks_by_dijkstra(layout)
    assert plan.rounds <= 1


def test_on_work_follows_the_search_and_changes_nothing() -> None:
    layout = random_layout(Level(16, 16, 40), random.Random(7))
    seen: list[int] = []
    plan = min_clicks(layout, work=4000, seconds=None, on_work=seen.append)
    assert seen and seen == sorted(seen) and seen[-1] <= plan.work <= 4000 + 100
    again = min_clicks(layout, work=4000, seconds=None)
    assert (again.clicks, again.lower_bound, again.work) == (
        plan.clicks,
        plan.lower_bound,
        plan.work,
    )


@pytest.mark.parametrize(
    ("name", "least"),
    [
        ("arbiter-expert-127bv.avf", 87),
        ("clone097-expert-122bv.mvf", 87),
        ("vienna-rmv1_utf8_basic.rmv", 91),
    ],
)
def test_a_reports_short_budget_keeps_its_bound(name: str, least: int) -> None:
    # at a report's 6,000 steps the triples' cuts once made RC2's first cores come later
    # (bounds of 81, 83 and 86 on these expert games); the budget is counted in work, so
    # the bound is the same on every run and machine
    from minesolver.replay import load
    from minesolver.replay.efficiency import REPORT_WORK

    plan = min_clicks(load(SAMPLES / name).layout, work=REPORT_WORK, seconds=None)
    assert least <= plan.lower_bound <= plan.count
