"""The library's errors as HTTP answers: a status and a short code by the error's class.

A job's error is classified where it is raised (in the worker process,
:mod:`minesolver.web.worker`) and crosses the pipe as plain values (status, code,
message, the line and column of a position text); the server classifies the errors of
its own threads the same way. The mapping is on classes, walked along the error's method
resolution order, so a subclass answers as its nearest listed base; a ``ValueError`` of
no listed class is a plain 400 ``bad_request``. O(depth of the class hierarchy).
:class:`ApiError` is the answer itself (status, code, message), which the routes raise.

>>> from minesolver.position import Position, PositionFormatError
>>> try:
...     Position.from_text("HH\\nH9")
... except PositionFormatError as e:
...     print(http_error(e))
(400, 'malformed_position', {'line': 2, 'column': 2})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from minesolver.engines import EngineLimitExceeded
from minesolver.position import InconsistentPosition, PositionFormatError
from minesolver.replay import ReplayFormatError
from minesolver.result import MineCountUnknown
from minesolver.strategy.outcomes import TileError
from minesolver.vision._load import VisionError

__all__ = ["ERROR_CODES", "ApiError", "choice", "http_error"]

ERROR_CODES: dict[type[Exception], tuple[int, str]] = {
    PositionFormatError: (400, "malformed_position"),
    InconsistentPosition: (422, "inconsistent_position"),
    MineCountUnknown: (422, "mines_unknown"),
    EngineLimitExceeded: (422, "engine_limit_exceeded"),
    ReplayFormatError: (422, "malformed_replay"),
    TileError: (422, "bad_cell"),
    VisionError: (422, "unreadable_image"),
}
"""Error class -> (HTTP status, the ``error`` code of the JSON body)."""

BAD_REQUEST = (400, "bad_request")
"""The answer to a ``ValueError`` of no class in :data:`ERROR_CODES`."""


def http_error(exc: Exception) -> tuple[int, str, dict[str, int]]:
    """``(status, code, where)`` for ``exc``: ``where`` holds the ``line`` and ``column``
    a :class:`~minesolver.position.PositionFormatError` names (those it has), else
    nothing."""
    status, code = next(
        (ERROR_CODES[cls] for cls in type(exc).__mro__ if cls in ERROR_CODES), BAD_REQUEST
    )
    where: dict[str, int] = {}
    if isinstance(exc, PositionFormatError):
        if exc.line is not None:
            where["line"] = exc.line
        if exc.column is not None:
            where["column"] = exc.column
    return status, code, where


class ApiError(Exception):
    """An error for the client: HTTP status, a short code and a message saying what is wrong."""

    def __init__(
        self, status: int, code: str, detail: str, where: dict[str, int] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.where = where or {}


def choice(
    query: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str | None
) -> Any:
    """The query parameter ``name``: one of ``allowed`` (else a 400 saying so), or ``default``."""
    value = query.get(name, default)
    if value is not None and value not in allowed:
        raise ApiError(400, "bad_field", f"{name}={value!r}: expected one of {allowed}")
    return value
