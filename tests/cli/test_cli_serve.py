"""``minesolver serve``: a port in use or a host that does not resolve is one ``error:``
line and exit status 2, before the address is announced, through the real console script."""

from __future__ import annotations

import socket
import subprocess
import sys
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
