"""The ``pseq`` and ``best`` players and the exact endgame search, on crafted positions."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from functools import cache
from math import comb

import pytest
from test_outcomes import list_layouts

from minesolver.analysis import Analysis, analyze
from minesolver.game import Level, random_layout
from minesolver.position import HIDDEN, Position
from minesolver.simulate import play_game
from minesolver.strategy import PlayerError, get_player
from minesolver.strategy.best import BestPlayer, Options, find_fifty_fifty, second_safety
from minesolver.strategy.endgame import (
    EndgameSolver,
    SearchBudgetExceeded,
    TooManyLayouts,
    enumerate_layouts,
)
from minesolver.strategy.latent import latent_share
from minesolver.strategy.native import NativeBest
from minesolver.strategy.outcomes import OutcomeCache, cell_outcomes
from minesolver.strategy.pseq import PseqPlayer, pseq_key
from minesolver.strategy.reasons import Endgame, FiftyFifty, Reason

# Five layouts, two mines. Writing A = {(0,0), (0,1)}, b = (2,1), c = (3,0), d = (3,1),
# e = (4,1): the 1s say A + b = 1, c + b + d = 1, c + d + e = 1, and the total is 2.
#   b mine: A, c, d safe, e mine            -> {b, e}                 (1 layout)
#   b safe: one mine in A, one in {c, d}    -> {a0|a1} x {c|d}        (4 layouts)
# P(b) = P(e) = 1/5 (the lowest), P(c) = P(d) = P(a0) = P(a1) = 2/5.
# Hand count of the wins:
#   open b (safe in 4 of 5): it always shows c + d = 1, nothing learnt; two independent
#     50/50s remain (A and {c, d}): 1 of the 4 layouts won -> 1/5. Same for e.
#   open d (safe in 3 of 5: {b,e}, {a0,c}, {a1,c}): it shows b + c + e = 2 in {b,e} (won)
#     and 1 in the other two, where c is then the mine and A a bare 50/50: 1 more
#     -> 2/5. Same for c. So the lowest-probability cells are not optimal.
ENDGAME = "5x2x2\nH11H1\nH1HHH\n"

# Left: (0,0) and (1,0) hold one mine behind 1s and a wall of flags: an unavoidable
# 50/50 (each cell dead, both seen alike by every other cell). Right: 27 free cells
# with 5 mines, probability 5/27 < 1/2, far more than 1,000 layouts.
FIFTY = "12x3x9\nHHFHHHHHHHHH\n14FHHHHHHHHH\n02FHHHHHHHHH\n"


def reference_wins(position: Position) -> int:
    """Optimal wins by plain game-tree search, no closure, no pruning (small boards)."""
    nbrs = position.neighbour_indices()
    hidden = [i for i, v in enumerate(position.cells) if v == HIDDEN]
    layouts = [sum(1 << j for j in mines) for mines in list_layouts(position, hidden)]

    @cache
    def value(state: frozenset[int], opened: frozenset[int]) -> int:
        if len(state) == 1:
            return 1
        best = 0
        for c in hidden:
            if c in opened:
                continue
            groups: dict[int, list[int]] = {}
            for layout in state:
                if not (layout >> c) & 1:
                    d = sum((layout >> j) & 1 for j in nbrs[c])
                    groups.setdefault(d, []).append(layout)
            total = sum(value(frozenset(g), opened | {c}) for g in groups.values())
            best = max(best, total)
        return best

    return value(frozenset(layouts), frozenset())


def test_endgame_beats_lowest_probability_by_hand_count() -> None:
    position = Position.from_text(ENDGAME)
    analysis = analyze(position)
    assert analysis.layouts == 5
    low = min(analysis.probabilities.values())
    assert {c for c, p in analysis.probabilities.items() if p == low} == {(2, 1), (4, 1)}
    layouts = enumerate_layouts(position, 1000)
    assert len(layouts) == 5
    cell, wins, total = EndgameSolver().best_move(position, layouts)
    assert (wins, total) == (2, 5)
    assert cell in {(3, 0), (3, 1)}
    # the lowest cells win 1 of 5 (hand count above): open (2,1), then solve exactly
    solver = EndgameSolver()
    after_b = [L for L in layouts if not (L >> position.index((2, 1))) & 1]
    assert solver.win_count(position.replace({(2, 1): 1}), after_b) == 1
    player = BestPlayer()
    player.reset(random.Random(0))
    move = player.next_moves(position)[-1]
    assert move.cell in {(3, 0), (3, 1)}
    assert move.reason == Endgame(wins=2, layouts=5)


@pytest.mark.parametrize("seed", range(25))
def test_endgame_search_equals_plain_tree_search(seed: int) -> None:
    rng = random.Random(seed)
    w, h = rng.randint(2, 4), rng.randint(2, 3)
    m = rng.randint(1, w * h // 3 + 1)
    mines = set(rng.sample(range(w * h), m))
    nbrs = Position.empty(w, h).neighbour_indices()
    cells = [HIDDEN] * (w * h)
    safe = [i for i in range(w * h) if i not in mines]
    for i in rng.sample(safe, rng.randint(1, min(3, len(safe)))):
        cells[i] = sum(j in mines for j in nbrs[i])
    position = Position(w, h, tuple(cells), m)
    layouts = enumerate_layouts(position, 10_000)
    assert len(layouts) == analyze(position).layouts
    assert EndgameSolver().win_count(position, layouts) == reference_wins(position)


def test_endgame_limits() -> None:
    position = Position.empty(6, 6, 5)
    with pytest.raises(TooManyLayouts):
        enumerate_layouts(position, 1000)
    small = Position.empty(4, 4, 3)
    layouts = enumerate_layouts(small, 1000)
    assert len(layouts) == comb(16, 3)
    with pytest.raises(SearchBudgetExceeded):
        EndgameSolver(budget=3).best_move(small, layouts)


def test_fifty_fifty_is_recognised_and_guessed_first() -> None:
    position = Position.from_text(FIFTY)
    analysis = analyze(position)
    assert analysis.layouts == 2 * comb(27, 5)
    assert find_fifty_fifty(analysis) == ((0, 0), (1, 0))
    player = BestPlayer()
    player.reset(random.Random(0))
    move = player.next_moves(position)[-1]
    assert move.cell in {(0, 0), (1, 0)}
    assert move.reason == FiftyFifty(({(0, 0), (1, 0)} - {move.cell}).pop())
    # greedy would open a right-hand cell (5/27) and face the 50/50 later
    greedy = get_player("greedy")
    greedy.reset(random.Random(0))
    assert greedy.next_moves(position)[-1].cell[0] >= 3
    # a 50/50 that another cell can still resolve is not unavoidable
    open_right = Position.from_text("3x2x1\nHHH\n111\n")
    assert find_fifty_fifty(analyze(open_right)) is None


def test_dead_cell_not_chosen_while_a_live_one_exists() -> None:
    # In ENDGAME, (2,1) and (4,1) have the lowest probability but are dead (they always
    # show 1). Without look-ahead (second=False) or endgame, only the dead-cell rule
    # keeps them from being chosen.
    position = Position.from_text(ENDGAME)
    analysis = analyze(position)
    for dead in [(2, 1), (4, 1)]:
        assert len(cell_outcomes(analysis, dead)) == 1
    plain = Options(endgame=False, second=False, dominance=False)
    with_rule = BestPlayer(plain)
    with_rule.reset(random.Random(0))
    chosen = with_rule.next_moves(position)[-1].cell
    assert chosen not in {(2, 1), (4, 1)}
    assert len(cell_outcomes(analysis, chosen)) > 1
    without = BestPlayer(replace(plain, dead=False))
    without.reset(random.Random(0))
    assert without.next_moves(position)[-1].cell in {(2, 1), (4, 1)}


def test_pseq_prefers_the_corner_by_progress_exactly() -> None:
    # Empty 5x5 board, 3 mines: every cell has probability 3/25. A corner is the most
    # likely to give a new safe cell: it shows 0 when its 3 neighbours and itself are
    # free, C(21,3)/C(25,3) = 1330/2300, or 3 (all mines around it: every other cell is
    # then safe) in 1/2300: 1331/2300. An edge cell: C(19,3) = 969 layouts show 0 and
    # C(5,3) = 10 show 3: 979/2300.
    position = Position.empty(5, 5, 3)
    analysis = analyze(position)
    corner = pseq_key(cell_outcomes(analysis, (0, 0)))
    edge = pseq_key(cell_outcomes(analysis, (2, 0)))
    assert corner[0] * 2300 == 1331
    assert edge[0] * 2300 == 979
    player = PseqPlayer()
    player.reset(random.Random(3))
    move = player.next_moves(position)[-1]
    assert move.cell in {(0, 0), (4, 0), (0, 4), (4, 4)}
    assert move.guess


def test_pseq_ties_fall_to_expected_safe_cells_then_entropy() -> None:
    position = Position.empty(5, 5, 3)
    analysis = analyze(position)
    a = pseq_key(cell_outcomes(analysis, (0, 0)))
    b = pseq_key(cell_outcomes(analysis, (2, 2)))
    # expected safe cells: 3 * 1330/2300 + 21/2300 for the corner
    assert a[1] * 2300 == 3 * 1330 + 21
    assert a > b


@pytest.mark.parametrize("name", ["pseq", "best", "best-py"])
def test_players_finish_small_games(name: str) -> None:
    player = get_player(name)
    results = [
        play_game(
            player,
            random_layout(Level(6, 6, 5), random.Random(seed), (0, 0)),
            (0, 0),
            random.Random(seed),
        )
        for seed in range(3)
    ]
    assert all(guesses >= 0 for _, guesses in results)


def _whole_window_top(player: BestPlayer, analysis: Analysis) -> set[tuple[int, int]]:
    """The cells ``best``'s heuristic may choose, by scoring its whole candidate window
    (no bound, no early stop): the plain reading of the module docstring, steps 4-7."""
    opts = player.options
    probs = analysis.probabilities
    window: list[tuple[int, int]] = []
    dead: list[tuple[int, int]] = []
    low: Fraction | None = None
    outcomes = {}
    for cell in player._order(analysis):
        p = probs[cell]
        if low is not None and (p > low + opts.margin or len(window) >= opts.max_candidates):
            break
        outs = outcomes[cell] = cell_outcomes(analysis, cell)
        if len(outs) <= 1:
            if len(dead) < opts.max_candidates:
                dead.append(cell)
            continue
        low = p if low is None else low
        window.append(cell)
    cells = window or dead
    kept = [
        b
        for b in cells
        if not any(
            probs[a] < probs[b] and all(o.analysis.probabilities.get(a) == 0 for o in outcomes[b])
            for a in cells
        )
    ] or cells
    keys = {}
    for c in kept:
        progress = sum((o.probability for o in outcomes[c] if o.analysis.safe), Fraction(0))
        share = latent_share(analysis, c, OutcomeCache(), opts.latent_missing, opts.latent_blocks)
        factor = 1 + opts.latent_weight * share if opts.latent else 1
        safety = second_safety(outcomes[c]) * (1 + opts.progress_weight * progress)
        keys[c] = (safety * factor, progress)
    top = max(keys.values())
    return {c for c, k in keys.items() if k == top}


class _CheckedBest(BestPlayer):
    """``best`` that checks every heuristic choice against :func:`_whole_window_top`."""

    checked = 0

    def _heuristic(self, analysis: Analysis) -> tuple[tuple[int, int], Reason]:
        cell, why = super()._heuristic(analysis)
        assert cell in _whole_window_top(self, analysis), (analysis.position, cell)
        _CheckedBest.checked += 1
        return cell, why


@pytest.mark.parametrize(
    ("size", "games", "latent"),
    [
        ("16x16x40", 40, False),
        ("30x16x99", 8, False),
        ("16x16x40", 25, True),
        ("30x16x99", 6, True),
    ],
)
def test_heuristic_pruning_chooses_as_the_whole_window(size: str, games: int, latent: bool) -> None:
    """The bound that stops evaluating candidates (and digits) early never changes the
    choice: on real games every guess is among the whole window's best cells (with and
    without the latent 50/50 weight, which widens the bound)."""
    w, h, m = map(int, size.split("x"))
    level = Level(w, h, m)
    before = _CheckedBest.checked
    for seed in range(games):
        layout = random_layout(level, random.Random(seed), (0, 0), "safe")
        play_game(_CheckedBest(Options(latent=latent)), layout, (0, 0), random.Random(seed))
    assert _CheckedBest.checked - before >= games // 2  # the check did run


@pytest.mark.parametrize(("family", "kind"), [("best", NativeBest), ("best-py", BestPlayer)])
def test_best_variants_by_name(family: str, kind: type) -> None:
    """Ablations and settings of ``best`` (native) and ``best-py`` (the Python reference)
    are players by name (for ``bench --players``)."""
    player = get_player(f"{family}-no-endgame")
    assert isinstance(player, kind) and player.name == f"{family}-no-endgame"
    assert not player.options.endgame and player.options.second
    tuned = get_player(f"{family}:margin=1/10;max_candidates=20;dead=0")
    assert isinstance(tuned, kind)
    assert tuned.options.margin == Fraction(1, 10) and tuned.options.max_candidates == 20
    assert not tuned.options.dead and tuned.options.endgame
    for bad, reason in [
        (f"{family}-no-luck", "no ingredient 'luck'"),
        (f"{family}:speed=3", "not an option=value"),
        (f"{family}:margin=x", "not a value for margin"),
        (f"{family}:dead=maybe", "not a value for dead"),
    ]:
        with pytest.raises(PlayerError, match=reason):
            get_player(bad)


def test_latent_blocks_stay_python() -> None:
    """Only the Python player counts latent 2x2 blocks: that setting gives it."""
    player = get_player("best:latent_blocks=1")
    assert type(player) is BestPlayer and player.options.latent_blocks
    assert isinstance(get_player("best", latent_blocks=True), BestPlayer)


def test_candidate_order_covers_certain_interior_cells() -> None:
    """Interior cells forced to 0 share their own Fraction object; the order still
    lists them (``distinct`` holds every value object)."""
    analysis = analyze(Position.from_text("4x1x1\n1HHH\n"))
    assert list(BestPlayer()._order(analysis)) == [(2, 0), (3, 0)]


def test_options_reject_settings_the_bounds_cannot_serve() -> None:
    with pytest.raises(ValueError, match="must be at least 0"):
        Options(progress_weight=Fraction(-1))
    with pytest.raises(PlayerError, match="must be at least 1"):
        get_player("best:max_candidates=0")


# (0,1) and (1,1) hold one mine, look alike to their hidden neighbours and are both
# dead, but the 1 at (2,1) sees (1,1) and not (0,1), and also the hidden (3,0) and
# (3,1): learning those decides the pair. Found by a random search.
FALSE_FIFTY = "6x4x8\nH212HH\nHH1HHH\n1223FF\n01F222\n"


def _wins_after_click(position: Position, cell: tuple[int, int]) -> int:
    """Layouts won by clicking ``cell`` first, then playing optimally (hand-checkable:
    a plain sum over the digits the cell can show)."""
    analysis = analyze(position)
    total = 0
    for outcome in cell_outcomes(analysis, cell):
        child = position.replace({cell: outcome.digit})
        total += EndgameSolver().win_count(child, enumerate_layouts(child, 10_000))
    return total


def test_a_pair_that_a_digit_can_still_decide_is_not_an_unavoidable_fifty() -> None:
    position = Position.from_text(FALSE_FIFTY)
    analysis = analyze(position)
    assert analysis.probabilities[(0, 1)] == analysis.probabilities[(1, 1)] == Fraction(1, 2)
    assert find_fifty_fifty(analysis) is None
    _, wins, total = EndgameSolver().best_move(position, enumerate_layouts(position, 10_000))
    assert (wins, total) == (2, 4)
    # guessing the pair now would give half the optimum away
    assert _wins_after_click(position, (0, 1)) == _wins_after_click(position, (1, 1)) == 1


@pytest.mark.parametrize("seed", range(15))
def test_move_wins_is_the_value_of_each_first_move(seed: int) -> None:
    """``move_wins`` of every uncertain cell equals the sum, over the digits it can show,
    of the optimum after it (:func:`_wins_after_click`), and its maximum is the optimum."""
    rng = random.Random(100 + seed)
    while True:  # a random small position where a guess must be made
        w, h = rng.randint(3, 4), rng.randint(2, 3)
        mines = set(rng.sample(range(w * h), rng.randint(1, w * h // 3 + 1)))
        nbrs = Position.empty(w, h).neighbour_indices()
        cells = [HIDDEN] * (w * h)
        safe = [i for i in range(w * h) if i not in mines]
        for i in rng.sample(safe, rng.randint(1, min(2, len(safe)))):
            cells[i] = sum(j in mines for j in nbrs[i])
        position = Position(w, h, tuple(cells), len(mines))
        analysis = analyze(position)
        uncertain = [c for c, p in analysis.probabilities.items() if 0 < p < 1]
        if not analysis.safe and uncertain:
            break
    layouts = enumerate_layouts(position, 10_000)
    solver = EndgameSolver()
    values = {c: solver.move_wins(position, layouts, c) for c in uncertain}
    assert values == {c: _wins_after_click(position, c) for c in uncertain}
    cell, wins, _ = EndgameSolver().best_move(position, layouts)
    assert wins == max(values.values()) == values[cell]
    opened = next(c for c in position if position[c] >= 0)
    with pytest.raises(ValueError, match="not a hidden cell"):
        solver.move_wins(position, layouts, opened)
