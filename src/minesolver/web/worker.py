"""A worker process of the web app: ``python -m minesolver.web.worker``.

It reads ``(job, kwargs)`` messages (:mod:`multiprocessing.connection` framing) on standard
input and answers ``(status, payload)`` on its original standard output: ``("ok", result)``,
preceded, for a job of :data:`PROGRESS_JOBS`, by a ``("progress", stage)`` for each stage
it comes to,
``("value_error", (status, code, message, where))`` for bad input (classified here by
the error's class, :func:`minesolver.web.errors.http_error`), ``("memory", None)`` past
the memory limit, ``("crash", traceback)`` for a bug (logged by the server, never shown
to a client). :class:`minesolver.web.compute.WorkerPool`
starts, feeds and, past the compute budget, kills these processes.

A worker never outlives its server: a watchdog thread checks the parent process every
:data:`ORPHAN_CHECK` seconds and ends the worker at once when it has gone (a SIGKILL of
the server leaves no job running on). The parent's *process* id is watched rather than
asking the kernel for a death signal, which Linux ties to the parent *thread* that
started the worker (a short-lived thread of the pool).
"""

from __future__ import annotations

import os
import resource
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from minesolver.web import jobs
from minesolver.web.errors import http_error

__all__ = ["JOBS", "ORPHAN_CHECK", "PROGRESS_JOBS", "allocate", "main", "serve", "watch_parent"]

ORPHAN_CHECK = 0.25
"""Seconds between two checks that the server (the parent process) is still there."""


def allocate(megabytes: int) -> int:
    """Hold ``megabytes`` of memory for a moment (for the memory limit's tests)."""
    return len(bytearray(megabytes * 2**20))


JOBS: dict[str, Callable[..., Any]] = {
    "analyse": jobs.analyse,
    "hint": jobs.hint,
    "read": jobs.read,
    "replay": jobs.replay,
    "tile": jobs.tile,
    "sleep": jobs.sleep,
    "allocate": allocate,
}
"""The jobs a worker runs, by name. ``sleep`` and ``allocate`` exist for the limits' tests."""

PROGRESS_JOBS = frozenset({"read"})
"""The jobs that take a ``progress`` callback: each stage they tell it is sent to the
server at once, as a ``("progress", stage)`` message before the job's answer."""


def watch_parent(parent: int, interval: float = ORPHAN_CHECK) -> threading.Thread:
    """Start a daemon thread ending this process (``os._exit``, no clean-up: the job's
    state is worthless without the server) once its parent is no longer ``parent``:
    an orphan is adopted by another process, so ``os.getppid()`` changes."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(3)

    thread = threading.Thread(target=watch, daemon=True, name="orphan-watchdog")
    thread.start()
    return thread


def serve(inbox: Connection, outbox: Connection) -> None:
    """Say ``("ready", None)``, then answer jobs until the input closes."""
    outbox.send(("ready", None))
    while True:
        try:
            name, kwargs = inbox.recv()
        except (EOFError, OSError):
            return
        if name in PROGRESS_JOBS:
            kwargs = {**kwargs, "progress": lambda stage: outbox.send(("progress", stage))}
        try:
            result = JOBS[name](**kwargs)
        except MemoryError:
            outbox.send(("memory", None))
        except ValueError as exc:
            status, code, where = http_error(exc)
            outbox.send(("value_error", (status, code, str(exc), where)))
        except Exception:
            outbox.send(("crash", traceback.format_exc()))
        else:
            outbox.send(("ok", result))


def main(argv: list[str] | None = None) -> None:
    """Serve over standard input and output; ``print`` output is sent to standard error
    so that nothing but messages reaches the server. ``--memory-mb N`` limits the
    process's address space, so that a runaway job raises ``MemoryError`` here instead
    of starving the machine; ``--nice N`` lowers its scheduling priority (the expensive
    lane's workers yield the processor to the server and to the fast lane)."""
    args = sys.argv[1:] if argv is None else argv
    watch_parent(os.getppid())
    options = dict(zip(args[::2], map(int, args[1::2]), strict=True))
    if "--memory-mb" in options:
        limit = options["--memory-mb"] * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if options.get("--nice"):
        os.nice(options["--nice"])
    out_fd = os.dup(1)
    os.dup2(2, 1)
    serve(Connection(0, writable=False), Connection(out_fd, readable=False))


if __name__ == "__main__":
    main()
