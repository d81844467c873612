"""Our readers and counts against ms-toollib, run in a subprocess (it aborts the whole
process on some files, so it never runs inside the test process)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from replay_samples import SAMPLES, figures

from minesolver.replay import grade_replay, load, play_events

pytest.importorskip("ms_toollib")

ORACLE = r"""
import json, sys, ms_toollib as ms
path = sys.argv[1]
cls = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "evf": ms.EvfVideo, "mvf": ms.MvfVideo}
v = cls[path.rsplit(".", 1)[1]](path)
v.parse()
v.analyse()
v.analyse_for_features(["pluck"])
v.current_time = 1e9
keys = ["row", "column", "mine_num", "bbbv", "left", "right", "double", "cl", "ce", "rtime",
        "ioe", "corr", "thrp", "op", "isl", "is_completed", "pluck", "bbbv_solved", "flag"]
out = {k: getattr(v, k) for k in keys}
out["board"] = v.board
out["events"] = [
    [r.time, m.mouse, m.x, m.y]
    for r in v.events if r.event.is_mouse() for m in [r.event.unwrap_mouse()]
]
print(json.dumps(out))
"""


def oracle(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", ORACLE, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-500:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", [r.name for r in figures()])
def test_events_layout_and_counts_equal_ms_toollib(name: str) -> None:
    path = SAMPLES / name
    theirs = oracle(path)
    replay = load(path)
    size = replay.cell_size
    width, height = replay.width, replay.height
    assert (height, width, replay.mines) == (theirs["row"], theirs["column"], theirs["mine_num"])
    board = theirs["board"]
    assert isinstance(board, list)
    mines = sorted((x, y) for y, row in enumerate(board) for x, v in enumerate(row) if v == -1)
    assert mines == sorted(replay.mine_cells)
    ours = [(e.time_ms, e.kind, e.cell) for e in replay.events]
    events = theirs["events"]
    assert isinstance(events, list)
    expected = [
        (
            round(t * 1000),
            k,
            (x // size, y // size) if x < width * size and y < height * size else None,
        )
        for t, k, x, y in events
    ]
    assert ours == expected
    a = grade_replay(replay, best=False)
    c = a.playback.clicks
    counts = {
        "left": c.left, "right": c.right, "double": c.double, "cl": c.total, "ce": c.effective,
        "bbbv": a.bbbv, "bbbv_solved": c.bbbv_solved, "flag": c.flags,
        "op": a.playback.stats.openings, "isl": a.playback.stats.islands, "is_completed": a.won,
    }  # fmt: skip
    assert counts == {k: theirs[k] for k in counts}
    assert replay.time == pytest.approx(theirs["rtime"], abs=1e-9)
    for ours_f, key in ((a.ioe, "ioe"), (a.correctness, "corr"), (a.throughput, "thrp")):
        assert ours_f == pytest.approx(theirs[key], rel=1e-12)
    assert math.isclose(a.pluck, float(theirs["pluck"]), abs_tol=1e-9)  # type: ignore[arg-type]


GENERATE = r"""
import sys, ms_toollib as ms
v = ms.AvfVideo(sys.argv[1])
v.parse()
v.analyse()
for k in (0, 2, 3, 4):
    getattr(v, f"generate_evf_v{k}_raw_data")()
    with open(f"{sys.argv[2]}/v{k}.evf", "wb") as f:
        f.write(bytes(v.raw_data))
"""


def test_every_evf_version_ms_toollib_writes_reads_as_the_original(tmp_path: Path) -> None:
    source = SAMPLES / "arbiter-expert-127bv.avf"
    done = subprocess.run(
        [sys.executable, "-c", GENERATE, str(source), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-500:]
    original = load(source)
    for k in (0, 2, 3, 4):
        data = bytearray((tmp_path / f"v{k}.evf").read_bytes())
        if k == 2:
            data[0] = 2  # ms-toollib 1.5.20 writes version 0 in its v2 files
        replay = load(bytes(data))
        assert replay.version == str(k)
        assert (replay.player, replay.software) == (original.player, "Arbiter")
        assert replay.layout == original.layout
        assert replay.events == original.events
        assert replay.time_ms == original.time_ms
        assert play_events(replay).clicks == play_events(original).clicks
