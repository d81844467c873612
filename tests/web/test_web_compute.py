"""The worker pool: the compute budget, the queue limit, errors carried back."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("starlette")

from webtest_helpers import run_coroutine

from minesolver.web.compute import (
    BudgetExceeded,
    JobCrashed,
    JobError,
    MemoryExceeded,
    ServerBusy,
    WorkerPool,
)


def test_budget_kills_the_worker_and_the_pool_recovers() -> None:
    pool = WorkerPool(size=1, budget=0.5)

    async def go() -> float:
        with pytest.raises(BudgetExceeded, match=r"budget of 0\.5 s"):
            await pool.run("sleep", seconds=30)
        assert pool.restarts == 1
        return float(await pool.run("sleep", seconds=0.01))

    try:
        assert run_coroutine(go()) == 0.01
    finally:
        pool.close()


def test_busy_when_every_worker_stays_busy() -> None:
    pool = WorkerPool(size=1, budget=10, queue_wait=0.2)

    async def go() -> list[object]:
        return await asyncio.gather(
            pool.run("sleep", seconds=1.5),
            pool.run("sleep", seconds=0.1),
            return_exceptions=True,
        )

    try:
        results = run_coroutine(go())
    finally:
        pool.close()
    assert results[0] == 1.5
    assert isinstance(results[1], ServerBusy)


def test_errors_come_back_typed() -> None:
    pool = WorkerPool(size=1, budget=10)

    async def go() -> None:
        with pytest.raises(JobError, match="line 1, column 1") as info:
            await pool.run("analyse", text="9")
        assert (info.value.status, info.value.code) == (400, "malformed_position")
        assert info.value.where == {"line": 1, "column": 1}
        with pytest.raises(JobCrashed):
            await pool.run("no such job")
        result = await pool.run("analyse", text="3x3x1\n1HH\nHHH\nHHH", with_move=False)
        assert result["layouts"] == "3"

    try:
        run_coroutine(go())
    finally:
        pool.close()


def test_pool_arguments() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        WorkerPool(size=0)
    with pytest.raises(ValueError, match="positive"):
        WorkerPool(budget=0)


def test_memory_limit_stops_a_runaway_job_and_the_pool_recovers() -> None:
    pool = WorkerPool(size=1, budget=20, memory_mb=600)

    async def go() -> float:
        with pytest.raises(MemoryExceeded, match="600 MiB"):
            await pool.run("allocate", megabytes=2000)
        assert pool.restarts == 1
        assert await pool.run("allocate", megabytes=50) == 50 * 2**20
        return float(await pool.run("sleep", seconds=0.01))

    try:
        assert run_coroutine(go()) == 0.01
    finally:
        pool.close()


def test_a_killed_worker_is_replaced_without_growing_the_pool() -> None:
    pool = WorkerPool(size=1, budget=0.5)

    async def go() -> None:
        with pytest.raises(BudgetExceeded):
            await pool.run("sleep", seconds=30)
        for _ in range(3):
            assert await pool.run("sleep", seconds=0.01) == 0.01

    try:
        run_coroutine(go())
        assert pool.restarts == 1 and pool._started == 1 and len(pool._idle) == 1
    finally:
        pool.close()
    with pytest.raises(ServerBusy, match="shutting down"):
        run_coroutine(pool.run("sleep", seconds=0.01))


def test_a_job_given_its_own_budget_runs_within_it() -> None:
    """A job run with a budget of its own (the screenshot reader's) is held to it, not to
    the pool's: longer than the pool's allows, shorter than its own stops it."""
    pool = WorkerPool(size=1, budget=0.3)

    async def go() -> float:
        done = float(await pool.run("sleep", budget=5.0, seconds=0.6))
        with pytest.raises(BudgetExceeded, match=r"budget of 0\.2 s"):
            await pool.run("sleep", budget=0.2, seconds=30)
        return done

    try:
        assert run_coroutine(go()) == 0.6
    finally:
        pool.close()
