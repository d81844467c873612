"""The suite's own layout: every test module can be collected beside every other.

The test folders have no ``__init__.py``, so pytest imports each test module under its
bare file name: two ``test_x.py`` in two folders collide ("import file mismatch") and the
whole run fails at collection. A plain run of one folder does not show it; this does.
(``conftest.py`` files are the exception: pytest loads each by its path.)
"""

from __future__ import annotations

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
