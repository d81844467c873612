"""The speed and efficiency figures of every sample replay against ms-toollib's, read in a
subprocess (ms-toollib aborts the whole process on some files, so it never runs inside
the test process): 3BV/s, RQP, STNB, IOE and ZiNi as it computes them; IOS, which it does
not compute, from its own time and 3BV by the definition; and the clicks that did
nothing against its count of effective clicks. A lost game of ours, written as EVF, is
compared the same way (a lost game's figures count the 3BV solved)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from replay_samples import SAMPLES, figures

from minesolver.game import Game, Layout, Move
from minesolver.position import HIDDEN
from minesolver.replay import load, play_events
from minesolver.replay.efficiency import ReplayEfficiency, replay_efficiency
from minesolver.replay.evf_write import replay_from_moves, write_evf

pytest.importorskip("ms_toollib")

ORACLE = r"""
import json, sys, ms_toollib as ms
cls = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "evf": ms.EvfVideo, "mvf": ms.MvfVideo}
out = {}
for path in sys.argv[1:]:
    v = cls[path.rsplit(".", 1)[1]](path)
    v.parse()
    v.analyse()
    v.current_time = 1e9
    keys = ["rtime", "bbbv", "bbbv_solved", "bbbv_s", "rqp", "stnb", "ioe", "zini", "hzini",
            "cl", "ce", "left", "lce", "right", "rce", "double", "dce", "is_completed", "row",
            "column", "mine_num"]
    out[path] = {k: getattr(v, k) for k in keys}
print(json.dumps(out))
"""

NAMES = [r.name for r in figures()]


@pytest.fixture(scope="module")
def theirs() -> dict[str, dict[str, float]]:
    paths = [str(SAMPLES / name) for name in NAMES]
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, *paths], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-500:]
    read: dict[str, dict[str, float]] = json.loads(done.stdout)
    return {Path(p).name: figures for p, figures in read.items()}


@pytest.fixture(scope="module")
def ours() -> dict[str, ReplayEfficiency]:
    out = {}
    for name in NAMES:
        replay = load(SAMPLES / name)
        # a work budget and no deadline: the same figures under any load
        out[name] = replay_efficiency(replay, play_events(replay), work=2000, seconds=None)
    return out


def _assert_counts_and_speed_equal(e: ReplayEfficiency, t: dict[str, Any]) -> None:
    """3BV, 3BV solved, clicks, effective clicks, time, 3BV/s, RQP and IOE as ms-toollib's."""
    assert (e.bbbv, e.bbbv_solved, e.clicks, e.effective) == (
        t["bbbv"], t["bbbv_solved"], t["cl"], t["ce"],
    )  # fmt: skip
    assert e.seconds == pytest.approx(t["rtime"], abs=1e-9)
    assert e.bbbv_per_second == pytest.approx(t["bbbv_s"], rel=1e-12)
    assert e.rqp == pytest.approx(t["rqp"], rel=1e-12)
    assert e.efficiency == pytest.approx(t["ioe"], rel=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_speed_figures_equal_ms_toollib(
    name: str, theirs: dict[str, dict[str, float]], ours: dict[str, ReplayEfficiency]
) -> None:
    t, e = theirs[name], ours[name]
    assert e.won is t["is_completed"] is True
    _assert_counts_and_speed_equal(e, t)
    assert (e.zini, e.hzini) == (t["zini"], t["hzini"])
    # every sample is a standard level: ms-toollib has a constant for each
    assert (t["column"], t["row"], t["mine_num"]) in ((8, 8, 10), (16, 16, 40), (30, 16, 99))
    assert e.stnb == pytest.approx(t["stnb"], rel=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_figures_ms_toollib_lacks_are_its_numbers_by_their_definitions(
    name: str, theirs: dict[str, dict[str, float]], ours: dict[str, ReplayEfficiency]
) -> None:
    t, e = theirs[name], ours[name]
    time, solved, zini = t["rtime"], t["bbbv_solved"], t["zini"]
    if time > 1:
        assert e.ios == pytest.approx(math.log(solved) / math.log(time), rel=1e-12)
    else:  # log t <= 0: IOS is undefined (the 0.67 s sample)
        assert e.ios is None
    assert e.zini_per_second == pytest.approx(zini / time, rel=1e-12)
    assert e.zne == pytest.approx(zini / t["cl"], rel=1e-12)
    assert e.znt == pytest.approx(zini / t["ce"], rel=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_clicks_that_did_nothing_are_the_ineffective_left_and_double_clicks(
    name: str, theirs: dict[str, dict[str, float]], ours: dict[str, ReplayEfficiency]
) -> None:
    """On a won game a left click that opened nothing is exactly one ms-toollib does not
    count as effective, and so is a chord; a right click that changed nothing is never
    effective."""
    t, e = theirs[name], ours[name]
    nothing = {"left": 0, "right": 0, "double": 0}
    for w in e.wasted:
        if w.why == "nothing":
            nothing[w.click.button] += 1
    assert nothing["left"] == t["left"] - t["lce"]
    assert nothing["double"] == t["double"] - t["dce"]
    assert nothing["right"] <= t["right"] - t["rce"]


@pytest.mark.parametrize("name", NAMES)
def test_the_fewest_clicks_bound_the_game(name: str, ours: dict[str, ReplayEfficiency]) -> None:
    """The proved lower bound is at most ZiNi and at most the clicks the player needed:
    all clicks but those that did nothing, took a flag away or placed a flag no chord
    used (a one-cell chord still opened its cell)."""
    e = ours[name]
    m = e.min_clicks
    assert 0 < m.lower_bound <= m.count <= min(e.zini, e.hzini)
    assert m.cut is None if m.optimal else m.cut == "work"
    kinds = e.wasted_by_kind()
    needed = e.clicks - kinds["nothing"] - kinds["unflag"] - kinds["unused_flag"]
    assert m.lower_bound <= needed
    assert e.best_efficiency == e.bbbv / m.count
    assert e.best_efficiency_bound == e.bbbv / m.lower_bound
    assert e.efficiency is not None and e.best_efficiency_bound >= e.best_efficiency
    assert e.efficiency_lost == pytest.approx(e.best_efficiency - e.efficiency)
    assert e.extra_clicks == e.clicks - m.count


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith(("metasweeper", "vienna-rmv2"))])
def test_beginner_minimum_is_proved_within_the_report_budget(name: str) -> None:
    replay = load(SAMPLES / name)
    e = replay_efficiency(replay, play_events(replay))
    assert e.optimal and e.min_clicks.lower_bound == e.min_clicks.count
    assert e.best_efficiency == e.best_efficiency_bound


READ_ONE = r"""
import json, sys, ms_toollib as ms
v = ms.EvfVideo(sys.argv[1])
v.parse()
v.analyse()
v.current_time = 1e9
keys = ["rtime", "bbbv", "bbbv_solved", "bbbv_s", "rqp", "stnb", "ioe", "cl", "ce", "left",
        "lce", "double", "dce", "is_completed"]
print(json.dumps({k: getattr(v, k) for k in keys}))
"""


def _ms_toollib_reads(path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", READ_ONE, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-500:]
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize(("width", "height"), [(8, 8), (9, 9)])
def test_a_lost_game_written_as_evf_reads_the_same_in_ms_toollib(
    tmp_path: Path, width: int, height: int
) -> None:
    """A lost game with wasted clicks, written as EVF: 3BV solved, RQP, STNB and IOE are
    ms-toollib's. On 9x9 (minesolver's beginner, not one of ms-toollib's levels) its STNB
    is 0, ours undefined: the difference the replays page names."""
    rng = random.Random(width)
    first = (4, 4)
    around = {(first[0] + dx, first[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in around]
    layout = Layout.from_cells(width, height, rng.sample(cells, 10))
    game = Game.from_layout(layout)
    game.push(Move("open", first))
    view = game.view()
    opened = next(c for c in view if view[c] != HIDDEN)
    safe = [c for c in view if view[c] == HIDDEN and not layout.is_mine(c)]
    moves = [
        ("open", first, 0),
        ("open", opened, 400),  # did nothing
        ("open", safe[0], 900),
        ("chord", opened, 1500),  # no flag around: opened nothing
        ("flag", safe[1], 2000),  # a wrong flag no chord used
        ("open", layout.cells()[0], 2600),  # the loss
    ]
    replay = load(write_evf(replay_from_moves(layout, moves)))
    playback = play_events(replay)
    assert playback.status == "lost"
    path = tmp_path / "lost.evf"
    path.write_bytes(write_evf(replay))
    t = _ms_toollib_reads(path)
    e = replay_efficiency(replay, playback, work=2000, seconds=None)
    assert t["is_completed"] is False and e.won is False
    _assert_counts_and_speed_equal(e, t)
    if (width, height) == (8, 8):
        assert e.stnb == pytest.approx(t["stnb"], rel=1e-12) and t["stnb"] > 0
    else:
        assert e.stnb is None and t["stnb"] == 0
    assert [(w.click.button, w.why) for w in e.wasted] == [
        ("left", "nothing"), ("double", "nothing"), ("right", "unused_flag"),
    ]  # fmt: skip
    assert t["left"] - t["lce"] == 2  # the click that did nothing, and the losing one
    assert t["double"] - t["dce"] == 1
    assert e.zini_per_second is e.zne is e.znt is None
