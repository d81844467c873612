"""The suite's own rules, which a run of one folder does not show.

The test folders have no ``__init__.py``, so pytest imports each test module under its
bare file name: two ``test_x.py`` in two folders collide ("import file mismatch") and the
whole run fails at collection. (``conftest.py`` files are the exception: pytest loads
each by its path.) And the whole run shares its workers' main threads with Playwright's
event loop, so no test may start an event loop there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_two_test_modules_share_a_file_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if "__pycache__" not in path.parts and path.name != "conftest.py":
            where[path.name].append(str(path.relative_to(TESTS)))
    clashes = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert clashes == {}


def test_no_test_runs_an_event_loop_on_the_main_thread() -> None:
    """The browser tests keep Playwright's event loop running in each worker's main
    thread, so a bare ``asyncio.run`` fails or passes by the tests a worker drew before
    it; ``webtest_helpers.run_coroutine`` runs the loop on a thread of its own."""
    bare = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if "__pycache__" not in path.parts
        and path.name != "webtest_helpers.py"
        and re.search(r"\basyncio\.run\(|run_until_complete\(", path.read_text())
    ]
    assert bare == []
