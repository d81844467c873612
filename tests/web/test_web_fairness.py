"""Fair shares: the gate's limits and turns, the cost estimate, the two lanes.

The gate is tested on its own event loop with jobs that wait on events (no timing in the
assertions); the lanes through the app with real workers.
"""

from __future__ import annotations

import asyncio
import doctest
import os
import threading
import warnings
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import KNOWN, hard_position, run_coroutine

from minesolver.position import Position
from minesolver.web import Settings, create_app, fairness, jobs
from minesolver.web.compute import ServerBusy
from minesolver.web.fairness import Cost, FairGate, TooManyRequests, estimate_cost


def test_doctests_of_the_web_modules() -> None:
    for module in (fairness, jobs):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0


# -- the gate -----------------------------------------------------------------------------


class Jobs:
    """Jobs held in a gate until released one by one; records the order they started."""

    def __init__(self, gate: FairGate) -> None:
        self.gate = gate
        self.started: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def job(self, client: str, name: str) -> str:
        self.release[name] = asyncio.Event()
        async with self.gate.admit(client):
            self.started.append(name)
            await self.release[name].wait()
        return name


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_client_gets_its_share_and_a_429_beyond_it() -> None:
    async def scenario() -> None:
        gate = FairGate(slots=2, per_client=1, queued=2, wait=30)
        jobs_ = Jobs(gate)
        tasks = [asyncio.create_task(jobs_.job("greedy", f"g{i}")) for i in range(3)]
        await settle()
        assert jobs_.started == ["g0"]  # one running, two waiting: its share
        assert gate.load("greedy") == (1, 2)
        with pytest.raises(TooManyRequests, match="1 analyses running and 2 waiting"):
            await jobs_.job("greedy", "g3")
        other = asyncio.create_task(jobs_.job("other", "o0"))
        await settle()
        assert jobs_.started == ["g0", "o0"]  # the free slot goes to the other client
        for name in ("g0", "g1", "o0", "g2"):
            jobs_.release[name].set()
            await settle()
        assert await asyncio.gather(*tasks, other) == ["g0", "g1", "g2", "o0"]
        assert gate.load("greedy") == (0, 0)

    run_coroutine(scenario())


def test_waiting_clients_are_served_in_turn() -> None:
    """One slot; a client that queued many jobs first does not go before the others."""

    async def scenario() -> None:
        gate = FairGate(slots=1, per_client=1, queued=5, wait=30)
        jobs_ = Jobs(gate)
        tasks = [asyncio.create_task(jobs_.job("a", f"a{i}")) for i in range(4)]
        await settle()
        tasks += [asyncio.create_task(jobs_.job(c, f"{c}0")) for c in "bc"]
        await settle()
        while len(jobs_.started) < 6:
            jobs_.release[jobs_.started[-1]].set()
            await settle()
        jobs_.release[jobs_.started[-1]].set()
        await asyncio.gather(*tasks)
        assert jobs_.started == ["a0", "a1", "b0", "c0", "a2", "a3"]

    run_coroutine(scenario())


def test_a_long_wait_is_a_busy_and_leaves_no_trace() -> None:
    async def scenario() -> None:
        gate = FairGate(slots=1, per_client=1, queued=1, wait=0.05)
        jobs_ = Jobs(gate)
        first = asyncio.create_task(jobs_.job("a", "a0"))
        await settle()
        with pytest.raises(ServerBusy, match="stayed busy"):
            await jobs_.job("b", "b0")
        assert gate.load("b") == (0, 0)
        jobs_.release["a0"].set()
        await first
        second = asyncio.create_task(jobs_.job("b", "b1"))
        await settle()
        assert jobs_.started == ["a0", "b1"]
        jobs_.release["b1"].set()
        await second

    run_coroutine(scenario())


def test_a_request_cancelled_while_waiting_or_running_frees_its_place() -> None:
    async def scenario() -> None:
        gate = FairGate(slots=1, per_client=1, queued=1, wait=30)
        jobs_ = Jobs(gate)
        running = asyncio.create_task(jobs_.job("a", "a0"))
        waiting = asyncio.create_task(jobs_.job("a", "a1"))
        await settle()
        waiting.cancel()
        await settle()
        assert gate.load("a") == (1, 0)
        running.cancel()
        await settle()
        assert gate.load("a") == (0, 0)
        again = asyncio.create_task(jobs_.job("b", "b0"))
        await settle()
        assert jobs_.started == ["a0", "b0"]
        jobs_.release["b0"].set()
        await again

    run_coroutine(scenario())


def test_gate_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        FairGate(slots=0, per_client=1, queued=1, wait=1)


# -- the estimate -------------------------------------------------------------------------


def test_the_estimate_sorts_easy_from_hard_positions() -> None:
    limits = (Settings().cheap_boxes, Settings().cheap_frontier)
    assert estimate_cost(Position.from_text(KNOWN)).cheap(*limits)
    assert not estimate_cost(Position.from_text(hard_position(60))).cheap(*limits)
    assert estimate_cost(Position.from_text("1x2x1\n2\nH\n")) == Cost(0, 0)  # refused at once


# -- the lanes ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app_and_settings() -> Iterator[tuple[TestClient, Settings]]:
    settings = Settings(workers=1, budget=4.0, fast_budget=0.5, queue_wait=30.0)
    with TestClient(create_app(settings), client=("10.2.0.1", 1)) as c:
        yield c, settings


def test_a_cheap_request_does_not_wait_behind_an_expensive_one(
    app_and_settings: tuple[TestClient, Settings],
) -> None:
    client, _ = app_and_settings
    app = client.app
    with TestClient(app, client=("10.2.0.2", 1)) as hard_client:
        done = threading.Event()

        def hard() -> None:
            hard_client.post("/api/analyze", json={"position": hard_position(60)})
            done.set()

        thread = threading.Thread(target=hard)
        thread.start()
        try:
            gate = app.state.api.heavy.gate  # type: ignore[attr-defined]
            for _ in range(200):  # until the hard one holds the only expensive worker
                if gate.load("10.2.0.2") == (1, 0):
                    break
                done.wait(0.05)
            assert gate.load("10.2.0.2") == (1, 0)
            for _ in range(3):
                r = client.post("/api/analyze", json={"position": KNOWN})
                assert r.status_code == 200 and r.json()["layouts"] == "72"
            assert not done.is_set()  # answered while the hard one still runs
        finally:
            thread.join()


def test_a_request_misjudged_as_cheap_is_moved_to_the_expensive_lane(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every request estimated cheap; the hard one overruns the fast lane's budget and
    is answered by the expensive lane (with its own budget), not refused."""
    monkeypatch.setattr("minesolver.web.app.estimate_cost", lambda *a, **k: Cost(0, 0))
    settings = Settings(workers=1, budget=1.0, fast_budget=0.3, queue_wait=30.0)
    with TestClient(create_app(settings)) as client:
        r = client.post(
            "/api/analyze", json={"position": hard_position(60), "engine": "elimination"}
        )
        assert r.status_code == 503 and "budget of 1 s" in r.json()["detail"], r.text
        api = client.app.state.api  # type: ignore[attr-defined]
        assert api.fast_pool.restarts == 1 and api.pool.restarts == 1
        assert client.post("/api/analyze", json={"position": KNOWN}).status_code == 200


def test_a_full_share_is_refused_before_any_work() -> None:
    async def scenario() -> None:
        gate = FairGate(slots=1, per_client=1, queued=1, wait=30)
        jobs_ = Jobs(gate)
        tasks = [asyncio.create_task(jobs_.job("a", f"a{i}")) for i in range(2)]
        await settle()
        with pytest.raises(TooManyRequests, match="1 analyses running and 1 waiting"):
            gate.refuse_if_full("a")
        gate.refuse_if_full("b")  # another client's share is its own
        for name in ("a0", "a1"):
            jobs_.release[name].set()
            await settle()
        await asyncio.gather(*tasks)
        gate.refuse_if_full("a")

    run_coroutine(scenario())


def test_the_expensive_lane_runs_at_a_lower_priority() -> None:
    settings = Settings(workers=1)
    with TestClient(create_app(settings)) as client:
        api = client.app.state.api  # type: ignore[attr-defined]
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        heavy = [os.getpriority(os.PRIO_PROCESS, w.process.pid) for w in api.pool._idle]
        fast = [os.getpriority(os.PRIO_PROCESS, w.process.pid) for w in api.fast_pool._idle]
    assert len(heavy) == 1 and len(fast) == 1
    assert heavy == [min(19, mine + settings.heavy_nice)] and fast == [mine]
