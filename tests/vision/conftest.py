"""The labelled screenshots' readings shared by this run's processes (see
``tests/vision_samples.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
import vision_samples


@pytest.fixture(scope="session", autouse=True)
def shared_readings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each labelled screenshot read once in this run, whichever process of pytest-xdist
    asks first: the readings are kept in the run's own temporary folder (the parent of
    a worker's, which every worker of the run shares; the session's own without
    xdist), never in one a later run would find."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "vision-readings"
    folder.mkdir(exist_ok=True)
    vision_samples.SHARED = folder
    yield
    vision_samples.SHARED = None
