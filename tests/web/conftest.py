"""Fixtures of the browser tests: ``minesolver serve`` in a subprocess and the page in
Debian's Chromium (through Playwright). Each browser test module gets its own server.

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
from collections.abc import Iterator
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


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    """``minesolver serve`` on a free port, until the module's tests are done; a module's
    ``SERVE_ARGS`` (a list) adds options (a longer budget for the screenshot readings)."""
    port = free_port()
    extra = list(getattr(request.module, "SERVE_ARGS", []))
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
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium, shared by the module's tests."""
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
