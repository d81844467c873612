"""A worker never outlives its server: a real server process, SIGKILLed in the middle of a
long analysis, leaves no worker running for more than a second or two."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from loadtest import free_port
from webtest_helpers import hard_position

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")

SERVER = """
import sys, uvicorn
from minesolver.web import Settings, create_app
settings = Settings(workers=1, budget=120.0, queue_wait=120.0)
uvicorn.run(create_app(settings), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def children(pid: int) -> set[int]:
    """The processes ``pid`` started (from every one of its threads)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with (task / "children").open() as f:
            found.update(int(c) for c in f.read().split())
    return found


def alive(pid: int) -> bool:
    """Running (not gone, not a zombie waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_workers_exit_soon_after_a_sigkill_of_the_server() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)])
    workers: set[int] = set()
    try:

        def up() -> bool:
            try:
                with urllib.request.urlopen(base + "/api/levels", timeout=1) as r:
                    return bool(r.status == 200)
            except OSError:
                return False

        assert wait_until(up, 60), "the server did not start"
        workers = children(server.pid)  # the fast lane's and the expensive lane's
        assert len(workers) == 2
        before = sum(map(cpu_ticks, workers))
        # bucket elimination keeps a worker busy (the exact engines refuse it at once)
        body = json.dumps({"position": hard_position(60), "engine": "elimination"}).encode()
        request = urllib.request.Request(
            base + "/api/analyze", body, {"Content-Type": "application/json"}
        )

        def post() -> None:
            with contextlib.suppress(OSError):  # the server is killed under it
                urllib.request.urlopen(request, timeout=30).close()

        threading.Thread(target=post, daemon=True).start()
        assert wait_until(lambda: sum(map(cpu_ticks, workers)) > before + 50, 30), "no job ran"
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        killed = time.monotonic()
        assert wait_until(lambda: not any(map(alive, workers)), 5), "a worker outlived its server"
        assert time.monotonic() - killed < 2.0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        for pid in workers:  # only if the test failed: never leave a runaway behind
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
