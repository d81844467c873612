"""``Game.push(move) -> Step``: every kind, every outcome, no-ops and errors, the game's
clock, that push is the only way to change a game, and that the steps alone redraw the
game (what a replay needs)."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable

import pytest
from gen import ci_settings
from hypothesis import given
from hypothesis import strategies as st

from minesolver import strategy
from minesolver.game import (
    Game,
    GameError,
    Layout,
    Level,
    Move,
    MoveKind,
    Outcome,
    Status,
    Step,
    move_kind,
    random_layout,
)
from minesolver.position import FLAG, HIDDEN, Position

LayoutOf = Callable[[list[str]], Layout]


def test_open_reports_the_cells_in_order_and_the_view(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["....", "....", "...*", "..*."]))
    step = game.push(Move("open", (0, 0)))
    assert step.opened[0] == (0, 0)  # the clicked cell first, then the flood fill
    assert len(step.opened) == len(set(step.opened)) == 13
    assert step.changed and step.outcome == Outcome(Status.PLAYING)
    assert step.view == game.view()
    assert step.view.to_text(header=False).split() == ["0000", "0011", "012H", "01HH"]


def test_a_loss_names_the_cell(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*..", "...", "..."]))
    step = game.push(Move("open", (0, 0)))
    assert step.opened == ((0, 0),) and step.changed
    assert step.outcome == Outcome(Status.LOST, (0, 0)) == game.outcome
    assert step.outcome.lost and not step.outcome.won and step.outcome.over
    assert str(step.outcome) == "lost at (0, 0)"
    assert game.exploded == (0, 0)


def test_a_win(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*.", ".."]))
    assert not game.push(Move("open", (1, 0))).outcome.over
    assert not game.push(Move("open", (0, 1))).outcome.over
    step = game.push(Move("open", (1, 1)))
    assert step.outcome == Outcome(Status.WON) and step.outcome.won
    assert game.over and game.outcome.status == "won"  # a str enum: equal to the old string


def test_a_chord_opens_several_cells_with_a_flood_fill(layout_of: LayoutOf) -> None:
    rows = [
        "*....",
        ".....",
        ".....",
        ".....",
    ]
    game = Game.from_layout(layout_of(rows))
    game.push(Move("open", (1, 1)))  # a 1: opens only itself
    assert game.push(Move("flag", (0, 0))).changed
    step = game.push(Move("chord", (1, 1)))
    # the chord's zeros flood the rest of the board: every safe cell is open
    assert set(step.opened) == {(x, y) for x in range(5) for y in range(4)} - {(0, 0), (1, 1)}
    assert len(step.opened) == len(set(step.opened)) == 18
    assert step.outcome.won


def test_a_chord_on_a_wrong_flag_loses_at_the_mine(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*..", "...", "..."]))
    game.push(Move("open", (1, 1)))
    game.push(Move("flag", (2, 2)))
    step = game.push(Move("chord", (1, 1)))
    assert step.outcome == Outcome(Status.LOST, (0, 0))
    assert step.opened[-1] == (0, 0)  # the mine is the last cell opened


def test_flag_and_unflag(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*.", ".."]))
    step = game.push(Move("flag", (0, 0)))
    assert step.changed and step.opened == () and step.view[(0, 0)] == FLAG
    assert not game.push(Move("flag", (0, 0))).changed  # already flagged
    assert not game.push(Move("open", (0, 0))).changed  # a flag is not opened
    step = game.push(Move("unflag", (0, 0)))
    assert step.changed and step.view[(0, 0)] == HIDDEN
    assert not game.push(Move("unflag", (0, 0))).changed  # no flag to remove
    assert game.toggle_move((0, 0)) == Move("flag", (0, 0))
    game.push(game.toggle_move((0, 0)))
    assert game.toggle_move((0, 0)) == Move("unflag", (0, 0))


def test_no_ops_change_nothing(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*..*", "....", "...."]))
    game.push(Move("open", (0, 2)))  # opens rows 1 and 2
    before = game.view()
    for move in (
        Move("flag", (3, 2)),  # an open cell
        Move("unflag", (3, 2)),
        Move("open", (3, 2)),  # already open
        Move("chord", (1, 1)),  # a 1 with no flag around it
    ):
        step = game.push(move)
        assert not step.changed and step.opened == () and step.view == before
        assert step.move is move
    assert game.view() == before


@pytest.mark.parametrize(
    ("move", "words"),
    [
        (Move("open", (3, 0)), r"open \(3, 0\): the game is already lost at \(0, 0\)"),
        (Move("flag", (3, 0)), "already lost"),
        (Move("chord", (1, 1)), "already lost"),
    ],
)
def test_a_move_after_the_end_is_an_error(layout_of: LayoutOf, move: Move, words: str) -> None:
    game = Game.from_layout(layout_of(["*...", "...."]))
    game.push(Move("open", (0, 0)))
    with pytest.raises(GameError, match=words):
        game.push(move)
    assert len(game.move_stack) == 1  # a refused move is not kept


def test_bad_moves_are_errors(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*...", "....", "...."]))
    with pytest.raises(GameError, match=r"cell \(4, 0\) is off the 4x3 board"):
        game.push(Move("open", (4, 0)))
    with pytest.raises(GameError, match=r"chord \(2, 2\): the cell is hidden"):
        game.push(Move("chord", (2, 2)))
    game.push(Move("flag", (0, 0)))
    with pytest.raises(GameError, match=r"chord \(0, 0\): the cell is flagged"):
        game.push(Move("chord", (0, 0)))
    bad = Move("reveal", (1, 1))  # type: ignore[arg-type]
    with pytest.raises(GameError, match="move kind 'reveal': expected one of open, flag"):
        game.push(bad)
    assert game.view()[(2, 2)] == HIDDEN and not game.over
    assert [move for move, _ in game.move_stack] == [Move("flag", (0, 0))]


def test_push_is_the_only_way_to_change_a_game() -> None:
    """No public method but ``push`` changes the board: the clones' silent rule methods
    (open, flag, unflag, toggle_flag, chord) are gone."""
    for name in ("open", "flag", "unflag", "toggle_flag", "chord"):
        assert not hasattr(Game, name), name


def test_the_moves_are_timed_by_the_game_clock(layout_of: LayoutOf) -> None:
    ticks = iter([5.0, 7.25, 9.5])
    game = Game.from_layout(layout_of(["*...", "...."]), clock=lambda: next(ticks))
    game.push(Move("flag", (0, 0)))
    game.push(Move("flag", (0, 0)))  # a no-op is kept too
    game.push(Move("open", (3, 1)))
    assert game.move_stack == [
        (Move("flag", (0, 0)), 5.0),
        (Move("flag", (0, 0)), 7.25),
        (Move("open", (3, 1)), 9.5),
    ]
    laid = Game.new(Level(4, 2, 1), random.Random(0), clock=lambda: 1.5)
    laid.push(Move("open", (3, 1)))
    assert laid.move_stack == [(Move("open", (3, 1)), 1.5)]
    assert Game.from_layout(layout_of(["*."])).clock is time.monotonic  # the default


def test_the_first_open_lays_the_mines_by_the_rule() -> None:
    game = Game.new(Level(9, 9, 10), random.Random(3), "opening")
    step = game.push(Move("open", (4, 4)))
    assert game.started and step.view[(4, 4)] == 0 and len(step.opened) >= 9


def test_move_is_one_class_for_game_and_players() -> None:
    assert strategy.Move is Move and strategy.base.Move is Move
    assert strategy.MoveKind is MoveKind
    assert move_kind("unflag") == "unflag"
    with pytest.raises(GameError, match="move kind 'open ': expected"):
        move_kind("open ")


def test_status_is_deprecated_but_reads_the_old_strings(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*."]))
    with pytest.warns(DeprecationWarning, match="outcome.status"):
        assert game.status == "playing"
    game.push(Move("open", (1, 0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert game.status == "won" and f"{game.status}" == "won"


def test_a_step_is_a_snapshot(layout_of: LayoutOf) -> None:
    game = Game.from_layout(layout_of(["*...", "....", "...."]))
    first = game.push(Move("flag", (0, 0)))
    game.push(Move("unflag", (0, 0)))
    assert first.view[(0, 0)] == FLAG  # later moves do not change an earlier step
    assert game.view()[(0, 0)] == HIDDEN


# -- properties: push agrees with a plain model of the rules; the steps redraw the game --


def _expected_error(game: Game, move: Move) -> bool:
    """Whether ``push`` must refuse ``move`` (the documented errors)."""
    if game.over:
        return True
    return move.kind == "chord" and game.view()[move.cell] < 0


class _Model:
    """The rules written plainly, as the clones state them: open (a zero opens its
    neighbours), flag, unflag, chord (a digit whose flags number it opens its other hidden
    neighbours, one after another, until a mine is opened)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.cells = [HIDDEN] * (layout.width * layout.height)
        self.lost = False

    def view(self) -> Position:
        layout = self.layout
        return Position(layout.width, layout.height, tuple(self.cells), len(layout.mine_indices))

    def open(self, cell: tuple[int, int]) -> None:
        view = self.view()
        if self.cells[view.index(cell)] != HIDDEN:
            return
        if self.layout.is_mine(cell):
            self.lost = True
            return
        todo = [cell]
        while todo:
            c = todo.pop()
            i = view.index(c)
            if self.cells[i] != HIDDEN:
                continue
            around = view.neighbours(c)
            self.cells[i] = sum(self.layout.is_mine(n) for n in around)
            if self.cells[i] == 0:
                todo.extend(around)

    def push(self, move: Move) -> None:
        view = self.view()
        i = view.index(move.cell)
        if move.kind == "open":
            self.open(move.cell)
        elif move.kind == "flag" and self.cells[i] == HIDDEN:
            self.cells[i] = FLAG
        elif move.kind == "unflag" and self.cells[i] == FLAG:
            self.cells[i] = HIDDEN
        elif move.kind == "chord":
            around = view.neighbours(move.cell)
            if sum(view[n] == FLAG for n in around) == view[move.cell]:
                for n in around:
                    if not self.lost:
                        self.open(n)


def _redraw(before: Position, step: Step) -> Position:
    """The view after ``step`` from the view before it and the step alone: its opened
    cells (values read from the step's view) and, for a flag move, its cell."""
    cells = list(before.cells)
    for cell in step.opened:
        cells[before.index(cell)] = step.view[cell]
    if step.move.kind in ("flag", "unflag") and step.changed:
        cells[before.index(step.move.cell)] = FLAG if step.move.kind == "flag" else HIDDEN
    return Position(before.width, before.height, tuple(cells), before.mines)


moves = st.builds(
    Move,
    st.sampled_from(["open", "open", "flag", "unflag", "chord"]),
    st.tuples(st.integers(0, 4), st.integers(0, 3)),
)


@ci_settings(300)
@given(
    seed=st.integers(0, 2**32),
    mines=st.integers(1, 8),
    sequence=st.lists(moves, min_size=1, max_size=40),
)
def test_push_agrees_with_a_model_of_the_rules_and_steps_redraw_the_game(
    seed: int, mines: int, sequence: list[Move]
) -> None:
    layout = random_layout(Level(5, 4, mines), random.Random(seed))
    pushed, model = Game.from_layout(layout), _Model(layout)
    for move in sequence:
        before = pushed.view()
        refused = _expected_error(pushed, move)
        try:
            step = pushed.push(move)
        except GameError:
            assert refused
            continue
        assert not refused
        model.push(move)
        after = pushed.view()
        assert step.view == after == model.view()
        assert step.outcome.lost == model.lost
        assert step.outcome.won == (
            not model.lost and sum(v >= 0 for v in model.cells) == 20 - mines
        )
        # a loss changes the outcome, not the view (the mine is shown only after the game)
        assert step.changed == (after != before or step.outcome.lost)
        safe = [c for c in step.opened if c != step.outcome.exploded]
        assert all(before[c] < 0 <= after[c] for c in safe)  # opened: newly open
        assert len(set(step.opened)) == len(step.opened)
        assert _redraw(before, step) == after
        if step.outcome.lost:
            assert step.opened[-1] == step.outcome.exploded and layout.is_mine(step.opened[-1])
        if step.outcome.won:
            assert sum(v >= 0 for v in after.cells) == 20 - mines
