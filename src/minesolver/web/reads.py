"""Screenshots read in a lane of their own, and in the background for the page, which
shows each stage of a read and draws the board read as soon as it is known, before its
analysis (``POST /api/reads``, then ``GET /api/reads/{id}`` until it is done).

- :class:`Reader`: the lane that reads: worker processes of its own (``read_workers``, at
  the scheduler's normal priority, so that a read, a person waiting on bounded work, is
  not stretched many times over on a busy machine, and never holds up an analysis), a fair
  gate among clients (:class:`~minesolver.web.fairness.FairGate`), and the safety deadline
  ``read_budget``, whose cut says so and at which stage. The stages come back from the
  worker as the reader tells them (:data:`minesolver.web.worker.PROGRESS_JOBS`).
- :class:`ReadJobs`: the reads started by ``POST /api/reads``, by a random id: at most
  ``client_reads`` unfinished ones per client (429 past it), ``max_reads`` kept in all
  (the oldest finished one forgotten first; a 503 when none is finished), and a finished
  one kept ``read_ttl`` seconds for its client to fetch, then forgotten (404).

Costs: starting a read or asking for one O(reads kept), at most ``max_reads``; the read
itself is the reader's (:mod:`minesolver.vision.reader`), in a worker process.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from minesolver.web.compute import (
    BudgetExceeded,
    JobCrashed,
    JobError,
    MemoryExceeded,
    ServerBusy,
    WorkerPool,
)
from minesolver.web.errors import ApiError
from minesolver.web.fairness import FairGate, TooManyRequests
from minesolver.web.settings import Settings

__all__ = ["MAX_STAGES", "WAITING", "ReadJob", "ReadJobs", "Reader"]

log = logging.getLogger("minesolver.web")

WAITING = "waiting for a reader"
"""The stage of a read not yet given to a worker."""
MAX_STAGES = 64
"""Stages a read keeps (the reader tells a few; past this only the latest is kept)."""
_STAGE_TEXT = 200
"""Characters of a stage kept."""


@dataclass
class ReadJob:
    """One read started by ``POST /api/reads``: its owner (a client address), its
    ``state`` (``waiting`` for a worker, ``reading``, ``done`` or ``failed``), the stages
    told so far, and its answer: the reading (:func:`minesolver.web.jobs.reading_json`)
    or the error a ``POST /api/read`` would have answered."""

    id: str
    owner: str
    state: str = "waiting"
    stages: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    error: ApiError | None = None
    finished: float | None = None
    """When it ended (the store's clock), ``None`` while it runs."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def stage(self) -> str:
        """The latest stage told (:data:`WAITING` before the first)."""
        return self.stages[-1] if self.stages else WAITING

    def tell(self, stage: str) -> None:
        """Note a stage (called from a worker thread of the server; a list's append is
        atomic)."""
        stage = stage[:_STAGE_TEXT]
        if len(self.stages) < MAX_STAGES:
            self.stages.append(stage)
        else:
            self.stages[-1] = stage

    def json(self) -> dict[str, Any]:
        """The job as JSON: ``id``, ``state``, ``stage``, ``stages`` and ``reading`` (null
        until done)."""
        return {
            "id": self.id,
            "state": self.state,
            "stage": self.stage,
            "stages": list(self.stages),
            "reading": self.result,
        }


class ReadJobs:
    """The reads under way and those finished less than ``ttl`` seconds ago, by id.

    ``limit`` reads are kept at once and ``per_client`` unfinished ones per client;
    ``clock`` (seconds, monotonic) dates the finished ones. Runs on the server's event
    loop: a read's work is a coroutine, run as a task of its own.
    """

    def __init__(
        self,
        limit: int,
        per_client: int,
        ttl: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if min(limit, per_client) < 1 or ttl <= 0:
            raise ValueError(
                f"read limits limit={limit}, per_client={per_client}, ttl={ttl}: "
                "limit and per_client must be at least 1, ttl positive"
            )
        self.limit = limit
        self.per_client = per_client
        self.ttl = ttl
        self.clock = clock
        self._jobs: OrderedDict[str, ReadJob] = OrderedDict()  # oldest first

    def __len__(self) -> int:
        return len(self._jobs)

    def _expire(self) -> None:
        now = self.clock()
        old = [
            key
            for key, job in self._jobs.items()
            if job.finished is not None and now - job.finished >= self.ttl
        ]
        for key in old:
            del self._jobs[key]

    def check(self, owner: str) -> None:
        """Refuse a new read of ``owner`` before its image is even received: a 429 when
        it has ``per_client`` reads unfinished, a 503 when ``limit`` reads are kept and
        none of them is finished."""
        self._expire()
        unfinished = sum(1 for j in self._jobs.values() if j.finished is None and j.owner == owner)
        if unfinished >= self.per_client:
            raise ApiError(
                429,
                "too_many_requests",
                f"this client already has {unfinished} screenshots being read, its share on "
                "this server; retry when one ends",
            )
        if len(self._jobs) >= self.limit and all(j.finished is None for j in self._jobs.values()):
            raise ApiError(
                503, "busy", f"this server is reading {self.limit} screenshots already; retry"
            )

    def start(self, owner: str, work: Callable[[ReadJob], Awaitable[dict[str, Any]]]) -> ReadJob:
        """A new read of ``owner`` (after :meth:`check`), ``work`` run as a task: its
        result is the reading, an :class:`ApiError` it raises the job's error."""
        self.check(owner)
        if len(self._jobs) >= self.limit:
            oldest = next(k for k, j in self._jobs.items() if j.finished is not None)
            del self._jobs[oldest]
        job = ReadJob(secrets.token_urlsafe(16), owner)
        self._jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job, work))
        return job

    async def _run(
        self, job: ReadJob, work: Callable[[ReadJob], Awaitable[dict[str, Any]]]
    ) -> None:
        try:
            job.result = await work(job)
            job.state = "done"
        except ApiError as exc:
            job.error = exc
            job.state = "failed"
        except Exception:
            log.exception("read %s failed", job.id)
            job.error = ApiError(500, "internal", "internal error while reading the screenshot")
            job.state = "failed"
        finally:
            job.finished = self.clock()
            job.task = None

    def get(self, key: str) -> ReadJob | None:
        """The read of id ``key``, or ``None`` (never started, or forgotten)."""
        self._expire()
        return self._jobs.get(key)

    def close(self) -> None:
        """Stop the reads still waiting or running (the server is shutting down)."""
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()


class Reader:
    """The lane that reads screenshots: its workers, its gate, its safety deadline."""

    def __init__(self, settings: Settings) -> None:
        self.budget = settings.read_budget
        self.wait = max(settings.queue_wait, settings.read_budget)
        """Seconds a read waits for a free reader: as long as a read may take, so that a
        read behind another on a busy machine waits for it rather than being refused."""
        self.pool = WorkerPool(
            settings.read_workers,
            settings.read_budget,
            self.wait,
            settings.memory_mb,
            nice=settings.read_nice,
        )
        self.gate = FairGate(settings.read_workers, 1, settings.client_reads, self.wait)

    def refuse_if_full(self, client: str) -> None:
        """A 429 at once for a client whose share of the readers is full."""
        try:
            self.gate.refuse_if_full(client)
        except TooManyRequests as exc:
            raise ApiError(429, "too_many_requests", str(exc)) from None

    async def read(
        self, client: str, data: bytes, mines: int | None, job: ReadJob | None = None
    ) -> dict[str, Any]:
        """The image ``data`` read in a worker, within the client's share
        (:func:`minesolver.web.jobs.read`); ``job``, when given, is told the stages as
        they come. Every failure is an :class:`ApiError` saying why."""
        encoded = base64.b64encode(data).decode("ascii")
        latest: list[str] = []

        def told(stage: str) -> None:
            latest[:] = [stage]
            if job is not None:
                job.tell(stage)

        try:
            async with self.gate.admit(client):
                if job is not None:
                    job.state = "reading"
                return dict(
                    await self.pool.run(
                        "read", budget=self.budget, on_progress=told, data=encoded, mines=mines
                    )
                )
        except TooManyRequests as exc:
            raise ApiError(429, "too_many_requests", str(exc)) from None
        except BudgetExceeded:
            where = f"while {latest[0]}" if latest else "before its first stage"
            raise ApiError(
                503,
                "compute_budget_exceeded",
                f"reading the screenshot was stopped by this server's safety deadline of "
                f"{self.budget:g} s, {where}: the server was too busy to finish it (the "
                "reader's own work is bounded); try again, or read it with `minesolver read`",
            ) from None
        except MemoryExceeded as exc:
            raise ApiError(503, "compute_memory_exceeded", str(exc)) from None
        except ServerBusy:
            raise ApiError(
                503,
                "busy",
                f"every screenshot reader stayed busy for {self.wait:g} s; retry in a moment",
            ) from None
        except JobError as exc:  # classified in the worker, by the error's class
            raise ApiError(exc.status, exc.code, str(exc), exc.where) from None
        except JobCrashed:
            raise ApiError(500, "internal", "internal error while reading the screenshot") from None
