"""Replays: the games people played, read from their files and graded click by click.

Readers for Minesweeper Arbiter (AVF), Viennasweeper (RMV), Metasweeper (EVF) and
Minesweeper Clone (MVF) give a :class:`Replay`: the board, the mines and the mouse
events. :attr:`Replay.playback` turns the events into actions by the rules these clones
share and counts the clicks as Metasweeper does; :meth:`Replay.analyse` grades every
action from the position the player saw.

>>> from minesolver.replay import load, ReplayFormatError
>>> try:
...     load(b"*rmv\\x00")
... except ReplayFormatError as e:
...     print(e)
rmv replay, byte 4: expected the format version (2 bytes), but the file ends after 1 more
"""

from minesolver.replay.errors import ReplayFormatError
from minesolver.replay.load import MAX_BYTES, load, sniff
from minesolver.replay.record import MouseEvent, Replay

__all__ = ["MAX_BYTES", "MouseEvent", "Replay", "ReplayFormatError", "load", "sniff"]
