"""A worker process of the web app: ``python -m minesolver.web.worker``.

It reads ``(job, kwargs)`` messages (:mod:`multiprocessing.connection` framing) on standard
input and answers ``(status, payload)`` on its original standard output: ``("ok", result)``,
``("value_error", (class name, message))`` for bad input, ``("memory", None)`` past the
memory limit, ``("crash", traceback)`` for a
bug (logged by the server, never shown to a client). :class:`minesolver.web.compute.WorkerPool`
starts, feeds and, past the compute budget, kills these processes.
"""

from __future__ import annotations

import os
import resource
import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from minesolver.web import jobs

__all__ = ["JOBS", "allocate", "main", "serve"]


def allocate(megabytes: int) -> int:
    """Hold ``megabytes`` of memory for a moment (for the memory limit's tests)."""
    return len(bytearray(megabytes * 2**20))


JOBS: dict[str, Callable[..., Any]] = {
    "analyse": jobs.analyse,
    "hint": jobs.hint,
    "sleep": jobs.sleep,
    "allocate": allocate,
}
"""The jobs a worker runs, by name. ``sleep`` and ``allocate`` exist for the limits' tests."""


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
        except MemoryError:
            outbox.send(("memory", None))
        except ValueError as exc:
            outbox.send(("value_error", (type(exc).__name__, str(exc))))
        except Exception:
            outbox.send(("crash", traceback.format_exc()))
        else:
            outbox.send(("ok", result))


def main(argv: list[str] | None = None) -> None:
    """Serve over standard input and output; ``print`` output is sent to standard error
    so that nothing but messages reaches the server. ``--memory-mb N`` limits the
    process's address space, so that a runaway job raises ``MemoryError`` here instead
    of starving the machine."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "--memory-mb":
        limit = int(args[1]) * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out_fd = os.dup(1)
    os.dup2(2, 1)
    serve(Connection(0, writable=False), Connection(out_fd, readable=False))


if __name__ == "__main__":
    main()
