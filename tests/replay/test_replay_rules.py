"""The clones' rules on replays built in code, checked against what the rules say and,
written as EVF v4, against ms-toollib's reading of the same events (in a subprocess)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from minesolver.game import Layout
from minesolver.position import FLAG, HIDDEN, Cell
from minesolver.replay import MouseEvent, Replay, grade_replay, load, play_events
from minesolver.replay.actions import _play
from minesolver.replay.evf_write import replay_from_game, replay_from_moves, write_evf
from minesolver.replay.record import EventKind, cell_at

# 4x3, mines at (3, 0) and (3, 2):   0 0 1 *
#                                   0 0 2 2
#                                   0 0 1 *
LAYOUT = Layout.from_cells(4, 3, [(3, 0), (3, 2)])
OFF = (-1, -1)
Step = tuple[EventKind, Cell]


def built(steps: list[Step], *, question_marks: bool = False, won: bool | None = None) -> Replay:
    """A replay of these presses and releases, 10 ms apart, at the cells' centres."""
    events = []
    for k, (kind, (x, y)) in enumerate(steps):
        px, py = (x * 16 + 8, y * 16 + 8) if (x, y) != OFF else (4 * 16, 3 * 16)
        events.append(MouseEvent(10 * k, kind, px, py, cell_at(px, py, 4, 3, 16)))
    return Replay(
        format="evf",
        version="4",
        software="test",
        player="p",
        width=4,
        height=3,
        mines=2,
        cell_size=16,
        layout=LAYOUT,
        events=tuple(events),
        time_ms=10 * len(steps),
        question_marks=question_marks,
        recorded_won=won,
    )


def click(cell: Cell) -> list[Step]:
    return [("lc", cell), ("lr", cell)]


def right(cell: Cell) -> list[Step]:
    return [("rc", cell), ("rr", cell)]


def chord(cell: Cell) -> list[Step]:
    return [("lc", cell), ("rc", cell), ("lr", cell), ("rr", cell)]


START = click((0, 0))

SCENARIOS: dict[str, list[Step]] = {
    "release on another cell": [*START, ("lc", (3, 0)), ("mv", (3, 1)), ("lr", (3, 1))],
    "chord on a satisfied digit": [*START, *right((3, 0)), *chord((2, 0))],
    "chord on an unsatisfied digit": [*START, *right((3, 0)), *chord((2, 1)), *click((3, 1))],
    "flag then unflag": [*START, *right((3, 0)), *right((3, 0)), *click((3, 1))],
    "a loss": [*START, *click((3, 0))],
    "clicks off the board": [("lc", OFF), ("lr", OFF), *START, *click(OFF), *click((3, 1))],
    "flags before the start": [*right((3, 0)), *right((3, 2)), *START, *click((3, 1))],
    "a flag taken back before the start": [*right((3, 0)), *right((3, 0)), *START, *click((3, 1))],
    "a right click on an open cell": [*START, *right((1, 1)), *click((3, 1))],
}


def kinds(replay: Replay) -> list[tuple[str, Cell]]:
    return [(a.kind, a.cell) for a in play_events(replay).actions]


def test_a_release_on_another_cell_opens_that_cell() -> None:
    r = built(SCENARIOS["release on another cell"])
    assert kinds(r) == [("open", (0, 0)), ("open", (3, 1))]
    assert play_events(r).status == "won"


def test_a_chord_on_a_satisfied_digit_opens_its_hidden_neighbours() -> None:
    r = built(SCENARIOS["chord on a satisfied digit"])
    assert kinds(r) == [("open", (0, 0)), ("flag", (3, 0)), ("chord", (2, 0))]
    p = play_events(r)
    assert p.status == "won"
    c = p.clicks
    assert (c.left, c.right, c.double, c.dce) == (1, 1, 1, 1)


def test_a_chord_on_an_unsatisfied_digit_does_nothing_but_counts() -> None:
    r = built(SCENARIOS["chord on an unsatisfied digit"])
    assert [k for k, _ in kinds(r)] == ["open", "flag", "open"]
    c = play_events(r).clicks
    assert (c.double, c.dce) == (1, 0)


def test_flag_then_unflag() -> None:
    r = built(SCENARIOS["flag then unflag"])
    assert kinds(r)[1:3] == [("flag", (3, 0)), ("unflag", (3, 0))]
    c = play_events(r).clicks
    assert (c.right, c.rce, c.flags) == (2, 1, 0)


def test_question_marks_cycle_flag_mark_hidden() -> None:
    steps = [*START, *right((3, 0)), *right((3, 0)), *right((3, 0)), *right((3, 0))]
    r = built(steps, question_marks=True)
    assert [k for k, _ in kinds(r)] == ["open", "flag", "question", "unquestion", "flag"]
    p = play_events(r)
    assert p.final[(3, 0)] == FLAG
    assert p.clicks.rce == 1  # a mine flagged again is not a new effective click
    without = built(steps)
    assert [k for k, _ in kinds(without)] == ["open", "flag", "unflag", "flag", "unflag"]
    assert play_events(without).final[(3, 0)] == HIDDEN
    # a question-marked cell opens like a hidden one
    opened = built([*START, *right((3, 1)), *right((3, 1)), *click((3, 1))], question_marks=True)
    assert play_events(opened).status == "won"


def test_a_loss_is_lost_at_the_mine_and_infinitely_unlucky() -> None:
    r = built(SCENARIOS["a loss"], won=True)
    p = play_events(r)
    assert p.status == "lost"
    assert p.exploded == (3, 0)
    assert p.warnings and "replayed, it is lost" in p.warnings[0]
    a = grade_replay(r, playback=p)
    assert a.pluck == math.inf
    last = a.moves[-1]
    assert last.graded and last.p is not None and last.p > 0


def test_clicks_off_the_board_do_nothing() -> None:
    r = built(SCENARIOS["clicks off the board"])
    assert kinds(r) == [("open", (0, 0)), ("open", (3, 1))]
    assert play_events(r).clicks.left == 3  # during the game a release off the board counts


def test_flags_before_the_start() -> None:
    r = built(SCENARIOS["flags before the start"])
    assert [k for k, _ in kinds(r)] == ["flag", "flag", "open", "open"]
    c = play_events(r).clicks
    assert (c.right, c.rce, c.left) == (2, 2, 2)
    back = built(SCENARIOS["a flag taken back before the start"])
    assert [k for k, _ in kinds(back)] == ["flag", "unflag", "open", "open"]
    assert play_events(back).clicks.right == 0  # every flag taken back: the count starts afresh


def test_the_grading_of_a_built_game() -> None:
    # after the opening, (3, 1) is certainly safe: opening it is no guess
    r = built(SCENARIOS["release on another cell"])
    a = grade_replay(r)
    first, second = a.moves
    assert not first.graded
    assert second.graded and second.p == 0 and second.verdict == "safe"
    assert a.pluck == 0 and a.won


def test_written_evf_reads_back(tmp_path: Path) -> None:
    for name, steps in SCENARIOS.items():
        r = built(steps)
        back = load(write_evf(r))
        assert [(e.kind, e.cell) for e in back.events] == [(e.kind, e.cell) for e in r.events], name
        ours, theirs = play_events(r), play_events(back)
        assert (theirs.clicks, theirs.status) == (ours.clicks, ours.status), name


def test_replay_from_moves() -> None:
    moves = [("open", (0, 0), 0), ("flag", (3, 0), 400), ("chord", (2, 0), 900)]
    r = replay_from_moves(LAYOUT, moves, player="me")
    assert kinds(r) == [("open", (0, 0)), ("flag", (3, 0)), ("chord", (2, 0))]
    assert play_events(r).won and r.time_ms == 900
    back = load(write_evf(r))
    assert back.player == "me" and back.time_ms == 900 and play_events(back).won
    with pytest.raises(ValueError, match="off the 4x3 board"):
        replay_from_moves(LAYOUT, [("open", (4, 0), 0)])


def test_the_replayed_game_is_timed_by_the_events_and_saves_back() -> None:
    """The events are pushed into a game whose clock is the replay's own: its move stack
    holds the events' times (not the wall's), and saving that game gives the same replay."""
    moves = [("open", (0, 0), 0), ("flag", (3, 0), 400), ("chord", (2, 0), 900)]
    r = replay_from_moves(LAYOUT, moves, player="me")
    game = _play(r).game
    assert [(m.kind, m.cell, t) for m, t in game.move_stack] == [
        (kind, cell, t / 1000) for kind, cell, t in moves
    ]
    back = replay_from_game(game, player="me")
    assert back.events == r.events and back.time_ms == r.time_ms == 900


ORACLE = r"""
import json, sys, ms_toollib as ms
out = []
for path in sys.argv[1:]:
    v = ms.EvfVideo(path)
    v.parse()
    v.analyse()
    v.current_time = 1e9
    keys = ["left", "right", "double", "ce", "bbbv_solved", "is_completed", "flag"]
    out.append({k: getattr(v, k) for k in keys})
print(json.dumps(out))
"""


def test_the_rules_equal_ms_toollib(tmp_path: Path) -> None:
    pytest.importorskip("ms_toollib")
    paths = []
    for k, steps in enumerate(SCENARIOS.values()):
        path = tmp_path / f"s{k}.evf"
        path.write_bytes(write_evf(built(steps)))
        paths.append(str(path))
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, *paths], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-500:]
    for name, theirs in zip(SCENARIOS, json.loads(done.stdout), strict=True):
        p = play_events(built(SCENARIOS[name]))
        c = p.clicks
        ours = {
            "left": c.left, "right": c.right, "double": c.double, "ce": c.effective,
            "bbbv_solved": c.bbbv_solved, "is_completed": p.won, "flag": c.flags,
        }  # fmt: skip
        assert ours == theirs, name


def test_win_chances_of_guesses_where_few_layouts_remain() -> None:
    # 2x2 with one mine at (1, 0): after (0, 0) shows 1, each other cell is a mine with
    # probability 1/3 and no click tells (1, 0) from (0, 1) apart but the second guess
    layout = Layout.from_cells(2, 2, [(1, 0)])
    moves = [("open", (0, 0), 0), ("open", (1, 1), 100), ("open", (0, 1), 200)]
    a = grade_replay(replay_from_moves(layout, moves))
    first, second, third = a.moves
    assert not first.graded
    assert (second.p, second.win, second.best_win) == (
        Fraction(1, 3),
        Fraction(1, 3),
        Fraction(1, 3),
    )
    assert (third.p, third.win, third.best_win) == (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2))
    assert a.pluck == pytest.approx(-math.log10(Fraction(2, 3) * Fraction(1, 2)))
