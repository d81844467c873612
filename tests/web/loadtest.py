"""A bounded load on a real server over loopback, each client on its own address.

Shared by the fairness load test (``test_web_load.py``) and ``benchmarks/bench_fairness.py``.
The server is ``minesolver serve`` in a subprocess on 127.0.0.1; client ``k`` binds its
sockets to 127.0.0.``k + 2``, so the server sees one address per client, as it would on a
network. Loopback only; every request has a timeout and every run a deadline.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["LoadResult", "Request", "free_port", "post", "run_load", "serve"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(
    port: int, workers: int = 2, budget: float = 5.0, src: Path | None = None
) -> subprocess.Popen[bytes]:
    """``minesolver serve`` on ``port`` (the library from ``src`` when given: another
    tree's code, for a before/after comparison), once it answers."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    argv = [sys.executable, "-m", "minesolver.ui.cli", "serve", "--port", str(port)]
    argv += ["--workers", str(workers), "--budget", str(budget)]
    proc = subprocess.Popen(argv, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/levels", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


@dataclass(frozen=True)
class Request:
    """One request's outcome: who sent it, its status (0: no answer) and its latency."""

    client: str
    kind: str
    status: int
    seconds: float


def post(port: int, address: str, body: dict[str, Any], timeout: float) -> tuple[int, float]:
    """``POST /api/analyze`` from ``address``: the status (0 when no answer came) and the
    seconds it took."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.source_address = (address, 0)
    try:
        conn.request("POST", "/api/analyze", json.dumps(body), {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        status = response.status
    except OSError:
        status = 0
    finally:
        conn.close()
    return status, time.perf_counter() - start


@dataclass
class LoadResult:
    """Every request of a run, and the figures that matter."""

    requests: list[Request] = field(default_factory=list)

    def of(self, kind: str) -> list[Request]:
        return [r for r in self.requests if r.kind == kind]

    def statuses(self, kind: str) -> Counter[int]:
        return Counter(r.status for r in self.of(kind))

    def summary(self) -> dict[str, Any]:
        easy = sorted(r.seconds for r in self.of("easy"))
        p95 = easy[min(len(easy) - 1, int(0.95 * len(easy)))] if easy else None
        return {
            "easy_requests": len(easy),
            "easy_errors": sum(1 for r in self.of("easy") if r.status != 200),
            "easy_p50_seconds": statistics.median(easy) if easy else None,
            "easy_p95_seconds": p95,
            "easy_max_seconds": easy[-1] if easy else None,
            "easy_statuses": dict(self.statuses("easy")),
            "hard_requests": len(self.of("hard")),
            "hard_statuses": dict(self.statuses("hard")),
        }


def run_load(
    port: int,
    hard: str,
    easy: list[str],
    *,
    hard_clients: int = 4,
    hard_streams: int = 4,
    easy_clients: int = 3,
    seconds: float = 10.0,
    pause: float = 0.1,
    timeout: float = 20.0,
) -> LoadResult:
    """``hard_clients`` clients each posting ``hard`` on ``hard_streams`` connections at
    once, in a loop; ``easy_clients`` clients each posting the ``easy`` positions one at
    a time, ``pause`` seconds apart; for ``seconds`` (then the requests under way end,
    within ``timeout``)."""
    result = LoadResult()
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def loop(client: int, kind: str, texts: list[str], wait: float) -> None:
        address = f"127.0.0.{client + 2}"
        i = 0
        while time.monotonic() < deadline:
            status, took = post(port, address, {"position": texts[i % len(texts)]}, timeout)
            with lock:
                result.requests.append(Request(address, kind, status, took))
            i += 1
            time.sleep(wait)

    threads = [
        threading.Thread(target=loop, args=(c, "hard", [hard], 0.0))
        for c in range(hard_clients)
        for _ in range(hard_streams)
    ]
    threads += [
        threading.Thread(target=loop, args=(hard_clients + c, "easy", easy, pause))
        for c in range(easy_clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result
