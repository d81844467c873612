"""Fixtures of the browser tests: ``minesolver serve`` in a subprocess and the page in
Debian's Chromium (through Playwright), each started once per run (per xdist worker):
modules with the same ``SERVE_ARGS`` share a server, every test gets a fresh page.

A module that uses them starts with ``pytest.importorskip("playwright.sync_api")``; the
Chromium check fails on CI (where ``.ci/run`` installs it) and skips elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from loadtest import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _start_server(extra: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """``minesolver serve`` on a free port with ``extra`` options, once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "minesolver.ui.cli", "serve", "--port", str(port)]
    proc = subprocess.Popen(
        # a budget far above any step's need: a test of the page must not fail because a
        # loaded machine made an analysis or a replay's grading pass the default 5 s, nor
        # because a request waited for the one worker past the default 10 s (a 503)
        [*command, "--workers", "1", "--budget", "60", "--queue-wait", "300", *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/levels", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                _, err = proc.communicate()
                pytest.fail(f"server did not start: {err.decode()[-2000:]}")
            time.sleep(0.1)
    return proc, url


@pytest.fixture(scope="module")
def _servers() -> Iterator[Callable[[tuple[str, ...]], str]]:
    """The servers of one module, one per set of options, each started when the module
    first asks for it and stopped at the module's end. Not shared across modules: a
    shared server still ran the long analyses a module's last tests had left behind
    (a page closed does not stop its request), and the next module's first request
    waited behind them past its test's timeout."""
    started: dict[tuple[str, ...], str] = {}
    procs: list[subprocess.Popen[bytes]] = []

    def get(extra: tuple[str, ...]) -> str:
        if extra not in started:
            proc, started[extra] = _start_server(list(extra))
            procs.append(proc)
        return started[extra]

    yield get
    for proc in procs:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest, _servers: Callable[[tuple[str, ...]], str]) -> str:
    """The URL of ``minesolver serve``; a module's ``SERVE_ARGS`` (a list) adds options
    (a longer budget for the screenshot readings). The module's tests share it (each
    opens its own page and games)."""
    return _servers(tuple(getattr(request.module, "SERVE_ARGS", [])))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium, started once and shared by every browser test of the run."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs it on CI", pytrace=False)
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop-sized page; the test fails if the page raised a JavaScript error."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    pg = context.new_page()
    # a wait ends as soon as its condition holds: the cap only says when a test has
    # failed, so it is far above any step's need on a machine whose cores are all busy
    pg.set_default_timeout(120_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
