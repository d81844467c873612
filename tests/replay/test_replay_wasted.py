"""Wasted clicks on hand-made games whose answer is known, and the efficiency figures of
a won and a lost game."""

from __future__ import annotations

import dataclasses
import math

import pytest

from minesolver.game import Game, Layout, Move
from minesolver.replay import play_events
from minesolver.replay.efficiency import ios, replay_efficiency, rqp, stnb, wasted_clicks
from minesolver.replay.evf_write import replay_from_moves
from minesolver.replay.record import MouseEvent, Replay

# 1 1 1 0
# 1 * 1 0     an opening on the right (with its border column), five island digits
# 1 1 1 0
BOARD = Layout.from_cells(4, 3, [(1, 1)])


def _wasted(moves: list[tuple[str, tuple[int, int]]]) -> list[tuple[int, str, str]]:
    replay = replay_from_moves(BOARD, [(k, c, 100 * n) for n, (k, c) in enumerate(moves)])
    playback = play_events(replay)
    assert playback.won
    return [(w.click.number, w.click.button, w.why) for w in wasted_clicks(replay, playback)]


def test_flag_chords_that_open_two_cells_waste_nothing_and_a_one_cell_chord_is_named() -> None:
    moves = [
        ("open", (3, 1)),  # the opening
        ("flag", (1, 1)),
        ("chord", (2, 1)),  # opens (1, 0) and (1, 2)
        ("chord", (1, 0)),  # opens (0, 0) and (0, 1)
        ("chord", (1, 2)),  # opens (0, 2) alone: a left click there does the same
    ]
    assert _wasted(moves) == [(4, "double", "one_cell_chord")]


def test_a_click_on_an_open_cell_a_chord_that_opens_nothing_and_an_unused_flag() -> None:
    moves = [
        ("open", (3, 1)),
        ("open", (3, 0)),  # open already: did nothing
        ("chord", (2, 1)),  # no flag around it: opens nothing
        ("flag", (1, 1)),  # never used by a chord
        ("open", (0, 0)),
        ("open", (1, 0)),
        ("open", (0, 1)),
        ("open", (0, 2)),
        ("open", (1, 2)),
    ]
    assert _wasted(moves) == [
        (1, "left", "nothing"),
        (2, "double", "nothing"),
        (3, "right", "unused_flag"),
    ]


def test_a_flag_taken_away_wastes_both_clicks_unless_a_chord_used_the_flag() -> None:
    moves = [
        ("open", (3, 1)),
        ("flag", (0, 0)),  # a wrong flag, taken away: two wasted clicks
        ("unflag", (0, 0)),
        ("flag", (1, 1)),
        ("chord", (2, 1)),  # uses the flag
        ("unflag", (1, 1)),  # taking it away afterwards is wasted, the flag was not
        ("open", (0, 0)),
        ("open", (0, 1)),
        ("open", (0, 2)),
    ]
    assert _wasted(moves) == [
        (1, "right", "unused_flag"),
        (2, "right", "unflag"),
        (5, "right", "unflag"),
    ]


def test_clicks_off_the_board_and_a_right_click_on_an_open_cell_did_nothing() -> None:
    replay = replay_from_moves(
        BOARD, [("open", (3, 1), 0), ("flag", (3, 0), 100), ("open", (0, 0), 300)]
    )
    off = [MouseEvent(200, kind, 500, 500, None) for kind in ("mv", "lc", "lr")]
    events = list(replay.events)
    at = next(k for k, e in enumerate(events) if e.time_ms == 300)
    replay = dataclasses.replace(replay, events=(*events[:at], *off, *events[at:]))
    playback = play_events(replay)
    got = [
        (w.click.number, w.click.button, w.click.cell, w.why)
        for w in wasted_clicks(replay, playback)
    ]
    assert got == [(1, "right", (3, 0), "nothing"), (2, "left", None, "nothing")]
    assert [c.button for c in playback.log] == ["left", "right", "left", "left"]
    assert [c.action for c in playback.log] == [0, None, None, 1]


def test_the_click_log_matches_the_counts_and_the_actions() -> None:
    moves = [("open", (3, 1)), ("flag", (1, 1)), ("chord", (2, 1)), ("chord", (2, 1))]
    moves += [("open", (0, 0)), ("open", (0, 1)), ("open", (0, 2))]
    replay = replay_from_moves(BOARD, [(k, c, 10 * n) for n, (k, c) in enumerate(moves)])
    playback = play_events(replay)
    c = playback.clicks
    log = playback.log
    assert [k.number for k in log] == list(range(c.total))
    assert [sum(k.button == b for k in log) for b in ("left", "right", "double")] == [
        c.left, c.right, c.double,
    ]  # fmt: skip
    made = [k.action for k in log if k.action is not None]
    assert made == [a.index for a in playback.actions]
    assert [playback.actions[i].kind for i in made] == [
        "open",
        "flag",
        "chord",
        "open",
        "open",
        "open",
    ]


def test_a_won_game_graded_for_efficiency() -> None:
    moves = [("open", (3, 1)), ("flag", (1, 1)), ("chord", (2, 1)), ("chord", (1, 0))]
    moves += [("chord", (1, 2))]
    replay = replay_from_moves(BOARD, [(k, c, 1000 * n) for n, (k, c) in enumerate(moves)])
    e = replay_efficiency(replay, play_events(replay))
    assert (e.won, e.bbbv, e.bbbv_solved, e.clicks, e.seconds) == (True, 6, 6, 5, 4.0)
    m = e.min_clicks
    # open (0, 1), flag the mine, chord (0, 1), open the opening: four clicks, proved
    assert m.optimal and m.count == 4
    game = Game.from_layout(BOARD)
    for move in m.clicks:
        game.push(move)
    assert game.outcome.status == "won" and len(game.move_stack) == 4
    assert e.efficiency == 6 / 5 and e.best_efficiency == 6 / 4
    assert e.efficiency_lost == pytest.approx(0.3) and e.extra_clicks == 1
    assert e.rqp == 16 / 6 and e.ios == math.log(6) / math.log(4)
    assert e.stnb is None  # not a standard level
    assert e.zini_per_second == e.zini / 4 and e.zne == e.zini / 5


def test_a_lost_game_counts_what_it_solved_and_has_no_zini_figures() -> None:
    replay = replay_from_moves(
        BOARD, [("open", (3, 1), 0), ("open", (0, 0), 500), ("open", (1, 1), 2000)]
    )
    playback = play_events(replay)
    assert playback.status == "lost"
    e = replay_efficiency(replay, playback)
    assert (e.bbbv_solved, e.clicks) == (2, 3)
    assert e.wasted == ()  # the losing click is a loss, not a wasted click
    assert e.efficiency == 2 / 3 and e.extra_clicks is None
    assert e.zini_per_second is e.zne is e.znt is None
    assert e.rqp == 4 / 2 and e.ios == math.log(2) / math.log(2)


def test_a_one_cell_chord_that_loses_is_a_loss_not_a_wasted_click() -> None:
    moves = [("open", (3, 1), 0), ("open", (0, 0), 100), ("open", (1, 0), 200)]
    # a wrong flag: the chord on (1, 0) opens its one other hidden neighbour, the mine
    moves += [("flag", (0, 1), 300), ("chord", (1, 0), 400)]
    replay = replay_from_moves(BOARD, moves)
    playback = play_events(replay)
    assert playback.status == "lost" and playback.exploded == (1, 1)
    assert playback.actions[-1].kind == "chord"
    assert wasted_clicks(replay, playback) == ()  # the flag was used, by the losing chord


def test_the_figures_at_their_edges() -> None:
    assert rqp(3.0, 0) is None and rqp(3.0, 9) == 1.0
    assert ios(1.0, 5) is None and ios(0.5, 5) is None and ios(10.0, 0) is None
    assert ios(100.0, 10) == pytest.approx(0.5)
    assert stnb(9, 9, 10, 10.0, 10, 10) is None  # a custom board
    assert stnb(8, 8, 10, 10.0, 0, 10) is None
    assert stnb(16, 16, 40, 1.0, 4, 16) == pytest.approx(162 * 4 * 0.5)
    assert stnb(30, 16, 99, 2.0, 100, 100) == pytest.approx(435 * 100 / 2**1.7)


def test_a_replay_with_nothing_to_click() -> None:
    """A board all mines but one cell: the fewest clicks is one, and so is the game."""
    layout = Layout.from_cells(2, 1, [(1, 0)])
    replay: Replay = replay_from_moves(layout, [("open", (0, 0), 0)])
    e = replay_efficiency(replay, play_events(replay))
    assert e.min_clicks.count == 1 and e.optimal and e.efficiency == 1.0
    assert e.ios is None and e.rqp == 0.0
    assert Move("open", (0, 0)) in e.min_clicks.clicks


def test_question_marks_count_as_flags_taken_away() -> None:
    """With question marks on, a second right click on a flag makes it a question mark and
    a third takes the mark away: both took a flag away, and the flag was never used."""
    moves = [("open", (3, 1)), ("flag", (1, 1)), ("flag", (1, 1)), ("flag", (1, 1))]
    moves += [("open", c) for c in [(0, 0), (1, 0), (0, 1), (0, 2), (1, 2)]]
    plain = replay_from_moves(BOARD, [(k, c, 100 * n) for n, (k, c) in enumerate(moves)])
    replay = dataclasses.replace(plain, question_marks=True)
    playback = play_events(replay)
    assert playback.won
    assert [a.kind for a in playback.actions[1:4]] == ["flag", "question", "unquestion"]
    got = [(w.click.number, w.why) for w in wasted_clicks(replay, playback)]
    assert got == [(1, "unused_flag"), (2, "unflag"), (3, "unflag")]
