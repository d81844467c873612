"""``POST /api/reads`` and ``GET /api/reads/{id}``: a screenshot read in the background,
its stages told as the reader comes to them, its reading (the same as ``POST /api/read``'s)
or its error; reads forgotten a while after they end, a client's unfinished reads limited,
the reads kept limited, a read cut by its safety deadline saying so. Nothing here depends
on how fast a read is: the polls wait for the read's end, however long it takes."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("PIL")

with warnings.catch_warnings():  # starlette's notice about httpx versions
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient

from webtest_helpers import error_of, run_coroutine

from minesolver.web import Settings, create_app
from minesolver.web.errors import ApiError
from minesolver.web.reads import WAITING, ReadJob, ReadJobs

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
IMAGE = (DATA / "web-every-b.png").read_bytes()
SETTINGS = Settings(
    workers=1, fast_workers=1, read_budget=600.0, queue_wait=30.0, max_image=400_000
)
"""A read's safety deadline far above any read's time on a loaded machine."""
CAP = 900.0
"""Seconds after which a poll gives up: only a failed test ever gets there."""


class Clock:
    """A clock the test moves by hand (the store's expiry is never a matter of load)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS)) as c:
        yield c


def finished(client: TestClient, url: str) -> Any:
    """The answer to ``GET url`` once the read is no longer under way."""
    cap = time.monotonic() + CAP
    while True:
        r = client.get(url)
        if r.status_code != 200 or r.json()["state"] == "done":
            return r
        assert r.json()["state"] in ("waiting", "reading")
        assert time.monotonic() < cap, "the read did not end"
        time.sleep(0.05)


def test_a_read_tells_its_stages_then_the_board(client: TestClient) -> None:
    from minesolver.vision import read_screenshot

    told: list[str] = []
    read_screenshot(IMAGE, progress=told.append)  # the stages the reader tells
    r = client.post("/api/reads", content=IMAGE)
    assert r.status_code == 202, r.text
    job = r.json()
    assert r.headers["location"] == f"/api/reads/{job['id']}"
    assert (job["state"], job["stage"], job["stages"], job["reading"]) == (
        "waiting",
        WAITING,
        [],
        None,
    )
    done = finished(client, r.headers["location"])
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["id"] == job["id"] and body["state"] == "done"
    assert body["stages"] == told and body["stage"] == told[-1]
    assert body["reading"] == client.post("/api/read", content=IMAGE).json()
    again = client.get(r.headers["location"])  # kept for its client to fetch again
    assert again.json() == body


def test_a_failed_read_answers_its_error(client: TestClient) -> None:
    r = client.post("/api/reads", content=b"not an image")
    assert r.status_code == 202
    failed = finished(client, r.headers["location"])
    detail = error_of(failed, 422, "unreadable_image")
    assert detail == error_of(
        client.post("/api/read", content=b"not an image"), 422, "unreadable_image"
    )
    assert failed.json()["id"] == r.json()["id"] and failed.json()["state"] == "failed"
    assert failed.json()["stage"] == "decoding the image"


def test_what_is_refused_before_the_read(client: TestClient) -> None:
    error_of(client.post("/api/reads?mines=many", content=IMAGE), 400, "bad_field")
    error_of(client.post("/api/reads", content=b""), 422, "unreadable_image")
    error_of(client.post("/api/reads", content=b"\0" * 400_001), 413, "body_too_large")
    detail = error_of(client.get("/api/reads/no-such-read"), 404, "read_not_found")
    assert "no read with id 'no-such-read'" in detail
    assert client.get("/api/levels").json()["limits"]["client_reads"] == SETTINGS.client_reads


def test_a_total_given_is_the_readings(client: TestClient) -> None:
    r = client.post("/api/reads?mines=41", content=IMAGE)
    reading = finished(client, r.headers["location"]).json()["reading"]
    assert (reading["mines"], reading["mines_from"]) == (41, "given")


def test_a_finished_read_is_forgotten_after_its_time(client: TestClient) -> None:
    reads = client.app.state.api.reads  # type: ignore[attr-defined]
    clock = Clock()
    reads.clock = clock
    try:
        r = client.post("/api/reads", content=b"not an image")
        url = r.headers["location"]
        assert finished(client, url).status_code == 422
        clock.now += SETTINGS.read_ttl - 1
        assert client.get(url).status_code == 422  # still kept
        clock.now += 1
        error_of(client.get(url), 404, "read_not_found")
    finally:
        reads.clock = time.monotonic


def test_a_client_with_its_reads_unfinished_is_refused(client: TestClient) -> None:
    reads = client.app.state.api.reads  # type: ignore[attr-defined]
    waiting = [ReadJob(f"held-{i}", "testclient") for i in range(SETTINGS.client_reads)]
    for job in waiting:
        reads._jobs[job.id] = job  # reads of this client, never finished
    try:
        r = client.post("/api/reads", content=IMAGE)
        detail = error_of(r, 429, "too_many_requests")
        assert f"already has {SETTINGS.client_reads} screenshots being read" in detail
        assert r.headers["retry-after"] == "5"
        assert client.get("/api/reads/held-0").json()["state"] == "waiting"
    finally:
        for job in waiting:
            del reads._jobs[job.id]


def test_a_read_cut_by_the_deadline_says_so() -> None:
    """A deadline of a hundredth of a second: no reader decodes a screenshot that fast,
    so the read is always cut (load only makes it slower)."""
    settings = Settings(workers=1, fast_workers=1, read_budget=0.01, queue_wait=30.0)
    data = (Path(__file__).resolve().parents[2] / "examples" / "arbiter-expert.png").read_bytes()
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/reads", content=data)
        detail = error_of(finished(c, r.headers["location"]), 503, "compute_budget_exceeded")
        assert detail.startswith("reading the screenshot was stopped by this server's safety ")
        assert "deadline of 0.01 s" in detail and "minesolver read" in detail
        direct = error_of(c.post("/api/read", content=data), 503, "compute_budget_exceeded")
        assert "safety deadline of 0.01 s" in direct


def test_the_document_declares_the_reads(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    start = paths["/api/reads"]["post"]
    assert "application/octet-stream" in start["requestBody"]["content"]
    assert set(start["responses"]) == {"202", "400", "413", "422", "429", "503"}
    state = paths["/api/reads/{read_id}"]["get"]
    assert set(state["responses"]) == {"200", "404", "422", "429", "503"}


# -- the store, with reads whose end the test decides -----------------------------------


async def _hold(gate: asyncio.Event, job: ReadJob) -> dict[str, Any]:
    job.tell("finding the board")
    await gate.wait()
    return {"width": 1}


async def _fail(job: ReadJob) -> dict[str, Any]:
    raise ApiError(422, "unreadable_image", "no board found")


async def _crash(job: ReadJob) -> dict[str, Any]:
    raise RuntimeError("a bug")


def test_the_store_limits_each_clients_unfinished_reads() -> None:
    async def run() -> None:
        clock = Clock()
        reads = ReadJobs(limit=10, per_client=2, ttl=60.0, clock=clock)
        gate = asyncio.Event()
        jobs = [reads.start("a", lambda j: _hold(gate, j)) for _ in range(2)]
        with pytest.raises(ApiError) as refused:
            reads.start("a", lambda j: _hold(gate, j))
        assert (refused.value.status, refused.value.code) == (429, "too_many_requests")
        other = reads.start("b", lambda j: _hold(gate, j))  # another client is not held up
        await asyncio.sleep(0)
        assert [j.stage for j in jobs] == ["finding the board"] * 2
        gate.set()
        while any(j.finished is None for j in [*jobs, other]):
            await asyncio.sleep(0)
        assert [j.json()["reading"] for j in jobs] == [{"width": 1}] * 2
        assert jobs[0].state == "done" and jobs[0].finished == clock.now
        reads.start("a", lambda j: _hold(gate, j))  # its reads ended: a new one starts

    run_coroutine(run())


def test_the_store_keeps_at_most_its_limit() -> None:
    async def run() -> None:
        reads = ReadJobs(limit=2, per_client=5, ttl=60.0, clock=Clock())
        gate = asyncio.Event()
        first = reads.start("a", _fail)
        second = reads.start("b", _crash)
        while first.finished is None or second.finished is None:
            await asyncio.sleep(0)
        assert (first.state, first.error and first.error.code) == ("failed", "unreadable_image")
        assert (second.state, second.error and second.error.status) == ("failed", 500)
        held = [reads.start("c", lambda j: _hold(gate, j)) for _ in range(2)]
        assert reads.get(first.id) is None and reads.get(second.id) is None  # oldest out
        assert len(reads) == 2
        with pytest.raises(ApiError) as full:
            reads.start("d", lambda j: _hold(gate, j))  # none finished to forget
        assert (full.value.status, full.value.code) == (503, "busy")
        tasks = [j.task for j in held if j.task is not None]
        reads.close()  # the server shuts down: the reads under way are stopped
        await asyncio.gather(*tasks, return_exceptions=True)
        assert len(tasks) == 2 and all(t.cancelled() for t in tasks)

    run_coroutine(run())


def test_the_store_forgets_a_finished_read_after_its_ttl_only() -> None:
    async def run() -> None:
        clock = Clock()
        reads = ReadJobs(limit=5, per_client=5, ttl=60.0, clock=clock)
        gate = asyncio.Event()
        ended = reads.start("a", _fail)
        running = reads.start("a", lambda j: _hold(gate, j))
        while ended.finished is None:
            await asyncio.sleep(0)
        clock.now += 59.5
        assert reads.get(ended.id) is ended
        clock.now += 0.5
        assert reads.get(ended.id) is None
        clock.now += 3600  # a read under way is never forgotten
        assert reads.get(running.id) is running
        gate.set()
        while running.finished is None:
            await asyncio.sleep(0)
        clock.now += 60
        assert reads.get(running.id) is None

    run_coroutine(run())


def test_the_stages_kept_are_bounded() -> None:
    job = ReadJob("x", "a")
    for i in range(1000):
        job.tell(f"trying another lattice ({i})" + "!" * 500)
    assert len(job.stages) == 64 and job.stage.startswith("trying another lattice (999)")
    assert max(len(s) for s in job.stages) == 200


def test_the_command_line_s_read_deadline_is_the_server_s() -> None:
    """``serve --read-budget`` defaults to the server's own default, far above an
    analysis's budget."""
    import inspect

    from minesolver.ui.cli import serve

    default = inspect.signature(serve).parameters["read_budget"].default
    assert default == Settings().read_budget >= 60 * Settings().budget
