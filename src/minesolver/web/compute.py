"""CPU-heavy work of the web app, off the event loop and under a time budget.

An exact analysis is usually a few milliseconds, but a crafted position can take far
longer; a thread cannot be stopped once started, so every analysis and every player's
move runs in a separate worker *process*. :class:`WorkerPool` keeps up to ``size`` of
them; a job waits for an idle worker (at most ``queue_wait`` seconds, else
:class:`ServerBusy`), is sent through a pipe, and its answer awaited in a thread so that
the event loop stays free. A job that exceeds the budget has its worker terminated and
replaced, and raises :class:`BudgetExceeded`: one user's hard position costs one worker
for at most the budget, never the server.

Workers are fresh interpreters (``python -m minesolver.web.worker``) running the jobs
named in :data:`minesolver.web.worker.JOBS`; jobs take and return JSON-like values, so the
web layer never ships the library's objects across the pipe. A job that tells its
progress (a screenshot's read, :data:`minesolver.web.worker.PROGRESS_JOBS`) sends each
stage on the same pipe before its answer; the pool hands them to the caller's
``on_progress`` as they come, within the same budget. A ``ValueError`` in a job
comes back as :class:`JobError` with the HTTP status and code its class maps to
(:mod:`minesolver.web.errors`), its message and where it is (the client's fault: a
4xx); anything else as :class:`JobCrashed`, with no detail for the client (the traceback
goes to the server's log).
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from starlette.concurrency import run_in_threadpool

__all__ = [
    "BudgetExceeded",
    "JobCrashed",
    "JobError",
    "MemoryExceeded",
    "ServerBusy",
    "WorkerPool",
]

log = logging.getLogger("minesolver.web")

STARTUP_TIMEOUT = 60.0
"""Seconds a new worker may take to import the library (not counted in the budget)."""


class BudgetExceeded(Exception):
    """The job ran past the compute budget; its worker was stopped."""


class MemoryExceeded(Exception):
    """The job ran out of the worker's memory limit; the worker was replaced."""


class ServerBusy(Exception):
    """Every worker stayed busy for longer than the pool's queue wait."""


class JobError(ValueError):
    """The job raised a ``ValueError``: bad input, reported to the client as a 4xx.

    ``status`` and ``code`` are the answer the error's class maps to
    (:func:`minesolver.web.errors.http_error`), ``where`` the line and column of a
    position text it names (empty if none).
    """

    def __init__(
        self, status: int, code: str, message: str, where: dict[str, int] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.where = where or {}


class JobCrashed(Exception):
    """The job failed in an unexpected way (a bug); details stay in the server log."""


ARENA_RESERVE = "64M"
"""Address space the native core's allocator (mimalloc) reserves up front in a worker:
its default, 1 GiB, would alone exceed the memory limit, which bounds the address space
(``RLIMIT_AS``); beyond this it reserves more as the job grows, within the limit."""


def _worker_environment() -> dict[str, str]:
    """The server's environment, with the native allocator's first reservation made small
    (unless the caller chose one)."""
    env = dict(os.environ)
    env.setdefault("MIMALLOC_ARENA_RESERVE", ARENA_RESERVE)
    return env


class _Worker:
    """One worker process (a fresh interpreter) and the parent's ends of its pipes.

    A plain subprocess rather than :mod:`multiprocessing`: it never forks the threaded
    server and never re-imports the server's main module.
    """

    def __init__(self, memory_mb: int | None, nice: int = 0) -> None:
        limit = [] if memory_mb is None else ["--memory-mb", str(memory_mb)]
        if nice:
            limit += ["--nice", str(nice)]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "minesolver.web.worker", *limit],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
            env=_worker_environment(),
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.outbox = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.inbox = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        # the budget counts the job only: wait for the interpreter's imports first
        if not self.inbox.poll(STARTUP_TIMEOUT) or self.inbox.recv() != ("ready", None):
            self.stop(kill=True)
            raise JobCrashed("a worker process did not start")

    def call(
        self,
        name: str,
        kwargs: dict[str, Any],
        budget: float,
        on_progress: Callable[[str], None] | None = None,
    ) -> tuple[str, Any]:
        """Run one job, blocking up to ``budget`` seconds in all; :class:`TimeoutError`
        past it. Each ``("progress", stage)`` message the job sends before its answer is
        given to ``on_progress`` (on this thread)."""
        self.outbox.send((name, kwargs))
        deadline = time.monotonic() + budget
        while True:
            if not self.inbox.poll(max(0.0, deadline - time.monotonic())):
                raise TimeoutError
            status, payload = self.inbox.recv()
            if status != "progress":
                return str(status), payload
            if on_progress is not None:
                on_progress(str(payload))

    def stop(self, kill: bool = False) -> None:
        """Close the pipes and end the process: at once when ``kill``, else when it has
        read the end of its input (killed if it has not within half a second)."""
        if kill:
            self.process.kill()
        self.outbox.close()
        self.inbox.close()
        try:
            self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


class WorkerPool:
    """Up to ``size`` worker processes, started on demand, each job within ``budget`` s."""

    def __init__(
        self,
        size: int = 2,
        budget: float = 5.0,
        queue_wait: float = 10.0,
        memory_mb: int | None = None,
        nice: int = 0,
    ) -> None:
        if size < 1:
            raise ValueError(f"worker pool size {size} must be at least 1")
        if budget <= 0:
            raise ValueError(f"compute budget {budget} must be positive")
        self.size = size
        self.budget = budget
        self.queue_wait = queue_wait
        self.memory_mb = memory_mb
        """Address-space limit of each worker in MiB (``None``: no limit)."""
        self.nice = nice
        """How much lower the workers' scheduling priority is than the server's."""
        self._idle: list[_Worker] = []
        self._started = 0
        self._cond = threading.Condition()
        self._slots: asyncio.Semaphore | None = None
        self._closed = False
        self.restarts = 0
        """Workers replaced after a timeout or a crash (for tests and logs)."""

    def _semaphore(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        return self._slots

    def _take(self) -> _Worker:
        """An idle worker; else a new one while fewer than ``size`` exist; else wait for
        the one being started (a replacement) to become idle."""
        with self._cond:
            while not self._idle and self._started >= self.size and not self._closed:
                self._cond.wait()
            if self._closed:
                raise ServerBusy("the server is shutting down")
            if self._idle:
                return self._idle.pop()
            self._started += 1
        return self._start()

    def _start(self) -> _Worker:
        """A new worker, its slot already counted in ``_started``."""
        try:
            return _Worker(self.memory_mb, self.nice)
        except BaseException:
            with self._cond:
                self._started -= 1
                self._cond.notify_all()
            raise

    def _give_back(self, worker: _Worker) -> None:
        with self._cond:
            if not self._closed:
                self._idle.append(worker)
                self._cond.notify_all()
                return
        worker.stop()

    def _discard(self, worker: _Worker) -> None:
        """Kill a worker and start its replacement in the background, so that the next
        request does not wait for a fresh interpreter."""
        worker.stop(kill=True)
        with self._cond:
            self._started -= 1
            self.restarts += 1
            self._cond.notify_all()
        threading.Thread(target=self.warm, daemon=True, name="worker-restart").start()

    async def run(
        self,
        name: str,
        *,
        budget: float | None = None,
        on_progress: Callable[[str], None] | None = None,
        **kwargs: Any,
    ) -> Any:
        """Run job ``name`` in a worker and return its result, within ``budget`` seconds
        (the pool's when ``None``); ``on_progress`` is told the stages the job reports
        (from a worker thread of the server).

        Raises :class:`ServerBusy`, :class:`BudgetExceeded`, :class:`JobError` or
        :class:`JobCrashed`.
        """
        slots = self._semaphore()
        try:
            await asyncio.wait_for(slots.acquire(), self.queue_wait)
        except TimeoutError as exc:
            raise ServerBusy(
                f"all {self.size} analysis workers stayed busy for {self.queue_wait:g} s"
            ) from exc
        try:
            return await run_in_threadpool(
                self._run_blocking,
                name,
                kwargs,
                self.budget if budget is None else budget,
                on_progress,
            )
        finally:
            slots.release()

    def _run_blocking(
        self,
        name: str,
        kwargs: dict[str, Any],
        budget: float,
        on_progress: Callable[[str], None] | None = None,
    ) -> Any:
        worker = self._take()
        try:
            status, payload = worker.call(name, kwargs, budget, on_progress)
        except TimeoutError:
            self._discard(worker)
            raise BudgetExceeded(
                f"the computation exceeded the budget of {budget:g} s and was stopped"
            ) from None
        except (EOFError, OSError, BrokenPipeError) as exc:
            self._discard(worker)
            log.error("worker died during job %s: %r", name, exc)
            raise JobCrashed("the worker died") from None
        if status == "ok":
            self._give_back(worker)
            return payload
        if status == "memory":
            self._discard(worker)
            raise MemoryExceeded(
                f"the computation needed more than the {self.memory_mb} MiB allowed"
            )
        if status == "value_error":
            self._give_back(worker)
            status, code, message, where = payload
            raise JobError(status, code, message, where)
        self._give_back(worker)
        log.error("job %s failed:\n%s", name, payload)
        raise JobCrashed("internal error")

    def warm(self) -> None:
        """Start every worker now (blocking), so that no request waits for one to start."""
        while True:
            with self._cond:
                if self._closed or self._started >= self.size:
                    return
                self._started += 1
            self._give_back(self._start())

    def close(self) -> None:
        """Stop every idle worker (busy ones are stopped when their job ends)."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for worker in idle:
            worker.stop()
