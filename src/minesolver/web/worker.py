"""A worker process of the web app: ``python -m minesolver.web.worker``.

It reads ``(job, kwargs)`` messages (:mod:`multiprocessing.connection` framing) on standard
input and answers ``(status, payload)`` on its original standard output: ``("ok", result)``,
``("value_error", (class name, message))`` for bad input, ``("crash", traceback)`` for a
bug (logged by the server, never shown to a client). :class:`minesolver.web.compute.WorkerPool`
starts, feeds and, past the compute budget, kills these processes.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from minesolver.web import jobs

__all__ = ["JOBS", "serve"]

JOBS: dict[str, Callable[..., Any]] = {
    "analyse": jobs.analyse,
    "hint": jobs.hint,
    "sleep": jobs.sleep,
}
"""The jobs a worker runs, by name. ``sleep`` exists for the budget's tests."""


def serve(inbox: Connection, outbox: Connection) -> None:
    """Say ``("ready", None)``, then answer jobs until the input closes."""
    outbox.send(("ready", None))
    while True:
        try:
            name, kwargs = inbox.recv()
        except (EOFError, OSError):
            return
        try:
            result = JOBS[name](**kwargs)
        except ValueError as exc:
            outbox.send(("value_error", (type(exc).__name__, str(exc))))
        except Exception:
            outbox.send(("crash", traceback.format_exc()))
        else:
            outbox.send(("ok", result))


def main() -> None:
    """Serve over standard input and output; ``print`` output is sent to standard error
    so that nothing but messages reaches the server."""
    out_fd = os.dup(1)
    os.dup2(2, 1)
    serve(Connection(0, writable=False), Connection(out_fd, readable=False))


if __name__ == "__main__":
    main()
