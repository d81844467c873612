"""The web answers the library's errors by their class, never by their name or text."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")  # the web extra

from minesolver.engines import EngineError, EngineLimitExceeded
from minesolver.game import GameError
from minesolver.position import InconsistentPosition, Position, PositionFormatError
from minesolver.replay import ReplayFormatError
from minesolver.result import MineCountUnknown
from minesolver.strategy import PlayerError
from minesolver.strategy.outcomes import TileError
from minesolver.vision import VisionError
from minesolver.web.errors import ERROR_CODES, http_error


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (PositionFormatError("cell (1, 2): invalid value 10"), 400, "malformed_position"),
        (InconsistentPosition("cell (0, 0)"), 422, "inconsistent_position"),
        (MineCountUnknown("no total"), 422, "mines_unknown"),
        (EngineLimitExceeded("too many boxes"), 422, "engine_limit_exceeded"),
        (ReplayFormatError("avf", 3, "a byte", "the file ends"), 422, "malformed_replay"),
        (TileError("cell (9, 9) is off the board"), 422, "bad_cell"),
        (VisionError("no board found in the image"), 422, "unreadable_image"),
        (EngineError("no such engine"), 400, "bad_request"),  # a base of a listed class
        (PlayerError("no such player"), 400, "bad_request"),
        (GameError("bad move"), 400, "bad_request"),
        (ValueError("anything else"), 400, "bad_request"),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else str(v),
)
def test_each_error_class_has_its_answer(error: Exception, status: int, code: str) -> None:
    assert http_error(error) == (status, code, {})


def test_a_subclass_answers_as_its_nearest_listed_base() -> None:
    class Tighter(EngineLimitExceeded):
        pass

    class Named(Exception):  # same name, another class: not mapped
        pass

    Named.__name__ = "PositionFormatError"
    assert http_error(Tighter("x"))[:2] == (422, "engine_limit_exceeded")
    assert http_error(Named("x"))[:2] == (400, "bad_request")
    assert all(isinstance(cls, type) for cls in ERROR_CODES)


def test_a_malformed_position_gives_its_line_and_column() -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_text("3x3x1\nHHH\nHXH\nHHH")
    assert http_error(info.value) == (400, "malformed_position", {"line": 3, "column": 2})
    no_column = PositionFormatError("line 4: empty row inside the board", line=4)
    assert http_error(no_column)[2] == {"line": 4}
    # a message that names a line the error does not carry is not read back
    assert http_error(PositionFormatError("line 9, column 9: words"))[2] == {}
