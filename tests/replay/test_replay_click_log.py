"""The click log and the wasted clicks on random mouse streams: the log holds exactly the
clicks counted, in order, each action made by at most one click, and every wasted click
is a logged one (hypothesis)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from minesolver.game import Layout
from minesolver.replay import play_events
from minesolver.replay.efficiency import WASTE_KINDS, wasted_clicks
from minesolver.replay.evf_write import replay_from_moves
from minesolver.replay.record import EVENT_KINDS, MouseEvent

LAYOUT = Layout.from_cells(4, 3, [(1, 1), (3, 2)])
SIZE = 16

events = st.lists(
    st.tuples(
        st.sampled_from([k for k in EVENT_KINDS if k != "mv"]),
        st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 2))),
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(stream=events, question_marks=st.booleans())
def test_the_log_is_the_clicks_counted(
    stream: list[tuple[str, tuple[int, int] | None]], question_marks: bool
) -> None:
    base = replay_from_moves(LAYOUT, [("open", (0, 0), 0)])
    mouse = [
        MouseEvent(
            10 * n,
            kind,  # type: ignore[arg-type]
            500 if cell is None else cell[0] * SIZE + 8,
            500 if cell is None else cell[1] * SIZE + 8,
            cell,
        )
        for n, (kind, cell) in enumerate(stream)
    ]
    replay = dataclasses.replace(base, events=tuple(mouse), question_marks=question_marks)
    playback = play_events(replay)
    c, log = playback.clicks, playback.log
    assert [k.number for k in log] == list(range(len(log)))
    counts = [sum(k.button == b for k in log) for b in ("left", "right", "double")]
    assert counts == [c.left, c.right, c.double]
    made = [k.action for k in log if k.action is not None]
    assert len(made) == len(set(made))
    assert all(0 <= i < len(playback.actions) for i in made)
    assert [k.time_ms for k in log] == sorted(k.time_ms for k in log)
    wasted = wasted_clicks(replay, playback)
    assert all(w.click in log and w.why in WASTE_KINDS for w in wasted)
    assert all((w.why == "nothing") == (w.click.action is None) for w in wasted)
