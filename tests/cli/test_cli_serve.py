"""``minesolver serve``: a port in use or a host that does not resolve is one ``error:``
line and exit status 2, before the address is announced, through the real console script."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

SCRIPT = Path(sys.executable).parent / "minesolver"
pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="console script not installed")


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), "serve", *args], capture_output=True, text=True, timeout=120
    )


def test_a_port_in_use_is_one_error_line_before_the_address() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = serve("--port", str(port), "--workers", "1")
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "web app on" not in done.stderr and done.stdout == ""


def test_a_host_that_does_not_resolve_is_one_error_line() -> None:
    done = serve("--host", "no-such-host.invalid", "--port", "0", "--workers", "1")
    assert done.returncode == 2
    assert done.stderr.startswith(
        "error: cannot listen on no-such-host.invalid: the host does not resolve ("
    )
    assert done.stderr.count("\n") == 1 and "web app on" not in done.stderr


def test_the_served_limits_are_the_options_given() -> None:
    """``--queue-wait``, ``--budget`` and ``--replay-budget`` reach the running app: its
    levels answer carries them as the limits a client sees."""
    options = ["--port", "0", "--workers", "1", "--budget", "7", "--queue-wait", "42"]
    options += ["--replay-budget", "33"]
    proc = subprocess.Popen(
        [str(SCRIPT), "serve", *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()  # "minesolver web app on http://127.0.0.1:PORT/"
        assert line.startswith("minesolver web app on http://127.0.0.1:"), line
        url = line.split(" on ", 1)[1].strip()
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}api/levels", timeout=5) as answer:
                    limits = json.load(answer)["limits"]
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        assert limits["queue_wait_seconds"] == 42
        assert limits["budget_seconds"] == 7
        assert limits["replay_budget_seconds"] == 33
    finally:
        proc.terminate()
        proc.wait(timeout=30)
