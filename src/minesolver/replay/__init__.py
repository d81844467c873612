"""Replays: the games people played, read from their files and graded click by click.

Readers for Minesweeper Arbiter (AVF), Viennasweeper (RMV), Metasweeper (EVF) and
Minesweeper Clone (MVF) give a :class:`Replay`: the board, the mines and the mouse
events, a record that knows nothing of the game or its grading. :func:`play_events`
turns the events into actions by the rules these clones share and counts the clicks as
Metasweeper does (a :class:`Playback`); :func:`grade_replay` grades every action from
the position the player saw (a :class:`ReplayAnalysis`); :func:`replay_efficiency` grades
it for efficiency (the wasted clicks, the board's fewest clicks beside the player's, the
speed figures: a :class:`ReplayEfficiency`).

>>> from minesolver.replay import load, ReplayFormatError
>>> try:
...     load(b"*rmv\\x00")
... except ReplayFormatError as e:
...     print(e)
rmv replay, byte 4: expected the format version (2 bytes), but the file ends after 1 more
"""

from minesolver.replay.actions import Playback, play_events
from minesolver.replay.efficiency import ReplayEfficiency, replay_efficiency
from minesolver.replay.errors import ReplayFormatError
from minesolver.replay.grade import ReplayAnalysis, grade_replay
from minesolver.replay.load import MAX_BYTES, identify, load, sniff
from minesolver.replay.record import MouseEvent, Replay

__all__ = [
    "MAX_BYTES",
    "MouseEvent",
    "Playback",
    "Replay",
    "ReplayAnalysis",
    "ReplayEfficiency",
    "ReplayFormatError",
    "grade_replay",
    "identify",
    "load",
    "play_events",
    "replay_efficiency",
    "sniff",
]
